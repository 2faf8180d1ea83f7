"""vscode.keybinding: add, remove or change a keyboard shortcut in the user's keybindings.json.

- add: bind a stated key to a command; add_when: the same, only in a stated `when` context;
- disable: remove a default shortcut (VS Code writes a rule whose command is `-<command>`);
- rebind: change a command's default shortcut to a new key (a new rule plus the removal of the old one,
  which is what "Change Keybinding" in the Keyboard Shortcuts editor writes).
`chord` makes the key a two-step chord ("ctrl+k u") instead of a single combination.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "project", "plan"), ("workspace", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    action, chord = values["params"]["action"], values["params"]["chord"]
    ws = vsc.base_workspace(values["project"], values["plan"], rng)
    t: dict[str, Any] = {"action": action}
    if action in ("add", "add_when"):
        (command, title, context), (neighbour, _, _) = rng.sample(COMMANDS, 2)
        key = _new_key(rng, chord)
        t |= {"key": key, "command": command, "when": context if action == "add_when" else None,
              "neighbour": neighbour}
        what = f"bind {key} to the command {command} ({title})"
        if action == "add_when":
            what += f", active only when {context} (set this as the keybinding's when clause)"
    else:
        (old, command, when), (n_key, neighbour, n_when) = rng.sample(DEFAULTS[chord if action == "disable" else
                                                                               rng.choice(["single", "chord"])], 2)
        t |= {"old": old, "command": command, "when": when, "neighbour": [n_key, neighbour, n_when]}
        if action == "disable":
            what = f"remove the default shortcut {old} of the command {command}, so that {old} no longer runs it"
        else:
            t["key"] = _new_key(rng, chord)
            what = (f"change the shortcut of the command {command} from {old} to {t['key']}, so that {old} "
                    f"no longer runs it")
    return {"workspace": ws, "facts": {"what": what}, "target": t}


@node("rubric", "rubric", ("workspace", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    ws: vsc.Workspace = values["workspace"]
    t = values["target"]
    checks = []
    if "key" in t:
        args = {"path": vsc.KEYBINDINGS, "key": t["key"], "command": t["command"]}
        if t["action"] == "add_when":
            args["when"] = t["when"]
        suffix = f" when {t['when']}" if t["action"] == "add_when" else ""
        checks.append(Check("bound", f"{t['key']} runs {t['command']}{suffix}.", "vscode.keybinding_exists", args))
    if "old" in t:
        checks.append(Check("removed", f"The default {t['old']} -> {t['command']} is removed by a '-' rule.",
                            "vscode.keybinding_exists",
                            {"path": vsc.KEYBINDINGS, "key": t["old"], "command": t["command"], "removed": True}))
    if ws.keybindings:
        checks.append(Check("kept", "The user's earlier custom shortcuts are still there.", "vscode.keybindings_kept",
                            {"path": vsc.KEYBINDINGS, "rules": ws.keybindings}))
    return {"rubric": checks}


def _append(*rules: dict[str, str]) -> list[dict[str, Any]]:
    return [{"op": "json.append", "path": vsc.KEYBINDINGS, "key": [], "value": r} for r in rules]


@node("solve", "solve", ("workspace", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    ws: vsc.Workspace = values["workspace"]
    t = values["target"]
    misses: list[tuple[str, list[dict[str, Any]]]]
    if t["action"] in ("add", "add_when"):
        oracle = _append(rule(t["key"], t["command"], t["when"]))
        misses = [(f"presses {mistype(t['key'])} instead of {t['key']}",
                   _append(rule(mistype(t["key"]), t["command"], t["when"]))),
                  (f"binds the key to {t['neighbour']} instead", _append(rule(t["key"], t["neighbour"], t["when"])))]
        if t["action"] == "add_when":
            misses.append(("binds the key without the when clause", _append(rule(t["key"], t["command"]))))
        if " " in t["key"]:
            misses.append(("binds only the second part of the chord",
                           _append(rule(t["key"].split(" ")[1], t["command"], t["when"]))))
    else:
        removal = rule(t["old"], "-" + t["command"], t["when"])
        n_key, neighbour, n_when = t["neighbour"]
        if t["action"] == "disable":
            oracle = _append(removal)
            misses = [(f"removes the shortcut of {neighbour} instead", _append(rule(n_key, "-" + neighbour, n_when))),
                      ("adds the shortcut again instead of removing it",
                       _append(rule(t["old"], t["command"], t["when"])))]
        else:
            new = rule(t["key"], t["command"], t["when"])
            oracle = _append(new, removal)
            misses = [("adds the new shortcut but keeps the old one", _append(new)),
                      ("removes the old shortcut and presses the wrong keys for the new one",
                       _append(rule(mistype(t["key"]), t["command"], t["when"]), removal)),
                      (f"binds the new key to {neighbour} instead",
                       _append(rule(t["key"], neighbour, n_when), removal))]
    if ws.keybindings:
        rules = [op["value"] for op in oracle]
        misses.append(("overwrites keybindings.json with only the new rules, losing the earlier shortcuts",
                       [vsc.replace_file(vsc.KEYBINDINGS, rules)]))
    solutions = [Solution("oracle", "adds exactly the asked rules to keybindings.json", oracle)]
    solutions += [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(vsc.APP,),
    description="Add a keyboard shortcut (optionally with a when clause), remove a default one, or change one.",
    knobs={"action": ("add", "add_when", "disable", "rebind"), "chord": ("single", "chord")},
    nodes=(*vsc.source_nodes(), goal, vsc.prepare, vsc.instruction(NAME, PHRASINGS), rubric, solve),
)
