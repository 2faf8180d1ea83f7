"""Rename an identifier in a text file, whole words only (VS Code's Find and Replace with "Match Whole Word")."""

from __future__ import annotations

import re

from kit import bounded
from preparers.ops import op
from preparers.ops.fs import FsHandle


def rename_words(text: str, old: str, new: str) -> str:
    """`text` with every whole-word `old` replaced by `new` (word characters: letters, digits, underscore)."""
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text)


@op("fs.rename_word")
def rename_word(h: FsHandle, old: str, new: str) -> None:
    """Replace every whole-word `old` by `new` in the text file at `path`."""
    if not h.host.is_file():
        raise FileNotFoundError(h.host)
    text = bounded.read_file(h.host).decode("utf-8")
    h.host.write_text(rename_words(text, old, new), encoding="utf-8")
