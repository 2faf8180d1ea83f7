"""xlsx primitives: charts (type, series ranges, position) and whole sheets (names and order, content).

Charts are read with openpyxl (`ws._charts`, filled by `load_workbook` from the drawing parts), so a
chart saved by LibreOffice Calc or Excel is seen the same way as one written by openpyxl. Range
formulas are compared after normalization: `$` anchors, quotes around the sheet name and a leading
`=` or surrounding parentheses do not matter.
"""

from __future__ import annotations

import re
from typing import Any

from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries
from openpyxl.utils.cell import coordinate_from_string

from verifiers.checks import Result, State, StateError, fail, ok, primitive
from verifiers.checks.xlsx_common import cell_text

#: chart_type words an instruction uses -> how they are recognized (see `_plot_type`).
CHART_TYPES = ("bar", "column", "line", "pie", "area")
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


# --- charts -------------------------------------------------------------------------------------------

def _plot_type(plot: Any) -> str:
    tag = getattr(plot, "tagname", type(plot).__name__)
    if tag in ("barChart", "bar3DChart"):
        return "bar" if getattr(plot, "barDir", "col") == "bar" else "column"
    return _PLOT_TYPES.get(tag, tag)


def _plots(chart: Any) -> list[Any]:
    return list(getattr(chart, "_charts", None) or [chart])


def _chart_types(chart: Any) -> list[str]:
    return sorted({_plot_type(plot) for plot in _plots(chart)})


def _only_chart(state: State, path: str, sheet: str) -> Any:
    """The single chart on `sheet`; a StateError (a failed check) when there is none or several."""
    charts = list(getattr(state.sheet(path, sheet), "_charts", []))
    if len(charts) != 1:
        kinds = ", ".join("/".join(_chart_types(c)) for c in charts)
        seen = f" ({kinds})" if kinds else ""
        raise StateError(f"sheet {sheet!r} has {len(charts)} charts{seen}, expected exactly 1")
    return charts[0]


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


def _same_range(formula: str | None, sheet: str, ref: str) -> bool:
    parsed = split_ref(formula, sheet)
    return parsed is not None and parsed[0] == sheet and parsed[1] == range_boundaries(ref)


def _data_ref(source: Any) -> str | None:
    """The range formula of a series' `val` / `cat` data source (number, string or multi-level ref)."""
    if source is None:
        return None
    for name in ("numRef", "strRef", "multiLvlStrRef"):
        ref = getattr(source, name, None)
        if ref is not None and getattr(ref, "f", None):
            return str(ref.f)
    return None


def _series_name(state: State, path: str, sheet: str, series: Any) -> tuple[str | None, str]:
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


@primitive("xlsx.chart_type", grounded=("path", "sheet", "chart_type"))
def chart_type(state: State, path: str, sheet: str, chart_type: str) -> Result:
    """`sheet` holds exactly one chart and it is a `chart_type` chart (bar = horizontal bars, column = vertical)."""
    chart = _only_chart(state, path, sheet)
    types = _chart_types(chart)
    if types == [chart_type]:
        return ok(f"sheet {sheet!r} has one {chart_type} chart")
    return fail(f"sheet {sheet!r} has a {' + '.join(types)} chart, expected a {chart_type} chart")


@primitive("xlsx.chart_series", grounded=("path", "sheet", "values", "categories", "series_name"))
def chart_series(state: State, path: str, sheet: str, values: str, categories: str, series_name: str) -> Result:
    """The single chart on `sheet` plots one series: `values` as data, `categories` as labels, named `series_name`."""
    chart = _only_chart(state, path, sheet)
    series = [s for plot in _plots(chart) for s in plot.series]
    if len(series) != 1:
        vals = ", ".join(str(_data_ref(s.val) or _data_ref(getattr(s, "yVal", None))) for s in series)
        return fail(f"the chart has {len(series)} data series ({vals}), expected exactly 1")
    ser = series[0]
    val_f = _data_ref(ser.val) or _data_ref(getattr(ser, "yVal", None))
    cat_f = _data_ref(ser.cat) or _data_ref(getattr(ser, "xVal", None))
    name, how = _series_name(state, path, sheet, ser)
    seen = f"values={val_f!r}, categories={cat_f!r}, name={name!r} ({how})"
    problems = []
    if not _same_range(val_f, sheet, values):
        problems.append(f"values should be {sheet}!{values}")
    if not _same_range(cat_f, sheet, categories):
        problems.append(f"categories should be {sheet}!{categories}")
    if name is None or name.strip() != series_name.strip():
        problems.append(f"the series should be named {series_name!r}")
    if problems:
        return fail(f"chart series {seen}: " + "; ".join(problems))
    return ok(f"chart series {seen}")


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


def _anchor_column(ws: Any, anchor: Any) -> int | None:
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


@primitive("xlsx.chart_position", grounded=("path", "sheet", "min_column"))
def chart_position(state: State, path: str, sheet: str, min_column: str) -> Result:
    """The single chart on `sheet` has its top-left corner in column `min_column` or further right."""
    chart = _only_chart(state, path, sheet)
    col = _anchor_column(state.sheet(path, sheet), getattr(chart, "anchor", None))
    if col is None:
        return fail(f"the chart's position on sheet {sheet!r} cannot be read")
    want = column_index_from_string(min_column) - 1
    where = f"the chart's top-left corner is in column {get_column_letter(col + 1)}"
    if col >= want:
        return ok(where)
    return fail(f"{where}, expected column {min_column} or further right")


# --- sheets -------------------------------------------------------------------------------------------

def _trimmed(rows: list[list[str]]) -> list[list[str]]:
    out = []
    for row in rows:
        row = list(row)
        while row and row[-1] == "":
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def _sheet_text(state: State, path: str, sheet: str) -> list[list[str]]:
    ws = state.sheet(path, sheet)
    return _trimmed([[cell_text(v) for v in row] for row in ws.iter_rows(values_only=True)])


@primitive("xlsx.sheet_names", grounded=("path", "expected"))
def sheet_names(state: State, path: str, expected: list[str]) -> Result:
    """The workbook's sheets are exactly `expected`, in that order (names compared exactly)."""
    actual = state.workbook(path).sheetnames
    if actual == list(expected):
        return ok(f"sheets {actual}")
    hint = ""
    if [n.casefold() for n in actual] == [n.casefold() for n in expected]:
        hint = " (names differ in upper/lower case)"
    elif sorted(actual) == sorted(expected):
        hint = " (right sheets, wrong order)"
    return fail(f"sheets {actual}, expected {list(expected)}{hint}")


@primitive("xlsx.sheet_content", grounded=("path", "sheet", "rows"))
def sheet_content(state: State, path: str, sheet: str, rows: list[list[str]]) -> Result:
    """`sheet` holds exactly `rows` (cell texts from A1, trailing blanks ignored): its data is intact."""
    actual = _sheet_text(state, path, sheet)
    want = _trimmed([[str(v) for v in row] for row in rows])
    if actual == want:
        return ok(f"sheet {sheet!r} holds its {len(want)} expected rows")
    if not actual:
        return fail(f"sheet {sheet!r} is empty, expected {len(want)} rows")
    bad = next((i for i, (a, w) in enumerate(zip(actual, want, strict=False)) if a != w), min(len(actual), len(want)))
    got = actual[bad] if bad < len(actual) else "nothing"
    exp = want[bad] if bad < len(want) else "nothing"
    return fail(f"sheet {sheet!r} has {len(actual)} rows, expected {len(want)}; row {bad + 1} is {got}, expected {exp}")


@primitive("xlsx.sheet_empty", grounded=("path", "sheet"))
def sheet_empty(state: State, path: str, sheet: str) -> Result:
    """`sheet` exists and none of its cells holds a value."""
    actual = _sheet_text(state, path, sheet)
    filled = sum(1 for row in actual for v in row if v != "")
    if filled == 0:
        return ok(f"sheet {sheet!r} is empty")
    return fail(f"sheet {sheet!r} has {filled} non-empty cells (first row: {actual[0]})")
