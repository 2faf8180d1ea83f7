"""multi primitives: what a hand-off between two apps leaves behind, where the single-app checks would demand
that the carried-over data be stated in the instruction.

In a multi-app task the data travels from one app to the other (an attachment's rows into a workbook, a
workbook's rows into a Writer table, a URL from a document into a bookmark), so the values are *derived*, not
stated: these primitives ground only what the user is told (paths, names, folders) and compare the rest with
the tolerance a copy-paste through a GUI needs:
- cells compare by meaning: a number equals its display text ("1,234.50", "$1,234.50" = 1234.5), a date its
  ISO text, text after trimming; a Calc import may type "12.50" as 12.5 or keep it as text, both pass;
- tables are found where the instruction puts them (after a stated paragraph, on a stated sheet);
- slides are named by title; pictures compare by pixel size and thumbnail content (`verifiers.checks.image`).
Where a single-app primitive already answers the question (a contact card, a setting, a saved file), it is
called as a function, so both read the state the same way.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from pptx.shapes.picture import Picture

from preparers import chrome as chromeio
from preparers import pptx as deckio
from preparers.image import decoded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks import thunderbird as tbc
from verifiers.checks import vscode as vsc
from verifiers.checks.chrome import same_url
from verifiers.checks.image_measure import compare
from verifiers.grounding import known_contacts, saved_place, text_cells
from verifiers.meaning import Derived, Meaning, ReadBack, Said, Visible
from verifiers.readers import StateError
from verifiers.readers import docx as docxc
from verifiers.readers import pptx as pptxc
from verifiers.readers.image import decode
from verifiers.readers.json import parse_json
from verifiers.readers.tree import report_lines
from verifiers.readers.xlsx import cell_text, saved_sheet

TOLERANCE = 0.005
_CURRENCY = re.compile(r"^[\s$€£¥]*|[\s$€£¥]*$")
_NUMBER_TEXT = re.compile(r"-?\d{1,3}(,\d{3})+(\.\d+)?|-?\d+(\.\d+)?")


def as_number(value: Any) -> float | None:
    """A cell or typed text as a number: 1234.5, "1234.50", "1,234.50", "$ 1,234.50"; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    text = _CURRENCY.sub("", value)
    if not _NUMBER_TEXT.fullmatch(text):
        return None
    return float(text.replace(",", ""))


def same_cell(actual: Any, expected: Any) -> bool:
    """Does a cell (or a table cell's text) hold `expected`? Numbers by value, everything else as trimmed text."""
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        got = as_number(actual)
        return got is not None and abs(got - float(expected)) <= TOLERANCE
    if isinstance(actual, dt.datetime | dt.date):
        return cell_text(actual) == str(expected).strip()
    return " ".join(cell_text(actual).split()) == " ".join(str(expected).split())


def _row_diff(got: Sequence[Any], want: Sequence[Any]) -> bool:
    return len(got) == len(want) and all(same_cell(g, w) for g, w in zip(got, want, strict=True))


def _show(row: Sequence[Any]) -> list[str]:
    return [cell_text(v) for v in row]


def _compare_rows(got: list[list[Any]], want: Sequence[Sequence[Any]], ordered: bool, what: str) -> str | None:
    """None when `got` holds exactly the rows `want` (in order, or in any order), else the first problem."""
    if ordered:
        for i, (g, w) in enumerate(zip(got, want, strict=False), start=1):
            if not _row_diff(g, w):
                return f"{what} row {i} reads {_show(g)}, expected {list(w)}"
    else:
        rest = list(got)
        for w in want:
            hit = next((k for k, g in enumerate(rest) if _row_diff(g, w)), None)
            if hit is None:
                return f"{what}: no row reads {list(w)}"
            rest.pop(hit)
    if len(got) != len(want):
        return f"{what} has {len(got)} data rows, expected {len(want)}"
    return None


# --- spreadsheets ------------------------------------------------------------------------------------


@primitive("multi.sheet_table", grounded=("path", "sheet", "header", "rows"),
           meaning=Meaning(action=r"sheet|table|xlsx|workbook|Calc|spreadsheet",
                           args={"header": Visible(text_cells),
                                 "rows": ReadBack("the sort order ('by Bill Rate, smallest first')")}))
def sheet_table(state: State, path: str, header: list[str], rows: list[list[Any]], sheet: str | None = None,
                ordered: bool = True, below_ok: bool = False, typed: bool = False) -> Result:
    """The sheet (`sheet`, or the first one) holds `header` in row 1 and exactly `rows` below it, from column A
    (in order unless `ordered` is off); with `below_ok`, rows after the data (e.g. a totals row) are allowed.
    Numbers must be numbers, not text: Calc turns a CSV's numbers into numbers on import too, so digits stored as
    text are a wrong cell whether typed or imported (`typed` is accepted for packages that still pass it)."""
    ws, value = saved_sheet(state, path, sheet)
    width = len(header)
    got_header = [cell_text(value(1, c)).strip() for c in range(1, width + 2)]
    if got_header[:width] != [h.strip() for h in header] or got_header[width]:
        return fail(f"row 1 of sheet {ws.title!r} is {[h for h in got_header if h]}, expected the header {header}")
    last = min(ws.max_row, len(rows) + 400)
    table = [[value(r, c) for c in range(1, width + 1)] for r in range(2, last + 1)]
    while table and not any(cell_text(v).strip() for v in table[-1]):
        table.pop()
    if below_ok:
        blank = next((i for i, r in enumerate(table) if not any(cell_text(v).strip() for v in r)), len(table))
        table = table[:min(len(rows), blank)] if len(table) > len(rows) else table
    problem = _compare_rows(table, rows, ordered, f"sheet {ws.title!r}")
    if problem:
        return fail(problem)
    # a spreadsheet holds numbers as numbers: digits typed as text look right but do not sum or sort
    as_text = [ws.cell(r, c + 1).coordinate for r, got in enumerate(table, start=2) for c, v in enumerate(got)
               if isinstance(v, str) and any(isinstance(w[c], int | float) and not isinstance(w[c], bool)
                                             for w in rows if len(w) > c)]
    if as_text:
        return fail(f"sheet {ws.title!r}: {', '.join(as_text[:4])} hold numbers typed as text")
    stray = [c for c in range(width + 1, width + 3) if any(value(r, c) not in (None, "")
                                                            for r in range(1, len(rows) + 2))]
    if stray:
        return fail(f"sheet {ws.title!r} has extra filled columns to the right of the {width} asked for")
    return ok(f"sheet {ws.title!r} of {path}: header {header} and the {len(rows)} expected rows")


# --- Writer tables and numbers ------------------------------------------------------------------------

def _table_after(doc: docxc.Doc, after: str) -> Any:
    anchor = docxc.find(doc, after)
    blocks = [b for b in doc.blocks() if b.tag == docxc.W + "tbl" or doc.text(b) or b is anchor]
    index = next(i for i, b in enumerate(blocks) if b is anchor)
    following = blocks[index + 1] if index + 1 < len(blocks) else None
    if following is None or following.tag != docxc.W + "tbl":
        seen = docxc.norm(docxc.para_text(following))[:40] if following is not None else "nothing"
        raise StateError(f"no table directly after the paragraph starting {after!r} (found {seen!r})")
    return following


@primitive("multi.docx_table", grounded=("path", "header", "rows", "after"),
           meaning=Meaning(action=r"table",
                           args={"header": Visible(text_cells),
                                 "rows": ReadBack("'4 rows', '3 columns', and the sort order ('smallest first')")}))
def docx_table(state: State, path: str, header: list[str], rows: list[list[Any]], after: str | None = None,
               ordered: bool = True) -> Result:
    """A table of the document (the one right after the paragraph starting `after`, or any one) has the header
    row `header` and exactly `rows` below it; numbers may be typed in any display format."""
    doc = docxc.load(state, path)
    candidates = [_table_after(doc, after)] if after else docxc.tables(doc)
    if not candidates:
        return fail(f"{path} has no table")
    problems = []
    for table in candidates:
        grid = docxc.grid(table)
        if not grid or [docxc.norm(c) for c in grid[0]] != [docxc.norm(h) for h in header]:
            problems.append(f"a table with header {grid[0] if grid else []}")
            continue
        problem = _compare_rows([list(r) for r in grid[1:]], rows, ordered, "the table")
        if problem is None:
            return ok(f"{path}: a table with header {header} and the {len(rows)} expected rows")
        problems.append(problem)
    return fail(f"{path}: no table holds header {header} and the expected rows ({'; '.join(problems[:3])})")


#: What may follow a label besides the number: a currency sign before or after it, a final full stop.
_FIGURE = re.compile(r"[$€£¥]?\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*[$€£¥]?\.?")


@primitive("multi.number_in_text", grounded=("path", "label"), secret=("value",),
           meaning=Meaning(action=r"total|sum|number|write|count|report|figure|find|put",
                           args={"label": Derived("aggregate")}))
def number_in_text(state: State, path: str, label: str, value: float, tolerance: float = TOLERANCE,
                   others: Sequence[str] | None = None) -> Result:
    """The paragraph (docx) or line (text file) starting with `label` reads the label then exactly one number,
    equal to `value` (thousands separators and a currency sign allowed, no other words: "TBD 95.5" still holds
    the placeholder). With `others`, every other non-empty paragraph or line reads exactly these, in order."""
    want = " ".join(label.split())
    every = report_lines(state, path)
    lines = [line for line in every if line.startswith(want)]
    if len(lines) != 1:
        return fail(f"{path}: {len(lines)} lines start with {label!r}, expected one")
    rest = lines[0][len(want):].strip()
    figure = _FIGURE.fullmatch(rest)
    if figure is None:
        return fail(f"{path}: after {label!r} the line reads {rest[:60]!r}, which is not one number alone")
    if abs(float(figure.group(1).replace(",", "")) - value) > tolerance:
        return fail(f"{path}: {label!r} is followed by {figure.group(1)}, which is not the right figure")
    if others is not None:
        at = every.index(lines[0])
        rest_lines = [line for i, line in enumerate(every) if line and i != at]
        kept = [" ".join(o.split()) for o in others]
        if rest_lines != kept:
            changed = next((f"{g!r} where {w!r} was" for g, w in zip(rest_lines, kept, strict=False) if g != w),
                           f"{len(rest_lines)} other lines where there were {len(kept)}")
            return fail(f"{path}: the rest of the file must stay as it was, but it reads {changed}")
    return ok(f"{path}: {label!r} states the right figure" + (", the rest is unchanged" if others is not None else ""))


# --- Thunderbird, Chrome, VS Code, files --------------------------------------------------------------

@primitive("multi.contacts", grounded=("present", "absent"),
           meaning=Meaning(action=r"address book|contact|card",
                           args={"present": Visible(known_contacts), "absent": Visible(known_contacts)}))
def contacts(state: State, path: str, present: list[list[str]], absent: Sequence[str] = ()) -> Result:
    """The profile's Personal Address Book has a card for each [display name, email] of `present` and none for the
    addresses in `absent` (people the instruction's rule leaves out)."""
    for name, email in present:
        result = tbc.contact_exists(state, path, email, name)
        if not result.passed:
            return fail(f"missing {name} <{email}>: {result.evidence}")
    extra = [email for email in absent if tbc.contact_exists(state, path, email).passed]
    if extra:
        return fail(f"the address book also has cards for {', '.join(extra[:4])}, whom the rule leaves out")
    return ok(f"all {len(present)} contacts are in the address book" + (", and none of the others" if absent else ""))


@primitive("multi.bookmark", grounded=("name", "folder"), meaning=Meaning(action=r"bookmark"))
def bookmark(state: State, path: str, name: str, url: str, folder: list[str]) -> Result:
    """A bookmark called `name` sits directly in `folder` (root label first) and points at `url`, an address the
    user found in another app (scheme, host case and a trailing slash are free, as Chrome fixes them up); no other
    bookmark of that name there points elsewhere (which one would the user click?)."""
    data = state.read(path, parse_json, "Chrome Bookmarks file")
    nodes = chromeio.folders_at(data, folder)
    where = " > ".join(folder)
    if not nodes:
        return fail(f"there is no bookmark folder {where}")
    named = [c for n in nodes for c in chromeio.children(n) if c.get("type") == "url"
             and str(c.get("name", "")).strip() == name.strip()]
    if not named:
        seen = [str(c.get("name")) for n in nodes for c in chromeio.children(n)]
        return fail(f"{where} has no bookmark named {name!r} (it holds {seen[:10]})")
    wrong = [str(c.get("url", "")) for c in named if not same_url(str(c.get("url", "")), url)]
    if wrong:
        return fail(f"{where} > {name!r} points at {wrong[0]!r}, not the address asked for"
                    + (f" ({len(named)} bookmarks have that name)" if len(named) > 1 else ""))
    return ok(f"{where} > {name!r} points at {url}")


@primitive("multi.setting_value", grounded=("key",), meaning=Meaning(action=r"setting|set|VS Code|value"))
def setting_value(state: State, path: str, key: str, value: Any) -> Result:
    """VS Code setting `key` in the settings file `path` equals `value`, a value the user read from another file."""
    return vsc.setting_equals(state, path, key, value)


@primitive("multi.saved_file", grounded=("path",),
           meaning=Meaning(action=r"save|store|attachment|download", args={"path": Visible(saved_place)}))
def saved_file(state: State, path: str, sha256: str, size: int | None = None) -> Result:
    """The file at `path` (a place the instruction's rule determines) holds exactly the expected bytes."""
    return tbc.file_saved(state, path, sha256, size)


# --- Impress ---------------------------------------------------------------------------------------------

@primitive("multi.slide_layouts", grounded=("path", "layout"),
           meaning=Meaning(action=r"slide", args={"layout": Said("layout")}))
def slide_layouts(state: State, path: str, titles: list[str], layout: str) -> Result:
    """Every slide titled by one of `titles` has the placeholders of layout kind `layout` (title_only, ...)."""
    for title in titles:
        for slide in pptxc.slides(state, path, title):
            kind = deckio.layout_kind(slide)
            if kind != layout:
                return fail(f"slide {title!r} has layout {kind}, expected {layout}")
    return ok(f"the {len(titles)} slides have layout {layout}")


@primitive("multi.slide_notes", grounded=("path",), meaning=Meaning(action=r"notes"))
def slide_notes(state: State, path: str, notes: dict[str, str]) -> Result:
    """The slide titled by each key has speaker notes reading the value (whitespace collapsed)."""
    for title, text in notes.items():
        for slide in pptxc.slides(state, path, title):
            got = deckio.notes_text(slide)
            if got != deckio.norm(text):
                return fail(f"the notes of slide {title!r} read {got[:60]!r}, expected {deckio.norm(text)[:60]!r}")
    return ok(f"{len(notes)} slides carry the expected notes")


@primitive("multi.slide_picture", grounded=("path", "slide"), meaning=Meaning(action=r"slide|picture|image"))
def slide_picture(state: State, path: str, slide: str, width: int, height: int, reference: dict[str, Any]) -> Result:
    """Slide `slide` shows a picture of `width` x `height` pixels (within 1) showing the reference content."""
    want = decode(reference)
    for item in pptxc.slides(state, path, slide):
        seen = []
        for shape in deckio.walk(item.shapes):
            if not isinstance(shape, Picture):
                continue
            try:
                img = decoded(shape.image.blob)  # every control's slide holds the same exported picture
                size = img.size
                alike, measure = compare(img, want)
            except Exception as exc:  # a linked or broken picture is simply not the asked one
                seen.append(f"unreadable picture ({type(exc).__name__})")
                continue
            seen.append(f"{size[0]}x{size[1]} picture ({measure})")
            if abs(size[0] - width) <= 1 and abs(size[1] - height) <= 1 and alike:
                break
        else:
            return fail(f"slide {slide!r} shows no {width}x{height} picture of the expected content "
                        f"(pictures: {seen or 'none'})")
    return ok(f"slide {slide!r} shows the {width}x{height} picture")
