"""docx op for a cross-reference to a bookmark (writer.cross_reference)."""

from __future__ import annotations

import copy

from docx.document import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from lxml import etree

from preparers.ops import OpError, op
from preparers.ops.docx import paragraph
from preparers.ops.docx_link import isolate

STYLES = ("field", "page", "link", "text")


def bookmark_text(document: Document, name: str) -> str:
    """The text a bookmark spans (what a REF field to it shows)."""
    inside, bid, out = False, None, list[str]()
    for el in document.element.body.iter():
        if el.tag == qn("w:bookmarkStart") and el.get(qn("w:name")) == name and not inside:
            inside, bid = True, el.get(qn("w:id"))
        elif el.tag == qn("w:bookmarkEnd") and inside and el.get(qn("w:id")) == bid:
            return "".join(out)
        elif inside and el.tag == qn("w:t"):
            out.append(el.text or "")
    raise OpError(f"docx.add_cross_reference: the document has no bookmark named {name!r}")


def _run(model: etree._Element, child: etree._Element) -> etree._Element:
    r = OxmlElement("w:r")
    rpr = model.find(qn("w:rPr"))
    if rpr is not None:
        r.append(copy.deepcopy(rpr))
    r.append(child)
    return r


def _char(kind: str) -> etree._Element:
    el = OxmlElement("w:fldChar")
    el.set(qn("w:fldCharType"), kind)
    return el


def _text(tag: str, text: str) -> etree._Element:
    el = OxmlElement(tag)
    el.text = text
    el.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return el


@op("docx.add_cross_reference")
def add_cross_reference(document: Document, paragraph_start: str, placeholder: str, name: str,
                        style: str = "field", at_end: bool = False) -> None:
    """Replace `placeholder` in the named paragraph with a cross-reference to the bookmark `name` (Insert >
    Cross-reference, Bookmarks, Insert reference to: Reference): a complex REF field, as Word and Writer write it,
    showing the bookmark's text. Near-miss styles: "page" (a PAGEREF field: the page number), "link" (a hyperlink
    to the bookmark showing its text), "text" (the text typed); `at_end` leaves the placeholder and adds the
    reference at the end of the paragraph."""
    if style not in STYLES:
        raise OpError(f"docx.add_cross_reference: style={style!r}, but must be one of {list(STYLES)}")
    shown = bookmark_text(document, name)
    p = paragraph(document, paragraph_start)
    if at_end:
        model = p._p.findall(qn("w:r"))[-1]
        anchor = OxmlElement("w:r")
        model.addnext(anchor)
    else:
        start = p.text.find(placeholder)
        if start < 0:
            raise OpError(f"docx.add_cross_reference: {placeholder!r} is not in the paragraph {paragraph_start!r}")
        runs = isolate(p, start, start + len(placeholder))
        model, anchor = runs[0], runs[0]
        for extra in runs[1:]:
            extra.getparent().remove(extra)
    made: list[etree._Element]
    if style in ("field", "page"):
        kind = "REF" if style == "field" else "PAGEREF"
        made = [_run(model, _char("begin")), _run(model, _text("w:instrText", f" {kind} {name} \\h ")),
                _run(model, _char("separate")), _run(model, _text("w:t", shown if style == "field" else "1")),
                _run(model, _char("end"))]
    elif style == "link":
        link = OxmlElement("w:hyperlink")
        link.set(qn("w:anchor"), name)
        link.append(_run(model, _text("w:t", shown)))
        made = [link]
    else:
        made = [_run(model, _text("w:t", shown))]
    for el in made:
        anchor.addprevious(el)
    anchor.getparent().remove(anchor)
