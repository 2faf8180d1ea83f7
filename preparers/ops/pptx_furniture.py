"""pptx furniture ops: a footer text and slide numbers on every slide (Insert > Header and Footer > Apply to All).

Each slide gets its own copy of its layout's footer or slide-number placeholder (`<p:sp>` with `<p:ph type="ftr">`
or `type="sldNum"`), as PowerPoint writes them and LibreOffice (7.2 on) exports them; the number's field carries the
slide's number as its text, as LibreOffice writes it. Slides are named by their title (`preparers.ops.pptx`).
"""

from __future__ import annotations

import copy
from typing import Any

from pptx.util import Cm

from preparers.ops import op
from preparers.ops.pptx import Deck, _slide

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
FIELD_ID = "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}"  # any GUID: PowerPoint and LibreOffice renumber it


def _targets(deck: Deck, skip: list[str] | None, only: list[str] | None) -> list[tuple[int, Any]]:
    chosen = {id(_slide(deck, t)) for t in only} if only is not None else None
    skipped = {id(_slide(deck, t)) for t in skip or []}
    return [(n, s) for n, s in enumerate(deck.prs.slides, 1)
            if id(s) not in skipped and (chosen is None or id(s) in chosen)]


def _placeholder(slide: Any, kind: str) -> Any:
    """The slide's own placeholder of type `kind`, copied from its layout's (or its master's) when it has none."""
    for sp in slide._element.iter(f"{P}sp"):
        if any(ph.get("type") == kind for ph in sp.iterfind(f"{P}nvSpPr/{P}nvPr/{P}ph")):
            return sp
    for owner in (slide.slide_layout, slide.slide_layout.slide_master):
        for sp in owner._element.iter(f"{P}sp"):
            if any(ph.get("type") == kind for ph in sp.iterfind(f"{P}nvSpPr/{P}nvPr/{P}ph")):
                clone = copy.deepcopy(sp)
                xfrm = clone.find(f"{P}spPr/{A}xfrm")
                if xfrm is not None and owner is slide.slide_layout:
                    xfrm.getparent().remove(xfrm)  # sits where the layout's does (a master's copy keeps its own)
                ids = [int(e.get("id", 0)) for e in slide._element.iter(f"{P}cNvPr")]
                clone.find(f"{P}nvSpPr/{P}cNvPr").set("id", str(max(ids, default=1) + 1))
                slide.shapes._spTree.append(clone)
                return clone
    raise ValueError(f"the slide's layout and master have no {kind!r} placeholder")


def _paragraph(sp: Any) -> Any:
    body = sp.find(f"{P}txBody")
    for p in body.findall(f"{A}p")[1:]:
        body.remove(p)
    para = body.find(f"{A}p")
    if para is None:
        para = body.makeelement(f"{A}p", {})
        body.append(para)
    for child in list(para):
        if child.tag != f"{A}pPr":
            para.remove(child)
    return para


def _run(para: Any, tag: str, attrs: dict[str, str], text: str) -> None:
    run = para.makeelement(tag, attrs)
    run.append(run.makeelement(f"{A}rPr", {"lang": "en-US"}))
    t = run.makeelement(f"{A}t", {})
    t.text = text
    run.append(t)
    para.append(run)


@op("pptx.set_footer")
def set_footer(deck: Deck, text: str, skip: list[str] | None = None, only: list[str] | None = None,
               textbox: bool = False) -> None:
    """The footer `text` on every slide (but those titled in `skip`; only those in `only`). `textbox` (a slip)
    types it in a text box at the bottom instead of the footer placeholder."""
    for _, slide in _targets(deck, skip, only):
        if textbox:
            box = slide.shapes.add_textbox(Cm(8), Cm(17.5), Cm(9), Cm(1))
            box.text_frame.text = text
            continue
        _run(_paragraph(_placeholder(slide, "ftr")), f"{A}r", {}, text)


@op("pptx.set_slide_numbers")
def set_slide_numbers(deck: Deck, skip: list[str] | None = None, only: list[str] | None = None,
                      typed: bool = False) -> None:
    """A slide-number field on every slide (but those titled in `skip`; only those in `only`). `typed` (a slip)
    types each slide's number as plain text in the placeholder instead of the field."""
    for n, slide in _targets(deck, skip, only):
        para = _paragraph(_placeholder(slide, "sldNum"))
        if typed:
            _run(para, f"{A}r", {}, str(n))
        else:
            _run(para, f"{A}fld", {"id": FIELD_ID, "type": "slidenum"}, str(n))
