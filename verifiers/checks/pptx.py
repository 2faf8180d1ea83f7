"""pptx primitives: slides found by title, their order, layout, text, notes, formatting, tables, pictures.

Decks are read by `verifiers.readers.pptx`. Written to accept what LibreOffice Impress saves as well as what
python-pptx writes (see `preparers.pptx` for the reading rules): titles may come back as `title` instead of
`ctrTitle`, body placeholders as a bare `<p:ph/>`, every run carries explicit `b="0"`, `sz` and an `srgbClr` in
lower case, and a paragraph may be split into several runs. Text is compared after collapsing whitespace. A check
that names a slide by title looks at every slide with that title (a duplicate must match too).
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image
from pptx.oxml.ns import qn
from pptx.shapes.picture import Picture

from preparers import pptx as deckio
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.grounding import text_cells
from verifiers.meaning import Meaning, ReadBack, Said, Visible, choice, when
from verifiers.readers.pptx import (
    deck,
    load,
    pixel_digest,
    run_color,
    shape_corner,
    slide_texts,
    slides,
    table_cells,
    text_paragraphs,
)

CORNERS = ("top_left", "top_right", "bottom_left", "bottom_right")
WIDTH_TOLERANCE_CM = 0.3
FORMATS = ("bold", "italic", "underline", "size", "color", "strike")

#: every change to a deck: the words that ask for any pptx check's goal
DECK = r"slide|deck|presentation|Impress"


def _short(items: list[Any], limit: int = 8) -> str:
    shown = ", ".join(repr(i) for i in items[:limit])
    return f"[{shown}{', ...' if len(items) > limit else ''}]"


@primitive("pptx.slide_titles", grounded=("path", "titles"),
           meaning=Meaning(action=DECK, args={"titles": Visible(text_cells)}))
def slide_titles(state: State, path: str, titles: list[str]) -> Result:
    """The deck's slide titles are exactly `titles`, in this order."""
    actual = load(state, path).titles()
    want = [deckio.norm(t) for t in titles]
    if actual == want:
        return ok(f"{len(actual)} slides in order {_short(actual)}")
    return fail(f"slide titles are {_short(actual, 12)}, expected {_short(want, 12)}")


@primitive("pptx.slide_position", grounded=("path", "title", "position"),
           meaning=Meaning(action=DECK,
                           args={"position": ReadBack("'becomes slide 6', or a place 'directly after' a title")}))
def slide_position(state: State, path: str, title: str, position: int) -> Result:
    """The slide titled `title` is slide number `position` (1-based)."""
    actual = load(state, path).titles()
    where = [i for i, t in enumerate(actual, start=1) if t == deckio.norm(title)]
    if position in where:
        return ok(f"{title!r} is slide {position} of {len(actual)}")
    return fail(f"{title!r} is at {where or 'no position'}, expected slide {position} (titles: {_short(actual, 12)})")


@primitive("pptx.slide_count", grounded=("path", "title", "count"),
           meaning=Meaning(action=DECK, args={"count": Said("slides", choice({0: "deleted", 2: "duplicated"}))}))
def slide_count(state: State, path: str, title: str, count: int) -> Result:
    """Exactly `count` slides are titled `title` (0: deleted, 2: duplicated)."""
    actual = load(state, path).titles()
    n = actual.count(deckio.norm(title))
    if n == count:
        return ok(f"{n} slide(s) titled {title!r}")
    return fail(f"{n} slide(s) titled {title!r}, expected {count} (titles: {_short(actual, 12)})")


@primitive("pptx.slide_layout", grounded=("path", "title", "layout"),
           meaning=Meaning(action=DECK, args={"layout": Said("layout")}))
def slide_layout(state: State, path: str, title: str, layout: str) -> Result:
    """The slide titled `title` has the placeholders of layout kind `layout` (title_only, title_content, ...)."""
    for slide in slides(state, path, title):
        kind = deckio.layout_kind(slide)
        roles = [deckio.role(s) for s in slide.shapes if s.is_placeholder]
        if kind != layout:
            return fail(f"slide {title!r} looks like {kind} (placeholders {roles}), expected {layout}")
    return ok(f"slide {title!r} has the {layout} placeholders")


@primitive("pptx.body_text", grounded=("path", "slide", "named"), meaning=Meaning(action=DECK))
def body_text(state: State, path: str, slide: str, paragraphs: list[str], named: list[str],
              levels: list[int] | None = None, column: int | None = None) -> Result:
    """The body placeholder(s) of slide `slide` hold exactly `paragraphs` (optionally at `levels`); `named` are
    the texts the instruction states (new, removed or moved bullets)."""
    want = [deckio.norm(p) for p in paragraphs]
    for item in slides(state, path, slide):
        bodies = deckio.placeholders(item, "body")
        if column is not None:
            if len(bodies) <= column:
                return fail(f"slide {slide!r} has {len(bodies)} content boxes, no box number {column + 1}")
            bodies = [bodies[column]]
        got = deckio.paragraphs(bodies)
        texts = [t for t, _ in got]
        where = f"slide {slide!r}" + (f" box {column + 1}" if column is not None else "")
        if texts != want:
            return fail(f"{where} reads {_short(texts, 10)}, expected {_short(want, 10)}")
        if levels is not None and [lv for _, lv in got] != list(levels):
            return fail(f"{where} has indent levels {[lv for _, lv in got]}, expected {list(levels)}")
    return ok(f"slide {slide!r} reads {_short(want, 10)}" + (f" at levels {levels}" if levels else ""))


@primitive("pptx.subtitle", grounded=("path", "slide", "text"), meaning=Meaning(action=DECK))
def subtitle(state: State, path: str, slide: str, text: str) -> Result:
    """The subtitle placeholder of slide `slide` reads `text`."""
    for item in slides(state, path, slide):
        got = [t for t, _ in deckio.paragraphs(deckio.placeholders(item, "subtitle"))]
        if " ".join(got) != deckio.norm(text):
            return fail(f"slide {slide!r} subtitle reads {' '.join(got)!r}, expected {deckio.norm(text)!r}")
    return ok(f"slide {slide!r} subtitle reads {deckio.norm(text)!r}")


@primitive("pptx.notes_text", grounded=("path", "slide", "named"), meaning=Meaning(action=DECK))
def notes_text(state: State, path: str, slide: str, text: str, named: list[str]) -> Result:
    """The speaker notes of slide `slide` read `text` (whitespace-insensitive); `named` are the stated parts."""
    for item in slides(state, path, slide):
        got = deckio.notes_text(item)
        if got != deckio.norm(text):
            return fail(f"notes of slide {slide!r} read {got!r}, expected {deckio.norm(text)!r}")
    return ok(f"notes of slide {slide!r} read {deckio.norm(text)!r}")


def _has(run: Any, prop: str, want: Any) -> bool:
    """Is the run's own formatting `prop` (`want`)? Read from its rPr element as it is: python-pptx's `run.font`
    adds an empty rPr to a run without one, and checks never change what they read."""
    if prop == "color":
        return run_color(run) == str(want).lstrip("#").upper()
    rpr = run._r.find(qn("a:rPr"))
    if rpr is None:
        return False
    if prop in ("bold", "italic"):
        return rpr.get("b" if prop == "bold" else "i") in ("1", "true")
    if prop == "underline":
        return rpr.get("u") not in (None, "none")
    if prop == "strike":
        return rpr.get("strike") in ("sngStrike", "dblStrike")
    size = rpr.get("sz")  # hundredths of a point
    return size is not None and size.isdigit() and abs(int(size) / 100 - float(want)) < 0.6


@primitive("pptx.text_format", grounded=("path", "slide", "text", "bold", "italic", "underline", "size",
                                          "color", "strike", "also"),
           meaning=Meaning(action=DECK,
                           args={"bold": Said("emphasis", when("bold")), "italic": Said("emphasis", when("italic")),
                                 "underline": Said("emphasis", when("underline")),
                                 "strike": Said("effect", when("strike"))}))
def text_format(state: State, path: str, slide: str, text: str, bold: bool | None = None,
                italic: bool | None = None, underline: bool | None = None, size: float | None = None,
                color: str | None = None, strike: bool | None = None, also: str | None = None) -> Result:
    """The paragraph reading `text` (and, given, the one reading `also`) on slide `slide` is formatted as asked (all
    of it), and no other paragraph of that slide got the same formatting (`strike`: a single or double
    strikethrough)."""
    wanted = {k: v for k, v in zip(FORMATS, (bold, italic, underline, size, color, strike), strict=True)
              if v is not None}
    for item in slides(state, path, slide):
        paras = text_paragraphs(item)
        asked = [text] if also is None else [text, also]
        targets = []
        for one in asked:
            hits = [p for p in paras if deckio.norm(p.text) == deckio.norm(one)]
            if not hits:
                return fail(f"slide {slide!r} has no paragraph reading {one!r}")
            targets += hits
        for para in targets:
            runs = [r for r in para.runs if r.text.strip()]
            for prop, value in wanted.items():
                missing = [r.text for r in runs if not _has(r, prop, value)]
                if missing or not runs:
                    which = text if also is None else deckio.norm(para.text)
                    return fail(f"{which!r} on slide {slide!r} is not {prop} {value!r} in {_short(missing)}")
        for para in paras:
            if para in targets:
                continue
            for prop, value in wanted.items():
                if any(_has(r, prop, value) for r in para.runs if r.text.strip()):
                    return fail(f"{deckio.norm(para.text)!r} on slide {slide!r} is {prop} {value!r} too; only "
                                f"{' and '.join(repr(a) for a in asked)} should be")
    return ok(f"{' and '.join(repr(a) for a in asked)} on slide {slide!r} has {wanted}, no other paragraph does")


@primitive("pptx.table", grounded=("path", "slide", "rows", "cols", "header", "data"),
           meaning=Meaning(action=DECK,
                           args={"rows": ReadBack("'5 rows', 'a 5 x 4 table'"),
                                 "cols": ReadBack("'4 columns', 'a 5 x 4 table'")}))
def table(state: State, path: str, slide: str, rows: int, cols: int, header: list[str],
          data: list[list[str]] | None = None) -> Result:
    """Slide `slide` has a table of `rows` x `cols` cells whose first row is `header` (and other rows `data`)."""
    want = [deckio.norm(h) for h in header]
    for item in slides(state, path, slide):
        frames = [s for s in deckio.walk(item.shapes) if getattr(s, "has_table", False)]
        seen = []
        for frame in frames:
            cells = table_cells(frame)
            size = (len(cells), len(cells[0]) if cells else 0)
            seen.append(f"{size[0]}x{size[1]} header {cells[0] if cells else []}")
            body = [[deckio.norm(c) for c in row] for row in data] if data is not None else cells[1:]
            if size == (rows, cols) and cells[0] == want and cells[1:] == body:
                break
        else:
            rows_too = " and the stated rows" if data is not None else ""
            return fail(f"slide {slide!r} has no {rows}x{cols} table with header {want}{rows_too} "
                        f"(tables: {'; '.join(seen) or 'none'})")
    return ok(f"slide {slide!r} has a {rows}x{cols} table with header {want}")


@primitive("pptx.picture", grounded=("path", "slide", "image", "corner", "width_cm"),
           meaning=Meaning(action=DECK, args={"corner": Said("corner")}))
def picture(state: State, path: str, slide: str, image: str, pixels: str, corner: str | None = None,
            width_cm: float | None = None) -> Result:
    """Slide `slide` shows the picture `image` (same pixels), optionally in a corner and `width_cm` wide."""
    prs = deck(state, path)
    for item in slides(state, path, slide):
        seen = []
        for shape in deckio.walk(item.shapes):
            if not isinstance(shape, Picture):
                continue
            try:
                blob = shape.image.blob
                same = pixel_digest(blob) == pixels
                with Image.open(io.BytesIO(blob)) as img:
                    ratio = img.height / img.width
            except Exception as exc:  # a linked or broken picture is simply not the asked image
                seen.append(f"unreadable picture ({type(exc).__name__})")
                continue
            where, width = shape_corner(prs, shape), (shape.width or 0) / deckio.EMU_PER_CM
            seen.append(f"{'the image' if same else 'another image'} at {where}, {width:.1f} cm wide")
            if not same or (corner is not None and where != corner):
                continue
            if width_cm is not None and (abs(width - width_cm) > WIDTH_TOLERANCE_CM
                                         or abs(shape.height / shape.width - ratio) > 0.03 * ratio):
                continue
            break
        else:
            asked = " ".join(x for x in (corner and f"at {corner}", width_cm and f"{width_cm} cm wide") if x)
            return fail(f"slide {slide!r} does not show {image} {asked}".rstrip()
                        + f" (pictures: {'; '.join(seen) or 'none'})")
    return ok(f"slide {slide!r} shows {image}" + (f" at {corner}" if corner else "")
              + (f", {width_cm} cm wide" if width_cm else ""))


@primitive("pptx.slides_kept", grounded=("path",), meaning=Meaning(action=DECK))
def slides_kept(state: State, path: str, slides: list[list[Any]]) -> Result:
    """Each listed slide (`[title, texts]` or `[title, texts, notes]`) is still in the deck exactly once, shows
    exactly `texts` (see `slide_texts`), has the speaker `notes` (when given) and the listed slides keep their
    relative order: the slides the task does not touch are as they were (not edited, deleted, duplicated or
    moved). `texts` null: a slide the task edits, which must only stay in its place. No slide of the deck may
    be hidden: no task hides one, and a hidden slide is one the show skips."""
    parsed = load(state, path)
    prs, titles = parsed.prs, parsed.titles()
    hidden = [titles[i] or f"#{i + 1}" for i, s in enumerate(prs.slides) if s._element.get("show") in ("0", "false")]
    if hidden:
        return fail(f"slide(s) {_short(hidden, 4)} are hidden in the show: no slide was to be hidden")
    positions = []
    for entry in slides:
        title, texts = entry[0], entry[1]
        notes = entry[2] if len(entry) > 2 else None
        found = [i for i, t in enumerate(titles) if t == deckio.norm(title)]
        if len(found) != 1:
            return fail(f"the slide {title!r} should be left as it was, but {len(found)} slides have that title "
                        f"(titles: {_short(titles, 12)})")
        got, want = slide_texts(prs.slides[found[0]]), sorted(deckio.norm(t) for t in texts or [])
        if texts is not None and got != want:
            extra = [t for t in got if t not in want]
            missing = [t for t in want if t not in got]
            return fail(f"the slide {title!r} should be left as it was, but it changed: now also "
                        f"{_short(extra, 3)}, no longer {_short(missing, 3)}")
        if notes is not None and deckio.notes_text(prs.slides[found[0]]) != deckio.norm(notes):
            return fail(f"the speaker notes of {title!r} should be left as they were ({deckio.norm(notes)!r}), "
                        f"but read {deckio.notes_text(prs.slides[found[0]])[:60]!r}")
        positions.append(found[0])
    if positions != sorted(positions):
        return fail(f"the untouched slides changed their order: titles are now {_short(titles, 12)}")
    return ok(f"{len(slides)} slides out of the task's scope are unchanged and in their order")
