"""xlsx primitives: charts (type, series ranges, position) and whole sheets (names and order, content).

Charts are read with openpyxl (`ws._charts`, filled by `load_workbook` from the drawing parts), so a
chart saved by LibreOffice Calc or Excel is seen the same way as one written by openpyxl. Range
formulas are compared after normalization: `$` anchors, quotes around the sheet name and a leading
`=` or surrounding parentheses do not matter.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.grounding import text_cells
from verifiers.meaning import Meaning, Said, Visible
from verifiers.readers import StateError
from verifiers.readers.xlsx import (
    anchor_column,
    chart_types,
    data_ref,
    name_of_series,
    plots,
    sheet_text,
    split_ref,
    trimmed,
)

#: chart_type words an instruction uses -> how they are recognized (see `verifiers.readers.xlsx.plot_type`).
CHART_TYPES = ("bar", "column", "line", "pie", "area")


# --- charts -------------------------------------------------------------------------------------------


def _only_chart(state: State, path: str, sheet: str) -> Any:
    """The single chart on `sheet`; a StateError (a failed check) when there is none or several."""
    charts = list(getattr(state.sheet(path, sheet), "_charts", []))
    if len(charts) != 1:
        kinds = ", ".join("/".join(chart_types(c)) for c in charts)
        seen = f" ({kinds})" if kinds else ""
        raise StateError(f"sheet {sheet!r} has {len(charts)} charts{seen}, expected exactly 1")
    return charts[0]


def _same_range(formula: str | None, sheet: str, ref: str) -> bool:
    parsed = split_ref(formula, sheet)
    return parsed is not None and parsed[0] == sheet and parsed[1] == range_boundaries(ref)


@primitive("xlsx.chart_type", grounded=("path", "sheet", "chart_type"),
           meaning=Meaning(action=r"chart|graph|plot", args={"chart_type": Said("chart")}))
def chart_type(state: State, path: str, sheet: str, chart_type: str) -> Result:
    """`sheet` holds exactly one chart and it is a `chart_type` chart (bar = horizontal bars, column = vertical)."""
    chart = _only_chart(state, path, sheet)
    types = chart_types(chart)
    if types == [chart_type]:
        return ok(f"sheet {sheet!r} has one {chart_type} chart")
    return fail(f"sheet {sheet!r} has a {' + '.join(types)} chart, expected a {chart_type} chart")


@primitive("xlsx.chart_series", grounded=("path", "sheet", "values", "categories", "series_name"),
           meaning=Meaning(action=r"chart|graph|plot|series"))
def chart_series(state: State, path: str, sheet: str, values: str, categories: str, series_name: str) -> Result:
    """The single chart on `sheet` plots one series: `values` as data, `categories` as labels, named `series_name`."""
    chart = _only_chart(state, path, sheet)
    series = [s for plot in plots(chart) for s in plot.series]
    if len(series) != 1:
        vals = ", ".join(str(data_ref(s.val) or data_ref(getattr(s, "yVal", None))) for s in series)
        return fail(f"the chart has {len(series)} data series ({vals}), expected exactly 1")
    ser = series[0]
    val_f = data_ref(ser.val) or data_ref(getattr(ser, "yVal", None))
    cat_f = data_ref(ser.cat) or data_ref(getattr(ser, "xVal", None))
    name, how = name_of_series(state, path, sheet, ser)
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


@primitive("xlsx.chart_position", grounded=("path", "sheet", "min_column"), meaning=Meaning(action=r"chart|graph|plot"))
def chart_position(state: State, path: str, sheet: str, min_column: str) -> Result:
    """The single chart on `sheet` has its top-left corner in column `min_column` or further right."""
    chart = _only_chart(state, path, sheet)
    col = anchor_column(state.sheet(path, sheet), getattr(chart, "anchor", None))
    if col is None:
        return fail(f"the chart's position on sheet {sheet!r} cannot be read")
    want = column_index_from_string(min_column) - 1
    where = f"the chart's top-left corner is in column {get_column_letter(col + 1)}"
    if col >= want:
        return ok(where)
    return fail(f"{where}, expected column {min_column} or further right")


# --- sheets -------------------------------------------------------------------------------------------

@primitive("xlsx.sheet_names", grounded=("path", "expected"), meaning=Meaning(action=r"sheet|tab"))
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


@primitive("xlsx.sheet_content", grounded=("path", "sheet", "rows"),
           meaning=Meaning(action=None, why="guards a sheet a task leaves alone", args={"rows": Visible(text_cells)}))
def sheet_content(state: State, path: str, sheet: str, rows: list[list[str]]) -> Result:
    """`sheet` holds exactly `rows` (cell texts from A1, trailing blanks ignored): its data is intact."""
    actual = sheet_text(state, path, sheet)
    want = trimmed([[str(v) for v in row] for row in rows])
    if actual == want:
        return ok(f"sheet {sheet!r} holds its {len(want)} expected rows")
    if not actual:
        return fail(f"sheet {sheet!r} is empty, expected {len(want)} rows")
    bad = next((i for i, (a, w) in enumerate(zip(actual, want, strict=False)) if a != w), min(len(actual), len(want)))
    got = actual[bad] if bad < len(actual) else "nothing"
    exp = want[bad] if bad < len(want) else "nothing"
    return fail(f"sheet {sheet!r} has {len(actual)} rows, expected {len(want)}; row {bad + 1} is {got}, expected {exp}")


@primitive("xlsx.sheet_empty", grounded=("path", "sheet"),
           meaning=Meaning(action=None, why="the state of a new sheet, whose adding xlsx.sheet_names asks for"))
def sheet_empty(state: State, path: str, sheet: str) -> Result:
    """`sheet` exists and none of its cells holds a value."""
    actual = sheet_text(state, path, sheet)
    filled = sum(1 for row in actual for v in row if v != "")
    if filled == 0:
        return ok(f"sheet {sheet!r} is empty")
    return fail(f"sheet {sheet!r} has {filled} non-empty cells (first row: {actual[0]})")
