"""Untrusted text is data: one way to print text that came from a package, an agent's state, a script's output,
an instruction, gate evidence or a SQL result.

Two dangers, both seen in practice: Rich reads `[...]` as markup (`[/x]` raised MarkupError and `forge verify` never
reported the rest of its batch; `[link=...]` would make a clickable link), and control characters reach the
terminal (ESC sequences can move the cursor, rewrite earlier lines, set the window title; a bare CR hides what came
before it on the line). So untrusted text goes through `plain` (control characters out) and is printed with
markup off (`markup=False`) or, inside a Rich table, as a `Text` cell from `cell`, which Rich never parses.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

#: C0 controls except tab and newline, DEL, C1 controls, and the Unicode bidi overrides and isolates
#: ("Trojan Source": text that displays in another order than it reads).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain(text: Any) -> str:
    """`text` as a string without control characters (tab and newline kept; a CR becomes a newline, so a line
    that overwrites itself shows both halves)."""
    return _CONTROL.sub("", str(text).replace("\r\n", "\n").replace("\r", "\n"))


def cell(value: Any) -> Text:
    """A table cell for an untrusted value: `plain` text that Rich shows literally (no markup, no emoji codes);
    None is an empty cell."""
    return Text("" if value is None else plain(value))


def textline(*parts: str | tuple[str, str]) -> Text:
    """One printable line from parts, each a string or (string, style): every string goes through `plain` and
    no part is read as markup, so the styles here are the only ones."""
    return Text.assemble(*((plain(p[0]), p[1]) if isinstance(p, tuple) else plain(p) for p in parts))
