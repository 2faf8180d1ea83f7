"""pptx ops: edit a presentation the way a person does in Impress, naming slides by their title.

Positions are 1-based slide numbers in the final deck. Each op raises ValueError (an `OpError` for the
caller) when the slide or text it names is not there, so a solution that does not fit its file fails loudly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pptx.dml.color import RGBColor
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.presentation import Presentation as PresentationT
from pptx.slide import Slide
from pptx.util import Cm, Pt

from preparers import pptx as deckio
from preparers.ops import document_kind, op, resolve

R_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
SHAPE_TAGS = ("sp", "grpSp", "graphicFrame", "cxnSp", "pic", "contentPart")


@dataclass
class Deck:
    """The open presentation plus the state root (ops that insert files resolve them there)."""

    prs: PresentationT
    root: Path


def _load(host: Path, root: Path) -> Deck:
    if not host.is_file():
        raise FileNotFoundError(host)
    return Deck(deckio.read_deck(host.read_bytes()), root)


def _save(deck: Deck, host: Path) -> None:
    deck.prs.save(str(host))


document_kind("pptx", load=_load, save=_save)


def _slide(deck: Deck, title: str) -> Slide:
    found = deckio.slides_titled(deck.prs, title)
    if not found:
        raise ValueError(f"no slide titled {title!r}; titles: {deckio.titles(deck.prs)}")
    return found[0]


def _move(deck: Deck, slide: Slide, position: int) -> None:
    """Put `slide` at 1-based `position` of the slide list."""
    ids = deck.prs.slides._sldIdLst  # python-pptx has no public reorder API
    items = list(ids)
    if not 1 <= position <= len(items):
        raise ValueError(f"position={position}, but the deck has {len(items)} slides")
    entry = next(e for e in items if deck.prs.part.related_part(e.rId) is slide.part)
    ids.remove(entry)
    ids.insert(position - 1, entry)


@op("pptx.add_slide")
def add_slide(deck: Deck, layout: str, title: str, position: int, bullets: list[str] | None = None,
              subtitle: str | None = None, columns: list[list[str]] | None = None) -> None:
    """Add a slide of a layout kind (see `preparers.pptx.LAYOUTS`) with its text, at `position`."""
    spec = {"layout": layout, "title": title, "bullets": bullets or [], "subtitle": subtitle or "",
            "columns": columns or [[], []]}
    _move(deck, deckio.add_slide(deck.prs, spec), position)


@op("pptx.delete_slide")
def delete_slide(deck: Deck, title: str) -> None:
    """Delete the (first) slide titled `title`."""
    slide = _slide(deck, title)
    ids = deck.prs.slides._sldIdLst
    entry = next(e for e in ids if deck.prs.part.related_part(e.rId) is slide.part)
    deck.prs.part.drop_rel(entry.rId)
    ids.remove(entry)
    # python-pptx names a new slide slide<count+1>.xml: renumber now, or a later add would reuse a live name
    deck.prs.part.rename_slide_parts([e.rId for e in ids])


@op("pptx.move_slide")
def move_slide(deck: Deck, title: str, position: int) -> None:
    _move(deck, _slide(deck, title), position)


@op("pptx.duplicate_slide")
def duplicate_slide(deck: Deck, title: str, position: int, new_title: str | None = None) -> None:
    """Copy a slide (shapes, pictures, notes) to `position`; optionally retitle the copy."""
    source = _slide(deck, title)
    copy_ = deck.prs.slides.add_slide(source.slide_layout)
    tree = copy_.shapes._spTree
    for shape in list(copy_.shapes):
        tree.remove(shape._element)
    for element in source.shapes._spTree.iterchildren():
        if element.tag.rsplit("}", 1)[-1] in SHAPE_TAGS:
            clone = copy.deepcopy(element)
            for blip in clone.iter("{*}blip"):
                rid = blip.get(R_EMBED)
                if rid:
                    blip.set(R_EMBED, copy_.part.relate_to(source.part.related_part(rid), RT.IMAGE))
            tree.append(clone)
    if source.has_notes_slide:
        _notes_frame(copy_).text = deckio.notes_text(source)
    if new_title is not None:
        shape = deckio.title_shape(copy_)
        if shape is None:
            raise ValueError(f"slide {title!r} has no title to change")
        shape.text_frame.text = new_title
    _move(deck, copy_, position)


@op("pptx.set_title")
def set_title(deck: Deck, title: str, new: str) -> None:
    shape = deckio.title_shape(_slide(deck, title))
    assert shape is not None  # the slide was found by its title
    shape.text_frame.text = new


@op("pptx.set_subtitle")
def set_subtitle(deck: Deck, title: str, text: str) -> None:
    found = deckio.placeholders(_slide(deck, title), "subtitle")
    if not found:
        raise ValueError(f"slide {title!r} has no subtitle placeholder")
    found[0].text_frame.text = text


@op("pptx.set_bullets")
def set_bullets(deck: Deck, title: str, bullets: list[str], levels: list[int] | None = None,
                column: int = 0) -> None:
    """Replace the paragraphs of the slide's body placeholder number `column` (left to right)."""
    bodies = deckio.placeholders(_slide(deck, title), "body")
    if len(bodies) <= column:
        raise ValueError(f"slide {title!r} has {len(bodies)} body placeholders, no column {column}")
    deckio.fill(bodies[column].text_frame, bullets, levels)


def _notes_frame(slide: Slide) -> Any:
    frame = slide.notes_slide.notes_text_frame
    if frame is None:
        raise ValueError(f"the notes page of slide {deckio.slide_title(slide)!r} has no text placeholder")
    return frame


@op("pptx.set_notes")
def set_notes(deck: Deck, title: str, text: str) -> None:
    _notes_frame(_slide(deck, title)).text = text


@op("pptx.add_textbox")
def add_textbox(deck: Deck, title: str, text: str, left_cm: float = 2, top_cm: float = 15) -> None:
    """A free text box (what an agent makes when it types outside the placeholders)."""
    box = _slide(deck, title).shapes.add_textbox(Cm(left_cm), Cm(top_cm), Cm(20), Cm(2))
    box.text_frame.text = text


def _style(font: Any, bold: bool | None, italic: bool | None, underline: bool | None, size: float | None,
           color: str | None, strike: bool | None = None) -> None:
    if bold is not None:
        font.bold = bold
    if italic is not None:
        font.italic = italic
    if underline is not None:
        font.underline = underline
    if size is not None:
        font.size = Pt(size)
    if color is not None:
        font.color.rgb = RGBColor.from_string(color.lstrip("#").upper())
    if strike is not None:  # python-pptx has no API for it: the run's rPr carries strike="sngStrike"
        font._rPr.set("strike", "sngStrike" if strike else "noStrike")


@op("pptx.format_text")
def format_text(deck: Deck, title: str, text: str, bold: bool | None = None, italic: bool | None = None,
                underline: bool | None = None, size: float | None = None, color: str | None = None,
                whole_shape: bool = False, strike: bool | None = None) -> None:
    """Format every run of the paragraph reading `text` (or, `whole_shape`, of its whole text box)."""
    hits: list[Any] = []
    shape: Any
    for shape in _slide(deck, title).shapes:
        if shape.has_text_frame:
            paras = shape.text_frame.paragraphs
            if any(deckio.norm(p.text) == deckio.norm(text) for p in paras):
                hits += paras if whole_shape else [p for p in paras if deckio.norm(p.text) == deckio.norm(text)]
    if not hits:
        raise ValueError(f"slide {title!r} has no paragraph reading {text!r}")
    for para in hits:
        for run in para.runs:
            _style(run.font, bold, italic, underline, size, color, strike)


@op("pptx.add_table")
def add_table(deck: Deck, title: str, rows: list[list[str]], left_cm: float = 2, top_cm: float = 5,
              width_cm: float = 21) -> None:
    """A table whose cells read `rows` (all rows as long as the first)."""
    n_cols = len(rows[0])
    frame = _slide(deck, title).shapes.add_table(len(rows), n_cols, Cm(left_cm), Cm(top_cm), Cm(width_cm),
                                                  Cm(1.2 * len(rows)))
    for r, row in enumerate(rows):
        for c in range(n_cols):
            frame.table.cell(r, c).text = row[c] if c < len(row) else ""


@op("pptx.add_image")
def add_image(deck: Deck, title: str, image: str, left_cm: float, top_cm: float,
              width_cm: float | None = None) -> None:
    """Insert the picture file `image` (a path under /home/user) at a position, optionally `width_cm` wide."""
    host = resolve(deck.root, image)
    if not host.is_file():
        raise ValueError(f"{image} does not exist")
    width = Cm(width_cm) if width_cm is not None else None
    _slide(deck, title).shapes.add_picture(str(host), Cm(left_cm), Cm(top_cm), width=width)
