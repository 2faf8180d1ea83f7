"""The pptx reader: a presentation parsed once per state and file (`Deck`, its slide titles read once), what a slide's
own XML says (its title, its texts) cached by a digest of that XML, and what the pptx checks, their mutators and
the Impress families read of a slide: texts, table cells, a run's color, a picture's pixels and corner.

Written to accept what LibreOffice Impress saves as well as what python-pptx writes (see `preparers.pptx` for the
reading rules): titles may come back as `title` instead of `ctrTitle`, body placeholders as a bare `<p:ph/>`, and
a paragraph may be split into several runs.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from lxml import etree
from pptx.oxml.ns import qn
from pptx.presentation import Presentation as PresentationT
from pptx.slide import Slide

from preparers import pptx as deckio
from preparers.image import decoded
from verifiers.readers import Source, StateError


@dataclass
class Deck:
    """A parsed presentation (what `State.read` keeps for a pptx file) and its slide titles, read once: every
    check names slides by title, and a slide's title costs a walk of its shapes. Nothing edits a deck once it is
    parsed for the checks (checks never write; a mutant wraps its deck once edited)."""

    prs: PresentationT
    _titles: list[str] | None = field(default=None, repr=False)

    def titles(self) -> list[str]:
        """`deckio.titles(prs)`: every slide's title, in order."""
        if self._titles is None:
            self._titles = [_slide_title(slide) for slide in self.prs.slides]
        return list(self._titles)

    def titled(self, title: str) -> list[Slide]:
        """`deckio.slides_titled(prs, title)`: every slide titled `title`, in order."""
        want = deckio.norm(title)
        return [s for s, t in zip(self.prs.slides, self.titles(), strict=True) if t == want]


#: What the checks read from a slide's own XML (its title, its texts), by a digest of that XML. A task's states
#: and mutants show the same slides again and again, and serializing a slide costs a tenth of building its shapes
#: to read them. Values are immutable (a title, a tuple of texts).
_BY_XML: OrderedDict[tuple[str, bytes], Any] = OrderedDict()
_BY_XML_KEPT = 1024
_BY_XML_LOCK = threading.Lock()  # the in-process gate reads states in several threads
T = TypeVar("T")


def _by_xml(what: str, slide: Slide, read: Callable[[Slide], T]) -> T:
    """`read(slide)` for a reader whose answer depends on the slide's own XML only, looked up by that XML."""
    key = (what, hashlib.sha256(etree.tostring(slide._element)).digest())
    with _BY_XML_LOCK:
        if key in _BY_XML:
            _BY_XML.move_to_end(key)
            return _BY_XML[key]  # type: ignore[no-any-return]
    value = read(slide)
    with _BY_XML_LOCK:
        _BY_XML[key] = value
        while len(_BY_XML) > _BY_XML_KEPT:
            _BY_XML.popitem(last=False)
    return value


def _slide_title(slide: Slide) -> str:
    """`deckio.slide_title(slide)`: read from the slide's title placeholder, else its first text."""
    return _by_xml("title", slide, deckio.slide_title)


def _load(host: Path) -> Deck:
    return Deck(deckio.read_deck(host.read_bytes()))


def load(state: Source, path: str) -> Deck:
    return state.read(path, _load, "pptx presentation")


def deck(state: Source, path: str) -> PresentationT:
    return load(state, path).prs


def slides(state: Source, path: str, title: str) -> list[Slide]:
    """Every slide titled `title`; none is a StateError naming the titles there are."""
    parsed = load(state, path)
    found = parsed.titled(title)
    if not found:
        raise StateError(f"{path} has no slide titled {title!r} (titles: {parsed.titles()})")
    return found


def run_color(run: Any) -> str | None:
    rpr = run._r.find(qn("a:rPr"))
    fill = rpr.find(qn("a:solidFill")) if rpr is not None else None
    rgb = fill.find(qn("a:srgbClr")) if fill is not None else None
    return str(rgb.get("val")).upper() if rgb is not None else None


def text_paragraphs(slide: Slide) -> list[Any]:
    return [p for s in deckio.walk(slide.shapes) if s.has_text_frame for p in s.text_frame.paragraphs
            if deckio.norm(p.text)]


def table_cells(frame: Any) -> list[list[str]]:
    return [[deckio.norm(cell.text) for cell in row.cells] for row in frame.table.rows]


def pixel_digest(data: bytes) -> str:
    """A digest of an image's pixels (size + RGBA), the same whether or not a writer re-encoded the file."""
    rgba = decoded(data).convert("RGBA")
    return hashlib.sha256(f"{rgba.width}x{rgba.height}".encode() + rgba.tobytes()).hexdigest()


def shape_corner(prs: PresentationT, shape: Any) -> str:
    x = shape.left + shape.width / 2
    y = shape.top + shape.height / 2
    height, width = prs.slide_height or 0, prs.slide_width or 0
    return f"{'top' if y < height / 2 else 'bottom'}_{'left' if x < width / 2 else 'right'}"


def slide_texts(slide: Slide) -> list[str]:
    """Every non-empty text of a slide (text boxes, placeholders, table cells), sorted: what "unchanged" compares.

    Sorted, because a writer may reorder shapes in the slide's tree without changing what the slide shows."""
    return list(_by_xml("texts", slide, _slide_texts))


def _slide_texts(slide: Slide) -> tuple[str, ...]:
    out: list[str] = []
    for shape in deckio.walk(slide.shapes):
        if shape.has_text_frame:
            out += [deckio.norm(p.text) for p in shape.text_frame.paragraphs if deckio.norm(p.text)]
        elif getattr(shape, "has_table", False):
            out += [deckio.norm(c.text) for row in shape.table.rows for c in row.cells if deckio.norm(c.text)]
    return tuple(sorted(out))
