"""docx op for a bookmark on a paragraph (writer.bookmark)."""

from __future__ import annotations

from docx.document import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from preparers.ops import op
from preparers.ops.docx import paragraph


@op("docx.add_bookmark")
def add_bookmark(document: Document, paragraph_start: str, name: str) -> None:
    """Insert a bookmark called `name` around the whole text of the named paragraph (Insert > Bookmark with the
    paragraph selected)."""
    p = paragraph(document, paragraph_start)._p
    ids = [int(b.get(qn("w:id"))) for b in document.element.body.iter(qn("w:bookmarkStart"))
           if (b.get(qn("w:id")) or "").isdigit()]
    number = str(max([-1, *ids]) + 1)
    start, end = OxmlElement("w:bookmarkStart"), OxmlElement("w:bookmarkEnd")
    start.set(qn("w:id"), number)
    start.set(qn("w:name"), name)
    end.set(qn("w:id"), number)
    ppr = p.find(qn("w:pPr"))
    if ppr is not None:
        ppr.addnext(start)
    else:
        p.insert(0, start)
    p.append(end)
