"""pptx design ops: a slide's background and its transition, as Impress sets them.

Slides are named by their title (`preparers.ops.pptx`); `title=None` means every slide of the deck.
"""

from __future__ import annotations

import io
from typing import Any

from lxml import etree
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Cm

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


P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"


def _transition(slide: Any, effect: str) -> None:
    """Replace the slide's transition by `<p:transition><p:{effect}/></p:transition>`, placed before `p:timing`."""
    element = slide._element
    for old in [*element.findall(f"{P}transition"), *element.findall(f"{MC}AlternateContent")]:
        if old.tag == f"{P}transition" or old.find(f".//{P}transition") is not None:
            element.remove(old)
    made = etree.SubElement(element, f"{P}transition")
    etree.SubElement(made, f"{P}{effect}")
    later = element.find(f"{P}timing")
    if later is None:
        later = element.find(f"{P}extLst")
    if later is not None:
        later.addprevious(made)


@op("pptx.set_transition")
def set_transition(deck: Deck, effect: str, title: str | None = None, skip: list[str] | None = None) -> None:
    """The transition whose pptx element is `effect` (`fade`, `push`, `pull`...) on the slide titled `title`, or on
    every slide (`title=None`) but those titled in `skip`."""
    if title is not None:
        _transition(_slide(deck, title), effect)
        return
    for slide in deck.prs.slides:
        if deckio.slide_title(slide) not in (skip or []):
            _transition(slide, effect)


@op("pptx.slide_size")
def slide_size(deck: Deck, width_cm: float, height_cm: float) -> None:
    """Set the deck's slide size (Slide > Slide Properties > Slide: Width, Height); the shapes stay where they are."""
    deck.prs.slide_width, deck.prs.slide_height = Cm(width_cm), Cm(height_cm)


@op("pptx.set_hidden")
def set_hidden(deck: Deck, title: str, hidden: bool = True) -> None:
    """Hide the slide titled `title` in the slide show (Slide > Hide Slide: `show="0"`), or show it again."""
    element = _slide(deck, title)._element
    if hidden:
        element.set("show", "0")
    elif "show" in element.attrib:
        del element.attrib["show"]
