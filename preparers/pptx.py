"""pptx preparer: a presentation spec in, deterministic pptx bytes out (python-pptx); plus the readers
that ops and checks share to find slides the way a person does — by their title.

Spec (plain JSON data):
    {"slides": [{"layout": "title_slide", "title": "Q3 Review", "subtitle": "Finance team"},
                {"layout": "title_content", "title": "Highlights", "bullets": ["Revenue up", "Churn down"],
                 "levels": [0, 1],                      # optional, one per bullet
                 "notes": "Open with the headline.",     # optional speaker notes
                 "hidden": False},                       # optional: skipped in the slide show
                {"layout": "title_only", "title": "Regional Results"},
                {"layout": "two_content", "title": "Pros and Cons", "columns": [["a"], ["b"]]}],
     "author": "Finance Team"}                             # optional

Reading rules (they must hold for python-pptx output and for what LibreOffice Impress saves, which turns
`ctrTitle` into `title`, body placeholders into a bare `<p:ph/>` without idx, and writes explicit run
properties): a slide's title is the text of its title/ctrTitle placeholder, else of its first non-empty text
shape; body text is the paragraphs of its body/object placeholders, left to right.
"""

from __future__ import annotations

import copy
import datetime as dt
import io
from collections.abc import Iterator
from typing import Any

from lxml import etree
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER
from pptx.opc.constants import CONTENT_TYPE as CT
from pptx.oxml.ns import qn
from pptx.oxml.shapes.shared import BaseShapeElement
from pptx.presentation import Presentation as PresentationT
from pptx.slide import Slide

from kit import parsecache
from preparers.office_zip import normalize

_NV_PR, _PH = qn("p:nvPr"), qn("p:ph")


def _placeholder_element(shape: BaseShapeElement) -> Any:
    """python-pptx's `BaseShapeElement.ph`, the `./*[1]/p:nvPr/p:ph` element or None, found by walking children.
    python-pptx evaluates that XPath afresh on every call (~20 us), and every look at a shape asks it: iterating a
    slide's shapes, `is_placeholder`, `placeholder_format`, a placeholder's inherited position; 18,000 times
    (2-3 ms a task) in the gate of 150 tasks. The walk gives the same element (tests/preparers/test_pptx_reader.py
    compares), ten times faster. Installed on the class when this module is imported: every reader of decks
    (preparers, checks, mutants) imports it."""
    for first in shape.iterchildren(etree.Element):  # `*[1]`: the first child that is an element
        for properties in first.iterchildren(_NV_PR):
            for found in properties.iterchildren(_PH):
                return found
        return None
    return None


BaseShapeElement.ph = property(_placeholder_element)  # type: ignore[assignment,method-assign]

#: Layout kinds -> the python-pptx default template's layout names.
LAYOUTS = {"title_slide": "Title Slide", "title_content": "Title and Content", "title_only": "Title Only",
           "two_content": "Two Content"}
TITLE_TYPES = (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE)
BODY_TYPES = (PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT, PP_PLACEHOLDER.VERTICAL_BODY,
              PP_PLACEHOLDER.VERTICAL_OBJECT)
FURNITURE = (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER, PP_PLACEHOLDER.HEADER)
EPOCH = dt.datetime(2024, 1, 1)
EMU_PER_CM = 360000


def read_deck(data: bytes) -> PresentationT:
    """The deck python-pptx reads from `data`, the caller's own to edit: a task's controls open the same initial
    and oracle decks again and again, so the last few parses stay as they were read, never touched, and each call
    gets a copy (`copy_deck`, through `kit.parsecache.copied`: a fraction of a 12-20 ms parse)."""
    return parsecache.copied(data, "pptx", _parse_deck, copy_deck)


#: Content types of the parts every copy of one parse shares (`copy_deck`)
SHARED = (CT.PML_SLIDE_LAYOUT, CT.PML_SLIDE_MASTER, CT.OFC_THEME)


def copy_deck(prs: PresentationT) -> PresentationT:
    """A deep copy of a deck as parsed (untouched: a fresh parse holds root elements only, so its copy is a whole,
    separate tree; tests/preparers/test_pptx_reader.py) that shares its slide masters, layouts and themes (most
    of a small deck's elements): nothing here edits them (ops, mutants and checks edit or read slides, notes and
    the slide list; a new slide relates to a layout, a new notes page to the copy's own notes master). Parts that link
    back to a slide (notes pages) are copied, so a copy's parts never lead to another copy's slides."""
    return copy.deepcopy(prs, {id(part): part for part in prs.part.package.iter_parts() if part.content_type in SHARED})


def _parse_deck(data: bytes) -> PresentationT:
    return Presentation(io.BytesIO(data))


def norm(text: str) -> str:
    """Text compared across writers: runs of whitespace (line breaks included) become one space."""
    return " ".join(str(text).split())


# --- reading ------------------------------------------------------------------------------------------

def role(shape: Any) -> str:
    """"title", "subtitle", "body", "furniture", "other" (placeholders) or "shape" (anything else)."""
    if not shape.is_placeholder:
        return "shape"
    try:
        kind = shape.placeholder_format.type
    except (ValueError, KeyError):
        return "other"
    if kind in TITLE_TYPES:
        return "title"
    if kind == PP_PLACEHOLDER.SUBTITLE:
        return "subtitle"
    if kind in BODY_TYPES:
        return "body"
    return "furniture" if kind in FURNITURE else "other"


def walk(shapes: Any) -> Iterator[Any]:
    """Every shape, descending into groups."""
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from walk(shape.shapes)
        else:
            yield shape


def title_shape(slide: Slide) -> Any | None:
    """The shape holding the slide's title (see the module docstring), or None."""
    texts: list[Any] = [s for s in slide.shapes if s.has_text_frame]
    for shape in texts:
        if role(shape) == "title":
            return shape
    return next((s for s in texts if norm(s.text_frame.text) and role(s) != "furniture"), None)


def slide_title(slide: Slide) -> str:
    shape = title_shape(slide)
    return norm(shape.text_frame.text) if shape is not None else ""


def titles(prs: PresentationT) -> list[str]:
    return [slide_title(s) for s in prs.slides]


def slides_titled(prs: PresentationT, title: str) -> list[Slide]:
    return [s for s in prs.slides if slide_title(s) == norm(title)]


def placeholders(slide: Slide, kind: str) -> list[Any]:
    """Placeholders of one role, left to right then top to bottom."""
    found = [s for s in slide.shapes if s.has_text_frame and role(s) == kind]
    return sorted(found, key=lambda s: (s.left or 0, s.top or 0))


def paragraphs(shapes: list[Any]) -> list[tuple[str, int]]:
    """(text, level) of every non-empty paragraph of `shapes`, in order."""
    out = []
    for shape in shapes:
        for para in shape.text_frame.paragraphs:
            text = norm(para.text)
            if text:
                out.append((text, para.level))
    return out


def layout_kind(slide: Slide) -> str:
    """What the slide's placeholders make it: title_slide, title_content, two_content, title_only, blank, other."""
    roles = [role(s) for s in slide.shapes if s.is_placeholder]
    bodies = roles.count("body")
    if "subtitle" in roles:
        return "title_slide" if bodies == 0 else "other"
    if "other" in roles:
        return "other"
    if "title" not in roles:
        return "blank" if bodies == 0 else "other"
    return {0: "title_only", 1: "title_content", 2: "two_content"}.get(bodies, "other")


def notes_text(slide: Slide) -> str:
    """The speaker notes (whitespace-normalized), "" when the slide has none."""
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    return norm(frame.text) if frame is not None else ""


# --- building -----------------------------------------------------------------------------------------

def layout(prs: PresentationT, kind: str) -> Any:
    """The slide layout for a layout kind; raises ValueError naming the known kinds."""
    if kind not in LAYOUTS:
        raise ValueError(f"layout={kind!r}, but must be one of {sorted(LAYOUTS)}")
    for item in prs.slide_layouts:
        if item.name == LAYOUTS[kind]:
            return item
    raise ValueError(f"the presentation has no layout named {LAYOUTS[kind]!r}")


def fill(frame: Any, lines: list[str], levels: list[int] | None = None) -> None:
    """Replace a text frame's paragraphs by `lines` (with optional indent levels)."""
    frame.text = lines[0] if lines else ""
    for line in lines[1:]:
        frame.add_paragraph().text = line
    for para, level in zip(frame.paragraphs, levels or [], strict=False):
        para.level = level


def add_slide(prs: PresentationT, spec: dict[str, Any]) -> Slide:
    """Append one slide built from a slide spec (see the module docstring)."""
    slide = prs.slides.add_slide(layout(prs, spec["layout"]))
    if slide.shapes.title is not None:
        slide.shapes.title.text = spec["title"]
    if spec["layout"] == "title_slide":
        fill(placeholders(slide, "subtitle")[0].text_frame, [spec.get("subtitle", "")])
    elif spec["layout"] == "title_content":
        fill(placeholders(slide, "body")[0].text_frame, list(spec.get("bullets", [])), spec.get("levels"))
    elif spec["layout"] == "two_content":
        for shape, lines in zip(placeholders(slide, "body"), spec.get("columns", [[], []]), strict=True):
            fill(shape.text_frame, list(lines))
    if spec.get("notes"):
        slide.notes_slide.notes_text_frame.text = spec["notes"]
    if spec.get("hidden"):
        slide._element.set("show", "0")  # Slide > Hide Slide
    return slide


def build_presentation(spec: dict[str, Any]) -> PresentationT:
    """The python-pptx presentation for `spec` (exposed for tests)."""
    prs = Presentation()
    for item in spec["slides"]:
        add_slide(prs, item)
    props = prs.core_properties
    props.author = props.last_modified_by = spec.get("author", "forge")
    props.title = spec["slides"][0]["title"] if spec["slides"] else ""
    props.revision = 1
    props.created = props.modified = EPOCH
    return prs


def to_bytes(prs: PresentationT) -> bytes:
    buf = io.BytesIO()
    prs.save(buf)
    return normalize(buf.getvalue())


def build(spec: dict[str, Any]) -> bytes:
    """spec -> pptx bytes. Same spec, same bytes."""
    return to_bytes(build_presentation(spec))
