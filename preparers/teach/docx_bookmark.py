"""Snippet of the bookmark op (preparers/ops/docx_bookmark.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import _find


@snippet("docx.add_bookmark")
def add_bookmark(doc: str, path: str, paragraph_start: str, name: str) -> str:
    return "\n".join([
        "from docx.oxml import OxmlElement",
        "from docx.oxml.ns import qn",
        _find(doc, paragraph_start),
        f"used = [int(b.get(qn('w:id'))) for b in {doc}.element.body.iter(qn('w:bookmarkStart'))]",
        "number = str(max(used, default=-1) + 1)",
        "start, end = OxmlElement('w:bookmarkStart'), OxmlElement('w:bookmarkEnd')",
        f"start.set(qn('w:id'), number)\nstart.set(qn('w:name'), {name!r})\nend.set(qn('w:id'), number)",
        "ppr = p._p.find(qn('w:pPr'))",
        "if ppr is not None:",
        "    ppr.addnext(start)",
        "else:",
        "    p._p.insert(0, start)",
        "p._p.append(end)",
    ])
