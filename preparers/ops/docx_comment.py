"""docx op for a review comment (writer.comment)."""

from __future__ import annotations

import copy

from docx.document import Document

from preparers.ops import OpError, op
from preparers.ops.docx import paragraph


@op("docx.add_comment")
def add_comment(document: Document, paragraph_start: str, text: str, phrase: str | None = None,
                author: str = "Reviewer") -> None:
    """Add a comment reading `text` anchored to `phrase` in the named paragraph (the whole paragraph when None),
    splitting its runs around the phrase and keeping their formatting, as Insert > Comment on a selection does."""
    p = paragraph(document, paragraph_start)
    full = p.text
    if phrase is not None and phrase not in full:
        raise OpError(f"docx.add_comment: {phrase!r} is not in the paragraph {paragraph_start!r}")
    start, end = (0, len(full)) if phrase is None else (full.index(phrase), full.index(phrase) + len(phrase))
    template = p.runs[0]._r if p.runs else None
    for run in p.runs:
        run._r.getparent().remove(run._r)
    target = None
    for piece, is_target in ((full[:start], False), (full[start:end], True), (full[end:], False)):
        if not piece:
            continue
        run = p.add_run(piece)
        if template is not None and template.rPr is not None:
            run._r.insert(0, copy.deepcopy(template.rPr))
        if is_target:
            target = run
    assert target is not None
    document.add_comment(target, text=text, author=author, initials=author[:1])
