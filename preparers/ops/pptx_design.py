"""pptx design ops: a slide's background and its transition, as Impress sets them.

Slides are named by their title (`preparers.ops.pptx`); `title=None` means every slide of the deck.
"""

from __future__ import annotations

import io
from typing import Any

from pptx import Presentation
from pptx.dml.color import RGBColor

from preparers import pptx as deckio
from preparers.ops import op
from preparers.ops.pptx import Deck, _slide


def _solid(owner: Any, color: str) -> None:
    fill = owner.background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor.from_string(color.lstrip("#").upper())


@op("pptx.set_background")
def set_background(deck: Deck, color: str, title: str | None = None, master: bool = False,
                   skip: list[str] | None = None) -> None:
    """A solid `color` background on the slide titled `title`, on every slide (`title=None`) but those titled in
    `skip`, or once on the slide master (`master`: what Impress's "apply to all slides" does)."""
    if master:
        # a parse's masters are shared with the other copies of it (`preparers.pptx.copy_deck`): edit a parse of
        # our own
        deck.prs = Presentation(io.BytesIO(deckio.to_bytes(deck.prs)))
        _solid(deck.prs.slide_master, color)
        return
    if title is not None:
        _solid(_slide(deck, title), color)
        return
    for slide in deck.prs.slides:
        if deckio.slide_title(slide) not in (skip or []):
            _solid(slide, color)
