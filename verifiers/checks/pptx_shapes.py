"""pptx shape primitives: where a picture sits on its slide and how large it is (Impress's Position and Size), and
a text box added to a slide, the alignment of a slide's content paragraphs.

The picture is recognised by its pixels (`verifiers.readers.pptx.pixel_digest`), whatever way a writer stores the
file. Positions are the picture's top-left corner from the slide's top-left corner, in cm, as Impress's Position
and Size dialog shows them with its base point at the top left; LibreOffice keeps 1/100 mm, so a typed value comes
back within TOLERANCE_CM.
"""

from __future__ import annotations

from typing import Any

from pptx.shapes.picture import Picture

from preparers import pptx as deckio
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.pptx import load, pixel_digest, slides

A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
TOLERANCE_CM = 0.06
RATIO_TOLERANCE = 0.02  # relative: "proportions kept"


def _pixels(shape: Any) -> str | None:
    try:
        return pixel_digest(shape.image.blob)
    except Exception:  # a linked or broken picture is not the picture asked about
        return None


def geometry(shape: Any) -> tuple[float, float, float, float]:
    """(left, top, width, height) of a shape in cm."""
    left, top, width, height = ((v or 0) / deckio.EMU_PER_CM for v in (shape.left, shape.top, shape.width,
                                                                         shape.height))
    return left, top, width, height


@primitive("pptx.picture_geometry", grounded=("path", "slide", "left_cm", "top_cm", "width_cm", "height_cm"),
           meaning=Meaning(action=r"mov|position|place|put|resiz|size|scale|wide|width|shrink|enlarge|make"))
def picture_geometry(state: State, path: str, slide: str, pixels: str, left_cm: float | None = None,
                     top_cm: float | None = None, width_cm: float | None = None, height_cm: float | None = None,
                     ratio: float | None = None) -> Result:
    """The picture with `pixels` on slide `slide` has its top-left corner at (`left_cm`, `top_cm`) and is `width_cm`
    wide and `height_cm` high (each when given); `ratio` (height / width): its proportions are kept."""
    wanted = {"left": left_cm, "top": top_cm, "width": width_cm, "height": height_cm}
    for item in slides(state, path, slide):
        pictures = [s for s in deckio.walk(item.shapes) if isinstance(s, Picture)]
        found = [s for s in pictures if _pixels(s) == pixels]
        if len(found) != 1:
            return fail(f"slide {slide!r} shows the picture {len(found)} times ({len(pictures)} picture(s) there), "
                        "expected once")
        got = dict(zip(("left", "top", "width", "height"), geometry(found[0]), strict=True))
        shown = ", ".join(f"{k} {v:.2f} cm" for k, v in got.items())
        wrong = [f"{k} {got[k]:.2f} cm, expected {v:g}" for k, v in wanted.items()
                 if v is not None and abs(got[k] - v) > TOLERANCE_CM]
        if ratio is not None and got["width"] and abs(got["height"] / got["width"] - ratio) > RATIO_TOLERANCE * ratio:
            wrong.append(f"proportions {got['height'] / got['width']:.3f} (height/width), expected {ratio:.3f}")
        if wrong:
            return fail(f"the picture on slide {slide!r} is not where or as large as asked: {'; '.join(wrong)} "
                        f"(now {shown})")
    asked = ", ".join(f"{k} {v:g} cm" for k, v in wanted.items() if v is not None)
    return ok(f"the picture on slide {slide!r} has {asked}" + (" with its proportions kept" if ratio else ""))


REGIONS = ("bottom", "top_right")


def _region(shape: Any, width: float, height: float) -> str:
    """Where a shape's centre lies: `bottom` (the lowest third), `top_right` (the upper third, right half), else
    `elsewhere`."""
    left, top, w, h = geometry(shape)
    x, y = (left + w / 2) * deckio.EMU_PER_CM, (top + h / 2) * deckio.EMU_PER_CM
    if y > height * 2 / 3:
        return "bottom"
    if y < height / 3 and x > width / 2:
        return "top_right"
    return "elsewhere"


@primitive("pptx.text_box", grounded=("path", "slide", "text", "region"),
           meaning=Meaning(action=r"text ?box|add|insert|put|place|label|note|caption",
                           args={"region": Said("corner_region")}))
def text_box(state: State, path: str, slide: str, text: str, region: str | None = None) -> Result:
    """Slide `slide` has a text box (a shape of its own, not a placeholder) reading exactly `text`, its centre in
    `region` of the slide when given (`bottom`: the lowest third; `top_right`: the upper third, right half)."""
    parsed = load(state, path)
    width, height = parsed.prs.slide_width or 0, parsed.prs.slide_height or 0
    want = deckio.norm(text)
    for item in slides(state, path, slide):
        boxes = [s for s in deckio.walk(item.shapes) if not s.is_placeholder and s.has_text_frame
                 and deckio.norm(s.text_frame.text)]
        seen = [f"{deckio.norm(s.text_frame.text)[:40]!r} ({_region(s, width, height)})" for s in boxes]
        found = [s for s in boxes if deckio.norm(s.text_frame.text) == want]
        if not found:
            placed = [t for t, _ in deckio.paragraphs(deckio.placeholders(item, "body"))]
            where = " (it is a paragraph of the content placeholder)" if want in placed else ""
            return fail(f"slide {slide!r} has no text box reading {want!r}{where} (text boxes: "
                        f"{'; '.join(seen) or 'none'})")
        if region is not None and all(_region(s, width, height) != region for s in found):
            return fail(f"the text box {want!r} on slide {slide!r} is not at the {region.replace('_', '-')} of the "
                        f"slide (text boxes: {'; '.join(seen)})")
    return ok(f"slide {slide!r} has a text box reading {want!r}" + (f" at its {region}" if region else ""))


@primitive("pptx.picture_aligned", grounded=("path", "slide", "align"),
           meaning=Meaning(action=r"align|cent(?:er|re)|move|put|place", args={"align": Said("align")}))
def picture_aligned(state: State, path: str, slide: str, pixels: str, align: str, width_cm: float,
                    top_cm: float) -> Result:
    """The picture with `pixels` on slide `slide` is aligned with the slide: its left edge on the slide's
    (`left`), its centre on the slide's centre line (`center`) or its right edge on the slide's (`right`), still
    `width_cm` wide and `top_cm` from the top (Align Objects moves it sideways only)."""
    if align not in ("left", "center", "right"):
        return fail(f"check misconfigured: align={align!r}")
    parsed = load(state, path)
    slide_w = (parsed.prs.slide_width or 0) / deckio.EMU_PER_CM
    for item in slides(state, path, slide):
        found = [s for s in deckio.walk(item.shapes) if isinstance(s, Picture) and _pixels(s) == pixels]
        if len(found) != 1:
            return fail(f"slide {slide!r} shows the picture {len(found)} times, expected once")
        left, top, width, _ = geometry(found[0])
        edge = {"left": left, "center": left + width / 2 - slide_w / 2, "right": left + width - slide_w}[align]
        shown = f"left {left:.2f} cm, top {top:.2f} cm, {width:.2f} cm wide on a {slide_w:.2f} cm slide"
        if abs(edge) > TOLERANCE_CM:
            return fail(f"the picture on slide {slide!r} is not {align}-aligned with the slide ({shown})")
        if abs(width - width_cm) > TOLERANCE_CM or abs(top - top_cm) > TOLERANCE_CM:
            return fail(f"the picture on slide {slide!r} is {align}-aligned but was also resized or moved up or down "
                        f"({shown}; it was {width_cm:g} cm wide at {top_cm:g} cm from the top)")
    return ok(f"the picture on slide {slide!r} is {align}-aligned with the slide, its size and height kept")


#: alignment words (the lexicon's "align" values) -> the pptx `algn` value
ALIGNS = {"left": "l", "center": "ctr", "right": "r", "justify": "just"}


@primitive("pptx.paragraph_align", grounded=("path", "slide", "align"),
           meaning=Meaning(action=r"align|cent(?:er|re)|justif", args={"align": Said("align")}))
def paragraph_align(state: State, path: str, slide: str, align: str) -> Result:
    """Every paragraph of the content placeholder(s) of slide `slide` is aligned `align` (left, center, right,
    justify: Format > Align Text)."""
    want = ALIGNS.get(align)
    if want is None:
        return fail(f"check misconfigured: align={align!r}")
    for item in slides(state, path, slide):
        paras = [p for body in deckio.placeholders(item, "body") for p in body.text_frame.paragraphs
                 if deckio.norm(p.text)]
        if not paras:
            return fail(f"slide {slide!r} has no text in its content placeholder")
        got = []
        for para in paras:
            props = para._p.find(f"{{{A_NS}}}pPr")
            got.append((props.get("algn") if props is not None else None) or "l")
        wrong = [f"{deckio.norm(p.text)[:30]!r} ({g})" for p, g in zip(paras, got, strict=True) if g != want]
        if wrong:
            return fail(f"{len(wrong)} of the {len(paras)} paragraphs of slide {slide!r}'s content are not aligned "
                        f"{align}: {', '.join(wrong[:4])}")
    return ok(f"every paragraph of slide {slide!r}'s content is aligned {align}")
