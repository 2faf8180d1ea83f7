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
from verifiers.meaning import Meaning, Said, when
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
