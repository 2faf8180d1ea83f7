"""pptx shape ops: move and resize a picture the way Impress's Position and Size dialog does (values in cm); add a
text box; align a slide's paragraphs."""

from __future__ import annotations

from pptx.enum.text import PP_ALIGN
from pptx.shapes.picture import Picture
from pptx.util import Cm

from preparers import pptx as deckio
from preparers.ops import op
from preparers.ops.pptx import Deck, _slide

ALIGN = {"left": PP_ALIGN.LEFT, "center": PP_ALIGN.CENTER, "right": PP_ALIGN.RIGHT, "justify": PP_ALIGN.JUSTIFY}


@op("pptx.place_picture")
def place_picture(deck: Deck, title: str, left_cm: float | None = None, top_cm: float | None = None,
                  width_cm: float | None = None, height_cm: float | None = None) -> None:
    """Move the (first) picture of the slide titled `title` so its top-left corner is at (`left_cm`, `top_cm`)
    and/or give it `width_cm` x `height_cm`; what is not given stays as it is."""
    found = [s for s in _slide(deck, title).shapes if isinstance(s, Picture)]
    if not found:
        raise ValueError(f"slide {title!r} has no picture")
    picture = found[0]
    for attr, value in (("left", left_cm), ("top", top_cm), ("width", width_cm), ("height", height_cm)):
        if value is not None:
            setattr(picture, attr, Cm(value))


@op("pptx.add_text_box")
def add_text_box(deck: Deck, title: str, text: str, left_cm: float, top_cm: float, width_cm: float = 10,
                 height_cm: float = 1.5) -> None:
    """A text box reading `text` on the slide titled `title` (Insert > Text Box), its box at the given place."""
    box = _slide(deck, title).shapes.add_textbox(Cm(left_cm), Cm(top_cm), Cm(width_cm), Cm(height_cm))
    box.text_frame.text = text


@op("pptx.align_paragraphs")
def align_paragraphs(deck: Deck, title: str, align: str, first: int | None = None, part: str = "body") -> None:
    """Align the paragraphs of the slide's content placeholder(s) (`part="title"`: its title) `left`, `center`,
    `right` or `justify`; only the first `first` paragraphs when given."""
    slide = _slide(deck, title)
    shapes = deckio.placeholders(slide, "body") if part == "body" else [deckio.title_shape(slide)]
    paras = [p for shape in shapes if shape is not None for p in shape.text_frame.paragraphs if p.text.strip()]
    for para in paras[:first]:
        para.alignment = ALIGN[align]
