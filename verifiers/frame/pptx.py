"""The canonical model of a presentation, and its frame: what may change, and what must stay as it was.

Facts (key -> canonical text), read with python-pptx (`presentation_facts`), slides by position `N` (1-based):
- `#slides`: how many slides there are; `#size`: the slide size in whole mm (`338x190`), only when it is not
  python-pptx's default 4:3 (254x190: decks of that size read as they always did); `N#fp`: the slide's
  fingerprints (short digests of its title, of each other shape's text or table and of its notes), by which a
  slide is recognised wherever it moved;
- `N#layout`: the layout its placeholders make (`preparers.pptx.layout_kind`: LibreOffice renames layouts, "Title
  and Content" comes back as "Blank Slide", so the name is no fact); `N#hidden`; `N#bg`: its own background fill;
  `N#transition`: the kind of its transition to the next slide (`fade`, `push`...; LibreOffice writes an empty
  `<p:transition>` on every slide without one: no fact); `N#notes`: its speaker notes;
- `N/<shape>`: a shape (`title`, `subtitle`, `body 1`, `text box 2`, `picture 1`, `table 1`... numbered per kind in
  the slide's tree order, bodies left to right) with its position and size in whole millimetres (LibreOffice keeps
  1/100 mm and writes sizes one step smaller; an auto-fitting text box's size is what its text makes, left out);
  `N/<shape>#text`: its non-empty paragraphs in order with their indent levels (runs joined: a writer splits them
  as it likes); `N/<shape>#format`: per paragraph the bold, italic, underline and strike its text carries
  (LibreOffice writes `b="0"` and `strike="noStrike"` on every run: no fact; the font sizes and colours it writes
  out for every run, the inherited ones too, a subtitle's theme grey as `8B8B8B`, are left out);
  `N/<shape>#align`: a body's or text box's paragraph alignments, only when one is set other than left (titles are
  left out: LibreOffice writes their inherited centring out);
  `N/<shape>#table`: a table's cell texts; `N/<shape>#image`: a picture's pixels.
Ids, shape names, layout xml, document properties and times are save noise, never facts.

The frame (`derive`) recognises each oracle slide as one of the initial ones by fingerprints (a reorder is then
named "slides 2 and 3 swapped", not "every slide changed"; a renamed slide keeps its body, a bullets edit its
title), keys every fact by that identity (the initial position; `+1`, `+2`... for slides the end state adds), and
keeps, per fact the task does not change, a digest of its initial value (a text's also of its sorted paragraphs:
the evidence names a reorder), the initial order and the fingerprints by which `judge` recognises the end state's
slides in turn. The allowed facts are those the oracle changes: the slide order as the oracle leaves it exactly
(the goal checks fix it too), any other fact anything ('*': the goal checks judge it). A family's freedom names
regions of those keyed facts (`*#notes`: any slide's notes; `4/text box*`: text boxes on the initial slide 4).
The kind is registered as `pptx` (`pptx.frame`); a title typed in a text box instead of the title placeholder needs
no freedom: the goal checks (`pptx.slide_titles`, `pptx.slide_layout`) already read titles from the placeholder.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.presentation import Presentation as PresentationT

from kit import bounded
from preparers import pptx as deckio
from verifiers.frame.kinds import FrameKind, register
from verifiers.readers.pptx import load, pixel_digest

if TYPE_CHECKING:
    from verifiers.checks import State

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
EMU_PER_MM = 36000
_DIGEST_CHARS = 12
_FP_CHARS = 8
ORDER = "#order"
#: The fact suffixes of a slide (`N#...`) and of a shape (`N/<shape>#...`), as the evidence names them.
ASPECTS = {"": "", "#text": "text", "#format": "formatting", "#table": "cells", "#image": "picture",
           "#layout": "layout", "#hidden": "visibility in the show", "#bg": "background", "#notes": "speaker notes",
           "#transition": "transition", "#size": "slide size", "#align": "paragraph alignment"}
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
DEFAULT_SIZE = "254x190"  # python-pptx's default 4:3 slide, in mm


def _digest(value: str, chars: int = _DIGEST_CHARS) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:chars]


# --- facts ----------------------------------------------------------------------------------------------------

def _mm(emu: Any) -> int:
    """Whole millimetres, read 0.005 mm low: LibreOffice keeps 1/100 mm and writes a size 0.01 mm smaller, so a
    size on a round value (37.5 mm) reads the same before and after it, and a position on 1/100 mm is unmoved."""
    return round(((emu or 0) - EMU_PER_MM // 200) / EMU_PER_MM)


def _kind(shape: Any) -> str:
    """What a shape is: its placeholder role (`preparers.pptx.role`), a picture, table, chart, text box or shape."""
    role = deckio.role(shape)
    if role != "shape":
        return role
    if shape.shape_type in (MSO_SHAPE_TYPE.PICTURE, MSO_SHAPE_TYPE.MEDIA):  # a sound or film shows its icon or poster
        return "picture"  # python-pptx reads an `a:videoFile` as a Movie, an `a:audioFile` as a Picture
    if getattr(shape, "has_table", False):
        return "table"
    if getattr(shape, "has_chart", False):
        return "chart"
    if shape._element.tag == P + "sp":  # LibreOffice writes a text box as a rectangle without `txBox`
        props = shape._element.find(f"{P}nvSpPr/{P}cNvSpPr")
        geometry = shape._element.find(f"{P}spPr/{A}prstGeom")
        boxed = props is not None and props.get("txBox") in ("1", "true")
        return "text box" if boxed or (geometry is not None and geometry.get("prst") == "rect") else "shape"
    return "shape"


Box = tuple[int, int, int, int]
#: The boxes of a layout's placeholders by idx, per layout part (kept alive here: ids are the key). A slide
#: placeholder without its own `xfrm` (every one python-pptx writes) sits where its layout's does; python-pptx finds
#: that through the slide's relationships at every look (~80% of reading a deck's facts).
_LAYOUT_BOXES: dict[int, tuple[Any, dict[int, Box]]] = {}


def _layout_boxes(slide: Any) -> dict[int, Box]:
    layout = slide.slide_layout
    found = _LAYOUT_BOXES.get(id(layout.part))
    if found is None or found[0] is not layout.part:
        if len(_LAYOUT_BOXES) > 256:
            _LAYOUT_BOXES.clear()
        boxes = {ph.placeholder_format.idx: (ph.left or 0, ph.top or 0, ph.width or 0, ph.height or 0)
                 for ph in layout.placeholders}
        found = _LAYOUT_BOXES[id(layout.part)] = (layout.part, boxes)
    return found[1]


def _box(shape: Any, layout: dict[int, Box]) -> Box:
    """(left, top, width, height) in EMU: the shape's own transform, else its layout placeholder's."""
    element = shape._element
    xfrm = element.find(f"{P}spPr/{A}xfrm")
    if xfrm is None:
        xfrm = element.find(f"{P}xfrm")  # a graphic frame's (tables, charts)
    off = xfrm.find(A + "off") if xfrm is not None else None
    ext = xfrm.find(A + "ext") if xfrm is not None else None
    if off is not None and ext is not None:
        try:
            return int(off.get("x", 0)), int(off.get("y", 0)), int(ext.get("cx", 0)), int(ext.get("cy", 0))
        except ValueError:
            return 0, 0, 0, 0
    ph = element.ph
    if ph is not None:
        idx = ph.get("idx", "0")
        return layout.get(int(idx) if idx.isdigit() else 0, (0, 0, 0, 0))
    return shape.left or 0, shape.top or 0, shape.width or 0, shape.height or 0


def _where(shape: Any, kind: str, box: Box) -> str:
    """Position and size in mm; a table's height is what its rows make; a text box that fits itself to its text
    has the size its text makes (LibreOffice fits it on opening: an unwrapped one shrinks around its centre, so
    then its position too is the text's)."""
    left, top, width, height = (_mm(v) for v in box)
    if kind == "table":
        return f"@{left},{top} {width}"
    body = shape._element.find(f"{P}txBody/{A}bodyPr")
    if body is not None and body.find(A + "spAutoFit") is not None:
        return "" if body.get("wrap") == "none" else f"@{left},{top} {width}"
    return f"@{left},{top} {width}x{height}"


def _run_format(rpr: Any) -> frozenset[str]:
    if rpr is None:
        return frozenset()
    flags = {name for name, on in (("bold", rpr.get("b") in ("1", "true")), ("italic", rpr.get("i") in ("1", "true")),
                                   ("underline", rpr.get("u") not in (None, "none")),
                                   ("strike", rpr.get("strike") not in (None, "noStrike"))) if on}
    return frozenset(flags)


def _paragraph_format(para: Any) -> str:
    """What every run with text of a paragraph carries (`bold`), and what only some do (`bold?`)."""
    runs = [_run_format(r.find(A + "rPr")) for r in para._p.iter(A + "r")
            if "".join(t.text or "" for t in r.iter(A + "t")).strip()]
    if not runs:
        return ""
    every = frozenset.intersection(*runs)
    some = frozenset.union(*runs) - every
    return ",".join(sorted(every) + sorted(f"{f}?" for f in some))


def _background(slide: Any) -> str:
    bg = slide._element.find(f"{P}cSld/{P}bg")
    if bg is None:
        return ""
    fill = bg.find(f"{P}bgPr/{A}solidFill/{A}srgbClr")
    if fill is not None:
        return f"solid {str(fill.get('val', '')).upper()}"
    inner = next(iter(bg.iterchildren(etree.Element)), None)
    return etree.QName(inner).localname if inner is not None else "set"


def transition(slide_element: Any) -> str:
    """The kind of a slide's transition (the local name of its effect element: `fade`, `push`, `wipe`...), '' when
    it has none; read from `<p:transition>` or, where LibreOffice wraps it, the first `mc:AlternateContent` choice."""
    found = slide_element.find(f"{P}transition")
    if found is None:
        found = slide_element.find(f"{MC}AlternateContent/{MC}Choice/{P}transition")
    if found is None:
        return ""
    effect = next((c for c in found.iterchildren(etree.Element) if etree.QName(c).localname not in ("sndAc", "extLst")),
                  None)
    return etree.QName(effect).localname if effect is not None else ""


def slide_size(prs: PresentationT) -> str:
    """The slide size in whole mm, `WxH`."""
    return f"{_mm(prs.slide_width)}x{_mm(prs.slide_height)}"


def _alignment(para: Any) -> str:
    """A paragraph's own alignment other than left (`ctr`, `r`, `just`...), '' for left or none set."""
    props = para._p.find(A + "pPr")
    value = props.get("algn", "") if props is not None else ""
    return "" if value == "l" else str(value)


def _shape_facts(prefix: str, shape: Any, kind: str, box: Box) -> dict[str, str]:
    facts = {prefix: f"{kind} {_where(shape, kind, box)}".rstrip()}
    if shape.has_text_frame:
        paras = [p for p in shape.text_frame.paragraphs if deckio.norm(p.text)]
        if paras:
            facts[f"{prefix}#text"] = json.dumps([[p.level, deckio.norm(p.text)] for p in paras])
            formats = [_paragraph_format(p) for p in paras]
            if any(formats):
                facts[f"{prefix}#format"] = json.dumps(formats)
            aligns = [_alignment(p) for p in paras] if kind in ("body", "text box") else []
            if any(aligns):
                facts[f"{prefix}#align"] = json.dumps(aligns)
    if kind == "table":
        facts[f"{prefix}#table"] = json.dumps([[deckio.norm(c.text) for c in row.cells] for row in shape.table.rows])
    if kind == "picture":
        facts[f"{prefix}#image"] = _pixels(shape)
    return facts


_PIXELS: dict[bytes, str] = {}  # by the image part's digest: a task's states show the same pictures again and again


def _pixels(shape: Any) -> str:
    try:
        blob = (shape.poster_frame if shape.shape_type == MSO_SHAPE_TYPE.MEDIA else shape.image).blob
    except Exception:  # a linked or broken picture, a film without a poster: no pixels to compare
        return "unreadable"
    key = hashlib.sha256(blob).digest()
    if key not in _PIXELS:
        if len(_PIXELS) > 256:
            _PIXELS.clear()
        try:
            _PIXELS[key] = pixel_digest(blob)[:_DIGEST_CHARS]
        except Exception:  # not an image any decoder reads
            _PIXELS[key] = "unreadable"
    return _PIXELS[key]


def _slide_facts(n: int, slide: Any) -> dict[str, str]:
    """The facts of slide number `n`: what its own XML and layout say (cached, `_drawn`), then its notes."""
    items, fps = _drawn(slide)
    facts = {f"{n}{suffix}": value for suffix, value in items}
    if notes := deckio.notes_text(slide):
        facts[f"{n}#notes"] = notes
        fps = (*fps, "n:" + _digest(notes, _FP_CHARS))
    facts[f"{n}#fp"] = " ".join(fps)
    return facts


Drawn = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]
#: `_draw` by (the slide's XML, its layout part): a task's states and mutants show the same slides again and
#: again, and serializing a slide costs a fraction of reading its shapes. The layout part is kept in the value, so
#: its id is not reused while the entry lives. A slide with pictures is read afresh (their pixels live in other parts).
_DRAWN: OrderedDict[tuple[bytes, int], tuple[Any, Drawn]] = OrderedDict()
_DRAWN_KEPT = 2048
_DRAWN_LOCK = threading.Lock()  # the in-process gate reads states in several threads


def _drawn(slide: Any) -> Drawn:
    element = slide._element
    if element.find(f".//{P}pic") is not None:
        return _draw(slide)
    layout = slide.part.slide_layout.part
    key = (hashlib.sha256(etree.tostring(element)).digest(), id(layout))
    with _DRAWN_LOCK:
        if key in _DRAWN:
            _DRAWN.move_to_end(key)
            return _DRAWN[key][1]
    drawn = _draw(slide)
    with _DRAWN_LOCK:
        _DRAWN[key] = (layout, drawn)
        while len(_DRAWN) > _DRAWN_KEPT:
            _DRAWN.popitem(last=False)
    return drawn


def _draw(slide: Any) -> Drawn:
    """The slide's facts (`#suffix` or `/shape...` -> value) from its XML and layout, and its fingerprints."""
    facts = {"#layout": deckio.layout_kind(slide)}
    if slide._element.get("show") in ("0", "false"):
        facts["#hidden"] = "1"
    if bg := _background(slide):
        facts["#bg"] = bg
    if kind := transition(slide._element):
        facts["#transition"] = kind
    shapes = list(deckio.walk(slide.shapes))
    kinds = [_kind(s) for s in shapes]
    layout = _layout_boxes(slide) if any(s.is_placeholder for s in shapes) else {}
    boxes = [_box(s, layout) for s in shapes]
    bodies = sorted((k for k, kind in enumerate(kinds) if kind == "body"), key=lambda k: boxes[k][:2])
    counts: Counter[str] = Counter()
    fps = []
    for k, (shape, kind) in enumerate(zip(shapes, kinds, strict=True)):
        if kind in ("title", "subtitle") and kinds.count(kind) == 1:
            label = kind
        elif kind == "body":
            label = f"body {bodies.index(k) + 1}"
        else:
            counts[kind] += 1
            label = f"{kind} {counts[kind]}"
        shape_facts = _shape_facts(f"/{label}", shape, kind, boxes[k])
        facts.update(shape_facts)
        content = shape_facts.get(f"/{label}#text") or shape_facts.get(f"/{label}#table")
        if content:
            fps.append(("t:" if label == "title" else "") + _digest(content, _FP_CHARS))
    return tuple(facts.items()), tuple(fps)


def presentation_facts(prs: PresentationT) -> dict[str, str]:
    """The canonical model of a python-pptx presentation (see the module doc), slides keyed by position. Reads
    only: a slide without notes is not given a notes page (python-pptx's `notes_slide` would add one)."""
    slides = list(prs.slides)
    facts = {"#slides": str(len(slides))}
    if (size := slide_size(prs)) != DEFAULT_SIZE:
        facts["#size"] = size
    for n, slide in enumerate(slides, start=1):
        facts.update(_slide_facts(n, slide))
    return facts


def read(path: Path) -> dict[str, str]:
    """The canonical model of the presentation file at `path` (bounded read)."""
    return presentation_facts(deckio.read_deck(bounded.read_file(path, bounded.MAX_FILE_BYTES)))


# --- identities ---------------------------------------------------------------------------------------------

def _positions(facts: Mapping[str, str]) -> list[int]:
    try:
        return list(range(1, int(facts.get("#slides", "0")) + 1))
    except ValueError:
        return []


def _split(key: str) -> tuple[str, str]:
    """('3', '/body 1#text') for '3/body 1#text'; ('', key) for a deck fact."""
    head = key.split("/", 1)[0].split("#", 1)[0]
    return (head, key[len(head):]) if head and (head.isdigit() or head.startswith("+")) else ("", key)


def recognise(known: Mapping[str, list[str]], slides: list[list[str]]) -> list[str]:
    """The identity of each slide of `slides` (each a list of fingerprints), given the fingerprints of the known
    (initial) slides by identity: the known slide sharing most fingerprints with it (ties: the nearer position),
    each known slide at most once; the slides left over on both sides in the same number are taken in order
    (a title-only slide renamed); any other is new: `+1`, `+2`... in order."""
    idents = list(known)
    holders: dict[str, dict[int, int]] = {}  # fingerprint -> {known slide: how often it holds it}
    for i, ident in enumerate(idents):
        for fp in known[ident]:
            holding = holders.setdefault(fp, {})
            holding[i] = holding.get(i, 0) + 1
    pairs = []
    for j, fps in enumerate(slides):
        counts: dict[str, int] = {}
        for fp in fps:
            counts[fp] = counts.get(fp, 0) + 1
        shared: dict[int, int] = {}
        titled: set[int] = set()
        for fp, count in counts.items():
            for i, held in holders.get(fp, {}).items():
                shared[i] = shared.get(i, 0) + min(count, held)
                if fp.startswith("t:"):
                    titled.add(i)
        pairs += [(-score, -(i in titled), abs(i - j), j, i) for i, score in shared.items()]
    out: list[str | None] = [None] * len(slides)
    used: set[int] = set()
    for _, _, _, j, i in sorted(pairs):
        if out[j] is None and i not in used:
            out[j], used = idents[i], used | {i}
    left = [ident for i, ident in enumerate(idents) if i not in used]
    free = [j for j, ident in enumerate(out) if ident is None]
    if len(left) == len(free):
        for j, name in zip(free, left, strict=True):
            out[j] = name
    new = 0
    for j, found in enumerate(out):
        if found is None:
            new += 1
            out[j] = f"+{new}"
    return [str(ident) for ident in out]


def _interchangeable(idents: list[str], fps: list[list[str]], want: list[str]) -> list[str]:
    """`idents` with the slides that read the same (equal fingerprints: a slide and its duplicate) named in the
    order `want` gives them: which of two identical slides is the copy cannot be told from the file, nor matters."""
    rank = {ident: k for k, ident in enumerate(want)}
    groups: dict[tuple[str, ...], list[int]] = {}
    for j, fp in enumerate(fps):
        groups.setdefault(tuple(sorted(fp)), []).append(j)
    out = list(idents)
    for positions in groups.values():
        if len(positions) > 1:
            names = sorted((idents[j] for j in positions), key=lambda name: rank.get(name, len(rank)))
            for j, name in zip(positions, names, strict=True):
                out[j] = name
    return out


def _fingerprints(facts: Mapping[str, str]) -> list[list[str]]:
    return [facts.get(f"{n}#fp", "").split() for n in _positions(facts)]


def canonical(facts: Mapping[str, str], idents: list[str]) -> dict[str, str]:
    """`facts` keyed by slide identity (`idents[position - 1]`), the order a fact of its own, fingerprints left out."""
    out = {ORDER: json.dumps(idents)}
    for key, value in facts.items():
        head, rest = _split(key)
        if not head:
            if key != "#slides":  # the order says it
                out[key] = value  # a deck fact: the slide size
            continue
        if rest == "#fp":
            continue
        n = int(head)
        if 1 <= n <= len(idents):
            out[f"{idents[n - 1]}{rest}"] = value
    return out


# --- the frame ----------------------------------------------------------------------------------------------

def _is_free(key: str, free: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(key, region) for region in free)


def _kept_value(key: str, value: str) -> str:
    """What the frame keeps of a fact: its digest; a text's also of its sorted paragraphs (a reorder is named)."""
    if key.endswith("#text"):
        return f"{_digest(value)}/{_digest(json.dumps(sorted(json.loads(value))))}"
    return _digest(value)


def _same(key: str, value: str, kept: str) -> bool:
    """Does `value` read as the kept digest (`_kept_value`, the sorted paragraphs' digest only when it differs)?"""
    return _digest(value) == kept.partition("/")[0]


def derive(initial: Mapping[str, str], oracle: Mapping[str, str],
           free: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The frame of a task from the raw facts (`presentation_facts`) of its initial and oracle decks: the facts the
    oracle changes (`allowed`: the slide order exactly as the oracle leaves it, '*' any other), and in `kept` the
    digest of every other fact, the initial order (`#order`, as it is: the evidence names moves) and the initial
    slides' fingerprints and titles (`#fp <identity>`: how `judge` recognises them), and the family's freedoms."""
    free = dict(free or {})
    known = {str(n): fps for n, fps in zip(_positions(initial), _fingerprints(initial), strict=True)}
    before = canonical(initial, list(known))
    after = canonical(oracle, recognise(known, _fingerprints(oracle)))
    allowed = {key: (after.get(key, "[]") if key == ORDER else "*") for key in sorted(set(before) | set(after))
               if before.get(key) != after.get(key) and not _is_free(key, free)}
    kept = {key: (value if key == ORDER else _kept_value(key, value)) for key, value in before.items()
            if key not in allowed and not _is_free(key, free)}
    for ident in known:
        kept[f"#fp {ident}"] = json.dumps([_title(initial, ident), *known[ident]])
    return {"allowed": allowed, "kept": kept, "free": free}


def _title(facts: Mapping[str, str], head: str) -> str:
    text = facts.get(f"{head}/title#text")
    return " ".join(t for _, t in json.loads(text)) if text else ""


def judge(frame: Mapping[str, Any], end: Mapping[str, str]) -> list[str]:
    """Every change of the end state's raw facts (`presentation_facts`) out of the frame, one phrase each (empty:
    inside it). Slides are named by their initial position and title (`slide 4 'Highlights'`), a slide the end state
    adds by its order among the new ones (`new slide 1`), shapes by their label (`body 1`)."""
    allowed: Mapping[str, str] = frame["allowed"]
    kept: Mapping[str, str] = frame["kept"]
    free = tuple(frame.get("free") or ())
    entries = {key.removeprefix("#fp "): json.loads(value) for key, value in kept.items() if key.startswith("#fp ")}
    titles = {ident: entry[0] for ident, entry in entries.items()}
    fps = _fingerprints(end)
    idents = recognise({ident: entry[1:] for ident, entry in entries.items()}, fps)
    idents = _interchangeable(idents, fps, json.loads(allowed.get(ORDER) or kept.get(ORDER) or "[]"))
    now = canonical(end, idents)
    for n, ident in enumerate(idents, start=1):
        if ident not in titles:
            titles[ident] = _title(end, str(n))
    problems = []
    if ORDER in allowed and now[ORDER] != allowed[ORDER]:
        problems.append(_order_changed(json.loads(allowed[ORDER]), idents, titles, asked=True))
    elif ORDER in kept and now[ORDER] != kept[ORDER]:
        problems.append(_order_changed(json.loads(kept[ORDER]), idents, titles, asked=False))
    named = {_split(key)[0] for key in [*kept, *allowed]}
    present = set(idents)
    found: list[tuple[tuple[int, str], str]] = []
    for key in [*kept, *(k for k in now if k not in kept)]:
        if key == ORDER or key.startswith("#fp ") or key in allowed or _is_free(key, free):
            continue
        if key in now and key in kept and _same(key, now[key], kept[key]):
            continue
        head, rest = _split(key)
        if head and (head not in present or head not in named):
            continue  # a slide deleted or added: the order names it
        if problem := _problem(key, head, rest, now, kept, allowed, titles):
            found.append((_natural(key), problem))
    problems += [problem for _, problem in sorted(found)]
    return list(dict.fromkeys(problems))


def _problem(key: str, head: str, rest: str, now: Mapping[str, str], kept: Mapping[str, str],
             allowed: Mapping[str, str], titles: Mapping[str, str]) -> str:
    """A fact out of the frame, named ('' where its shape's own fact names it: a shape added or removed)."""
    if not head:  # a deck fact
        return (f"the presentation's {ASPECTS.get(rest, rest)} changed (now {now.get(key, DEFAULT_SIZE)}, was "
                f"{'another' if key in kept else DEFAULT_SIZE})")
    shape = rest[1:].partition("#")[0] if rest.startswith("/") else ""
    whole = f"{head}/{shape}"
    if key not in now:
        if shape and key != whole and whole not in now and whole not in allowed:
            return ""  # the shape is gone: named once
        return (f"{_slide(head, titles)}: {_aspect(shape, rest)} removed" if key != whole else
                f"{_slide(head, titles)}: its shape '{shape}' was removed")
    if key not in kept:
        if shape and key != whole and whole not in kept and whole not in allowed:
            return ""
        if key == whole:
            kind = now[key].partition(" @")[0]
            texts = now.get(f"{whole}#text") or now.get(f"{whole}#table")
            what = f", reading {_shown(texts)[6:-1]}" if texts else "" if kind == "picture" else ", empty"
            return f"{_slide(head, titles)}: a {kind} was added (shape '{shape}'{what})"
        if rest == "#hidden":
            return f"{_slide(head, titles)} was hidden in the show"
        return f"{_slide(head, titles)}: {_aspect(shape, rest)} added{_shown(now[key])}"
    return f"{_slide(head, titles)}: {_changed(shape, rest, now[key], kept[key])}"


def _natural(key: str) -> tuple[int, str]:
    head, rest = _split(key)
    return (int(head) if head.isdigit() else 10_000 + int(head[1:] or 0) if head else -1), rest


def _slide(ident: str, titles: Mapping[str, str]) -> str:
    title = titles.get(ident, "")
    name = f"new slide {ident[1:]}" if ident.startswith("+") else f"slide {ident}"
    return f"{name} {title[:40]!r}" if title else name


def _aspect(shape: str, rest: str) -> str:
    """'shape 'body 1' text', 'speaker notes'."""
    what = ASPECTS.get("#" + rest.partition("#")[2], rest)
    return f"shape '{shape}' {what}" if shape else what


def _shown(value: str) -> str:
    try:
        parsed = json.loads(value)
    except ValueError:
        return f" ({value[:50]!r})"
    if isinstance(parsed, list):
        texts = [p[1] if isinstance(p, list) and len(p) == 2 and isinstance(p[0], int) else p for p in parsed]
        return f" (now {' / '.join(str(t)[:30] for t in texts[:4])}{' / ...' if len(texts) > 4 else ''})"
    return f" ({value[:50]!r})"


def _changed(shape: str, rest: str, value: str, was: str) -> str:
    """A kept fact's change, named: a text's paragraphs reordered, a shape moved or resized, else what it is now."""
    if rest.endswith("#text") and _kept_value(rest, value).split("/")[1] == was.split("/")[-1]:
        return f"shape '{shape}' paragraphs reordered{_shown(value)}"
    if shape and "#" not in rest:
        return f"shape '{shape}' moved, resized or replaced (now {value[:40]})"
    return f"{_aspect(shape, rest)} changed{_shown(value)}"


def _order_changed(want: list[str], got: list[str], titles: Mapping[str, str], *, asked: bool) -> str:
    """The slide order's change from `want` (the task's order, `asked`, or the initial one), named: slides gone
    or added, two swapped, one moved; else both orders."""
    missing = [i for i in want if i not in got]
    extra = [i for i in got if i not in want]
    parts = []
    if missing:
        parts.append(f"{', '.join(_slide(i, titles) for i in missing)} {'missing' if asked else 'deleted'}")
    if extra:
        verb = "still there" if asked and not extra[0].startswith("+") else "added"
        parts.append(", ".join(f"{_slide(i, titles)} {verb} at position {got.index(i) + 1}" for i in extra))
    a = [i for i in want if i in got]
    b = [i for i in got if i in want]
    if a != b:
        wrong = [k for k, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        moved = _moved(a, b)
        if len(wrong) == 2 and a[wrong[0]] == b[wrong[1]] and a[wrong[1]] == b[wrong[0]]:
            parts.append(f"{_slide(a[wrong[0]], titles)} and {_slide(a[wrong[1]], titles)} swapped")
        elif moved is not None:
            parts.append(f"{_slide(moved, titles)} at position {got.index(moved) + 1}, not {want.index(moved) + 1}")
        else:
            parts.append(f"the slides are in the order {[titles.get(i, i)[:20] for i in got]}, where "
                         f"{'the task leaves' if asked else 'it was'} {[titles.get(i, i)[:20] for i in want]}")
    return ("the slide order is not the task's: " if asked else "the slide order changed: ") + "; ".join(parts)


def _moved(a: list[str], b: list[str]) -> str | None:
    """The one slide whose move turns order `a` into `b`, if one does."""
    for item in a:
        rest = [x for x in a if x != item]
        if rest == [x for x in b if x != item]:
            return item
    return None


# --- the kind ------------------------------------------------------------------------------------------------

def _state_facts(state: State, path: str) -> dict[str, str]:
    return presentation_facts(load(state, path).prs)  # the parse the other checks of the state read (or a mutant's)


KIND = register(FrameKind(
    name="pptx", noun="presentation", matches=lambda dest: dest.endswith(".pptx"), read=read,
    edited=lambda deck: presentation_facts(deck.prs),  # preparers.ops.pptx.Deck: python-pptx writes what it holds
    derive=derive, judge=judge, state_facts=_state_facts,
    kept_criterion="Nothing else in {dest} changed: every slide the task does not ask to change keeps its place, "
                   "layout, shapes (their text, paragraph order, indent levels, emphasis, position and size), "
                   "tables, pictures, background, visibility and speaker notes, and no slide or shape is added.",
    made_criterion="{dest} holds nothing beyond what the task asks: no other slide, shape, text, table, picture or "
                   "speaker note."))
