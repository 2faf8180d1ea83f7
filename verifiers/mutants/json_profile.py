"""JSON profile mutants: Chrome `Bookmarks` / `Preferences`, VS Code settings, workspaces and keybindings.

Only JSON files the oracle changed are mutated (the task is about them; an untouched profile file is the tree
mutator's business). Damaging (no instruction asks for them):
- `json.duplicate_bookmark`: next to a bookmark the oracle added or changed, another one with the same name
  pointing elsewhere (which one did the user mean?);
- `json.bookmark_out_of_scope`: a bookmark the task did not touch renamed, re-pointed or deleted;
- `json.duplicate_keybinding`: after a rule the oracle added, a rule for the same key running another command
  (VS Code takes the last one, so the asked key no longer does what was asked);
- `json.rule_out_of_scope`: a keybinding rule the task did not touch deleted;
- `json.rule_added`: a new rule binding a free key to another command (a shortcut nobody asked for);
- `json.keybinding_narrowed`: a rule the oracle added (a binding or a "-command" removal) limited by a `when`
  clause that holds only in Markdown files (the shortcut works, or the default goes, almost nowhere);
- `json.value_out_of_scope`: a value the task did not touch (same in the initial and the oracle's file) changed;
- `json.setting_added`: a user-facing setting the task does not ask for (`preparers.chrome.USER_SETTINGS`,
  `VSCODE_ADDABLE`) added to Preferences or a VS Code settings.json;
- `json.key_dropped`: a key the task did not touch removed (from a JSON object, an INI keyfile or a YAML file);
- `json.comments_dropped`: a config file the oracle changed rewritten without its comments (`jq`, `json.dumps`,
  a script that writes the file from its parsed data);
- `json.bookmarks_reversed`: the bookmarks of a folder the task does not touch in reverse order.
Neutral (what the app or a careful user may also write): `json.reformatted` (keys in reverse order, another
indent), `json.new_ids_and_times` (Bookmarks renumbered, new guids and timestamps, as a re-created entry gets),
`json.comment_added` (a `//` comment line in a JSONC file VS Code owns).

Keys Chrome rewrites on its own (ids, guids, dates, the checksum) are never "out of scope" values. Every rewrite of a
JSONC file keeps its comments (`preparers.jsonc`), as VS Code's editor does, unless dropping them is the damage.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from preparers import chrome, jsonc
from preparers.ops.json_doc import loads_jsonc
from verifiers.mutants import Mutant, MutationContext

#: keys whose values the app itself rewrites
VOLATILE = ("id", "guid", "date_added", "date_modified", "date_last_used", "checksum", "sync_metadata",
            "last_visited_desktop")
#: dotted Preferences keys Chrome rewrites on its own (as `workflows.chrome.kit.CHROME_MANAGED`)
MANAGED = ("browser.window_placement", "browser.has_seen_welcome_page", "profile.exit_type",
           "profile.created_by_version")
#: VS Code settings a user may add by hand (VS Code writes none of them on its own)
VSCODE_ADDABLE: tuple[tuple[str, Any], ...] = (("editor.fontSize", 19), ("workbench.colorTheme", "Solarized Light"),
                                               ("editor.wordWrap", "on"), ("files.autoSave", "afterDelay"))
_FREE_KEY = "ctrl+alt+shift+f9"
_ELSEWHERE = "https://example.net/elsewhere"
_OTHER_COMMAND = "workbench.action.toggleZenMode"
#: a context that holds only in Markdown files: a rule limited by it works nowhere else
_NARROW = "editorLangId == 'markdown'"
_MAX_BYTES = 4 * 1024 * 1024


_CHROME_FILES = ("Bookmarks", "Preferences", "Local State")
_CONFIG_SUFFIXES = (".ini", ".conf", ".cfg", ".desktop", ".yaml", ".yml")


def _is_json(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name in _CHROME_FILES or name.endswith((".json", ".jsonc", ".code-workspace"))


def _read(path: Path) -> Any:
    if not path.is_file() or path.stat().st_size > _MAX_BYTES:
        return None
    try:
        return loads_jsonc(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def _write(rel: str, change: Callable[[Any], Any], *, indent: int = 3, sort_keys: bool = True,
           header: str = "", comments: bool = True) -> Callable[[Path], None]:
    """Apply: parse the file at `rel`, change (a deep copy of) its data, write it back as JSON, with its comments
    where they were (unless not `comments`)."""

    def apply(root: Path) -> None:
        old = (root / rel).read_text(encoding="utf-8")
        data = change(copy.deepcopy(loads_jsonc(old)))
        notes = jsonc.comments(old) if comments and "/" in old and not rel.endswith(_CHROME_FILES) else {}
        text = jsonc.dumps(data, indent, sort_keys, notes)
        (root / rel).write_text(header + text + "\n", encoding="utf-8")

    return apply


# --- bookmarks --------------------------------------------------------------------------------------------

def _bookmarks(tree: Any) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(folder names from the root key, node) for every url node."""
    roots = tree.get("roots") if isinstance(tree, dict) else None
    if not isinstance(roots, dict):
        return

    def visit(path: tuple[str, ...], node: Any) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
        for child in node.get("children", []) if isinstance(node, dict) else []:
            if not isinstance(child, dict):
                continue
            if child.get("type") == "url":
                yield path, child
            elif child.get("type") == "folder":
                yield from visit((*path, str(child.get("name", ""))), child)

    for key, root in sorted(roots.items()):
        yield from visit((key,), root)


def _key(path: tuple[str, ...], node: dict[str, Any]) -> tuple[Any, ...]:
    return (*path, node.get("name"), node.get("url"))


def _find(tree: Any, key: tuple[Any, ...]) -> dict[str, Any] | None:
    return next((node for path, node in _bookmarks(tree) if _key(path, node) == key), None)


def _parent(tree: Any, key: tuple[Any, ...]) -> dict[str, Any]:
    node: dict[str, Any] = tree["roots"][key[0]]
    for name in key[1:-2]:
        node = next(c for c in node["children"] if c.get("type") == "folder" and str(c.get("name", "")) == name)
    return node


def _duplicate_bookmark(key: tuple[Any, ...]) -> Callable[[Any], Any]:
    def change(tree: Any) -> Any:
        parent = _parent(tree, key)
        original = _find(tree, key)
        assert original is not None
        twin = {**copy.deepcopy(original), "url": _ELSEWHERE, "id": str(_max_id(tree) + 1)}
        parent["children"].insert(parent["children"].index(original) + 1, twin)
        return tree

    return change


def _bookmark_out_of_scope(key: tuple[Any, ...], how: str) -> Callable[[Any], Any]:
    def change(tree: Any) -> Any:
        node = _find(tree, key)
        assert node is not None
        if how == "renamed":
            node["name"] = f"{node.get('name', '')} (old)"
        elif how == "repointed":
            node["url"] = _ELSEWHERE
        else:
            _parent(tree, key)["children"].remove(node)
        return tree

    return change


def _max_id(tree: Any) -> int:
    ids = [int(node["id"]) for _, node in _bookmarks(tree) if str(node.get("id", "")).isdigit()]
    return max([100, *ids])


def _renumber(tree: Any) -> Any:
    """New ids (shifted), guids and timestamps for every node below the roots; the checksum dropped."""
    roots = tree.get("roots", {})

    def visit(node: dict[str, Any]) -> None:
        for child in node.get("children", []):
            if isinstance(child, dict):
                if str(child.get("id", "")).isdigit():
                    child["id"] = str(int(child["id"]) + 500)
                if "guid" in child:
                    digits = "".join(c for c in str(child["guid"]) if c.isalnum())
                    child["guid"] = (f"{digits[::-1][:8]}-{digits[8:12]}-4{digits[13:16]}-8{digits[17:20]}-"
                                     f"{digits[20:32]}")
                for stamp in ("date_added", "date_modified", "date_last_used"):
                    if stamp in child and str(child[stamp]) != "0":
                        child[stamp] = str(int(str(child[stamp])) + 86_400_000_000)
                visit(child)

    for root in roots.values():
        if isinstance(root, dict):
            visit(root)
    tree.pop("checksum", None)
    return tree


def _bookmark_mutants(ctx: MutationContext, rel: str, before: Any, after: Any) -> list[Mutant]:
    old = {_key(p, n) for p, n in _bookmarks(before)}
    keys = [_key(p, n) for p, n in _bookmarks(after)]
    new = [k for k in keys if k not in old and k[-2]]
    same = [k for k in keys if k in old]
    out = []
    if new:
        key = ctx.rng.choice(new)
        out.append(Mutant(f"json.duplicate_bookmark:{rel}:{key[-2]}", "damaging",
                          _write(rel, _duplicate_bookmark(key))))
    if same:
        key = ctx.rng.choice(same)
        how = ctx.rng.choice(("renamed", "repointed", "deleted"))
        out.append(Mutant(f"json.bookmark_out_of_scope_{how}:{rel}:{key[-2]}", "damaging",
                          _write(rel, _bookmark_out_of_scope(key, how))))
    if untouched := _untouched_folders(before, after):
        folder = ctx.rng.choice(untouched)
        out.append(Mutant(f"json.bookmarks_reversed:{rel}:{' > '.join(folder)}", "damaging",
                          _write(rel, _reverse_folder(folder))))
    out.append(Mutant(f"json.new_ids_and_times:{rel}", "neutral", _write(rel, _renumber)))
    return out


def _folders(tree: Any) -> dict[tuple[str, ...], list[tuple[Any, Any, Any]]]:
    """{folder path (root key first): its children as (type, name, url)} for every folder of a Bookmarks tree (the
    first of two folders of one name and place)."""
    out: dict[tuple[str, ...], list[tuple[Any, Any, Any]]] = {}
    roots = tree.get("roots") if isinstance(tree, dict) else None

    def visit(path: tuple[str, ...], node: Any) -> None:
        kids = [k for k in node.get("children", []) if isinstance(k, dict)] if isinstance(node, dict) else []
        if path in out:
            return
        out[path] = [(k.get("type"), k.get("name"), k.get("url")) for k in kids]
        for kid in kids:
            if kid.get("type") == "folder":
                visit((*path, str(kid.get("name", ""))), kid)

    for key, root in sorted(roots.items()) if isinstance(roots, dict) else []:
        visit((key,), root)
    return out


def _untouched_folders(before: Any, after: Any) -> list[tuple[str, ...]]:
    """Folders the oracle left as they were that a reversal changes (two or more different children)."""
    old = _folders(before)
    return [path for path, kids in _folders(after).items() if old.get(path) == kids and len(set(kids)) > 1]


def _reverse_folder(folder: tuple[str, ...]) -> Callable[[Any], Any]:
    def change(tree: Any) -> Any:
        node = tree["roots"][folder[0]]
        for name in folder[1:]:
            node = next(c for c in node["children"] if c.get("type") == "folder" and str(c.get("name", "")) == name)
        node["children"].reverse()
        return tree

    return change


# --- keybindings ----------------------------------------------------------------------------------------

def _rule_mutants(ctx: MutationContext, rel: str, before: Any, after: list[Any]) -> list[Mutant]:
    old = [r for r in before if isinstance(r, dict)] if isinstance(before, list) else []
    new = [i for i, r in enumerate(after) if isinstance(r, dict) and r not in old and "key" in r
           and not str(r.get("command", "")).startswith("-")]
    same = [i for i, r in enumerate(after) if isinstance(r, dict) and r in old]
    out = []
    if new:
        index = ctx.rng.choice(new)

        def duplicate(rules: list[Any], index: int = index) -> list[Any]:
            rule = rules[index]
            other = {"key": rule["key"], "command": _OTHER_COMMAND}
            if "when" in rule:
                other["when"] = rule["when"]
            return [*rules[:index + 1], other, *rules[index + 1:]]

        out.append(Mutant(f"json.duplicate_keybinding:{rel}:{after[index]['key']}", "damaging",
                          _write(rel, duplicate, indent=4, sort_keys=False)))
    if same:
        gone = ctx.rng.choice(same)

        def delete(rules: list[Any], gone: int = gone) -> list[Any]:
            return [r for i, r in enumerate(rules) if i != gone]

        out.append(Mutant(f"json.rule_out_of_scope_deleted:{rel}:{after[gone].get('key')}", "damaging",
                          _write(rel, delete, indent=4, sort_keys=False)))
    added = [i for i, r in enumerate(after) if isinstance(r, dict) and r not in old and "key" in r]
    if added:
        index = ctx.rng.choice(added)

        def narrow(rules: list[Any], index: int = index) -> list[Any]:
            rule = dict(rules[index])
            rule["when"] = f"{rule['when']} && {_NARROW}" if rule.get("when") else _NARROW
            return [*rules[:index], rule, *rules[index + 1:]]

        out.append(Mutant(f"json.keybinding_narrowed:{rel}:{after[index]['key']}", "damaging",
                          _write(rel, narrow, indent=4, sort_keys=False)))
    if not any(isinstance(r, dict) and r.get("key") == _FREE_KEY for r in after):
        out.append(Mutant(f"json.rule_added:{rel}:{_FREE_KEY}", "damaging",
                          _write(rel, lambda rules: [*rules, {"key": _FREE_KEY, "command": _OTHER_COMMAND}],
                                 indent=4, sort_keys=False)))
    out.append(Mutant(f"json.comment_added:{rel}", "neutral",
                      _write(rel, lambda rules: rules, indent=2, sort_keys=False,
                             header="// Place your key bindings in this file to override the defaults\n")))
    return out


# --- objects (Preferences, settings) ---------------------------------------------------------------------

def _leaves(data: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from _leaves(value, (*prefix, str(key)))
    else:
        yield prefix, data


def _get(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _other(value: Any) -> Any:
    """A different value of the same JSON type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 7
    if isinstance(value, str):
        return value + "-old" if value else "changed"
    if isinstance(value, list):
        return value[1:] if value else ["changed"]
    return "changed" if value is None else None


def _set(path: tuple[str, ...], value: Any) -> Callable[[Any], Any]:
    def change(data: Any) -> Any:
        _get(data, path[:-1])[path[-1]] = value
        return data

    return change


def _named(task: dict[str, Any]) -> set[str]:
    """Every string the rubric's arguments mention (keys and key paths included): a setting named there is the
    task's, never one added out of scope."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                found.add(str(k))
                walk(v)
        elif isinstance(value, list):
            if value and all(isinstance(v, str) for v in value):
                found.add(".".join(value))
            for v in value:
                walk(v)

    walk([item.get("args") for item in task.get("rubric", []) if isinstance(item, dict)])
    return found


def _added(rel: str, after: dict[str, Any], task: dict[str, Any], rng: Any) -> list[Mutant]:
    """A user-facing setting the task does not ask for, set in Chrome's Preferences or a VS Code settings file."""
    named = _named(task)
    if rel.endswith("Preferences"):
        pool = [(tuple(k.split(".")), v) for k, v in sorted(chrome.USER_SETTINGS.items()) if k not in named]
        pool = [(path, v) for path, v in pool if not _has(after, path)]
    elif rel.endswith("settings.json"):
        pool = [((k,), v) for k, v in VSCODE_ADDABLE if k not in named and k not in after]
    else:
        return []
    if not pool:
        return []
    path, value = pool[rng.randrange(len(pool))]

    def change(data: Any) -> Any:
        node = data
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
        return data

    return [Mutant(f"json.setting_added:{rel}:{'.'.join(path)}", "damaging", _write(rel, change, indent=4,
                                                                                    sort_keys=False))]


def _drop(path: tuple[str, ...]) -> Callable[[Any], Any]:
    def change(data: Any) -> Any:
        del _get(data, path[:-1])[path[-1]]
        return data

    return change


def _has(data: Any, path: tuple[str, ...]) -> bool:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True


def _reverse(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _reverse(data[k]) for k in reversed(list(data))}
    if isinstance(data, list):
        return [_reverse(v) for v in data]
    return data


def _object_mutants(ctx: MutationContext, rel: str, before: Any, after: dict[str, Any]) -> list[Mutant]:
    out = []
    if isinstance(before, dict):
        same = []
        for path, value in _leaves(after):
            dotted = ".".join(path)
            if not path or any(part in VOLATILE for part in path) or any(
                    dotted == m or dotted.startswith(m + ".") for m in MANAGED):
                continue
            try:
                if _get(before, path) == value:
                    same.append(path)
            except (KeyError, TypeError, IndexError):
                continue
        if same:
            path = ctx.rng.choice(same)
            out.append(Mutant(f"json.value_out_of_scope:{rel}:{'.'.join(path)}", "damaging",
                              _write(rel, _set(path, _other(_get(after, path))), indent=4, sort_keys=False)))
            gone = ctx.rng.choice(same)
            out.append(Mutant(f"json.key_dropped:{rel}:{'.'.join(gone)}", "damaging",
                              _write(rel, _drop(gone), indent=4, sort_keys=False)))
    out += _added(rel, after, ctx.task, ctx.rng)
    commented = not rel.endswith(_CHROME_FILES)
    out.append(Mutant(f"json.reformatted:{rel}", "neutral", _write(rel, _reverse, indent=2, sort_keys=False)))
    if commented:
        out.append(Mutant(f"json.comment_added:{rel}", "neutral",
                          _write(rel, lambda data: data, indent=4, sort_keys=False,
                                 header="// Settings edited by hand\n")))
    return out


# --- comments and keys of any config file --------------------------------------------------------------------

def _text(path: Path) -> str | None:
    if not path.is_file() or path.stat().st_size > _MAX_BYTES:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def _comment_line(line: str, marks: tuple[str, ...]) -> bool:
    return line.strip().startswith(marks)


def _rewrite_lines(rel: str, keep: Callable[[int, str], bool]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        lines = (root / rel).read_text(encoding="utf-8").splitlines(keepends=True)
        (root / rel).write_text("".join(line for i, line in enumerate(lines) if keep(i, line)), encoding="utf-8")

    return apply


def _comments_dropped(rel: str, text: str) -> list[Mutant]:
    """The file without its comments: JSON written from its parsed data, other configs without comment lines."""
    name = f"json.comments_dropped:{rel}"
    if _is_json(rel):
        if rel.endswith(_CHROME_FILES) or "/" not in text or not jsonc.comments(text):
            return []
        return [Mutant(name, "damaging", _write(rel, lambda data: data, indent=4, sort_keys=False, comments=False))]
    marks = ("#", ";") if not rel.endswith((".yaml", ".yml")) else ("#",)
    if not any(_comment_line(line, marks) for line in text.splitlines()):
        return []
    return [Mutant(name, "damaging", _rewrite_lines(rel, lambda i, line: not _comment_line(line, marks)))]


def _key_lines(text: str) -> list[str]:
    """The `key = value` (INI) or `key: value` (YAML) lines of a config file's text."""
    return [line for line in text.splitlines() if line.strip() and not _comment_line(line, ("#", ";", "["))
            and ("=" in line or re.match(r"^\s*[^\s:#-][^:]*:\s*\S", line))]


def _config_mutants(ctx: MutationContext, rel: str) -> list[Mutant]:
    """Mutants of an INI / YAML config file the oracle changed: its comments dropped, an untouched key dropped."""
    before, after = _text(ctx.initial / rel), _text(ctx.oracle / rel)
    if after is None:
        return []
    out = _comments_dropped(rel, after)
    old = set(_key_lines(before or ""))
    counts = {line: after.splitlines().count(line) for line in set(_key_lines(after))}
    same = sorted(line for line, n in counts.items() if line in old and n == 1)
    if same:
        gone = ctx.rng.choice(same)
        out.append(Mutant(f"json.key_dropped:{rel}:{gone.strip()[:40]}", "damaging",
                          _rewrite_lines(rel, lambda i, line: line.rstrip("\r\n") != gone)))
    return out


def mutants(ctx: MutationContext) -> list[Mutant]:
    """Damaging and neutral mutants of every JSON profile or config file the oracle changed; each rewrites that one
    file (`Mutant.rewrites`: every other file's parsed documents are the oracle's)."""
    out: list[Mutant] = []
    for rel in ctx.changed():
        if rel.endswith(_CONFIG_SUFFIXES):
            found = _config_mutants(ctx, rel)
        elif _is_json(rel):
            found = _json_mutants(ctx, rel)
        else:
            continue
        out += [replace(m, rewrites=(rel,)) for m in found]
    return out


def _json_mutants(ctx: MutationContext, rel: str) -> list[Mutant]:
    after = _read(ctx.oracle / rel)
    before = _read(ctx.initial / rel)
    out: list[Mutant] = []
    if isinstance(after, dict) and isinstance(after.get("roots"), dict):
        out += _bookmark_mutants(ctx, rel, before, after)
    elif isinstance(after, list):
        out += _rule_mutants(ctx, rel, before, after)
    elif isinstance(after, dict):
        out += _object_mutants(ctx, rel, before, after)
    if after is not None and (text := _text(ctx.oracle / rel)) is not None:
        out += _comments_dropped(rel, text)
    return out
