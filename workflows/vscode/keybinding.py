"""vscode.keybinding: add, remove or change a keyboard shortcut in the user's keybindings.json.

- add: bind a stated key to a command; add_when: the same, only in a stated `when` context;
- disable: remove a default shortcut (VS Code writes a rule whose command is `-<command>`);
- rebind: change a command's default shortcut to a new key (a new rule plus the removal of the old one,
  which is what "Change Keybinding" in the Keyboard Shortcuts editor writes).
`chord` makes the key a two-step chord ("ctrl+k u") instead of a single combination.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.vscode import kit as vsc

NAME = "vscode.keybinding"
#: commands people bind themselves: (command, title, a context it makes sense in)
COMMANDS = (
    ("editor.action.sortLinesAscending", "Sort Lines Ascending", "editorTextFocus && !editorReadonly"),
    ("editor.action.sortLinesDescending", "Sort Lines Descending", "editorTextFocus && !editorReadonly"),
    ("editor.action.transformToUppercase", "Transform to Uppercase", "editorTextFocus && !editorReadonly"),
    ("editor.action.transformToLowercase", "Transform to Lowercase", "editorTextFocus && !editorReadonly"),
    ("editor.action.transformToTitlecase", "Transform to Title Case", "editorTextFocus && !editorReadonly"),
    ("editor.action.joinLines", "Join Lines", "editorTextFocus && !editorReadonly"),
    ("editor.action.duplicateSelection", "Duplicate Selection", "editorTextFocus"),
    ("workbench.action.terminal.clear", "Terminal: Clear", "terminalFocus"),
    ("workbench.files.action.collapseExplorerFolders", "Collapse Folders in Explorer", "explorerViewletVisible"),
    ("markdown.showPreviewToSide", "Markdown: Open Preview to the Side", "editorLangId == markdown"),
    ("python.execInTerminal", "Python: Run Python File in Terminal", "editorLangId == python"),
    ("workbench.action.toggleMaximizedPanel", "View: Toggle Maximized Panel", "panelFocus"),
)
SINGLE_KEYS = ("ctrl+alt+u", "ctrl+alt+l", "ctrl+shift+alt+s", "alt+shift+u", "ctrl+alt+j", "ctrl+alt+n",
               "ctrl+shift+alt+m", "ctrl+alt+p")
CHORD_KEYS = ("ctrl+k u", "ctrl+k ctrl+l", "ctrl+alt+k t", "ctrl+k alt+s", "ctrl+m ctrl+d", "ctrl+k shift+j")
#: default Linux shortcuts: (key, command, when)
DEFAULTS = {
    "single": (("ctrl+shift+k", "editor.action.deleteLines", "textInputFocus && !editorReadonly"),
               ("ctrl+d", "editor.action.addSelectionToNextFindMatch", "editorFocus"),
               ("ctrl+shift+d", "workbench.view.debug", "viewContainer.workbench.view.debug.enabled"),
               ("ctrl+b", "workbench.action.toggleSidebarVisibility", None),
               ("ctrl+j", "workbench.action.togglePanel", None),
               ("f12", "editor.action.revealDefinition", "editorHasDefinitionProvider && editorTextFocus"),
               ("ctrl+shift+e", "workbench.view.explorer", "viewContainer.workbench.view.explorer.enabled")),
    "chord": (("ctrl+k ctrl+c", "editor.action.addCommentLine", "editorTextFocus && !editorReadonly"),
              ("ctrl+k ctrl+u", "editor.action.removeCommentLine", "editorTextFocus && !editorReadonly"),
              ("ctrl+k ctrl+x", "editor.action.trimTrailingWhitespace", "editorTextFocus && !editorReadonly"),
              ("ctrl+k ctrl+0", "editor.foldAll", "editorTextFocus && foldingEnabled"),
              ("ctrl+k ctrl+j", "editor.unfoldAll", "editorTextFocus && foldingEnabled"),
              ("ctrl+k ctrl+s", "workbench.action.openGlobalKeybindings", None),
              ("ctrl+k ctrl+w", "workbench.action.closeAllEditors", None)),
}
PHRASINGS = (
    "In VS Code, {what}. Use your user keybindings (Keyboard Shortcuts editor or keybindings.json).",
    "Customize VS Code's keyboard shortcuts: {what}. Keep the other custom shortcuts.",
    "Please update my VS Code keybindings so that I can work faster: {what}.",
    "Open File > Preferences > Keyboard Shortcuts in VS Code and {what}.",
    "Edit the user keybindings of VS Code: {what}. Don't change any other shortcut.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In VS Code, please {what}.",
    "Could you {what.bare} in my VS Code keyboard shortcuts?",
    "I want a faster way to work in VS Code: {what}.",
    "Please {what}. Keep my other VS Code shortcuts as they are.",
    "My VS Code shortcuts need a change: {what.bare}.",
)


def rule(key: str, command: str, when: str | None = None) -> dict[str, str]:
    """A keybindings.json rule as VS Code writes it (key, command, when)."""
    return {"key": key, "command": command} | ({"when": when} if when else {})


def mistype(key: str) -> str:
    """The key with the modifiers of its last chord slipped: alt <-> shift, or an extra alt."""
    *head, last = key.split(" ")
    parts = last.split("+")
    mods, name = parts[:-1], parts[-1]
    if "alt" in mods and "shift" not in mods:
        mods = ["shift" if m == "alt" else m for m in mods]
    elif "shift" in mods and "alt" not in mods:
        mods = ["alt" if m == "shift" else m for m in mods]
    else:
        mods = [m for m in mods if m != "alt"] if "alt" in mods else [*mods, "alt"]
    return " ".join([*head, "+".join([*mods, name])])


def _new_key(rng: random.Random, chord: str) -> str:
    return rng.choice(CHORD_KEYS if chord == "chord" else SINGLE_KEYS)


class Params(TypedDict):
    action: Literal["add", "add_when", "disable", "rebind"]
    chord: Literal["single", "chord"]


@dataclass(frozen=True)
class Target:
    action: str  # the knob
    command: str  # the command to bind, unbind or rebind
    when: str | None  # the rule's when clause (add_when; a default shortcut's own context)
    neighbour: str  # another command an agent might pick instead
    key: str | None = None  # add, add_when, rebind: the key to bind
    old: str | None = None  # disable, rebind: the default key to remove
    neighbour_key: str | None = None  # disable, rebind: the neighbouring command's default key ...
    neighbour_when: str | None = None  # ... and its when clause


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    action, chord = params["action"], params["chord"]
    ws = vsc.base_workspace(project, plan, rng)
    if action in ("add", "add_when"):
        (command, title, context), (neighbour, _, _) = rng.sample(COMMANDS, 2)
        key = _new_key(rng, chord)
        target = Target(action, command, context if action == "add_when" else None, neighbour, key=key)
        what = f"bind {key} to the command {command} ({title})"
        if action == "add_when":
            what += f", active only when {context} (set this as the keybinding's when clause)"
    else:
        (old, command, when), (n_key, neighbour, n_when) = rng.sample(DEFAULTS[chord if action == "disable" else
                                                                               rng.choice(["single", "chord"])], 2)
        if action == "disable":
            target = Target(action, command, when, neighbour, old=old, neighbour_key=n_key, neighbour_when=n_when)
            what = f"remove the default shortcut {old} of the command {command}, so that {old} no longer runs it"
        else:
            key = _new_key(rng, chord)
            target = Target(action, command, when, neighbour, key=key, old=old, neighbour_key=n_key,
                            neighbour_when=n_when)
            what = (f"change the shortcut of the command {command} from {old} to {key}, so that {old} "
                    f"no longer runs it")
    return Goal(ws, {"what": what}, target)


def rubric(workspace: vsc.Workspace, target: Target) -> list[Check]:
    t = target
    checks = []
    if t.key is not None:
        args = {"path": vsc.KEYBINDINGS, "key": t.key, "command": t.command}
        if t.action == "add_when":
            args["when"] = str(t.when)
        elif t.when:
            args["default_when"] = str(t.when)
        suffix = f" when {t.when}" if t.action == "add_when" else ""
        checks.append(Check("bound", f"{t.key} runs {t.command}{suffix}.", "vscode.keybinding_exists", args))
    if t.old is not None:
        checks.append(Check("removed", f"The default {t.old} -> {t.command} is removed by a '-' rule.",
                            "vscode.keybinding_exists",
                            {"path": vsc.KEYBINDINGS, "key": t.old, "command": t.command, "removed": True,
                             "default_when": t.when}))
    return checks


def _append(*rules: dict[str, str]) -> list[dict[str, Any]]:
    return [{"op": "json.append", "path": vsc.KEYBINDINGS, "key": [], "value": r} for r in rules]


def solve(workspace: vsc.Workspace, target: Target) -> Attempts:
    t = target
    misses: list[Attempt]
    if t.action in ("add", "add_when"):
        key = str(t.key)
        oracle = _append(rule(key, t.command, t.when))
        misses = [Attempt(f"presses {mistype(key)} instead of {key}", _append(rule(mistype(key), t.command, t.when))),
                  Attempt(f"binds the key to {t.neighbour} instead", _append(rule(key, t.neighbour, t.when)))]
        if t.action == "add_when":
            misses.append(Attempt("binds the key without the when clause", _append(rule(key, t.command))))
        if " " in key:
            misses.append(Attempt("binds only the second part of the chord",
                                  _append(rule(key.split(" ")[1], t.command, t.when))))
    else:
        old, neighbour = str(t.old), t.neighbour
        removal = rule(old, "-" + t.command, t.when)
        if t.action == "disable":
            oracle = _append(removal)
            misses = [Attempt(f"removes the shortcut of {neighbour} instead",
                              _append(rule(str(t.neighbour_key), "-" + neighbour, t.neighbour_when))),
                      Attempt("adds the shortcut again instead of removing it", _append(rule(old, t.command, t.when)))]
        else:
            key = str(t.key)
            new = rule(key, t.command, t.when)
            oracle = _append(new, removal)
            misses = [Attempt("adds the new shortcut but keeps the old one", _append(new)),
                      Attempt("removes the old shortcut and presses the wrong keys for the new one",
                              _append(rule(mistype(key), t.command, t.when), removal)),
                      Attempt(f"binds the new key to {neighbour} instead",
                              _append(rule(key, neighbour, t.neighbour_when), removal))]
    if workspace.keybindings:
        rules = [op["value"] for op in oracle]
        misses.append(Attempt("overwrites keybindings.json with only the new rules, losing the earlier shortcuts",
                              [vsc.replace_file(vsc.KEYBINDINGS, rules)]))
    return Attempts(Attempt("adds exactly the asked rules to keybindings.json", oracle), misses)


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Add a keyboard shortcut (optionally with a when clause), remove a default one, or change one.",
    knobs={"action": ("add", "add_when", "disable", "rebind"), "chord": ("single", "chord")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
