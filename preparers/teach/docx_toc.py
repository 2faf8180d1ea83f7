"""Snippet of the table-of-contents op (preparers/ops/docx_toc.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import _find


@snippet("docx.insert_toc")
def insert_toc(doc: str, path: str, before: str, levels: int, at_end: bool = False, typed: bool = False) -> str:
    code = f' TOC \\\\o "1-{levels}" \\\\h \\\\z \\\\u '
    return "\n".join([
        "from docx.oxml import OxmlElement",
        "from docx.oxml.ns import qn",
        _find(doc, before),
        "def run(kind='', instr='', text=''):",
        "    r = OxmlElement('w:r')",
        "    if kind:",
        "        char = OxmlElement('w:fldChar')",
        "        char.set(qn('w:fldCharType'), kind)",
        "        r.append(char)",
        "    for tag, value in (('w:instrText', instr), ('w:t', text)):",
        "        if value:",
        "            el = OxmlElement(tag)",
        "            el.set(qn('xml:space'), 'preserve')",
        "            el.text = value",
        "            r.append(el)",
        "    return r",
        "sdt, props, part = OxmlElement('w:sdt'), OxmlElement('w:sdtPr'), OxmlElement('w:docPartObj')",
        "gallery = OxmlElement('w:docPartGallery')",
        "gallery.set(qn('w:val'), 'Table of Contents')",
        "part.append(gallery)",
        "part.append(OxmlElement('w:docPartUnique'))",
        "props.append(part)",
        "sdt.append(props)",
        "content, field = OxmlElement('w:sdtContent'), OxmlElement('w:p')",
        f"for r in (run('begin'), run(instr='{code}'), run('separate'),",
        "          run(text='Update this field to list the headings.'), run('end')):",
        "    field.append(r)",
        "content.append(field)",
        "sdt.append(content)",
        "p._p.addprevious(sdt)  # just before the first heading",
    ])
