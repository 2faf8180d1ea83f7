"""The `json` document kind: JSON (and JSONC) files edited by key path, saved in their own style.

App settings are JSON files, but each app writes its own flavour: Chrome's Preferences is compact and
key-sorted, its Bookmarks 3-space indented, VS Code's settings.json 4-space indented and allowed to hold
comments and trailing commas (JSONC). Loading is therefore lenient (`loads_jsonc`) and saving keeps the
file's indentation, so an op changes values, not the look of the file. A missing file loads as an empty
document, because apps create settings files on first write (e.g. a project's `.vscode/settings.json`).

Key paths are a dotted string (`"session.startup_urls"`, fine for Chrome prefs) or a list of keys
(`["editor.fontSize"]`, needed for VS Code, whose keys contain dots); list items are addressed by int.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from preparers import jsonc
from preparers.ops import document_kind, op

Key = str | int
KeyPath = str | list[Key]

_MISSING = object()


#: What makes a comma trailing: only blanks before the bracket that closes its object or list.
_CLOSES = re.compile(r"\s*[}\]]")


def _string_end(text: str, start: int) -> int:
    """Index just past the JSON string that opens at `start` (or the end of text when unterminated)."""
    end = start + 1
    while end < len(text) and text[end] != '"':
        end += 2 if text[end] == "\\" else 1
    return min(end + 1, len(text))


def strip_jsonc(text: str) -> str:
    """`text` without // and /* */ comments and without trailing commas (outside strings), BOM dropped."""
    text = text.lstrip("\ufeff")
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
        else:
            out.append(text[i])
            i += 1
    bare = "".join(out)
    kept: list[str] = []
    i = 0
    while i < len(bare):
        if bare[i] == '"':
            end = _string_end(bare, i)
            kept.append(bare[i:end])
            i = end
            continue
        if bare[i] != "," or not _CLOSES.match(bare, i + 1):
            kept.append(bare[i])
        i += 1
    return "".join(kept)


def loads_jsonc(text: str) -> Any:
    """Parse JSON with comments and trailing commas, as VS Code reads its settings; blank text is None."""
    try:  # plain JSON (most settings files): `strip_jsonc` would give it back unchanged
        return json.loads(text)
    except ValueError:
        pass
    stripped = strip_jsonc(text)
    return None if not stripped.strip() else json.loads(stripped)


def key_path(key: KeyPath) -> list[Key]:
    """A key path as a list: `"a.b"` -> `["a", "b"]`; lists pass through; `""` and `[]` mean the root."""
    if isinstance(key, str):
        return [*key.split(".")] if key else []
    if not isinstance(key, list) or not all(isinstance(k, str | int) and not isinstance(k, bool) for k in key):
        raise ValueError(f"key={key!r}, but must be a dotted string or a list of str/int keys")
    return list(key)


def get_at(data: Any, key: KeyPath, default: Any = None) -> Any:
    """The value at `key` in `data`, or `default` when any step is missing or of the wrong type."""
    node = data
    for step in key_path(key):
        in_list = isinstance(step, int) and isinstance(node, list) and -len(node) <= step < len(node)
        if in_list or (isinstance(step, str) and isinstance(node, dict) and step in node):
            node = node[step]
        else:
            return default
    return node


def has_key(data: Any, key: KeyPath) -> bool:
    return get_at(data, key, _MISSING) is not _MISSING


@dataclass
class JsonDoc:
    """A parsed JSON file plus how it was written (indent None = compact one line) and its comments by key path
    (`preparers.jsonc`), which an edit keeps, as VS Code's settings editor does."""

    data: Any
    indent: int | str | None = 4
    sort_keys: bool = False
    comments: dict[jsonc.Path, list[str]] = field(default_factory=dict)

    def dumps(self) -> str:
        if self.indent is None and not self.comments:
            return json.dumps(self.data, separators=(",", ":"), sort_keys=self.sort_keys, ensure_ascii=False)
        return jsonc.dumps(self.data, 4 if self.indent is None else self.indent, self.sort_keys, self.comments) + "\n"


def _style(text: str) -> int | str | None:
    """The indentation of `text`: the first indented line's leading whitespace, None when on one line."""
    match = re.search(r"\n([ \t]+)\S", text)
    if match is None:
        return None if text.strip() else 4
    lead = match.group(1)
    return "\t" if lead.startswith("\t") else len(lead)


def parse_doc(text: str) -> JsonDoc:
    data = loads_jsonc(text)
    notes = jsonc.comments(text) if "/" in text and isinstance(data, dict | list) else {}
    return JsonDoc(data, _style(text), sort_keys=_is_sorted(data), comments=notes)


def _is_sorted(data: Any) -> bool:
    """True when the root object has 2+ keys and every object's keys are in sorted order (Chrome's files)."""

    def all_sorted(node: Any) -> bool:
        if isinstance(node, dict):
            return list(node) == sorted(node) and all(all_sorted(v) for v in node.values())
        if isinstance(node, list):
            return all(all_sorted(v) for v in node)
        return True

    return isinstance(data, dict) and len(data) >= 2 and all_sorted(data)


def _load(host: Path, root: Path) -> JsonDoc:
    if host.is_dir():
        raise IsADirectoryError(host)
    if not host.exists():
        return JsonDoc(None)
    return parse_doc(host.read_text(encoding="utf-8"))


def _save(doc: JsonDoc, host: Path) -> None:
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_text(doc.dumps(), encoding="utf-8")


document_kind("json", load=_load, save=_save)


def _parent(doc: JsonDoc, path: list[Key], *, create: bool) -> tuple[Any, Key]:
    """The container holding the last step of `path`, creating missing objects when `create`."""
    if not path:
        raise ValueError("the key path must name at least one key")
    if doc.data is None and create:
        doc.data = {}
    node = doc.data
    for step in path[:-1]:
        if isinstance(node, dict) and isinstance(step, str):
            if step not in node or node[step] is None:
                if not create:
                    raise KeyError(f"no key {step!r} in {path}")
                node[step] = {}
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int):
            node = node[step]
        else:
            raise ValueError(f"cannot step into {type(node).__name__} with key {step!r} (path {path})")
    return node, path[-1]


@op("json.set")
def set_value(doc: JsonDoc, key: KeyPath, value: Any) -> None:
    """Set the value at `key`, creating missing parent objects; the empty key path replaces the whole document."""
    path = key_path(key)
    if not path:
        doc.data = value
        return
    node, last = _parent(doc, path, create=True)
    if isinstance(node, dict) and isinstance(last, str):
        node[last] = value
        return
    if isinstance(node, list) and isinstance(last, int):
        node[last] = value
        return
    raise ValueError(f"cannot set key {last!r} on {type(node).__name__}")


@op("json.delete")
def delete(doc: JsonDoc, key: KeyPath, missing_ok: bool = False) -> None:
    """Remove the key (or list item) at `key`; a missing key is an error unless `missing_ok`."""
    path = key_path(key)
    if not has_key(doc.data, path):
        if missing_ok:
            return
        raise KeyError(f"no value at {path}")
    node, last = _parent(doc, path, create=False)
    jsonc.move(doc.comments, node, tuple(path))
    del node[last]


@op("json.append")
def append(doc: JsonDoc, key: KeyPath, value: Any, unique: bool = False) -> None:
    """Append `value` to the list at `key` (`[]` = the document root), creating the list when missing.

    `unique` skips the append when an equal item is already there."""
    path = key_path(key)
    if not path:
        if doc.data is None:
            doc.data = []
        target = doc.data
    else:
        if not has_key(doc.data, path):
            set_value(doc, path, [])
        target = get_at(doc.data, path)
    if not isinstance(target, list):
        raise ValueError(f"value at {path} is a {type(target).__name__}, not a list")
    if not (unique and value in target):
        target.append(value)
