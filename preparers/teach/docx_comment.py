"""Snippet of the comment op (preparers/ops/docx_comment.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import restyled


@snippet("docx.add_comment")
def add_comment(doc: str, path: str, paragraph_start: str, text: str, phrase: str | None = None,
                author: str = "Reviewer") -> str:
    split = restyled(doc, paragraph_start, phrase, ["commented = run  # the run holding the words"])
    return "\n".join([split, f"{doc}.add_comment(commented, text={text!r}, author={author!r}, "
                             f"initials={author[:1]!r})"])
