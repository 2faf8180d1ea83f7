"""pptx layout primitive: the slide layout a slide is linked to (Slide > Layout), read from the layout's type.

A slide's layout is its relationship to a slide layout part. Its name is no fact (LibreOffice renames layouts:
"Two Content" comes back as "Title, 2 Content", a "Title and Content" slide may come back linked to "Blank Slide"),
but the `type` attribute of `<p:sldLayout>` survives both writers for the kinds checked here (`titleOnly`,
`twoObj`); a layout without a type is judged by its name.
"""

from __future__ import annotations

from typing import Any

from preparers import pptx as deckio
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.pptx import load, slides

#: layout kind -> the `<p:sldLayout type>` python-pptx's template and LibreOffice both write for it
TYPES = {"title_only": "titleOnly", "two_content": "twoObj"}
#: layout kind -> the names a layout of that kind goes by (python-pptx's template, LibreOffice), for untyped layouts
NAMES = {"title_only": ("title only",), "two_content": ("two content", "title, 2 content", "title and 2 content")}


def linked_kind(slide: Any) -> str:
    """The layout kind (a key of TYPES) of the slide's layout, "other" when it is none of them; never raises."""
    try:
        layout = slide.slide_layout
        kind = layout._element.get("type")
        name = (layout.name or "").strip().lower()
    except Exception:  # noqa: BLE001 - a broken relationship is a wrong layout, not a crash
        return "other"
    for key, want in TYPES.items():
        if kind == want or (kind is None and name in NAMES[key]):
            return key
    return "other"


@primitive("pptx.layout_linked", grounded=("path", "slide", "layout"),
           meaning=Meaning(action=r"layout", args={"layout": Said("layout")}))
def layout_linked(state: State, path: str, slide: str, layout: str, others: list[str]) -> Result:
    """The slide titled `slide` uses a slide layout of kind `layout` (its layout relationship points to one), and
    none of the slides titled `others` (none of which started with it) does.

    The pptx frame treats layout links as save noise, so it cannot see another slide switched to the layout:
    `others` guards that here. For `two_content` the slide must also hold two content boxes (its placeholders)."""
    if layout not in TYPES:
        return fail(f"check misconfigured: layout={layout!r}, known: {sorted(TYPES)}")
    for item in slides(state, path, slide):
        got = linked_kind(item)
        if got != layout:
            name = getattr(item.slide_layout, "name", "?")
            return fail(f"slide {slide!r} uses the layout {name!r} ({got}), expected {layout}")
        if layout == "two_content" and len(deckio.placeholders(item, "body")) != 2:
            return fail(f"slide {slide!r} is linked to a two-content layout but holds "
                        f"{len(deckio.placeholders(item, 'body'))} content boxes, not 2")
    parsed = load(state, path)
    moved = sorted({t for t in others for s in parsed.titled(t) if linked_kind(s) == layout})
    if moved:
        return fail(f"slide(s) {moved} were switched to the {layout} layout too")
    return ok(f"slide {slide!r} uses a {layout} layout; no other slide was switched to it")
