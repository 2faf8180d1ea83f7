"""docx op for a table of contents (writer.table_of_contents)."""

from __future__ import annotations

from typing import Any

from docx.document import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from preparers.ops import op
from preparers.ops.docx import paragraph


def _run(kind: str = "", instr: str = "", text: str = "") -> Any:
    r = OxmlElement("w:r")
    if kind:
        char = OxmlElement("w:fldChar")
        char.set(qn("w:fldCharType"), kind)
        r.append(char)
    for tag, value in (("w:instrText", instr), ("w:t", text)):
        if value:
            el = OxmlElement(tag)
            el.set(qn("xml:space"), "preserve")
            el.text = value
            r.append(el)
    return r


@op("docx.insert_toc")
def insert_toc(document: Document, before: str, levels: int, at_end: bool = False, typed: bool = False) -> None:
    """Insert a table of contents covering heading levels 1 to `levels` just before the paragraph beginning
    `before`: a TOC field (begin, the code ' TOC \\o "1-N" \\h \\z \\u ', separate, a note to update it, end) in a
    "Table of Contents" content control, as Word's References > Table of Contents writes it.

    Near-miss switches: `at_end` puts it after the last paragraph instead; `typed` writes the headings (Heading 1
    paragraphs) as a plain typed list there instead of a field."""
    body = document.element.body
    anchor = paragraph(document, before)._p
    if typed:
        for p in [p for p in document.paragraphs if p.style is not None and p.style.name == "Heading 1"]:
            line = OxmlElement("w:p")
            line.append(_run(text=p.text))
            anchor.addprevious(line)
        return
    sdt, props, part, gallery = (OxmlElement(t) for t in ("w:sdt", "w:sdtPr", "w:docPartObj", "w:docPartGallery"))
    gallery.set(qn("w:val"), "Table of Contents")
    part.append(gallery)
    part.append(OxmlElement("w:docPartUnique"))
    props.append(part)
    sdt.append(props)
    content, p = OxmlElement("w:sdtContent"), OxmlElement("w:p")
    for r in (_run("begin"), _run(instr=f' TOC \\o "1-{levels}" \\h \\z \\u '), _run("separate"),
              _run(text="Update this field to list the headings."), _run("end")):
        p.append(r)
    content.append(p)
    sdt.append(content)
    if at_end:
        last = body.findall(qn("w:p"))[-1]
        last.addnext(sdt)
    else:
        anchor.addprevious(sdt)
