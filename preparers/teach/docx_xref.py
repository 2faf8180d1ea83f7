"""Snippet of the cross-reference op (preparers/ops/docx_xref.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import _find


@snippet("docx.add_cross_reference")
def add_cross_reference(doc: str, path: str, paragraph_start: str, placeholder: str, name: str,
                        style: str = "field", at_end: bool = False) -> str:
    kind = "PAGEREF" if style == "page" else "REF"
    lines = [
        "import copy",
        "from docx.oxml import OxmlElement",
        "from docx.oxml.ns import qn",
        f"name, placeholder = {name!r}, {placeholder!r}",
        "# the text the bookmark spans: what the reference shows",
        f"start = next(b for b in {doc}.element.body.iter(qn('w:bookmarkStart')) if b.get(qn('w:name')) == name)",
        "shown, inside = [], False",
        f"for el in {doc}.element.body.iter():",
        "    if el is start:",
        "        inside = True",
        "    elif inside and el.tag == qn('w:bookmarkEnd') and el.get(qn('w:id')) == start.get(qn('w:id')):",
        "        break",
        "    elif inside and el.tag == qn('w:t'):",
        "        shown.append(el.text or '')",
        "shown = ''.join(shown)",
        _find(doc, paragraph_start),
        "# the run holding the placeholder: split it into before / placeholder / after",
        "run = next(r for r in p.runs if placeholder in r.text)",
        "before, after = run.text.split(placeholder, 1)",
        "",
        "def piece(child=None, text=None):",
        "    r = OxmlElement('w:r')",
        "    if run._r.rPr is not None:",
        "        r.append(copy.deepcopy(run._r.rPr))",
        "    if text is not None:",
        "        child = OxmlElement('w:t')",
        "        child.text = text",
        "        child.set('{http://www.w3.org/XML/1998/namespace}space', 'preserve')",
        "    r.append(child)",
        "    return r",
        "",
        "def char(kind):",
        "    c = OxmlElement('w:fldChar')",
        "    c.set(qn('w:fldCharType'), kind)",
        "    return c",
        "",
        "instr = OxmlElement('w:instrText')",
        f"instr.text = ' {kind} ' + name + ' \\\\h '",
        "instr.set('{http://www.w3.org/XML/1998/namespace}space', 'preserve')",
    ]
    if style in ("field", "page"):
        result = "shown" if style == "field" else "'1'"
        lines.append(f"ref = [piece(char('begin')), piece(instr), piece(char('separate')), piece(text={result}), "
                     "piece(char('end'))]")
    elif style == "link":
        lines += ["link = OxmlElement('w:hyperlink')", "link.set(qn('w:anchor'), name)",
                  "link.append(piece(text=shown))", "ref = [link]"]
    else:
        lines.append("ref = [piece(text=shown)]")
    if at_end:
        lines += ["for el in ref:", "    p._p.append(el)"]
    else:
        lines += ["parts = [piece(text=before), *ref, piece(text=after)]",
                  "for el in parts:",
                  "    run._r.addprevious(el)",
                  "run._r.getparent().remove(run._r)"]
    lines.append("print('cross-reference to', name, 'showing', repr(shown))")
    return "\n".join(lines)
