"""multi.config_vscode: set a VS Code setting (user or workspace) to the value a project's `.editorconfig` or
CONTRIBUTING.md states as its general rule (files -> VS Code).

The instruction names the setting and where the rule is written, never the value. Each source also states an
exception (a section or sentence for YAML, Markdown, batch files...) with another value: the plausible wrong pick.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.multi import kit as mc
from workflows.vscode import kit as vsc

NAME = "multi.config_vscode"


@dataclass(frozen=True)
class Rule:
    key: str  # the VS Code setting
    editorconfig: str  # the .editorconfig property
    values: tuple[tuple[str, Any], ...]  # (value as written in the file, the setting's value)
    exception: tuple[str, str]  # (section for the exception, prose naming those files)
    prose: str  # the CONTRIBUTING.md sentence, with {v}


RULES: dict[str, Rule] = {
    "tab_size": Rule("editor.tabSize", "indent_size", (("2", 2), ("3", 3), ("8", 8)),
                     ("*.{yml,yaml}", "YAML files"), "Indent code with {v} spaces per level."),
    "rulers": Rule("editor.rulers", "max_line_length", (("80", [80]), ("88", [88]), ("100", [100]), ("120", [120])),
                   ("*.md", "Markdown files"), "Keep lines at most {v} characters long."),
    "trim_whitespace": Rule("files.trimTrailingWhitespace", "trim_trailing_whitespace",
                            (("true", True), ("false", False)),
                            ("*.md", "Markdown files"), "Trailing whitespace {v}."),
    "eol": Rule("files.eol", "end_of_line", (("lf", "\n"), ("crlf", "\r\n")), ("*.bat", "Windows batch files"),
                "Use {v} line endings."),
}
PROSE = {"true": "must be removed on save", "false": "is kept as typed", "lf": "Unix (LF)", "crlf": "Windows (CRLF)"}
SCOPES = {"user": "in your user settings", "workspace": "in the workspace settings of the project "
                                                         "(.vscode/settings.json inside {folder})"}
SOURCES = {"editorconfig": "the general rule of {file} (its [*] section, which covers all files)",
           "contributing": "the general rule in the Code style section of {file}"}
#: Difficulty axes (issue 15), honoured by the VS Code kit's sample node: how deep the project sits, and how many
#: settings the user already has (all of which must stay).
AXES = {"location": LOCATION, "settings": ("4-8", "9-12", "13-16")}
PHRASINGS = (
    "Set the VS Code setting {key} {scope} to match {source}. Leave the other settings as they are.",
    "The project in {folder} documents its conventions in {file}. Configure {key} {scope} so that VS Code follows "
    "{source}; don't change other settings.",
    "Please read {file} and set {key} {scope} accordingly, following {source}. Other settings stay unchanged.",
    "Open {folder} in VS Code and make the editor follow {source}: set {key} {scope}. Keep every other setting.",
    "Using a text editor or VS Code's settings, give {key} the value {source} calls for, {scope}. Do not touch any "
    "other setting.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please set {key} {scope.mine} to match {source}.",
    "Make VS Code follow {source}: set {key} {scope.mine}.",
    "Could you configure {key} {scope.mine} so that VS Code follows {source}?",
    "I want my editor to respect {source}. Set {key} {scope.mine} accordingly.",
    "Set {key} {scope.mine} to whatever {source} asks for; leave my other settings alone.",
)


def _editorconfig(rule: Rule, main: str, other: str) -> str:
    lines = ["root = true", "", "[*]", "charset = utf-8", "indent_style = space"]
    general = {"indent_size": "4", "end_of_line": "lf", "insert_final_newline": "true",
               "trim_trailing_whitespace": "true", rule.editorconfig: main}
    lines += [f"{k} = {v}" for k, v in general.items()]
    section, _ = rule.exception
    lines += ["", f"[{section}]", f"{rule.editorconfig} = {other}", "", "[Makefile]", "indent_style = tab"]
    return "\n".join(lines) + "\n"


def _contributing(rule: Rule, main: str, other: str, project: str) -> str:
    said = {k: PROSE.get(v, v) for k, v in (("main", main), ("other", other))}
    exception = rule.exception[1]
    return (f"# Contributing to {project}\n\nThanks for helping out. Please open an issue before large changes.\n\n"
            f"## Code style\n\n{rule.prose.format(v=said['main'])}\n"
            f"Exception: for {exception}, {rule.prose.format(v=said['other'])[0].lower()}"
            f"{rule.prose.format(v=said['other'])[1:]}\n\n"
            "## Pull requests\n\nKeep each pull request focused on one change and describe how you tested it.\n")


def _slip(value: Any) -> Any:
    slipped = vsc.mistyped(value)
    return slipped if slipped != value else "auto"


class Params(TypedDict):
    source: Literal["editorconfig", "contributing"]
    setting: Literal["tab_size", "rulers", "trim_whitespace", "eol"]
    scope: Literal["user", "workspace"]


@dataclass(frozen=True)
class Target:
    settings: str  # the settings.json the value goes into (user or the project's workspace file)
    key: str
    value: Any  # the general rule's value
    other: Any  # the exception's value: the plausible wrong pick


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    rule = RULES[params["setting"]]
    ws = vsc.base_workspace(content["project"], plan["project"], rng, avoid=(rule.key,))
    (main, value), (other, other_value) = rng.sample(rule.values, 2)
    if params["setting"] == "trim_whitespace":  # the general rule must differ from VS Code's default (off)
        (main, value), (other, other_value) = rule.values
    if params["source"] == "editorconfig":
        spec = FileSpec(f"{ws.folder}/.editorconfig", "text", _editorconfig(rule, main, other))
    else:
        spec = FileSpec(f"{ws.folder}/CONTRIBUTING.md", "text",
                        _contributing(rule, main, other, content["project"]["project"]))
    settings = ws.folder_settings_path if params["scope"] == "workspace" else vsc.USER_SETTINGS
    facts = {"key": rule.key, "folder": ws.folder, "file": spec.path,
             "scope": SCOPES[params["scope"]].format(folder=ws.folder),
             "source": SOURCES[params["source"]].format(file=spec.path)}
    target = Target(settings, rule.key, value, other_value)
    return Goal(mc.Setup((("vscode", ws), ("tree", [spec]))), facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check("setting", f"{t.key} in {t.settings} holds the value the project's rule states.",
                  "multi.setting_value", {"path": t.settings, "key": t.key, "value": t.value})]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    if params["scope"] == "user":
        scope_slip = Attempt("overwrites settings.json with only this one setting",
                             [vsc.replace_file(t.settings, {t.key: t.value})])
    else:
        scope_slip = Attempt("sets it in the user settings instead of the workspace",
                             [vsc.set_setting(vsc.USER_SETTINGS, t.key, t.value)])
    return Attempts(
        Attempt("set the setting to the general rule's value", [vsc.set_setting(t.settings, t.key, t.value)]),
        [Attempt("takes the value of the exception instead of the general rule",
                 [vsc.set_setting(t.settings, t.key, t.other)]),
         Attempt("types a slightly wrong value", [vsc.set_setting(t.settings, t.key, _slip(t.value))]),
         scope_slip],
    )


WORKFLOW = family(
    NAME, mc.app_kit((mc.OS, mc.VSCODE), project=mc.passing(*AXES)),
    description="Set a VS Code user or workspace setting to the value a project's .editorconfig or "
                "CONTRIBUTING.md gives as its general rule.",
    knobs={"source": ("editorconfig", "contributing"), "setting": tuple(RULES), "scope": ("user", "workspace")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
