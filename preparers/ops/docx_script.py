"""docx op for subscript and superscript characters (writer.sub_superscript)."""

from __future__ import annotations

import copy
import re

from docx.document import Document
from docx.text.run import Run

from preparers.ops import OpError, op
from preparers.ops.docx import paragraph


@op("docx.script_chars")
def script_chars(document: Document, paragraph_start: str, tokens: list[str], marks: list[list[int]],
                 position: str) -> None:
    """Set characters `marks[i]` = [start, end) of each whole word `tokens[i]` in the named paragraph to `position`
    ("sub" or "super"), splitting its runs and keeping their own formatting."""
    if position not in ("sub", "super"):
        raise OpError(f"docx.script_chars: position={position!r}, but must be sub or super")
    p = paragraph(document, paragraph_start)
    pieces = [(run, run.text) for run in p.runs]
    full = "".join(text for _, text in pieces)
    raised: set[int] = set()
    for token, (start, end) in zip(tokens, marks, strict=True):
        found = re.search(rf"(?<!\w){re.escape(token)}(?!\w)", full)
        if found is None:
            raise OpError(f"docx.script_chars: {token!r} is not a word of the paragraph {paragraph_start!r}")
        raised.update(range(found.start() + start, found.start() + end))
    at = 0
    for run, text in pieces:
        spans: list[tuple[str, bool]] = []
        for k, c in enumerate(text):
            flag = at + k in raised
            if spans and spans[-1][1] == flag:
                spans[-1] = (spans[-1][0] + c, flag)
            else:
                spans.append((c, flag))
        at += len(text)
        if not any(flag for _, flag in spans):
            continue
        anchor = run._r
        for piece, flag in spans:
            new = copy.deepcopy(run._r)
            anchor.addnext(new)
            anchor = new
            part = Run(new, p)
            part.text = piece
            if flag:
                part.font.subscript = position == "sub"
                part.font.superscript = position == "super"
        run._r.getparent().remove(run._r)
