"""Snippet of the footnote op (preparers/ops/docx_footnote.py) as python-docx lines (raw XML: python-docx has no
footnote API)."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import _find


@snippet("docx.add_footnote")
def add_footnote(doc: str, path: str, paragraph_start: str, phrase: str, text: str) -> str:
    return "\n".join([
        "import copy",
        "from docx.opc.constants import CONTENT_TYPE as CT, RELATIONSHIP_TYPE as RT",
        "from docx.opc.packuri import PackURI",
        "from docx.oxml import OxmlElement, parse_xml",
        "from docx.oxml.ns import qn",
        f"phrase, note_text = {phrase!r}, {text!r}",
        "W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'",
        "from lxml import etree",
        "from docx.opc.part import Part",
        "try:  # python-docx has no footnote API: the part is edited as XML",
        f"    part = {doc}.part.part_related_by(RT.FOOTNOTES)",
        "    notes = parse_xml(part.blob)",
        "except KeyError:  # no footnotes part yet: make one with the two separators",
        "    seps = ('<w:footnote w:type=\"separator\" w:id=\"-1\"><w:p><w:r><w:separator/></w:r></w:p>'",
        "            '</w:footnote><w:footnote w:type=\"continuationSeparator\" w:id=\"0\"><w:p><w:r>'",
        "            '<w:continuationSeparator/></w:r></w:p></w:footnote>')",
        "    notes = parse_xml(f'<w:footnotes xmlns:w=\"{W}\">{seps}</w:footnotes>')",
        f"    part = Part(PackURI('/word/footnotes.xml'), CT.WML_FOOTNOTES, b'', {doc}.part.package)",
        f"    {doc}.part.relate_to(part, RT.FOOTNOTES)",
        "number = str(1 + max([0] + [int(n.get(qn('w:id'))) for n in notes.findall(qn('w:footnote'))",
        "                            if n.get(qn('w:id')).isdigit()]))",
        "sup = f'<w:rPr xmlns:w=\"{W}\"><w:vertAlign w:val=\"superscript\"/></w:rPr>'",
        "notes.append(parse_xml(f'<w:footnote xmlns:w=\"{W}\" w:id=\"{number}\"><w:p><w:r>{sup}<w:footnoteRef/></w:r>'",
        "                       f'<w:r><w:t xml:space=\"preserve\"> {note_text}</w:t></w:r></w:p></w:footnote>'))",
        _find(doc, paragraph_start),
        "run = next(r for r in p.runs if phrase in r.text)  # the words sit in one run here",
        "before, after = run.text.split(phrase, 1)",
        "run.text = before + phrase",
        "ref = parse_xml(f'<w:r xmlns:w=\"{W}\">{sup}<w:footnoteReference w:id=\"{number}\"/></w:r>')",
        "run._r.addnext(ref)",
        "if after:",
        "    rest = copy.deepcopy(run._r)",
        "    ref.addnext(rest)",
        "    from docx.text.run import Run",
        "    Run(rest, p).text = after",
        "part._blob = etree.tostring(notes, xml_declaration=True, encoding='UTF-8', standalone=True)",
    ])
