"""pptx layout op: switch a slide to another slide layout (Impress's Slide > Layout), keeping its text.

The slide's layout relationship is pointed at the deck's layout of that kind (`preparers.pptx.LAYOUTS`); every
placeholder the slide has keeps its text (Impress keeps a filled content box when the new layout has none), and a
placeholder the new layout adds (the second content box) is cloned from the layout, empty, as Impress shows it.
"""

from __future__ import annotations

import io

from pptx import Presentation
from pptx.opc.constants import RELATIONSHIP_TYPE as RT

from preparers import pptx as deckio
from preparers.ops import op
from preparers.ops.pptx import Deck, _slide


@op("pptx.set_layout")
def set_layout(deck: Deck, title: str, layout: str) -> None:
    """Link the slide titled `title` to the layout of kind `layout`, adding the title and content placeholders
    the new layout has and the slide lacks."""
    # a parse's layouts are shared with the other copies of it (`preparers.pptx.copy_deck`): relink in our own parse
    deck.prs = Presentation(io.BytesIO(deckio.to_bytes(deck.prs)))
    slide = _slide(deck, title)
    new = deckio.layout(deck.prs, layout)
    for rid, rel in list(slide.part.rels.items()):
        if rel.reltype == RT.SLIDE_LAYOUT:
            slide.part.drop_rel(rid)
    slide.part.relate_to(new.part, RT.SLIDE_LAYOUT)
    have = {s.placeholder_format.idx for s in slide.placeholders}
    for placeholder in new.placeholders:
        if placeholder.placeholder_format.idx not in have and deckio.role(placeholder) in ("title", "body"):
            slide.shapes.clone_placeholder(placeholder)
