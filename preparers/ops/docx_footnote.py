"""docx op for a footnote (writer.footnote): python-docx has no footnote API, so the part is written as XML."""

from __future__ import annotations

from typing import Any

from docx.document import Document
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import XmlPart
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import qn

from preparers.ops import OpError, op
from preparers.ops.docx import paragraph
from preparers.ops.docx_link import isolate

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
EMPTY_NOTES = (
    f'<w:footnotes xmlns:w="{W_NS}">'
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
    '</w:footnote></w:footnotes>')


def footnotes_part(document: Document) -> XmlPart:
    """The document's footnotes part as XML, made (with Word's two separators) when it has none. python-docx
    loads an existing one as a plain part (it knows no footnotes): that one is swapped for an XML part."""
    rel = next((r for r in document.part.rels.values() if r.reltype == RT.FOOTNOTES and not r.is_external), None)
    if rel is not None and isinstance(rel.target_part, XmlPart):
        return rel.target_part
    if rel is not None:
        old = rel.target_part
        part = XmlPart(old.partname, old.content_type, parse_xml(old.blob), document.part.package)
        rel._target = part
        return part
    part = XmlPart(PackURI("/word/footnotes.xml"), CT.WML_FOOTNOTES, parse_xml(EMPTY_NOTES), document.part.package)
    document.part.relate_to(part, RT.FOOTNOTES)
    return part


def _superscript() -> Any:
    rpr = OxmlElement("w:rPr")
    align = OxmlElement("w:vertAlign")
    align.set(qn("w:val"), "superscript")
    rpr.append(align)
    return rpr


@op("docx.add_footnote")
def add_footnote(document: Document, paragraph_start: str, phrase: str, text: str) -> None:
    """Add a footnote reading `text` whose reference mark follows `phrase` in the named paragraph (Insert >
    Footnote with the cursor right after those words)."""
    p = paragraph(document, paragraph_start)
    full = "".join("".join(t.text or "" for t in r.findall(qn("w:t"))) for r in p._p.findall(qn("w:r")))
    at = full.find(phrase)
    if at < 0:
        raise OpError(f"docx.add_footnote: {phrase!r} is not in the paragraph {paragraph_start!r}")
    runs = isolate(p, at, at + len(phrase))
    notes = footnotes_part(document).element
    ids = [int(n.get(qn("w:id"))) for n in notes.findall(qn("w:footnote")) if (n.get(qn("w:id")) or "").isdigit()]
    number = str(max([0, *ids]) + 1)
    note = OxmlElement("w:footnote")
    note.set(qn("w:id"), number)
    para = OxmlElement("w:p")
    mark = OxmlElement("w:r")
    mark.append(_superscript())
    mark.append(OxmlElement("w:footnoteRef"))
    body = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    t.text = " " + text
    body.append(t)
    para.append(mark)
    para.append(body)
    note.append(para)
    notes.append(note)
    ref = OxmlElement("w:r")
    ref.append(_superscript())
    reference = OxmlElement("w:footnoteReference")
    reference.set(qn("w:id"), number)
    ref.append(reference)
    runs[-1].addnext(ref)
