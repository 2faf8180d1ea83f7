"""The comments of a JSONC file (VS Code's settings.json, keybindings.json), attached to the keys they annotate.

VS Code reads and keeps `//` and `/* */` comments; its settings editor changes a value and leaves every comment
where it was. A file rewritten from its parsed data alone (`json.dumps`) loses them, which is a change a person
notices ("my notes are gone"). `comments(text)` finds each comment and the key path it belongs to: the member (or
list item) that follows it, or, for a comment on the same line after a value, that value's member; a comment before
a closing bracket belongs to the container's end (`END`), one before the root value to the root (`()`), one after
it to `AFTER`.
`dumps(data, indent, sort_keys, notes)` writes data as `json.dumps` does (byte for byte when there is no comment)
with each comment on its own line above its key, so an edit keeps the file's comments.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: The last step of the key path of a comment before a container's closing bracket; the path of one after the root.
END = "\x00end"
AFTER: tuple[str] = ("\x00after",)
Path = tuple[str | int, ...]
#: Comments found in one file at most (a hostile file of a million comments is not annotated further).
MAX_COMMENTS = 10_000


def comments(text: str) -> dict[Path, list[str]]:
    """{key path: its comments as written, in order} for the JSONC `text` (see the module doc). Tolerant: text that
    is not well-formed gives the comments it could place, never an error."""
    out: dict[Path, list[str]] = {}
    stack: list[list[Any]] = []  # [bracket, path, next item index, expecting a key or item]
    pending: list[str] = []
    last: Path | None = None  # the member the last value belongs to (for a comment on the same line)
    last_line = -1  # the line of the last value or comma
    value_path: Path = ()  # the path of the value about to start
    line = i = count = 0
    n = len(text)

    def attach(path: Path, notes: list[str]) -> None:
        if notes:
            out.setdefault(path, []).extend(notes)

    def start_value() -> Path:
        """The path of a value starting here: a list item gets its index; comments before it are its own."""
        nonlocal pending
        if stack and stack[-1][0] == "[":
            top = stack[-1]
            path: Path = (*top[1], top[2]) if top[3] else value_path
            top[3] = False
        else:
            path = value_path
        attach(path, pending)
        pending = []
        return path

    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in " \t\r\ufeff":
            i += 1
        elif text.startswith("//", i) or text.startswith("/*", i):
            end = text.find("\n", i) if ch == "/" and text[i + 1] == "/" else text.find("*/", i + 2)
            end = n if end < 0 else (end if text[i + 1] == "/" else end + 2)
            note = text[i:end].rstrip()
            count += 1
            if count <= MAX_COMMENTS:
                rest = text.find("\n", end)
                ends_line = not text[end:n if rest < 0 else rest].strip()
                if last is not None and last_line == line and (text[i + 1] == "/" or ends_line):
                    attach(last, [note])
                else:
                    pending.append(note)
            line += text.count("\n", i, end)
            i = end
        elif ch == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            token = text[i:end + 1]
            i = min(end + 1, n)
            if stack and stack[-1][0] == "{" and stack[-1][3]:
                try:
                    key = json.loads(token)
                except ValueError:
                    key = token.strip('"')
                value_path = (*stack[-1][1], str(key))
                stack[-1][3] = False
                attach(value_path, pending)
                pending = []
                last = value_path
            else:
                last = start_value()
            last_line = line
        elif ch in "{[":
            path = start_value()
            stack.append([ch, path, 0, True])
            last = None
            i += 1
        elif ch in "}]":
            if stack:
                top = stack.pop()
                attach((*top[1], END), pending)
                pending = []
                last, last_line = top[1], line
            i += 1
        elif ch == ",":
            if stack:
                stack[-1][2] += 1
                stack[-1][3] = True
            last_line = line
            i += 1
        elif ch == ":":
            i += 1
        else:  # a number or a literal
            end = i
            while end < n and text[end] not in ' \t\r\n,:]}/"':
                end += 1
            last, last_line = start_value(), line
            i = max(end, i + 1)
    attach(AFTER, pending)
    return out


def _emit(value: Any, path: Path, level: int, indent: str, sort_keys: bool, notes: Mapping[Path, list[str]],
          out: list[str]) -> None:
    if isinstance(value, dict | list) and value:
        inner = indent * (level + 1)
        items = (sorted(value.items()) if sort_keys else list(value.items())) if isinstance(value, dict) else \
            list(enumerate(value))
        out.append("{" if isinstance(value, dict) else "[")
        for n, (key, item) in enumerate(items):
            step: str | int = str(key) if isinstance(value, dict) else key
            out.append("\n")
            for note in notes.get((*path, step), ()):
                out.append(f"{inner}{note}\n")
            out.append(inner)
            if isinstance(value, dict):
                out.append(json.dumps(str(key), ensure_ascii=False) + ": ")
            _emit(item, (*path, step), level + 1, indent, sort_keys, notes, out)
            if n < len(items) - 1:
                out.append(",")
        out.append("\n")
        for note in notes.get((*path, END), ()):
            out.append(f"{inner}{note}\n")
        out.append(indent * level + ("}" if isinstance(value, dict) else "]"))
    else:
        out.append(json.dumps(value, ensure_ascii=False, sort_keys=sort_keys))


def dumps(data: Any, indent: int | str, sort_keys: bool = False, notes: Mapping[Path, list[str]] | None = None
          ) -> str:
    """`data` as `json.dumps(data, indent=indent, sort_keys=sort_keys, ensure_ascii=False)` writes it, with each
    comment of `notes` (from `comments`) on its own line above its key; comments of keys no longer there are left
    out (`move` first keeps those of a deleted key)."""
    if not notes:
        return json.dumps(data, indent=indent, sort_keys=sort_keys, ensure_ascii=False)
    pad = " " * indent if isinstance(indent, int) else indent
    out = [f"{note}\n" for note in notes.get((), ())]
    _emit(data, (), 0, pad, sort_keys, notes, out)
    out.extend(f"\n{note}" for note in notes.get(AFTER, ()))
    return "".join(out)


def move(notes: dict[Path, list[str]], container: Any, path: Path) -> None:
    """Before the member `path` is deleted from `container` (the object or list holding it): its comments go to the
    member after it (or the container's end), where they stay when a person deletes the member's line; in a list,
    the comments of the items after it follow their items to their new indexes."""
    mine = notes.pop(path, [])
    prefix, last = path[:-1], path[-1]
    if isinstance(container, list) and isinstance(last, int):
        size = len(container)
        last = last + size if last < 0 else last
        mine = mine or notes.pop((*prefix, last), [])
        at = len(prefix)
        later = sorted((k for k in notes if len(k) > at and k[:at] == prefix and isinstance(k[at], int)
                        and int(k[at]) > last), key=lambda k: int(k[at]))
        for key in later:
            notes[(*prefix, int(key[at]) - 1, *key[at + 1:])] = notes.pop(key)
        after: Path = (*prefix, last) if last + 1 < size else (*prefix, END)
    else:
        steps = list(container) if isinstance(container, dict) else []
        at = steps.index(last) if last in steps else len(steps)
        after = (*prefix, steps[at + 1]) if at + 1 < len(steps) else (*prefix, END)
    if mine:
        notes[after] = [*mine, *notes.get(after, [])]
