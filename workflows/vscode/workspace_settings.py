"""vscode.workspace_settings: set project-specific settings, not user settings.

`container` is where VS Code keeps them for this project: the folder's `.vscode/settings.json` (the project
folder is open) or the `settings` object of a `*.code-workspace` file (that workspace is open). With
`initial` = existing the container already holds other settings that must stay; with none there are none
yet (for a folder, not even the .vscode directory). `count` is how many settings to set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.vscode import kit as vsc

NAME = "vscode.workspace_settings"
GENERIC = (("files.trimTrailingWhitespace", True), ("files.insertFinalNewline", True), ("editor.formatOnSave", True),
           ("editor.wordWrap", "on"), ("files.autoSave", "onFocusChange"))
#: language -> project settings that make sense for it.
BY_LANGUAGE: dict[str, tuple[tuple[str, Any], ...]] = {
    "python": (("python.analysis.typeCheckingMode", "strict"), ("python.testing.pytestEnabled", True),
               ("editor.defaultFormatter", "ms-python.black-formatter"), ("editor.rulers", [88]),
               ("python.analysis.extraPaths", ["./src"]), ("python.envFile", "${workspaceFolder}/.env.local")),
    "typescript": (("typescript.tsdk", "node_modules/typescript/lib"),
                   ("editor.defaultFormatter", "esbenp.prettier-vscode"), ("editor.tabSize", 2),
                   ("typescript.preferences.importModuleSpecifier", "relative"), ("npm.packageManager", "pnpm")),
    "go": (("go.lintTool", "golangci-lint"), ("go.formatTool", "goimports"), ("go.testFlags", ["-v", "-race"]),
           ("editor.insertSpaces", False), ("go.buildTags", "integration")),
    "rust": (("rust-analyzer.check.command", "clippy"), ("rust-analyzer.cargo.features", "all"),
             ("editor.rulers", [100]), ("rust-analyzer.inlayHints.typeHints.enable", False)),
    "web": (("editor.defaultFormatter", "esbenp.prettier-vscode"), ("editor.tabSize", 2),
            ("html.format.wrapLineLength", 100), ("css.lint.duplicateProperties", "warning"),
            ("emmet.triggerExpansionOnTab", True)),
}
PHRASINGS = (
    "For this project only, set {settings} in {where}. Don't put them in your user settings.",
    "The project at {folder} needs its own VS Code configuration: set {settings} in {where}, leaving your user "
    "settings alone.",
    "Configure VS Code per project, not globally: in {where}, set {settings}. Keep any settings already there.",
    "Please give {folder} these settings of its own: {settings}. They belong in {where}.",
    "Using the Workspace tab of VS Code's settings editor (or by editing the file), set {settings} in {where}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "For the project in {folder} only, set {settings} in {where}.",
    "Could you give {folder} its own VS Code settings? Set {settings} in {where}, not in my user settings.",
    "I want to set {settings} for this project only; put that in {where}.",
    "Please set {settings} in {where}, leaving my user settings alone.",
    "Set {settings} for {folder} only, in {where}; my global settings stay as they are.",
)


def _text(settings: list[tuple[str, Any]]) -> str:
    parts = [f"`{k}` to {vsc.show(v)}" for k, v in settings]
    return " and ".join(parts)


class Params(TypedDict):
    container: Literal["folder", "code_workspace"]
    initial: Literal["none", "existing"]
    count: Literal[1, 2]


@dataclass(frozen=True)
class Target:
    path: str  # the file that holds the project's settings (.vscode/settings.json or the .code-workspace file)
    workspace: str  # the project folder, or the workspace file, that VS Code has open
    settings: list[tuple[str, Any]]  # the settings to set: key -> value
    existing: dict[str, Any]  # the settings already in that file, which must stay


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    pool = list({k: v for k, v in (*BY_LANGUAGE[ws.project["language"]], *GENERIC)}.items())
    rng.shuffle(pool)
    settings, rest = pool[:params["count"]], pool[params["count"]:]
    existing = dict(rest[:rng.randint(1, 3)]) if params["initial"] == "existing" else {}
    if params["container"] == "folder":
        ws = replace(ws, folder_settings=existing or None)
        path, workspace = ws.folder_settings_path, ws.folder
        where = f"the workspace settings of the project folder {ws.folder} (its .vscode/settings.json)"
    else:
        ws = replace(ws, code_workspace={"folders": [{"path": "."}], "settings": existing}, open_workspace_file=True)
        path = workspace = ws.workspace_file
        where = f"the \"settings\" of the workspace file {ws.workspace_file} (the workspace VS Code has open)"
    facts = {"settings": _text(settings), "where": where, "folder": ws.folder}
    return Goal(ws, facts, Target(path, workspace, settings, existing))


def rubric(target: Target) -> list[Check]:
    t = target
    base = {"path": t.path, "workspace": t.workspace}
    return [Check(f"setting_{i}", f"{k} is {vsc.show(v)} in {t.path}.", "vscode.setting_equals",
                  {**base, "key": k, "value": v}) for i, (k, v) in enumerate(t.settings, start=1)]


def solve(workspace: vsc.Workspace, target: Target) -> Attempts:
    ws, t = workspace, target
    settings = t.settings

    def put(path: str, pairs: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        return [vsc.set_setting(path, k, v) for k, v in pairs]

    in_workspace_file = t.path.endswith(".code-workspace")
    if in_workspace_file:
        wrong_place = Attempt("writes them to the folder's .vscode/settings.json instead of the workspace file",
                              put(ws.folder_settings_path, settings))
    else:
        wrong_place = Attempt("creates settings.json in the project root instead of in .vscode/",
                              put(f"{ws.folder}/settings.json", settings))
    misses = [Attempt("puts the settings in the user settings instead", put(vsc.USER_SETTINGS, settings)), wrong_place]
    if len(settings) > 1:
        misses.append(Attempt("sets only the first setting", put(t.path, settings[:1])))
    else:
        key, value = settings[0]
        misses.append(Attempt(f"sets {key} to a mistyped value", put(t.path, [(key, vsc.mistyped(value))])))
    if t.existing:
        fresh = dict(settings)
        ops = ([{"op": "json.set", "path": t.path, "key": ["settings"], "value": fresh}] if in_workspace_file
               else [vsc.replace_file(t.path, fresh)])
        misses.append(Attempt("replaces the existing workspace settings instead of adding to them", ops))
    return Attempts(Attempt("sets the settings in the project's own settings", put(t.path, settings)), misses)


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Set project-specific VS Code settings in the folder's .vscode/settings.json or a .code-workspace "
                "file, not in the user settings.",
    knobs={"container": ("folder", "code_workspace"), "initial": ("none", "existing"), "count": (1, 2)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
