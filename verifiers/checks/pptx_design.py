"""pptx design primitives: what a slide shows behind its content (its background), how it enters (its transition).

A slide's background is read as Impress and PowerPoint show it: the slide's own `<p:bg>`, else its layout's, else
its master's (Impress's "apply to all slides" sets the master's; python-pptx writes a slide's own). LibreOffice
writes every master's background out as an explicit solid white and colours in lower case; a theme reference
(`bgRef`, the python-pptx template's master) reads as `theme`. A transition is read as the pptx frame reads it
(`verifiers.frame.pptx.transition`: the effect element, also inside LibreOffice's `mc:AlternateContent`).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from preparers import pptx as deckio
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.frame.pptx import transition
from verifiers.meaning import Meaning, Said, choice, when
from verifiers.readers.pptx import load, slides

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"


def own_background(element: Any) -> str | None:
    """The background a slide, layout or master element sets itself ('solid 1F4E79', 'theme', 'gradFill'...), or
    None when it sets none."""
    bg = element.find(f"{P}cSld/{P}bg")
    if bg is None:
        return None
    if bg.find(f"{P}bgRef") is not None:
        return "theme"
    props = bg.find(f"{P}bgPr")
    if props is None:
        return "theme"
    rgb = props.find(f"{A}solidFill/{A}srgbClr")
    if rgb is not None:
        return f"solid {str(rgb.get('val', '')).upper()}"
    fill = next((c for c in props.iterchildren(etree.Element) if etree.QName(c).localname != "effectLst"), None)
    return etree.QName(fill).localname if fill is not None else "theme"


def background(slide: Any) -> str:
    """What the slide shows behind its content: its own background, else its layout's, else its master's."""
    chain: tuple[Any, ...]
    try:
        layout = slide.slide_layout
        chain = (slide._element, layout._element, layout.slide_master._element)
    except Exception:  # a slide without a layout part: only its own
        chain = (slide._element,)
    for element in chain:
        found = own_background(element)
        if found is not None:
            return found
    return "theme"


@primitive("pptx.background", grounded=("path", "slide", "color", "every"),
           meaning=Meaning(action=r"background|backdrop",
                           args={"every": Said("scope", when("all"))}))
def slide_background(state: State, path: str, color: str, slide: str | None = None,
                     every: bool | None = None) -> Result:
    """Slide `slide` (every slide titled so) shows a solid `color` background and no other slide does; with
    `every`, every slide of the deck shows it (set on each slide or once on the master)."""
    want = f"solid {color.lstrip('#').upper()}"
    parsed = load(state, path)
    titles = parsed.titles()
    shown = [background(s) for s in parsed.prs.slides]
    if every:
        wrong = [f"{t or f'#{i + 1}'!r} ({b})" for i, (t, b) in enumerate(zip(titles, shown, strict=True))
                 if b != want]
        if wrong or not shown:
            return fail(f"{len(wrong)} of {len(shown)} slides do not show a {want} background: "
                        f"{', '.join(wrong[:5])}{', ...' if len(wrong) > 5 else ''}")
        return ok(f"all {len(shown)} slides show a {want} background")
    if slide is None:
        return fail("check misconfigured: neither a slide nor every slide")
    asked = slides(state, path, slide)
    for item in asked:
        if (got := background(item)) != want:
            return fail(f"slide {slide!r} shows a {got} background, expected {want}")
    others = [t or f"#{i + 1}" for i, (t, b) in enumerate(zip(titles, shown, strict=True))
              if b == want and t != deckio.norm(slide)]
    if others:
        return fail(f"slide {slide!r} shows {want}, but so do {len(others)} other slide(s) ({others[:4]}): only "
                    f"that slide was to get it")
    return ok(f"slide {slide!r} shows a {want} background, no other slide does")


#: transition names as instructions say them -> the effect element pptx stores (Impress's Uncover is `p:pull`)
TRANSITIONS = {"fade": "fade", "push": "push", "wipe": "wipe", "split": "split", "dissolve": "dissolve",
               "uncover": "pull"}


@primitive("pptx.transition", grounded=("path", "slide", "kind", "every"),
           meaning=Meaning(action=r"transition",
                           args={"kind": Said("transition"), "every": Said("scope", when("all"))}))
def slide_transition(state: State, path: str, kind: str, slide: str | None = None,
                     every: bool | None = None) -> Result:
    """Slide `slide` (every slide titled so) has the transition `kind` (a key of TRANSITIONS) and no other slide
    has one; with `every`, every slide of the deck has it."""
    want = TRANSITIONS.get(kind)
    if want is None:
        return fail(f"check misconfigured: kind={kind!r}, not one of {sorted(TRANSITIONS)}")
    parsed = load(state, path)
    titles = parsed.titles()
    found = [transition(s._element) for s in parsed.prs.slides]
    if every:
        wrong = [f"{t or f'#{i + 1}'!r} ({k or 'none'})" for i, (t, k) in enumerate(zip(titles, found, strict=True))
                 if k != want]
        if wrong or not found:
            return fail(f"{len(wrong)} of {len(found)} slides do not have the {kind} transition: "
                        f"{', '.join(wrong[:5])}{', ...' if len(wrong) > 5 else ''}")
        return ok(f"all {len(found)} slides have the {kind} transition")
    if slide is None:
        return fail("check misconfigured: neither a slide nor every slide")
    for item in slides(state, path, slide):
        if (got := transition(item._element)) != want:
            return fail(f"slide {slide!r} has {f'the {got} transition' if got else 'no transition'}, expected {kind}")
    others = [f"{t or f'#{i + 1}'!r} ({k})" for i, (t, k) in enumerate(zip(titles, found, strict=True))
              if k and t != deckio.norm(slide)]
    if others:
        return fail(f"slide {slide!r} has the {kind} transition, but {len(others)} other slide(s) have transitions "
                    f"too: {', '.join(others[:4])}; only that slide was to get one")
    return ok(f"slide {slide!r} has the {kind} transition, no other slide has one")


#: slide formats as instructions name them -> (landscape width / height, the exact landscape size in mm or None:
#: any size of that shape will do, LibreOffice's 28 x 15.75 cm "Screen 16:9" as well as PowerPoint's 33.867 x 19.05)
FORMATS: dict[str, tuple[float, tuple[float, float] | None]] = {
    "16:9": (16 / 9, None), "4:3": (4 / 3, None), "16:10": (16 / 10, None), "A4": (297 / 210, (297.0, 210.0))}
RATIO_TOLERANCE = 0.01  # relative: 16:10 and A4, the nearest formats, differ by 12%
SIZE_TOLERANCE_MM = 1.5


@primitive("pptx.slide_size", grounded=("path", "size", "orientation"),
           meaning=Meaning(action=r"size|format|orientation|portrait|landscape|widescreen|aspect",
                           args={"orientation": Said("orientation")}))
def slide_size(state: State, path: str, size: str, orientation: str) -> Result:
    """The deck's slides have the format `size` (a key of FORMATS) in `orientation` (landscape: wider than high)."""
    if size not in FORMATS or orientation not in ("landscape", "portrait"):
        return fail(f"check misconfigured: size={size!r}, orientation={orientation!r}")
    prs = load(state, path).prs
    width, height = (prs.slide_width or 0) / 36000, (prs.slide_height or 0) / 36000
    got = f"{width / 10:.2f} x {height / 10:.2f} cm"
    if not width or not height:
        return fail(f"the slides have no size ({got})")
    ratio, exact = FORMATS[size]
    if orientation == "portrait":
        ratio = 1 / ratio
        exact = exact and (exact[1], exact[0])
    if (width > height) != (orientation == "landscape"):
        return fail(f"the slides are {got}, {'portrait' if height > width else 'landscape'}, not {orientation}")
    if abs(width / height - ratio) > RATIO_TOLERANCE * ratio:
        return fail(f"the slides are {got} (width/height {width / height:.3f}), not {size} {orientation} "
                    f"({ratio:.3f})")
    if exact and (abs(width - exact[0]) > SIZE_TOLERANCE_MM or abs(height - exact[1]) > SIZE_TOLERANCE_MM):
        return fail(f"the slides are {got}, not {size} ({exact[0] / 10:g} x {exact[1] / 10:g} cm)")
    return ok(f"the slides are {got}: {size} {orientation}")


def _hidden(slide: Any) -> bool:
    return slide._element.get("show") in ("0", "false")


@primitive("pptx.slide_hidden", grounded=("path", "slide", "hidden"),
           meaning=Meaning(action=r"hid|unhid|show|skip|visible", args={"hidden": Said("visibility",
                                                                                         choice({True: "hidden",
                                                                                                 False: "shown"}))}))
def slide_hidden(state: State, path: str, slide: str, hidden: bool) -> Result:
    """The slide titled `slide` is hidden in the slide show (`hidden`: Slide > Hide Slide, `show="0"`) or shown."""
    for item in slides(state, path, slide):
        if _hidden(item) != hidden:
            return fail(f"slide {slide!r} is {'shown' if hidden else 'still hidden'} in the slide show, expected "
                        f"{'hidden' if hidden else 'shown'}")
    return ok(f"slide {slide!r} is {'hidden' if hidden else 'shown'} in the slide show")
