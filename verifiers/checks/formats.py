"""Format primitives (issue 38's office-formats cluster): a file saved or exported as another format holds what
its source shows. A CSV export holds a stated sheet's rows (`csv.sheet_export`); a PDF holds a document's text in
order on a sane number of pages (`pdf.text_pages`).

Every file is read through a bounded reader (verifiers/readers/delimited.py, verifiers/readers/pdf.py): a missing,
binary, oversized or hostile file fails the check with evidence, never raises. What else may change is the tree
frame's question (`tree.frame`): it allows the new file exactly where the oracle makes it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers import delimited
from verifiers.readers import odf as odf_reader
from verifiers.readers import pdf as pdf_reader
from verifiers.readers.xlsx import cell_text

DELIMITERS = {"comma": ",", "semicolon": ";", "tab": "\t"}
_PLAIN = re.compile(r"-?\d+(?:\.\d+)?")
_GROUPED = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
#: How a date may be written in an export: ISO, or as the cell shows it (day first, month first).
_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%m/%d/%Y", "%d/%m/%Y", "%m/%d/%y", "%d.%m.%y")


def _number(text: str) -> float | None:
    text = text.strip()
    if _PLAIN.fullmatch(text):
        return float(text)
    if _GROUPED.fullmatch(text):
        return float(text.replace(",", ""))
    return None


def _same_field(value: Any, text: str) -> bool:
    """Does the exported field `text` show the cell value `value`? Numbers as numbers (plain, or as a format shows
    them: 1,234.50), dates by day (ISO or as the cell shows them), text exactly (outer spaces aside)."""
    if value is None:
        return not text.strip()
    if isinstance(value, bool):
        return text.strip().upper() == ("TRUE" if value else "FALSE")
    if isinstance(value, int | float):
        got = _number(text)
        return got is not None and abs(got - float(value)) <= 0.0051 + abs(float(value)) * 1e-9
    if isinstance(value, dt.date):
        day = value.date() if isinstance(value, dt.datetime) else value
        for fmt in _DATE_FORMATS:
            try:
                if dt.datetime.strptime(text.strip(), fmt).date() == day:
                    return True
            except ValueError:
                continue
        return False
    return str(value).strip() == text.strip()


def _trimmed(row: list[Any] | tuple[Any, ...], empty: Any) -> list[Any]:
    cells = list(row)
    while cells and (cells[-1] is None or (isinstance(cells[-1], str) and not cells[-1].strip())):
        cells.pop()
    return cells


@primitive("csv.sheet_export", grounded=("path", "workbook", "sheet", "delimiter"),
           meaning=Meaning(action=r"export|save|convert|CSV", args={"delimiter": Said("delimiter")}))
def sheet_export(state: State, path: str, workbook: str, sheet: str, delimiter: str) -> Result:
    """The text file at `path`, read with the field delimiter `delimiter` (comma, semicolon or tab), holds exactly
    the rows of sheet `sheet` of `workbook`, header first, one line per row and one field per cell, each field
    showing its cell's value (a number plain or as formatted, a date in ISO or as shown); trailing empty cells and
    lines aside."""
    if delimiter not in DELIMITERS:
        return fail(f"check misconfigured: delimiter {delimiter!r}")
    ws = state.sheet(workbook, sheet)
    expected = [_trimmed(row, None) for row in ws.iter_rows(values_only=True)]
    while expected and not expected[-1]:
        expected.pop()
    got = [_trimmed(row, "") for row in delimited.load(state, path, DELIMITERS[delimiter])]
    where = f"{path} (read as {delimiter}-separated)"
    if not got:
        return fail(f"{where} is empty; sheet '{sheet}' has {len(expected)} rows")
    problems = []
    if len(got) != len(expected):
        problems.append(f"it has {len(got)} lines, sheet '{sheet}' has {len(expected)} rows (header included)")
    for i, (want, have) in enumerate(zip(expected, got, strict=False), start=1):
        if len(want) != len(have):
            problems.append(f"line {i} has {len(have)} fields, row {i} of '{sheet}' has {len(want)} cells "
                            f"({have[:3]!r}...)")
        else:
            bad = [j for j, (v, t) in enumerate(zip(want, have, strict=True)) if not _same_field(v, t)]
            if bad:
                j = bad[0]
                problems.append(f"line {i}, field {j + 1} is {have[j]!r}, the cell shows {cell_text(want[j])!r}")
        if len(problems) >= 4:
            break
    if problems:
        return fail(f"{where} does not hold the rows of sheet '{sheet}' of {workbook}: {'; '.join(problems)}")
    return ok(f"{where} holds the {len(expected)} rows of sheet '{sheet}' (header first), every field as its cell")


def _in_order(text: str, parts: list[str], start: int = 0) -> tuple[int, str | None]:
    """Find each of `parts` (flattened) in `text` after the previous one: (end position, the first part missing)."""
    pos = start
    for part in parts:
        want = pdf_reader.flat(part)
        if not want:
            continue
        found = text.find(want, pos)
        if found < 0:
            return pos, part
        pos = found + len(want)
    return pos, None


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 3] + "..."


@primitive("pdf.document_text", grounded=("path", "source"),
           meaning=Meaning(action=r"export|save|convert|PDF|print"))
def document_text(state: State, path: str, source: str, paragraphs: list[str], cells: list[str],
                  max_pages: int) -> Result:
    """The PDF at `path` is the document `source` exported: its pages' text holds every one of `paragraphs` (the
    document's paragraphs, in the document's order) and every one of `cells` (its table cells, in any order, as a
    PDF's table reads column by column), on 1 to `max_pages` pages; page layout, line breaks and any extra text (a
    page number) aside."""
    if not paragraphs:
        return fail("check misconfigured: no paragraph to find")
    doc = pdf_reader.load(state, path)
    if not 1 <= doc.count <= max_pages:
        return fail(f"{path} has {doc.count} pages; {source} exported takes 1 to {max_pages}")
    text = pdf_reader.flat("".join(doc.pages))
    if not text:
        return fail(f"{path} has {doc.count} page(s) but no text: not {source} exported")
    _, missing = _in_order(text, paragraphs)
    if missing is not None:
        found = sum(1 for p in paragraphs if pdf_reader.flat(p) in text)
        return fail(f"{path} does not show {source}'s text in order: {found} of its {len(paragraphs)} paragraphs "
                    f"are there; first missing or out of order: {_short(missing)!r}")
    absent = [c for c in cells if pdf_reader.flat(c) not in text]
    if absent:
        return fail(f"{path} lacks {len(absent)} of the {len(cells)} table cells of {source}: "
                    f"{', '.join(repr(_short(c, 30)) for c in absent[:4])}")
    return ok(f"{path} ({doc.count} page(s)) shows all {len(paragraphs)} paragraphs of {source} in order"
              + (f" and its {len(cells)} table cells" if cells else ""))


@primitive("pdf.slide_pages", grounded=("path", "source"),
           meaning=Meaning(action=r"export|save|convert|PDF|print"))
def slide_pages(state: State, path: str, source: str, slides: list[list[str]]) -> Result:
    """The PDF at `path` is the deck `source` exported one slide per page: it has exactly as many pages as `slides`,
    and page i shows the texts of slide i (`slides[i]`: its title, then its other texts) in order."""
    if not slides:
        return fail("check misconfigured: no slide")
    doc = pdf_reader.load(state, path)
    if doc.count != len(slides):
        return fail(f"{path} has {doc.count} pages; {source} has {len(slides)} slides, one page each")
    problems = []
    for i, (page, texts) in enumerate(zip(doc.pages, slides, strict=True), start=1):
        _, missing = _in_order(pdf_reader.flat(page), texts)
        if missing is not None:
            problems.append(f"page {i} lacks {_short(missing, 40)!r} of slide {i}")
    if problems:
        return fail(f"{path} is not {source} one slide per page: {'; '.join(problems[:4])}")
    return ok(f"{path} has {len(slides)} pages, each showing its slide's texts in order")


@primitive("pdf.pages_in_order", grounded=("path",),
           meaning=Meaning(action=r"merg|combin|join|concatenat|put (?:them )?together|split|extract|pull out|"
                                  r"separat|take out|copy (?:out )?pages?"))
def pages_in_order(state: State, path: str, pages: list[list[str]], sources: list[str]) -> Result:
    """The PDF at `path` has exactly `len(pages)` pages, and page i shows the text lines `pages[i]` in order: the
    pages of `sources` (named in the evidence) in the asked order."""
    if not pages:
        return fail("check misconfigured: no page")
    doc = pdf_reader.load(state, path)
    if doc.count != len(pages):
        return fail(f"{path} has {doc.count} page(s); the pages asked for from {', '.join(sources)} are "
                    f"{len(pages)}")
    problems = []
    for i, (page, lines) in enumerate(zip(doc.pages, pages, strict=True), start=1):
        _, missing = _in_order(pdf_reader.flat(page), lines)
        if missing is not None:
            problems.append(f"page {i} lacks {_short(missing, 40)!r}")
    if problems:
        return fail(f"{path} does not hold the asked pages in order: {'; '.join(problems[:4])}")
    return ok(f"{path} has the {len(pages)} asked pages of {', '.join(sources)}, in order")


@primitive("odf.document_text", grounded=("path", "source"),
           meaning=Meaning(action=r"save|convert|export|ODF|ODT|OpenDocument"))
def odf_document_text(state: State, path: str, source: str, mimetype: str, paragraphs: list[str],
                      cells: list[str]) -> Result:
    """The file at `path` is an OpenDocument file of type `mimetype` (its `mimetype` part; a docx renamed is no
    ODF) whose body holds every one of `paragraphs` (the source's paragraphs, whitespace aside) in the source's
    order, and every one of `cells` among its table cells."""
    doc = odf_reader.load(state, path)
    if doc.mimetype != mimetype:
        return fail(f"{path} declares the type {doc.mimetype!r}, not {mimetype!r}")
    have = [" ".join(p.split()) for p in doc.paragraphs]
    pos = 0
    for i, want in enumerate(paragraphs):
        want = " ".join(want.split())
        try:
            pos = have.index(want, pos) + 1
        except ValueError:
            found = sum(1 for p in paragraphs if " ".join(p.split()) in have)
            return fail(f"{path} does not hold {source}'s paragraphs in order: {found} of {len(paragraphs)} are "
                        f"there; paragraph {i + 1} missing or out of order: {_short(want)!r}")
    got_cells = {" ".join(c.split()) for c in doc.cells}
    absent = [c for c in cells if " ".join(c.split()) not in got_cells]
    if absent:
        return fail(f"{path} lacks {len(absent)} of the {len(cells)} table cells of {source}: "
                    f"{', '.join(repr(_short(c, 30)) for c in absent[:4])}")
    return ok(f"{path} is {mimetype} holding all {len(paragraphs)} paragraphs of {source} in order"
              + (f" and its {len(cells)} table cells" if cells else ""))
