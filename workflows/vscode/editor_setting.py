"""vscode.editor_setting: set one user setting (font size, tab size, word wrap, auto save, theme, ...).

`initial` decides whether the key is absent from the user's settings.json (VS Code's default applies) or
present with another value. Targets never equal the default, so the key must end up written; the rest of
the user's settings must survive.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.vscode import kit as vsc


@dataclass(frozen=True)
class Setting:
    key: str
    label: str  # as the Settings editor shows it
    default: Any
    targets: tuple[Any, ...]  # values a task may ask for (never the default)
    confusable: str | None = None  # a real neighbouring setting an agent might change instead
    unordered: bool = False  # list values whose order does not matter
    also: tuple[tuple[str, Any], ...] = ()  # companion keys the value only takes effect with, set and checked too


SETTINGS: dict[str, Setting] = {
    "font_size": Setting("editor.fontSize", "Editor: Font Size", 14, (12, 13, 15, 16, 17, 18, 20),
                         "terminal.integrated.fontSize"),
    "tab_size": Setting("editor.tabSize", "Editor: Tab Size", 4, (2, 3, 8), "editor.indentSize"),
    "word_wrap": Setting("editor.wordWrap", "Editor: Word Wrap", "off", ("on", "wordWrapColumn", "bounded"),
                         "diffEditor.wordWrap"),
    "auto_save": Setting("files.autoSave", "Files: Auto Save", "off",
                         ("afterDelay", "onFocusChange", "onWindowChange")),
    "color_theme": Setting("workbench.colorTheme", "Workbench: Color Theme", "Default Dark Modern",
                           ("Default Light Modern", "Solarized Dark", "Solarized Light", "Monokai", "Abyss",
                            "Quiet Light", "Kimbie Dark", "Tomorrow Night Blue"), "workbench.preferredDarkColorTheme"),
    "format_on_save": Setting("editor.formatOnSave", "Editor: Format On Save", False, (True,), "editor.formatOnPaste"),
    "rulers": Setting("editor.rulers", "Editor: Rulers", [], ([80], [100], [80, 120], [72, 100], [88]),
                      unordered=True),
    "minimap": Setting("editor.minimap.enabled", "Editor > Minimap: Enabled", True, (False,),
                       "editor.minimap.autohide"),
    "line_numbers": Setting("editor.lineNumbers", "Editor: Line Numbers", "on", ("off", "relative", "interval")),
    "render_whitespace": Setting("editor.renderWhitespace", "Editor: Render Whitespace", "selection",
                                 ("none", "boundary", "trailing", "all")),
    "cursor_style": Setting("editor.cursorStyle", "Editor: Cursor Style", "line",
                            ("block", "underline", "line-thin", "block-outline", "underline-thin"),
                            "terminal.integrated.cursorStyle"),
    "font_family": Setting("editor.fontFamily", "Editor: Font Family", "'Droid Sans Mono', 'monospace', monospace",
                           ("'Fira Code', monospace", "'JetBrains Mono', monospace", "'Source Code Pro', monospace",
                            "Consolas, 'Courier New', monospace", "'Cascadia Code', monospace"),
                           "terminal.integrated.fontFamily"),
    "insert_spaces": Setting("editor.insertSpaces", "Editor: Insert Spaces", True, (False,),
                             "editor.detectIndentation"),
    "trim_whitespace": Setting("files.trimTrailingWhitespace", "Files: Trim Trailing Whitespace", False, (True,),
                               "files.trimFinalNewlines"),
    "final_newline": Setting("files.insertFinalNewline", "Files: Insert Final Newline", False, (True,),
                             "files.trimFinalNewlines"),
    "terminal_font_size": Setting("terminal.integrated.fontSize", "Terminal > Integrated: Font Size", 14,
                                  (11, 12, 13, 15, 16), "editor.fontSize"),
    # the column only applies while editor.wordWrap is "wordWrapColumn" (or "bounded"), so the two go together
    "wrap_column": Setting("editor.wordWrapColumn", "Editor: Word Wrap Column", 80, (50, 72, 100, 120),
                           also=(("editor.wordWrap", "wordWrapColumn"),)),
    # the delay only applies while files.autoSave is "afterDelay"
    "auto_save_delay": Setting("files.autoSaveDelay", "Files: Auto Save Delay", 1000, (500, 2000, 3000, 5000),
                               also=(("files.autoSave", "afterDelay"),)),
    "wrap_tabs": Setting("workbench.editor.wrapTabs", "Workbench > Editor: Wrap Tabs", False, (True,),
                         "workbench.editor.pinnedTabsOnSeparateRow"),
    "debug_focus_editor": Setting("debug.focusEditorOnBreak", "Debug: Focus Editor On Break", True, (False,),
                                  "debug.focusWindowOnBreak"),
    "debug_console": Setting("debug.internalConsoleOptions", "Debug: Internal Console Options",
                             "openOnFirstSessionStart", ("neverOpen", "openOnSessionStart"), "debug.openDebug"),
}
NAME = "vscode.editor_setting"
PHRASINGS = (
    "In VS Code, set {label} (`{key}`) to {value} in your user settings.",
    "Open VS Code's Settings (User tab) and change `{key}` ({label}) to {value}. Keep all your other settings.",
    "Update my VS Code user settings so that \"{key}\": {value}. Don't remove any of the existing settings.",
    "I want {label} to be {value} in every project I open in VS Code: set the user setting `{key}` accordingly.",
    "Using the VS Code settings editor, make `{key}` equal {value} at the user level (not just for this "
    "workspace).",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please set {key} to {value} in my VS Code user settings.",
    "Could you change {key} to {value} in VS Code, for all my projects?",
    "My VS Code should use {value} for {key}. Set it in my user settings and keep the rest.",
    "In VS Code, {key} needs to be {value} globally, not just for one workspace.",
    "I'd like VS Code's {key} set to {value} everywhere I work; leave my other settings alone.",
)


def wrong_value(spec: Setting, value: Any) -> Any:
    """A plausible wrong value: a neighbouring option for text settings, else a slip (see `vsc.mistyped`)."""
    if isinstance(value, str):
        return next(v for v in (*spec.targets, spec.default) if v != value)
    return vsc.mistyped(value)


class Params(TypedDict):
    setting: Literal["font_size", "tab_size", "word_wrap", "auto_save", "color_theme", "format_on_save", "rulers",
                     "minimap", "line_numbers", "render_whitespace", "cursor_style", "font_family", "insert_spaces",
                     "trim_whitespace", "final_newline", "terminal_font_size", "wrap_column", "auto_save_delay",
                     "wrap_tabs", "debug_focus_editor", "debug_console"]
    initial: Literal["absent", "present"]


@dataclass(frozen=True)
class Target:
    value: Any  # the asked value of the setting


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    spec = SETTINGS[params["setting"]]
    value = rng.choice(spec.targets)
    avoid = (spec.key,) + ((spec.confusable,) if spec.confusable else ()) + tuple(k for k, _ in spec.also)
    ws = vsc.base_workspace(project, plan, rng, avoid)
    if params["initial"] == "present":
        ws = ws.with_user(spec.key, rng.choice([v for v in (spec.default, *spec.targets) if v != value]))
    shown = vsc.show(value) + "".join(f" (with `{k}` set to {vsc.show(v)})" for k, v in spec.also)
    facts = {"label": spec.label, "key": spec.key, "value": shown}
    return Goal(ws, facts, Target(value))


def rubric(params: Params, target: Target) -> list[Check]:
    spec = SETTINGS[params["setting"]]
    args: dict[str, Any] = {"path": vsc.USER_SETTINGS, "key": spec.key, "value": target.value}
    if spec.unordered:
        args["unordered"] = True
    return [Check("setting", f"The user setting {spec.key} is {vsc.show(target.value)}.", "vscode.setting_equals",
                  args)] + [
        Check(f"setting-{i}", f"The user setting {k} is {vsc.show(v)}, so that {spec.key} takes effect.",
              "vscode.setting_equals", {"path": vsc.USER_SETTINGS, "key": k, "value": v})
        for i, (k, v) in enumerate(spec.also, start=2)]


def solve(params: Params, workspace: vsc.Workspace, target: Target) -> Attempts:
    spec = SETTINGS[params["setting"]]
    value = target.value
    bad = wrong_value(spec, value)
    also = [vsc.set_setting(vsc.USER_SETTINGS, k, v) for k, v in spec.also]
    misses = [
        Attempt(f"sets {spec.key} to {vsc.show(bad)} instead",
                [vsc.set_setting(vsc.USER_SETTINGS, spec.key, bad), *also]),
        Attempt("sets it in the workspace settings (.vscode/settings.json) instead of the user's",
                [vsc.set_setting(workspace.folder_settings_path, spec.key, value),
                 *(vsc.set_setting(workspace.folder_settings_path, k, v) for k, v in spec.also)]),
        Attempt("overwrites settings.json with just the new setting, losing the others",
                [vsc.replace_file(vsc.USER_SETTINGS, {spec.key: value, **dict(spec.also)})]),
    ]
    if spec.also:
        keys = " and ".join(k for k, _ in spec.also)
        misses.append(Attempt(f"sets {spec.key} but leaves {keys} as it was, so the value has no effect",
                              [vsc.set_setting(vsc.USER_SETTINGS, spec.key, value)]))
    if spec.confusable:
        misses.append(Attempt(f"changes the neighbouring setting {spec.confusable} instead",
                              [vsc.set_setting(vsc.USER_SETTINGS, spec.confusable, value)]))
    return Attempts(Attempt(f"sets {spec.key} to {vsc.show(value)} in the user settings",
                            [vsc.set_setting(vsc.USER_SETTINGS, spec.key, value), *also]), misses)


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Set one VS Code user setting (editor, files or terminal) to a stated value, keeping the others.",
    knobs={"setting": tuple(SETTINGS), "initial": ("absent", "present")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
