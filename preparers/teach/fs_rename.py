"""Whole-word renames as the shell line a person types (`preparers.ops.fs_rename`)."""

from __future__ import annotations

from preparers.teach import q, snippet


@snippet("fs.rename_word")
def rename_word(path: str, old: str, new: str) -> str:
    return f"sed -i 's/\\b{old}\\b/{new}/g' {q(path)}"
