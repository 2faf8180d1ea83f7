"""GIMP preference ops (fs document kind): set values in a gimprc, editing its text as a person would.

`fs.gimprc_set` replaces the value of each asked setting (`undo-levels`, or a nested `default-image/width`) where the
file writes it, and appends `(name value)` at the end (inside its parent list for a nested one) when it is missing.
`top=True` is a classic slip: the new line goes at the top of the file, so the old line further down still wins.
"""

from __future__ import annotations

import re

from kit import bounded
from preparers.ops import op
from preparers.ops.fs import FsHandle, _need, _write


def _block(text: str, name: str, start: int = 0, end: int | None = None) -> tuple[int, int] | None:
    """(start, end) of the list `(name ...)` between `start` and `end`, parentheses balanced; None if absent."""
    end = len(text) if end is None else end
    found = re.compile(r"\(" + re.escape(name) + r"(?=[\s)])").search(text, start, end)
    if not found:
        return None
    depth, at = 0, found.start()
    while at < end:
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        at += 1
        if depth == 0:
            return found.start(), at
    return None


def set_value(text: str, key: str, value: str, *, top: bool = False) -> str:
    """`text` with setting `key` = `value` (see the module doc)."""
    *parents, name = key.split("/")
    line = f"({name} {value})"
    if top:
        return f"{line}\n{text}"
    start, end = 0, len(text)
    for parent in parents:
        span = _block(text, parent, start, end)
        if span is None:
            raise ValueError(f"{parent} is not in the gimprc")
        start, end = span[0] + 1, span[1] - 1
    span = _block(text, name, start, end)
    if span is not None:
        return text[:span[0]] + line + text[span[1]:]
    if parents:
        return text[:end] + f"\n    {line}" + text[end:]
    return text.rstrip("\n") + f"\n{line}\n"


@op("fs.gimprc_set")
def gimprc_set(h: FsHandle, settings: dict[str, str], top: bool = False) -> None:
    """Give each setting of `settings` ({setting path: value as GIMP writes it}) its value."""
    _need(h.host)
    text = bounded.read_file(h.host).decode("utf-8")
    for key, value in settings.items():
        text = set_value(text, key, value, top=top)
    _write(h.host, text.encode("utf-8"))
