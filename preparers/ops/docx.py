"""docx ops: the edits Writer oracles and near-misses are written in (python-docx on the saved file).

Paragraphs are named by the start of their text (whitespace collapsed), as instructions name them.
The "docx" document kind also covers the plain-text answer files Writer tasks ask for (paths ending
in .txt): those load as `PlainText` and take the `docx.write_text` op.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docx.document import Document
from docx.enum.section import WD_ORIENT
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_LINE_SPACING
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt, Twips
from docx.table import Table
from docx.text.paragraph import Paragraph

from preparers.docx import ALIGNMENTS, PAPERS, open_for_edit, style_id
from preparers.ops import document_kind, op


@dataclass
class PlainText:
    """A plain-text file being written by ops (e.g. an answer file)."""

    text: str


def _load(host: Path, root: Path) -> Document | PlainText:
    if host.suffix.lower() == ".txt":
        return PlainText(host.read_text(encoding="utf-8") if host.is_file() else "")
    if not host.is_file():
        raise FileNotFoundError(host)
    document = open_for_edit(str(host))  # styles parsed only if an op reads them
    # ops that insert a file of the state (docx.add_picture) resolve it in the state root
    document._forge_root = root  # type: ignore[attr-defined]
    return document


def _save(document: Document | PlainText, host: Path) -> None:
    if isinstance(document, PlainText):
        host.write_text(document.text, encoding="utf-8")
    else:
        document.save(str(host))


document_kind("docx", load=_load, save=_save)


def _norm(text: str) -> str:
    return " ".join(text.split())


def _doc(document: Any) -> Document:
    if isinstance(document, PlainText):
        raise ValueError("this op edits a docx document, not a text file")
    return document  # type: ignore[no-any-return]


def paragraph(document: Document, selector: str) -> Paragraph:
    """The first body paragraph whose text starts with `selector` (an exact match wins)."""
    want = _norm(selector)
    hits = [p for p in _doc(document).paragraphs if _norm(p.text).startswith(want)]
    if not hits:
        raise ValueError(f"no paragraph begins with {selector!r}")
    return next((p for p in hits if _norm(p.text) == want), hits[0])


def _set_text(p: Paragraph, text: str) -> None:
    """Replace the paragraph's text, keeping the first run's formatting."""
    runs = p.runs
    if not runs:
        p.add_run(text)
        return
    runs[0].text = text
    for run in runs[1:]:
        run._r.getparent().remove(run._r)


def _table(document: Document, index: int) -> Table:
    return _doc(document).tables[index]


@op("docx.write_text")
def write_text(document: Any, text: str) -> None:
    """Set the whole content of a plain-text (.txt) file."""
    if not isinstance(document, PlainText):
        raise ValueError("docx.write_text writes .txt files only")
    document.text = text


@op("docx.set_style")
def set_style(document: Document, paragraphs: list[str], style: str) -> None:
    """Apply paragraph style `style` (e.g. "Heading 2", "List Bullet") to the named paragraphs."""
    for selector in paragraphs:  # as `Paragraph.style = styles[style]` sets it, the styles part left unread
        paragraph(document, selector)._p.style = style_id(_doc(document), style, WD_STYLE_TYPE.PARAGRAPH)


@op("docx.replace_text")
def replace_text(document: Document, old: str, new: str, match_case: bool = True, whole_word: bool = False,
                 first_only: bool = False) -> None:
    """Find and replace in body paragraphs, like Writer's Replace All (the replacement is typed as given)."""
    pattern = re.escape(old)
    if whole_word:
        pattern = rf"(?<!\w){pattern}(?!\w)"
    regex = re.compile(pattern, 0 if match_case else re.IGNORECASE)
    for p in _doc(document).paragraphs:
        changed, n = regex.subn(lambda _: new, p.text, count=1 if first_only else 0)
        if n:
            _set_text(p, changed)
            if first_only:
                return


@op("docx.format_chars")
def format_chars(document: Document, paragraph_start: str, phrase: str | None = None, font: str | None = None,
                 size: float | None = None, bold: bool | None = None, italic: bool | None = None,
                 underline: bool | None = None) -> None:
    """Set character formatting on `phrase` inside the named paragraph, or on the whole paragraph."""
    p = paragraph(document, paragraph_start)
    full = p.text
    start, end = (0, len(full)) if phrase is None else (full.index(phrase), full.index(phrase) + len(phrase))
    template = p.runs[0]._r if p.runs else None
    pieces = [(full[:start], False), (full[start:end], True), (full[end:], False)]
    for run in p.runs:
        run._r.getparent().remove(run._r)
    for piece, target in pieces:
        if not piece:
            continue
        run = p.add_run(piece)
        if template is not None and template.rPr is not None:
            run._r.insert(0, copy.deepcopy(template.rPr))
        if target:
            if font is not None:
                run.font.name = font
            if size is not None:
                run.font.size = Pt(size)
            for attr, value in (("bold", bold), ("italic", italic), ("underline", underline)):
                if value is not None:
                    setattr(run, attr, value)


@op("docx.set_alignment")
def set_alignment(document: Document, paragraphs: list[str], align: str) -> None:
    """Align the named paragraphs left, center, right or justify."""
    for selector in paragraphs:
        paragraph(document, selector).alignment = ALIGNMENTS[align]


@op("docx.set_line_spacing")
def set_line_spacing(document: Document, paragraphs: list[str], rule: str, value: float) -> None:
    """Line spacing: `rule` "multiple" (value in lines) or "exact"/"atLeast" (value in points)."""
    for selector in paragraphs:
        fmt = paragraph(document, selector).paragraph_format
        if rule == "multiple":
            fmt.line_spacing = float(value)
        else:
            fmt.line_spacing = Pt(value)
            fmt.line_spacing_rule = WD_LINE_SPACING.EXACTLY if rule == "exact" else WD_LINE_SPACING.AT_LEAST


@op("docx.set_page")
def set_page(document: Document, paper: str, orientation: str, swap: bool = True) -> None:
    """Paper size and orientation of every section. `swap=False` flips only the orientation flag and keeps
    portrait dimensions: a classic mistake, used by near-misses."""
    width, height = PAPERS[paper]
    for section in _doc(document).sections:
        landscape = orientation == "landscape"
        section.orientation = WD_ORIENT.LANDSCAPE if landscape else WD_ORIENT.PORTRAIT
        w, h = (height, width) if landscape and swap else (width, height)
        section.page_width, section.page_height = Twips(w), Twips(h)


@op("docx.set_margins")
def set_margins(document: Document, top: int | None = None, bottom: int | None = None, left: int | None = None,
                right: int | None = None) -> None:
    """Page margins of every section, in twips."""
    for section in _doc(document).sections:
        for side, value in (("top", top), ("bottom", bottom), ("left", left), ("right", right)):
            if value is not None:
                setattr(section, f"{side}_margin", Twips(value))


def _page_field(p: Paragraph) -> None:
    field = OxmlElement("w:fldSimple")
    field.set(qn("w:instr"), " PAGE ")
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    field.append(run)
    p._p.append(field)


@op("docx.set_header_footer")
def set_header_footer(document: Document, part: str, text: str | None = None, page_number: bool = False,
                      align: str | None = None, literal_number: bool = False) -> None:
    """Write the first section's header or footer: `text`, then a PAGE field (or, with `literal_number`, a
    typed "1": a classic mistake)."""
    target = getattr(_doc(document).sections[0], part)
    target.is_linked_to_previous = False
    p = target.paragraphs[0]
    _set_text(p, text or "")
    if page_number:
        if text:
            p.add_run(" ")
        if literal_number:
            p.add_run("1")
        else:
            _page_field(p)
    if align:
        p.alignment = ALIGNMENTS[align]


@op("docx.page_break")
def page_break(document: Document, paragraph_start: str, how: str = "run") -> None:
    """Make the named paragraph start a new page: a page-break run at its start ("run") or the
    page-break-before property ("property")."""
    p = paragraph(document, paragraph_start)
    if how == "property":
        p.paragraph_format.page_break_before = True
        return
    run = OxmlElement("w:r")
    br = OxmlElement("w:br")
    br.set(qn("w:type"), "page")
    run.append(br)
    first = p._p.find(qn("w:r"))
    if first is not None:
        first.addprevious(run)
    else:
        p._p.append(run)


@op("docx.insert_table")
def insert_table(document: Document, rows: list[list[str]], after: str | None = None,
                 bold_header: bool = False) -> None:
    """Insert a table with `rows` after the named paragraph, or at the end of the document."""
    doc = _doc(document)
    # as `doc.add_table(...).style = doc.styles["Table Grid"]` makes it, the styles part left unread (`style_id`)
    table = doc._body.add_table(len(rows), len(rows[0]), doc._block_width)
    table._tbl.tblStyle_val = style_id(doc, "Table Grid", WD_STYLE_TYPE.TABLE)
    for r, (row, values) in enumerate(zip(table.rows, rows, strict=True)):  # `table.cell` walks the whole table
        for cell, value in zip(row.cells, values, strict=False):  # a short row leaves its last cells empty
            run = cell.paragraphs[0].add_run(str(value))
            run.bold = True if bold_header and r == 0 else None
    if after is not None:
        paragraph(document, after)._p.addnext(table._tbl)


@op("docx.set_cell")
def set_cell(document: Document, row: int, column: int, text: str, index: int = 0) -> None:
    """Set the text of one cell (0-based row and column) of table `index`."""
    _set_text(_table(document, index).cell(row, column).paragraphs[0], text)


@op("docx.add_row")
def add_row(document: Document, values: list[str], index: int = 0, position: int | None = None) -> None:
    """Append a row (or insert it before 0-based row `position`) to table `index`."""
    table = _table(document, index)
    new = table.add_row()
    for cell, value in zip(new.cells, values, strict=True):
        _set_text(cell.paragraphs[0], value)
    if position is not None:
        table.rows[position]._tr.addprevious(new._tr)


@op("docx.delete_row")
def delete_row(document: Document, row: int, index: int = 0) -> None:
    """Delete 0-based row `row` of table `index`."""
    tr = _table(document, index).rows[row]._tr
    tr.getparent().remove(tr)


@op("docx.add_column")
def add_column(document: Document, values: list[str], index: int = 0) -> None:
    """Append a column holding `values` (header first) to table `index`."""
    table = _table(document, index)
    column = table.add_column(Twips(1800))
    for cell, value in zip(column.cells, values, strict=True):
        _set_text(cell.paragraphs[0], value)
