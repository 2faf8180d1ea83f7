"""docx primitives: paragraph styles, lists, character and paragraph formatting, page setup, headers and
footers, page breaks, tables, and plain-text answer files. They only judge: what a document says (text, styles,
formatting as Word resolves it, breaks, tables) is read by `verifiers.readers.docx`, which accepts what
LibreOffice Writer saves as well as what python-docx writes.

Sizes are compared in twips with a tolerance; font sizes in half-points.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lxml import etree

from preparers.docx import PAPERS, TWIPS_PER
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.grounding import text_cells
from verifiers.meaning import Meaning, ReadBack, Said, Visible, choice, when
from verifiers.readers import StateError
from verifiers.readers.docx import (
    Doc,
    W,
    alignment,
    body_paragraphs,
    char_value,
    find,
    grid,
    line_spacing_of,
    list_info,
    load,
    norm,
    page_field,
    page_starts,
    para_text,
    read_text,
    runs,
    sections,
    tables,
    twips,
)

MARGIN_TOLERANCE = 20  # twips (~0.35 mm): LibreOffice stores 1/100 mm internally
PAPER_TOLERANCE = 60  # twips (~1 mm)


def guarded(fn: Callable[..., Result]) -> Callable[..., Result]:
    """A check never raises on a strange file: unexpected content becomes a failure with evidence."""

    @functools.wraps(fn)
    def run(state: State, **args: Any) -> Result:
        try:
            return fn(state, **args)
        except StateError:
            raise
        except Exception as exc:  # untrusted XML: odd values (sz="big") must not crash the gate
            return fail(f"{args.get('path')}: cannot evaluate ({type(exc).__name__}: {exc})")

    return run


# --- selectors --------------------------------------------------------------------------------------

def _targets(doc: Doc, paragraph: str | None, paragraphs: Sequence[str]) -> list[tuple[str, etree._Element]]:
    selectors = ([paragraph] if paragraph else []) + list(paragraphs)
    return [(s, find(doc, s)) for s in selectors]


def _short(selector: str) -> str:
    return repr(selector if len(selector) <= 40 else selector[:37] + "...")


# --- paragraph styles and lists ------------------------------------------------------------------------

@primitive("docx.styled_paragraphs", grounded=("path", "style", "paragraph", "paragraphs"),
           meaning=Meaning(action=r"style|heading|title"))
@guarded
def styled_paragraphs(state: State, path: str, style: str, paragraph: str | None = None,
                      paragraphs: Sequence[str] = (), exclusive: bool = True) -> Result:
    """The stated paragraph(s) use paragraph style `style`; with `exclusive`, no other paragraph does."""
    doc = load(state, path)
    targets = _targets(doc, paragraph, paragraphs)
    for selector, p in targets:
        if not doc.style_is(doc.para_style(p), style):
            return fail(f"paragraph {_short(selector)} has style {doc.style_name(doc.para_style(p))!r}, "
                        f"expected {style!r}")
    if exclusive:
        chosen = {id(p) for _, p in targets}
        extra = [para_text(p) for p in doc.paragraphs()
                 if id(p) not in chosen and doc.style_is(doc.para_style(p), style)]
        if extra:
            return fail(f"{len(extra)} other paragraph(s) also have style {style!r}: "
                        + ", ".join(_short(norm(t)) for t in extra[:3]))
    return ok(f"{len(targets)} paragraph(s) have style {style!r}" + (" and no others do" if exclusive else ""))


@primitive("docx.list_paragraphs", grounded=("path", "kind"),
           meaning=Meaning(action=r"list|bullet|number", args={"kind": Said("list")}))
@guarded
def list_paragraphs(state: State, path: str, kind: str, items: Sequence[str], subitems: Sequence[str] = (),
                    exclusive: bool = True) -> Result:
    """`items` are `kind` (bullet|number) list items at level 1, `subitems` list items at level 2;
    with `exclusive`, no other paragraph is a list item."""
    doc = load(state, path)
    found = []  # keeps the element proxies alive, so their ids stay valid below
    for selector, level in [(s, 1) for s in items] + [(s, 2) for s in subitems]:
        p = find(doc, selector)
        found.append(p)
        info = list_info(doc, p)
        if info is None:
            return fail(f"paragraph {_short(selector)} is not a list item (style "
                        f"{doc.style_name(doc.para_style(p))!r}, no numbering)")
        got_kind, got_level = info
        if level == 1 and got_kind != kind:
            return fail(f"paragraph {_short(selector)} is a {got_kind} list item, expected {kind}")
        if got_level != level:
            return fail(f"paragraph {_short(selector)} is a list item at level {got_level}, expected level {level}")
    if exclusive:
        chosen = {id(p) for p in found}
        extra = [para_text(p) for p in doc.paragraphs() if id(p) not in chosen and list_info(doc, p) is not None]
        if extra:
            return fail(f"{len(extra)} other paragraph(s) are list items too: "
                        + ", ".join(_short(norm(t)) for t in extra[:3]))
    return ok(f"{len(items)} {kind} item(s) at level 1" + (f", {len(subitems)} at level 2" if subitems else ""))


# --- character formatting --------------------------------------------------------------------------


def _same(prop: str, got: Any, want: Any) -> bool:
    if prop == "size":
        return got is not None and abs(float(got) - float(want)) < 0.01
    if prop == "font":
        return isinstance(got, str) and got.strip().lower() == str(want).strip().lower()
    return bool(got) == bool(want)


def _chars(p: etree._Element) -> list[tuple[str, etree._Element]]:
    return [(c, r) for r, t in runs(p) for c in t]


@primitive("docx.char_format", grounded=("path", "paragraph", "phrase", "font", "size", "bold", "italic", "underline"),
           meaning=Meaning(action=r"bold|italic|underline|font|size|typeface",
                           args={"bold": Said("emphasis", when("bold")), "italic": Said("emphasis", when("italic")),
                                 "underline": Said("emphasis", when("underline"))}))
@guarded
def char_format(state: State, path: str, paragraph: str, phrase: str | None = None, font: str | None = None,
                size: float | None = None, bold: bool | None = None, italic: bool | None = None,
                underline: bool | None = None, unchanged: Sequence[str] = ()) -> Result:
    """Every character of `phrase` (or of the whole stated paragraph) has the given font/size/bold/italic/
    underline; the rest of that paragraph and the `unchanged` paragraphs do not take the new value."""
    doc = load(state, path)
    wanted = {k: v for k, v in (("font", font), ("size", size), ("bold", bold), ("italic", italic),
                                ("underline", underline)) if v is not None}
    p = find(doc, paragraph)
    chars = _chars(p)
    full = "".join(c for c, _ in chars)
    start, end = 0, len(full)
    if phrase is not None:
        start = full.find(phrase)
        if start < 0:
            return fail(f"paragraph {_short(paragraph)} no longer contains {phrase!r}")
        end = start + len(phrase)
    where = repr(phrase) if phrase else f"paragraph {_short(paragraph)}"
    for prop, want in wanted.items():
        for i in range(start, end):
            c, r = chars[i]
            got = char_value(doc, r, p, prop)
            if not c.isspace() and not _same(prop, got, want):
                return fail(f"{where}: {prop} of {full[max(start, i - 10):i + 10]!r} is {got!r}, expected {want!r}")
    outside = [(c, r, p) for i, (c, r) in enumerate(chars) if not start <= i < end]
    for selector in unchanged:
        q = find(doc, selector)
        outside += [(c, r, q) for c, r in _chars(q)]
    for prop, want in wanted.items():
        hit = next((c for c, r, q in outside if not c.isspace() and _same(prop, char_value(doc, r, q, prop), want)),
                   None)
        if hit is not None:
            return fail(f"{prop} {want!r} was applied beyond {where} (also on text outside it)")
    return ok(f"{where}: " + ", ".join(f"{k} {v!r}" for k, v in wanted.items()) + "; nothing else changed")


# --- paragraph formatting --------------------------------------------------------------------------


@primitive("docx.paragraph_alignment", grounded=("path", "align", "paragraph"),
           meaning=Meaning(action=r"align|justif|cent(?:er|re)", args={"align": Said("align")}))
@guarded
def paragraph_alignment(state: State, path: str, align: str, paragraph: str | None = None,
                        paragraphs: Sequence[str] = (), unchanged: Sequence[str] | Mapping[str, str] = ()
                        ) -> Result:
    """The target paragraphs are aligned `align` (left|center|right|justify); `unchanged` ones keep theirs.

    `unchanged` maps each other paragraph to its initial alignment, which it must still have (a list of
    paragraphs, from older packages, only says they must not be aligned `align`)."""
    doc = load(state, path)
    targets = _targets(doc, paragraph, paragraphs)
    for selector, p in targets:
        if alignment(doc, p) != align:
            return fail(f"paragraph {_short(selector)} is aligned {alignment(doc, p)}, expected {align}")
    if isinstance(unchanged, Mapping):
        for selector, was in unchanged.items():
            got = alignment(doc, find(doc, selector))
            if got != was:
                return fail(f"paragraph {_short(selector)} was aligned {was} and must stay so, but is aligned {got}")
    else:
        for selector in unchanged:
            if alignment(doc, find(doc, selector)) == align:
                return fail(f"paragraph {_short(selector)} should keep its alignment but is also aligned {align}")
    return ok(f"{len(targets)} paragraph(s) aligned {align}; {len(unchanged)} other(s) unchanged")


@primitive("docx.line_spacing", grounded=("path", "rule", "value", "paragraph"),
           meaning=Meaning(action=r"spacing|spaced",
                           args={"rule": Said("spacing"),
                                 "value": ReadBack("'double', '1.5 lines', 'at least 16 pt'")}))
@guarded
def line_spacing(state: State, path: str, rule: str, value: float, paragraph: str | None = None,
                 paragraphs: Sequence[str] = (), unchanged: Sequence[str] | Mapping[str, Sequence[Any]] = ()
                 ) -> Result:
    """Target paragraphs have line spacing `value` (a multiple of single, or points for exact|atLeast).

    `unchanged` maps each other paragraph to its initial spacing `[rule, value]`, which it must still have (a
    list of paragraphs, from older packages, only says they must not have the target spacing)."""
    doc = load(state, path)
    tolerance = 0.02 if rule == "multiple" else 0.25
    shown = f"{value:g}" + (" lines" if rule == "multiple" else f" pt ({rule})")
    for selector, p in _targets(doc, paragraph, paragraphs):
        got_rule, got = line_spacing_of(doc, p)
        if got_rule != rule or abs(got - value) > tolerance:
            return fail(f"paragraph {_short(selector)} has line spacing {got:g} ({got_rule}), expected {shown}")
    if isinstance(unchanged, Mapping):
        for selector, (was_rule, was) in unchanged.items():
            got_rule, got = line_spacing_of(doc, find(doc, selector))
            slack = 0.02 if was_rule == "multiple" else 0.25
            if got_rule != was_rule or abs(got - float(was)) > slack:
                return fail(f"paragraph {_short(selector)} had line spacing {float(was):g} ({was_rule}) and must keep "
                            f"it, but has {got:g} ({got_rule})")
    else:
        for selector in unchanged:
            got_rule, got = line_spacing_of(doc, find(doc, selector))
            if got_rule == rule and abs(got - value) <= tolerance:
                return fail(f"paragraph {_short(selector)} should keep its spacing but also has {shown}")
    return ok(f"target paragraph(s) have line spacing {shown}; {len(unchanged)} other(s) unchanged")


# --- page setup, headers and footers ----------------------------------------------------------------


@primitive("docx.page_size", grounded=("path", "paper", "orientation"),
           meaning=Meaning(action=r"paper|page|orientation|landscape|portrait|size",
                           args={"orientation": Said("orientation")}))
@guarded
def page_size(state: State, path: str, paper: str, orientation: str) -> Result:
    """Every section uses paper `paper` (A4, Letter, Legal, A5) in `orientation` (portrait|landscape)."""
    doc = load(state, path)
    width, height = PAPERS[paper]
    if orientation == "landscape":
        width, height = height, width
    for i, sect in enumerate(sections(doc), start=1):
        size = sect.find(W + "pgSz")
        w, h = twips(size, "w"), twips(size, "h")
        if w is None or h is None:
            return fail(f"section {i} has no page size")
        got = "landscape" if w > h else "portrait"
        if got != orientation:
            return fail(f"section {i} is {got} ({w}x{h} twips), expected {orientation}")
        if abs(w - width) > PAPER_TOLERANCE or abs(h - height) > PAPER_TOLERANCE:
            return fail(f"section {i} page is {w}x{h} twips, expected {paper} {orientation} ({width}x{height})")
    return ok(f"{len(sections(doc))} section(s) on {paper} {orientation}")


@primitive("docx.page_margins", grounded=("path", "unit", "top", "bottom", "left", "right"),
           meaning=Meaning(action=r"margin", args={"unit": Said("unit")}))
@guarded
def page_margins(state: State, path: str, unit: str, top: float | None = None, bottom: float | None = None,
                 left: float | None = None, right: float | None = None, keep: dict[str, int] | None = None
                 ) -> Result:
    """Every section's margins equal the stated values (in `unit`: cm, mm, in); `keep` sides (twips) stay."""
    doc = load(state, path)
    wanted = {side: round(v * TWIPS_PER[unit]) for side, v in
              (("top", top), ("bottom", bottom), ("left", left), ("right", right)) if v is not None}
    wanted.update(keep or {})
    for i, sect in enumerate(sections(doc), start=1):
        margins = sect.find(W + "pgMar")
        for side, want in wanted.items():
            got = twips(margins, side)
            if got is None or abs(abs(got) - want) > MARGIN_TOLERANCE:
                shown = f"{got / TWIPS_PER[unit]:.2f} {unit}" if got is not None else "unset"
                return fail(f"section {i}: {side} margin is {shown}, expected {want / TWIPS_PER[unit]:.2f} {unit}")
    return ok(f"{len(sections(doc))} section(s): " + ", ".join(f"{s} {v / TWIPS_PER[unit]:.2f} {unit}"
                                                                for s, v in wanted.items()))


@primitive("docx.header_footer", grounded=("path", "part", "text", "page_number", "align"),
           meaning=Meaning(action=r"header|footer",
                           args={"part": Said("part"), "page_number": Said("page_number", when("page_number")),
                                 "align": Said("align")}))
@guarded
def header_footer(state: State, path: str, part: str, text: str | None = None, page_number: bool = False,
                  align: str | None = None) -> Result:
    """The first section's default `part` (header|footer) holds `text` and/or a PAGE field, aligned `align`."""
    doc = load(state, path)
    section = doc.document.sections[0]
    hf = getattr(section, part)
    if hf.is_linked_to_previous:
        return fail(f"the document has no {part}")
    element = hf._element
    paragraphs = list(element.iter(W + "p"))
    shown = " | ".join(norm(para_text(p)) for p in paragraphs if norm(para_text(p))) or "empty"
    found: list[etree._Element] = []
    if text is not None:
        hits = [p for p in paragraphs if norm(text) in norm(para_text(p))]
        if not hits:
            return fail(f"the {part} does not contain {text!r} (it reads: {shown})")
        found.append(hits[0])
    if page_number:
        field_p = page_field(element)
        if field_p is None:
            return fail(f"the {part} has no page number field (it reads: {shown})")
        found.append(field_p)
    if align is not None:
        for p in found:
            if alignment(doc, p) != align:
                return fail(f"the {part} paragraph {norm(para_text(p))!r} is aligned {alignment(doc, p)}, "
                            f"expected {align}")
    other = "footer" if part == "header" else "header"
    elsewhere = getattr(section, other)
    if text is not None and norm(text) and not elsewhere.is_linked_to_previous and any(
            norm(text) in norm(para_text(p)) for p in elsewhere._element.iter(W + "p")):
        return fail(f"the {part} reads: {shown}, but the {other} holds {text!r} as well")
    return ok(f"the {part} reads: {shown}" + (" (with a page field)" if page_number else ""))


# --- page breaks ------------------------------------------------------------------------------------


@primitive("docx.page_breaks", grounded=("path", "paragraph"), meaning=Meaning(action=r"page|break"))
@guarded
def page_breaks(state: State, path: str, paragraph: str | None = None, paragraphs: Sequence[str] = ()) -> Result:
    """Exactly the target paragraphs start on a new page (by a manual break, a page-break-before or a
    new-page section break), and no other break splits the text."""
    doc = load(state, path)
    targets = _targets(doc, paragraph, paragraphs)
    starts = page_starts(doc)
    shown = ", ".join(f"{how} {_short(norm(para_text(p))) if p is not None else ''}".strip()
                      for how, p in starts) or "none"
    begun = {id(p) for how, p in starts if how == "start"}
    for selector, p in targets:
        if id(p) not in begun:
            return fail(f"paragraph {_short(selector)} does not start a new page (page breaks: {shown})")
    if len(starts) != len(targets):
        return fail(f"{len(starts)} page break(s) found, expected {len(targets)} (page breaks: {shown})")
    return ok(f"page breaks: {shown}")


# --- tables -----------------------------------------------------------------------------------------


def _grid_diff(got: list[list[str]], want: Sequence[Sequence[str]]) -> str | None:
    want_rows = [[norm(str(c)) for c in row] for row in want]
    if len(got) != len(want_rows):
        return f"the table has {len(got)} rows, expected {len(want_rows)} (rows: {[r[:1] for r in got]})"
    for r, (g, w) in enumerate(zip(got, want_rows, strict=True), start=1):
        if g != w:
            return f"row {r} reads {g}, expected {w}"
    return None


@primitive("docx.table_equals", grounded=("path", "expected"),
           meaning=Meaning(action=r"table|row|column|cell", args={"expected": Visible(text_cells)}))
@guarded
def table_equals(state: State, path: str, expected: Sequence[Sequence[str]], index: int = 0,
                 count: int | None = None) -> Result:
    """The document's table number `index` (0-based, body level) holds exactly `expected`, cell by cell."""
    all_tables = tables(load(state, path))
    if count is not None and len(all_tables) != count:
        return fail(f"the document has {len(all_tables)} table(s), expected {count}")
    if index >= len(all_tables):
        return fail(f"the document has {len(all_tables)} table(s); table {index + 1} is missing")
    problem = _grid_diff(grid(all_tables[index]), expected)
    return fail(problem) if problem else ok(f"table {index + 1} holds the expected {len(expected)} rows")


def _next_block(doc: Doc, after: str | None) -> etree._Element | None:
    """The first non-empty block after the stated paragraph (or the last non-empty block, for None)."""
    blocks = [b for b in doc.blocks() if b.tag == W + "tbl" or doc.text(b)]
    if after is None:
        return blocks[-1] if blocks else None
    anchor = find(doc, after)
    index = next(i for i, b in enumerate(blocks) if b is anchor)
    return blocks[index + 1] if index + 1 < len(blocks) else None


@primitive("docx.table_inserted", grounded=("path", "rows", "after", "bold_header"),
           meaning=Meaning(action=r"table", args={"bold_header": Said("emphasis", when("bold"))}))
@guarded
def table_inserted(state: State, path: str, rows: Sequence[Sequence[str]], after: str | None = None,
                   count: int | None = None, bold_header: bool = False) -> Result:
    """A table holding exactly `rows` follows the stated paragraph (or ends the document, for no `after`);
    with `bold_header`, all its first-row text is bold."""
    doc = load(state, path)
    all_tables = tables(doc)
    if count is not None and len(all_tables) != count:
        return fail(f"the document has {len(all_tables)} table(s), expected {count}")
    block = _next_block(doc, after)
    where = f"after paragraph {_short(after)}" if after else "at the end of the document"
    if block is None or block.tag != W + "tbl":
        seen = _short(norm(para_text(block))) if block is not None else "nothing"
        return fail(f"no table {where} (found {seen} there; {len(all_tables)} table(s) in the document)")
    problem = _grid_diff(grid(block), rows)
    if problem:
        return fail(f"table {where}: {problem}")
    if bold_header:
        first = block.find(W + "tr")
        for p in first.iter(W + "p") if first is not None else ():
            for r, t in runs(p):
                if t.strip() and not char_value(doc, r, p, "bold"):
                    return fail(f"table {where}: header text {t!r} is not bold")
    return ok(f"table {where} holds the expected {len(rows)} rows" + (", header bold" if bold_header else ""))


# --- text -------------------------------------------------------------------------------------------


@primitive("docx.answer_number", grounded=("path",), secret=("value",),
           meaning=Meaning(action=r"count|how many|number|total"))
@guarded
def answer_number(state: State, path: str, value: int) -> Result:
    """The text file at `path` states exactly one number, equal to `value` (thousands commas allowed)."""
    content = state.read(path, read_text, "UTF-8 text file")
    numbers = [int(n.replace(",", "")) for n in re.findall(r"\d+(?:,\d{3})*(?![\d,]*\d)", content)]
    shown = repr(content.strip()[:60])
    if len(numbers) != 1:
        return fail(f"{path} should hold one number but reads {shown}")
    if numbers[0] != value:
        return fail(f"{path} reads {numbers[0]}, which is not the right count")
    return ok(f"{path} reads {shown}, the right count")


@primitive("docx.body_text", grounded=("path",),
           meaning=Meaning(action=None,
                           why="the text as it must read: kept, or as a replacement leaves it (docx.occurrences asks)"))
@guarded
def body_text(state: State, path: str, paragraphs: Sequence[str]) -> Result:
    """The body's non-empty paragraphs read exactly `paragraphs` (whitespace collapsed), in order."""
    got = body_paragraphs(load(state, path))
    want = [norm(t) for t in paragraphs]
    for i, (g, w) in enumerate(zip(got, want, strict=False), start=1):
        if g != w:
            at = next((k for k, (a, b) in enumerate(zip(g, w, strict=False)) if a != b), min(len(g), len(w)))
            return fail(f"paragraph {i} reads {g[max(0, at - 25):at + 25]!r} where {w[max(0, at - 25):at + 25]!r} "
                        "was expected")
    if len(got) != len(want):
        return fail(f"the body has {len(got)} non-empty paragraphs, expected {len(want)}")
    return ok(f"all {len(want)} paragraphs read as expected")


def _count(haystack: str, needle: str, match_case: bool, whole_word: bool) -> int:
    flags = 0 if match_case else re.IGNORECASE
    pattern = re.escape(needle)
    if whole_word:
        pattern = rf"(?<!\w){pattern}(?!\w)"
    return len(re.findall(pattern, haystack, flags))


@primitive("docx.occurrences", grounded=("path", "phrase", "match_case"),
           meaning=Meaning(action=r"replace|change|rename|substitut|correct",
                           args={"match_case": Said("case", choice({True: "match", False: "any"}))}))
@guarded
def occurrences(state: State, path: str, phrase: str, count: int, match_case: bool = True,
                whole_word: bool = False) -> Result:
    """`phrase` occurs exactly `count` times in the body text (case-sensitively unless `match_case` is off)."""
    got = sum(_count(t, norm(phrase), match_case, whole_word) for t in body_paragraphs(load(state, path)))
    how = ("" if match_case else "ignoring case, ") + ("as a whole word" if whole_word else "anywhere")
    if got != count:
        return fail(f"{phrase!r} occurs {got} time(s) ({how}), expected {count}")
    return ok(f"{phrase!r} occurs {count} time(s) ({how})")
