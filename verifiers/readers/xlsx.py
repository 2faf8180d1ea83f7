"""The xlsx reader: a workbook parsed once per content (`kit.parsecache`) with its formulas as text, the values an
app saved for those formulas (read straight from the XML), cell values as canonical text, ranges, the sheet view
(hidden columns, frozen panes, the autofilter's range) and charts (types, series ranges, anchors). The xlsx checks
(`verifiers.checks.xlsx_*`), their mutators and the Calc families read workbooks through it; number format codes
and colors are read by `verifiers.readers.xlsx_format`.

openpyxl creates a cell on every lookup of one that is not there: `lookups_undone` takes a workbook back to how it
was parsed, so a parsed workbook can be shared between states (`verifiers.checks.CHANGED_BY_READING`).
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import openpyxl
from openpyxl.styles.numbers import is_date_format, is_timedelta_format
from openpyxl.utils import column_index_from_string, coordinate_to_tuple, get_column_letter, range_boundaries
from openpyxl.utils.cell import coordinate_from_string
from openpyxl.utils.datetime import from_excel
from openpyxl.workbook.workbook import Workbook

from kit import bounded, parsecache
from verifiers.readers import Source, StateError

# --- workbooks -----------------------------------------------------------------------------------------

def _load_formulas(host: Path) -> Workbook:
    return parsecache.parse(host, "xlsx", openpyxl.load_workbook)


def as_read(wb: Workbook) -> Workbook:
    """`wb` as openpyxl reads it back once saved: a number under a date (or duration) format becomes the date (or
    the duration) it shows, as the reader turns such a cell into a date cell. An edit held in memory (a near-miss
    typing a date's serial, then formatting the column) is judged as the file it saves would be. In place."""
    for ws in wb.worksheets:
        for cell in list(ws._cells.values()):
            value = cell._value
            if cell.data_type != "n" or isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if is_date_format(cell.number_format):
                try:
                    cell._value = from_excel(value, wb.epoch, timedelta=is_timedelta_format(cell.number_format))
                except (OverflowError, ValueError):
                    continue  # the reader makes it an error cell; left as the number (the checks fail it either way)
                cell.data_type = "d"
    return wb


def lookups_undone(wb: Workbook) -> Callable[[], Workbook]:
    """A function that takes `wb` back to how it is now and returns it: openpyxl's lookups only ever add cells and
    column or row entries (and move a sheet's current row), so removing what was added since restores it.
    Nothing that reads a workbook (checks, mutators) sets anything on it; tests/verifiers/test_fast_path.py
    holds a workbook taken back after whole rubrics to a fresh parse, pickle for pickle."""
    kept = [(ws, set(ws._cells), set(ws.column_dimensions), set(ws.row_dimensions), ws._current_row)
            for ws in wb.worksheets]

    def undo() -> Workbook:
        for ws, cells, columns, rows, current in kept:
            for held, before in ((ws._cells, cells), (ws.column_dimensions, columns), (ws.row_dimensions, rows)):
                if len(held) != len(before):  # lookups only ever add
                    for key in [k for k in held if k not in before]:
                        del held[key]
            ws._current_row = current
        return wb

    return undo


# --- cells and ranges ---------------------------------------------------------------------------------

#: text a spreadsheet would read as a number if typed: stored as text, it is a different cell (Calc shows it as
#: '12 in the input line, and sums, sorts and comparisons treat it as text)
_NUMERIC_TEXT = re.compile(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*")


def cell_text(value: Any) -> str:
    """A canonical text for comparing cell values across writers (openpyxl, LibreOffice). A number stored as text
    keeps Calc's apostrophe ("'12"), so it never reads the same as the number 12."""
    if value is None:
        return ""
    if isinstance(value, str) and _NUMERIC_TEXT.fullmatch(value):
        return "'" + value
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(round(value, 9))
    return str(value)


def bounds(ref: str) -> tuple[int, int, int, int]:
    """(min_col, min_row, max_col, max_row) of a bounded range like "$A$2:E9"; a bad ref is a failed check."""
    try:
        found = range_boundaries(ref.replace("$", "").upper())
    except (ValueError, TypeError):
        raise StateError(f"{ref!r} is not a cell range") from None
    if None in found:
        raise StateError(f"{ref!r} is not a bounded cell range")
    return found  # type: ignore[return-value]


def cell_lookup(wb: Any, sheet: str) -> Callable[[str | None, str], Any]:
    """The value lookup `verifiers.formula` evaluates with: (sheet name, None for `sheet`; "A1") -> the cell's value.
    Each worksheet is looked up once (a perturbed evaluation reads hundreds of cells); a missing sheet raises
    KeyError as `wb[name]` does."""
    found: dict[str, Any] = {}

    def lookup(name: str | None, ref: str) -> Any:
        name = name or sheet
        if name not in found:
            found[name] = wb[name]
        return found[name][ref].value

    return lookup


def read_rows(ws: Any, ref: str) -> list[list[Any]]:
    """Cell values of `ref` (e.g. "A2:E21") as a list of rows."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    return [[ws.cell(r, c).value for c in range(min_col, max_col + 1)] for r in range(min_row, max_row + 1)]


def numeric(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", ""))
        except ValueError:
            return None
    return None


_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
       "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
       "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}


def cached_formula_values(host: Path) -> dict[str, dict[str, Any]]:
    """{sheet: {cell: cached value}} of the formula cells an app saved a result for, read straight from the XML.

    openpyxl's `data_only` load parses the whole workbook (styles included) for the same answer; this
    reads only the workbook, its relationships, shared strings and the `<c><f/><v/></c>` cells."""
    with zipfile.ZipFile(host) as zf:
        names = set(zf.namelist())
        book = ElementTree.fromstring(zf.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
        targets = {r.get("Id"): r.get("Target", "") for r in rels.findall("rel:Relationship", _NS)}
        shared: list[str] = []
        if "xl/sharedStrings.xml" in names:
            for si in ElementTree.fromstring(zf.read("xl/sharedStrings.xml")).findall("m:si", _NS):
                shared.append("".join(t.text or "" for t in si.iter(f"{{{_NS['m']}}}t")))
        values: dict[str, dict[str, Any]] = {}
        for sheet in book.iterfind("m:sheets/m:sheet", _NS):
            target = targets.get(sheet.get(f"{{{_NS['r']}}}id"), "").lstrip("/")
            part = target if target.startswith("xl/") else f"xl/{target}"
            if part not in names:
                continue
            cells: dict[str, Any] = {}
            for c in ElementTree.fromstring(zf.read(part)).iter(f"{{{_NS['m']}}}c"):
                v = c.find("m:v", _NS)
                if c.find("m:f", _NS) is None or v is None or v.text is None:
                    continue
                kind = c.get("t", "n")
                text = v.text
                if kind == "n":
                    number = float(text)
                    cells[c.get("r", "")] = int(number) if number.is_integer() else number
                elif kind == "s":
                    cells[c.get("r", "")] = shared[int(text)]
                elif kind == "b":
                    cells[c.get("r", "")] = text == "1"
                else:  # str, e (errors such as #DIV/0!), inlineStr
                    cells[c.get("r", "")] = text
            values[sheet.get("name", "")] = cells
    return values


def saved_value(cell: Any, cached: dict[str, Any], epoch: dt.datetime) -> Any:
    """What an app's saved file shows in `cell` (of a workbook read with its formulas), as openpyxl's `data_only`
    load reads it: a formula cell's cached value (`cached`: `cached_formula_values` of its sheet), a date where
    its number format is one, None where no value was saved (openpyxl saves none); any other cell's own value.
    The formulas workbook and the cached values replace a second, `data_only` parse of the whole file, and an
    edited workbook held in memory is checked as it is (`verifiers.gate.controls`)."""
    if cell.data_type != "f":
        return cell.value
    value = cached.get(cell.coordinate)
    if isinstance(value, int | float) and not isinstance(value, bool) and is_date_format(cell.number_format):
        try:
            return from_excel(value, epoch, timedelta=is_timedelta_format(cell.number_format))
        except (OverflowError, ValueError):
            return "#VALUE!"  # as openpyxl reads a date serial out of range
    return value


# --- the sheet view ------------------------------------------------------------------------------------

def column_state(ws: Any, index: int) -> tuple[bool, str]:
    """(hidden, how it was decided) for column `index`, reading grouped min..max dimensions."""
    for key, dim in ws.column_dimensions.items():
        try:
            low = int(dim.min) if dim.min else column_index_from_string(key)
            high = int(dim.max) if dim.max else low
        except ValueError:
            continue
        if low <= index <= high:
            span = get_column_letter(low) + (f":{get_column_letter(high)}" if high != low else "")
            if dim.hidden:
                return True, f"hidden (dimension {span})"
            if dim.width is not None and dim.width <= 0:
                return True, f"width 0 (dimension {span})"
            return False, f"visible (dimension {span})"
    return False, "visible (no dimension)"


def pane_cell(ws: Any) -> tuple[str | None, str]:
    """The frozen panes' first scrolling cell (e.g. "B2"), or None, with what the sheet view shows."""
    pane = ws.sheet_view.pane
    if pane is None:
        return None, "no pane"
    state = pane.state or "split"
    if state not in ("frozen", "frozenSplit"):
        return None, f"pane state {state!r} (split, not frozen)"
    try:
        x_split = int(round(float(pane.xSplit or 0)))
        y_split = int(round(float(pane.ySplit or 0)))
    except (TypeError, ValueError):
        x_split = y_split = 0
    seen = f"frozen pane xSplit={x_split}, ySplit={y_split}, topLeftCell={pane.topLeftCell}"
    if x_split > 0 or y_split > 0:
        # the splits count from the view's own top-left cell (A1 unless the sheet was scrolled when frozen)
        col, row = 1, 1
        origin = ws.sheet_view.topLeftCell
        if origin:
            try:
                col, row = coordinate_to_tuple(str(origin).replace("$", "").upper())[::-1]
            except (ValueError, TypeError):
                col, row = 1, 1
            if (col, row) != (1, 1):
                seen += f", view starts at {origin}"
        return f"{get_column_letter(col + x_split)}{row + y_split}", seen
    if pane.topLeftCell:
        return str(pane.topLeftCell).replace("$", "").upper(), seen
    return None, seen


def filter_database(state: Source, path: str, sheet: str) -> str | None:
    """The range of the sheet-local `_xlnm._FilterDatabase` defined name, read from workbook.xml."""
    ns = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    try:
        host = state.path(path)
        bounded.preflight(host)  # a fifo would block ZipFile forever; a bomb is refused
        with zipfile.ZipFile(host) as archive:
            root = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    except Exception:  # an unreadable archive just has no such name
        return None
    names = [s.get("name") for s in root.iter(f"{ns}sheet")]
    if sheet not in names:
        return None
    for defined in root.iter(f"{ns}definedName"):
        if defined.get("name") == "_xlnm._FilterDatabase" and defined.get("localSheetId") == str(names.index(sheet)):
            value = (defined.text or "").strip()
            return re.sub(r"^.*!", "", value) or None
    return None


# --- charts -------------------------------------------------------------------------------------------

_PLOT_TYPES = {
    "lineChart": "line", "line3DChart": "line", "pieChart": "pie", "pie3DChart": "pie",
    "areaChart": "area", "area3DChart": "area", "doughnutChart": "doughnut", "ofPieChart": "pie-of-pie",
    "scatterChart": "scatter", "radarChart": "radar", "bubbleChart": "bubble", "stockChart": "stock",
    "surfaceChart": "surface", "surface3DChart": "surface",
}
_REF = re.compile(r"^(?:'((?:[^']|'')+)'|([^'!]+))!(.+)$")
_ODF_REF = re.compile(r"^\$?(?:'((?:[^']|'')+)'|([^'.]+))\.(.+)$")
_END_SHEET = re.compile(r"^.*[!.]")
_EMU_PER_PIXEL = 9525


def plot_type(plot: Any) -> str:
    tag = getattr(plot, "tagname", type(plot).__name__)
    if tag in ("barChart", "bar3DChart"):
        return "bar" if getattr(plot, "barDir", "col") == "bar" else "column"
    return _PLOT_TYPES.get(tag, tag)


def plots(chart: Any) -> list[Any]:
    return list(getattr(chart, "_charts", None) or [chart])


def chart_types(chart: Any) -> list[str]:
    return sorted({plot_type(plot) for plot in plots(chart)})


def split_ref(formula: str | None, default_sheet: str) -> tuple[str, tuple[int, int, int, int]] | None:
    """(sheet, (min_col, min_row, max_col, max_row)) of a one-area range formula like `'My Sheet'!$A$2:$A$9`.

    Also reads the ODF spelling `$'My Sheet'.$A$2:$A$9` and a sheet repeated on the end cell. None when there
    is no formula or it is not a single area (a list of areas, a name, garbage)."""
    if not formula:
        return None
    text = formula.strip().lstrip("=").strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if re.search(r"[,;~]", re.sub(r"'(?:[^']|'')*'", "", text)):
        return None  # a list of areas
    sheet, area = default_sheet, text
    match = _REF.match(text) if "!" in text else _ODF_REF.match(text)
    if match:
        sheet = match.group(1).replace("''", "'") if match.group(1) is not None else match.group(2).strip()
        area = match.group(3)
    ends = [_END_SHEET.sub("", end) for end in area.split(":")]
    area = ":".join(ends).replace("$", "").upper()
    if not re.fullmatch(r"[A-Z]{1,3}\d+(:[A-Z]{1,3}\d+)?", area):
        return None
    try:
        return sheet, range_boundaries(area)
    except ValueError:
        return None


def data_ref(source: Any) -> str | None:
    """The range formula of a series' `val` / `cat` data source (number, string or multi-level ref)."""
    if source is None:
        return None
    for name in ("numRef", "strRef", "multiLvlStrRef"):
        ref = getattr(source, name, None)
        if ref is not None and getattr(ref, "f", None):
            return str(ref.f)
    return None


def _column_at(ws: Any, x_emu: int) -> int:
    """0-based column holding horizontal offset `x_emu` (for absolute anchors), from the column widths."""
    default = ws.sheet_format.defaultColWidth or 8.43
    col, left = 0, 0
    while col < 16384:
        dim = ws.column_dimensions.get(get_column_letter(col + 1))
        width = dim.width if dim is not None and dim.width else default
        right = left + int(width * 7 + 5) * _EMU_PER_PIXEL
        if x_emu < right:
            return col
        col, left = col + 1, right
    return col


def anchor_column(ws: Any, anchor: Any) -> int | None:
    """0-based column of a chart's top-left corner, or None when the anchor is unreadable."""
    if isinstance(anchor, str):
        return column_index_from_string(coordinate_from_string(anchor)[0]) - 1
    start = getattr(anchor, "_from", None)
    if start is not None:
        return int(start.col)
    pos = getattr(anchor, "pos", None)
    if pos is not None and pos.x is not None:
        return _column_at(ws, int(pos.x))
    return None


def name_of_series(state: Source, path: str, sheet: str, series: Any) -> tuple[str | None, str]:
    """(the series' name as text, how it was given) — from the referenced cell or a literal."""
    tx = getattr(series, "tx", None)
    if tx is None:
        return None, "no name"
    if tx.strRef is not None and tx.strRef.f:
        parsed = split_ref(tx.strRef.f, sheet)
        if parsed is None:
            return None, f"name ref {tx.strRef.f!r}"
        name_sheet, (col, row, _, _) = parsed
        wb = state.workbook(path)
        if name_sheet not in wb.sheetnames:
            return None, f"name ref {tx.strRef.f!r} (no such sheet)"
        return cell_text(wb[name_sheet].cell(row, col).value), f"name from {tx.strRef.f}"
    if tx.v is not None:
        return str(tx.v), "literal name"
    return None, "no name"


# --- whole sheets -------------------------------------------------------------------------------------

def trimmed(rows: list[list[str]]) -> list[list[str]]:
    out = []
    for row in rows:
        row = list(row)
        while row and row[-1] == "":
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def sheet_text(state: Source, path: str, sheet: str) -> list[list[str]]:
    ws = state.sheet(path, sheet)
    return trimmed([[cell_text(v) for v in row] for row in ws.iter_rows(values_only=True)])


def saved_sheet(state: Source, path: str, sheet: str | None) -> tuple[Any, Callable[[int, int], Any]]:
    """The sheet (`sheet`, or the first one) and its values as saved: (row, column) -> `saved_value`."""
    wb = state.workbook(path)
    if sheet is not None and sheet not in wb.sheetnames:
        raise StateError(f"{path} has no sheet {sheet!r} (sheets: {wb.sheetnames})")
    ws = wb.worksheets[0] if sheet is None else wb[sheet]
    cached = state.read(path, cached_formula_values, "xlsx workbook").get(ws.title, {})
    return ws, lambda row, column: saved_value(ws.cell(row, column), cached, wb.epoch)
