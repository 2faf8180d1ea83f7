"""Impress footer and slide-number ops as python-pptx lines: each slide gets a copy of its layout's footer or
slide-number placeholder (python-pptx has no Header and Footer API), filled with the text or a slide-number field."""

from __future__ import annotations

from preparers.teach import snippet

_COPY = [
    "import copy",
    "P = '{http://schemas.openxmlformats.org/presentationml/2006/main}'",
    "A = '{http://schemas.openxmlformats.org/drawingml/2006/main}'",
    "def furniture(slide, kind):  # the slide's own footer/number placeholder, copied from its layout if missing",
    "    def find(owner):",
    "        return next((sp for sp in owner._element.iter(P + 'sp')",
    "                     for ph in sp.iterfind(P + 'nvSpPr/' + P + 'nvPr/' + P + 'ph')",
    "                     if ph.get('type') == kind), None)",
    "    sp = find(slide)",
    "    if sp is None:",
    "        sp = copy.deepcopy(find(slide.slide_layout))",
    "        xfrm = sp.find(P + 'spPr/' + A + 'xfrm')",
    "        if xfrm is not None:",
    "            xfrm.getparent().remove(xfrm)  # it sits where the layout puts it",
    "        top = max(int(e.get('id', 0)) for e in slide._element.iter(P + 'cNvPr'))",
    "        sp.find(P + 'nvSpPr/' + P + 'cNvPr').set('id', str(top + 1))",
    "        slide.shapes._spTree.append(sp)",
    "    body = sp.find(P + 'txBody')",
    "    for para in body.findall(A + 'p'):",
    "        body.remove(para)",
    "    para = body.makeelement(A + 'p', {})",
    "    body.append(para)",
    "    return para",
    "def run(para, tag, attrs, text):",
    "    r = para.makeelement(A + tag, attrs)",
    "    r.append(r.makeelement(A + 'rPr', {'lang': 'en-US'}))",
    "    t = r.makeelement(A + 't', {})",
    "    t.text = text",
    "    r.append(t)",
    "    para.append(r)",
]


def _loop(prs: str, skip: list[str] | None, only: list[str] | None) -> list[str]:
    lines = [f"for n, slide in enumerate({prs}.slides, 1):"]
    title = "(slide.shapes.title.text if slide.shapes.title is not None else '')"
    if skip:
        lines += [f"    if {title} in {skip!r}:", "        continue"]
    if only is not None:
        lines += [f"    if {title} not in {only!r}:", "        continue"]
    return lines


@snippet("pptx.set_footer")
def set_footer(prs: str, path: str, text: str, skip: list[str] | None = None, only: list[str] | None = None,
               textbox: bool = False) -> str:
    if textbox:
        return "\n".join(["from pptx.util import Cm", *_loop(prs, skip, only),
                          "    box = slide.shapes.add_textbox(Cm(8), Cm(17.5), Cm(9), Cm(1))",
                          f"    box.text_frame.text = {text!r}"])
    return "\n".join([*_COPY, *_loop(prs, skip, only), f"    run(furniture(slide, 'ftr'), 'r', {{}}, {text!r})"])


@snippet("pptx.set_slide_numbers")
def set_slide_numbers(prs: str, path: str, skip: list[str] | None = None, only: list[str] | None = None,
                      typed: bool = False) -> str:
    if typed:
        body = "    run(furniture(slide, 'sldNum'), 'r', {}, str(n))"
    else:
        body = ("    run(furniture(slide, 'sldNum'), 'fld', {'id': '{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}', "
                "'type': 'slidenum'}, str(n))")
    return "\n".join([*_COPY, *_loop(prs, skip, only), body])
