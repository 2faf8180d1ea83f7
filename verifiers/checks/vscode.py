"""vscode primitives: settings (user `settings.json`, a folder's `.vscode/settings.json`, the `settings` object
of a `*.code-workspace` file) and user keybindings (`keybindings.json`).

Written to accept what VS Code saves: both files are JSONC (comments and trailing commas allowed, kept by
VS Code's editor), settings values compare by JSON meaning, and keys compare by keystroke rather than by
spelling (`shift+ctrl+K` = `ctrl+shift+k`; chords are space-separated). The settings file path is not
grounded (the user edits it through VS Code's UI); a workspace folder or workspace file is, via `workspace`.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.json_doc import same_value, show
from verifiers.frame.config import SELF_WRITTEN, vscode_form
from verifiers.grounding import kept_rules, kept_settings
from verifiers.meaning import Meaning, Said, Visible, when
from verifiers.readers import StateError
from verifiers.readers.json import load, vscode_settings

MODIFIERS = {"ctrl": "ctrl", "control": "ctrl", "shift": "shift", "alt": "alt", "option": "alt", "meta": "meta",
             "cmd": "meta", "win": "meta", "super": "meta"}


@primitive("vscode.setting_equals", grounded=("key", "value", "entry", "workspace"),
           meaning=Meaning(action=r"setting|set|make|change|\w+\.\w+"))
def setting_equals(state: State, path: str, key: str, value: Any, entry: str | None = None,
                   workspace: str | None = None, unordered: bool = False) -> Result:
    """Setting `key` (or member `entry` of the object setting `key`) equals `value` in the settings file `path`, in
    any of the setting's documented forms (`editor.rulers: [{"column": 88}]` is `[88]`)."""
    settings = vscode_settings(state, path, workspace)
    label = f"{key}[{entry!r}]" if entry is not None else key
    if key not in settings:
        return fail(f"{path}: {key} is not set (settings: {', '.join(list(settings)[:10]) or 'none'})")
    actual = settings[key]
    if entry is not None:
        if not isinstance(actual, dict) or entry not in actual:
            return fail(f"{path}: {key} has no entry {entry!r} ({show(actual)})")
        actual = actual[entry]
    name = entry if entry is not None else key
    if not same_value(vscode_form(name, actual, colour_free=True), vscode_form(name, value, colour_free=True),
                      unordered=unordered):
        return fail(f"{path}: {label} = {show(actual)}, expected {show(value)}")
    return ok(f"{path}: {label} = {show(actual)}")


def _kept(actual: Any, expected: Any, key: str = "") -> bool:
    """Objects keep every expected member (new members are fine); other values are equal (in any documented form)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _kept(actual[k], v, k) for k, v in expected.items())
    return same_value(vscode_form(key, actual), vscode_form(key, expected))




@primitive("vscode.settings_kept", grounded=("settings",),
           meaning=Meaning(action=None, why="guards the settings a task leaves alone",
                           args={"settings": Visible(kept_settings)}))
def settings_kept(state: State, path: str, settings: dict[str, Any], workspace: str | None = None,
                  allowed: list[str] | None = None) -> Result:
    """Every setting in `settings` still holds its value in `path` (objects may have gained members). With
    `allowed` (the keys the task sets), no other setting was added either, besides the `SELF_WRITTEN` ones."""
    current = vscode_settings(state, path, workspace)
    lost = [k for k, v in settings.items() if k not in current or not _kept(current[k], v, k)]
    if lost:
        return fail(f"{path}: {len(lost)} of {len(settings)} settings that should stay were changed or removed: "
                    + ", ".join(f"{k} (now {show(current[k]) if k in current else 'unset'})" for k in lost[:5]))
    added = [k for k in current if allowed is not None and k not in settings and k not in allowed
             and not k.startswith(SELF_WRITTEN)]
    if added:
        return fail(f"{path}: {len(added)} settings were added that the task does not ask for: "
                    + ", ".join(f"{k} = {show(current[k])}" for k in added[:5]))
    return ok(f"{path}: all {len(settings)} other settings are unchanged")


def keystroke(key: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """A key as comparable chords: `"ctrl+k ctrl+shift+T"` -> ((("ctrl",), "k"), (("ctrl", "shift"), "t"))."""
    chords = []
    for chord in str(key).lower().split():
        parts = chord.split("+")
        if chord.endswith("++"):  # the "+" key itself
            parts = [*chord[:-2].split("+"), "+"] if chord != "++" else ["+"]
        mods = tuple(sorted({MODIFIERS.get(p, p) for p in parts[:-1] if p}))
        chords.append((mods, parts[-1]))
    return tuple(chords)


def _when(text: Any) -> str:
    return " ".join(str(text or "").split())


@primitive("vscode.keybinding_exists", grounded=("key", "command", "when", "removed"),
           meaning=Meaning(action=r"shortcut|keybinding|bind|key", args={"removed": Said("unbind", when("removed"))}))
def keybinding_exists(state: State, path: str, key: str, command: str, when: str | None = None,
                      removed: bool = False, default_when: str | None = None) -> Result:
    """keybindings.json has a rule binding `key` to `command` (with `removed`, the rule "-command" that removes
    that default shortcut), with the context `when` if given.

    Effects, not configuration: without a stated `when` the rule must hold wherever the user presses the key, so
    a rule narrowed by a `when` clause fails, unless its clause is `default_when`, the context of the default
    shortcut the task changes (what VS Code's own keybinding editor writes; a removal with that clause removes
    exactly that default, one with another clause removes nothing)."""
    data = load(state, path)
    if data is None:
        data = []
    if not isinstance(data, list):
        raise StateError(f"{path}: keybindings must be a JSON array, found {type(data).__name__}")
    rules = [r for r in data if isinstance(r, dict)]
    wanted = ("-" if removed else "") + command
    what = f"{key} -> {wanted}"
    same = [r for r in rules if str(r.get("command", "")).strip() == wanted
            and keystroke(str(r.get("key", ""))) == keystroke(key)]
    if not same:
        found = [f"{r.get('key')} -> {r.get('command')}" for r in rules]
        return fail(f"{path}: no rule {what} (rules: {', '.join(found[:8]) or 'none'})")
    if when is not None:
        same = [r for r in same if _when(r.get("when")) == _when(when)]
        if not same:
            found = [str(r.get("when")) for r in rules if str(r.get("command", "")).strip() == wanted
                     and keystroke(str(r.get("key", ""))) == keystroke(key)]
            return fail(f"{path}: {what} is there, but with when {found}, expected {when!r}")
    else:
        narrowed = [r for r in same if _when(r.get("when")) not in ("", _when(default_when))]
        same = [r for r in same if not any(r is n for n in narrowed)]
        if not same:
            return fail(f"{path}: {what} is there, but only when {_when(narrowed[0].get('when'))!r}: the task "
                        "asked for it in every context" + (f" (or {default_when!r}, the default's)"
                                                           if default_when else ""))
    if not removed:
        last = max(i for i, r in enumerate(rules) if any(r is s for s in same))
        later = _overriding(rules, last)
        if later:
            return fail(f"{path}: {what} is there, but a later rule overrides it: "
                        + ", ".join(f"{r.get('key')} -> {r.get('command')}" for r in later[:3]))
    return ok(f"{path}: {what}" + (f" when {when!r}" if when else ""))


def _overriding(rules: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    """The rules after `rules[index]` that take its shortcut away again.

    VS Code lets the last matching rule win: a later rule for the same key, with no context or the same one,
    that runs another command (or removes this one with "-command") overrides it."""
    rule = rules[index]
    command = str(rule.get("command", "")).strip()
    out = []
    for later in rules[index + 1:]:
        other = str(later.get("command", "")).strip()
        if keystroke(str(later.get("key", ""))) != keystroke(str(rule.get("key", ""))):
            continue
        if _when(later.get("when")) and _when(later.get("when")) != _when(rule.get("when")):
            continue
        if other == "-" + command or (other != command and not other.startswith("-")):
            out.append(later)
    return out


@primitive("vscode.keybindings_kept", grounded=("rules",),
           meaning=Meaning(action=None, why="guards the user's earlier shortcuts", args={"rules": Visible(kept_rules)}))
def keybindings_kept(state: State, path: str, rules: list[dict[str, Any]], allowed: list[str] | None = None
                     ) -> Result:
    """Every rule in `rules` (the user's earlier custom shortcuts) is still in keybindings.json, and no later
    rule overrides it. With `allowed` (the keys the task binds or unbinds), no rule for any other key was added
    either: a shortcut nobody asked for changes what a key does."""
    data = load(state, path)
    current = [r for r in data if isinstance(r, dict)] if isinstance(data, list) else []

    def same(c: dict[str, Any], r: dict[str, Any]) -> bool:
        return (str(c.get("command", "")).strip() == r["command"] and keystroke(str(c.get("key", "")))
                == keystroke(r["key"]) and _when(c.get("when")) == _when(r.get("when")))

    lost = [r for r in rules if not any(same(c, r) and not _overriding(current, i) for i, c in enumerate(current))]
    if lost:
        return fail(f"{path}: {len(lost)} of {len(rules)} earlier shortcuts are gone or overridden by a later rule: "
                    + ", ".join(f"{r['key']} -> {r['command']}" for r in lost))
    keys = {keystroke(k) for k in allowed or []}
    added = [c for c in current if allowed is not None and keystroke(str(c.get("key", ""))) not in keys
             and not any(same(c, r) for r in rules)]
    if added:
        return fail(f"{path}: {len(added)} shortcuts were added that the task does not ask for: "
                    + ", ".join(f"{c.get('key')} -> {c.get('command')}" for c in added[:5]))
    return ok(f"{path}: all {len(rules)} earlier shortcuts are still there"
              + (", no other shortcut added" if allowed is not None else ""))
