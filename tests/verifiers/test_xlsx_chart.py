"""Tests for verifiers.checks.xlsx_chart: chart and whole-sheet primitives."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.chart import BarChart3D, Reference, Series
from openpyxl.chart.data_source import AxDataSource, StrRef
from openpyxl.chart.series import SeriesLabel
from openpyxl.drawing.spreadsheet_drawing import AbsoluteAnchor
from openpyxl.drawing.xdr import XDRPoint2D, XDRPositiveSize2D

from preparers.ops.xlsx_chart import add_chart
from verifiers.checks import State, run_check
from verifiers.readers.xlsx import anchor_column, split_ref

PATH = "/home/user/book.xlsx"
SHEET = "Q3 Sales"


def _book() -> openpyxl.Workbook:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    ws.append(["Rep", "Region", "Units", "Revenue"])
    for i in range(8):
        ws.append([f"Rep {i}", "North", 10 + i, 100.5 * i])
    wb.create_sheet("Notes").append(["Note"])
    return wb


def _state(tmp_path: Path, wb: openpyxl.Workbook) -> State:
    wb.save(tmp_path / "book.xlsx")
    return State(tmp_path)


def _with_chart(tmp_path: Path, **kw) -> State:
    wb = _book()
    args = {"sheet": SHEET, "chart_type": "column", "values": "D2:D9", "categories": "A2:A9", "name_cell": "D1",
            "anchor": "F2"} | kw
    add_chart(wb, **args)
    return _state(tmp_path, wb)


SERIES = {"path": PATH, "sheet": SHEET, "values": "D2:D9", "categories": "A2:A9", "series_name": "Revenue"}


def test_chart_checks_pass_on_the_asked_chart(tmp_path):
    state = _with_chart(tmp_path)
    assert run_check(state, "xlsx.chart_type", {"path": PATH, "sheet": SHEET, "chart_type": "column"}).passed
    result = run_check(state, "xlsx.chart_series", SERIES)
    assert result.passed, result.evidence
    assert "'Q3 Sales'!$D$2:$D$9" in result.evidence
    assert run_check(state, "xlsx.chart_position", {"path": PATH, "sheet": SHEET, "min_column": "F"}).passed


def test_chart_type_tells_bar_from_column(tmp_path):
    state = _with_chart(tmp_path, chart_type="bar")
    result = run_check(state, "xlsx.chart_type", {"path": PATH, "sheet": SHEET, "chart_type": "column"})
    assert not result.passed
    assert result.evidence == "sheet 'Q3 Sales' has a bar chart, expected a column chart"


def test_chart_type_fails_without_a_chart_or_with_two(tmp_path):
    args = {"path": PATH, "sheet": SHEET, "chart_type": "line"}
    result = run_check(_state(tmp_path, _book()), "xlsx.chart_type", args)
    assert result.evidence == "sheet 'Q3 Sales' has 0 charts, expected exactly 1"
    wb = _book()
    add_chart(wb, sheet=SHEET, chart_type="line", values="D2:D9")
    add_chart(wb, sheet=SHEET, chart_type="pie", values="D2:D9")
    result = run_check(_state(tmp_path, wb), "xlsx.chart_type", args)
    assert not result.passed and "has 2 charts (line, pie)" in result.evidence


def test_a_3d_bar_chart_counts_as_a_bar_chart(tmp_path):
    wb = _book()
    ws = wb[SHEET]
    chart = BarChart3D()
    chart.type = "bar"
    chart.series.append(Series(Reference(ws, min_col=4, min_row=2, max_row=9)))
    ws.add_chart(chart, "G2")
    state = _state(tmp_path, wb)
    assert run_check(state, "xlsx.chart_type", {"path": PATH, "sheet": SHEET, "chart_type": "bar"}).passed


@pytest.mark.parametrize(("change", "problem"), [
    ({"values": "D2:D8", "categories": "A2:A8"}, "values should be Q3 Sales!D2:D9; categories should be"),
    ({"values": "C2:C9", "name_cell": "C1"}, "the series should be named 'Revenue'"),
    ({"categories": None}, "categories=None"),
    ({"values": "D1:D9", "name_cell": None}, "name=None (no name)"),
])
def test_chart_series_catches_wrong_ranges_and_names(tmp_path, change, problem):
    result = run_check(_with_chart(tmp_path, **change), "xlsx.chart_series", SERIES)
    assert not result.passed
    assert problem in result.evidence


def test_chart_series_accepts_other_spellings_and_a_literal_name(tmp_path):
    wb = _book()
    add_chart(wb, sheet=SHEET, chart_type="line", values="D2:D9", categories="A2:A9")
    wb.save(tmp_path / "book.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "book.xlsx")
    ser = wb[SHEET]._charts[0].series[0]
    ser.val.numRef.f = "('Q3 Sales'!D2:D9)"
    ser.cat = AxDataSource(strRef=StrRef(f="'Q3 Sales'!A2:'Q3 Sales'!A9"))  # text labels, as Calc writes them
    ser.tx = SeriesLabel(v="Revenue")
    result = run_check(_state(tmp_path, wb), "xlsx.chart_series", SERIES)
    assert result.passed, result.evidence
    assert "literal name" in result.evidence


def test_chart_series_rejects_a_second_series(tmp_path):
    wb = _book()
    add_chart(wb, sheet=SHEET, chart_type="column", values="D2:D9", categories="A2:A9", name_cell="D1")
    chart = wb[SHEET]._charts[0]
    chart.series.append(Series(Reference(wb[SHEET], min_col=3, min_row=2, max_row=9)))
    result = run_check(_state(tmp_path, wb), "xlsx.chart_series", SERIES)
    assert not result.passed and "has 2 data series" in result.evidence


def test_chart_position(tmp_path):
    result = run_check(_with_chart(tmp_path, anchor="C3"), "xlsx.chart_position",
                       {"path": PATH, "sheet": SHEET, "min_column": "F"})
    assert not result.passed
    assert result.evidence == "the chart's top-left corner is in column C, expected column F or further right"


def test_absolute_anchor_column_from_widths():
    ws = openpyxl.Workbook().active
    ws.column_dimensions["A"].width = 20  # 145 px
    emu = 9525
    anchor = AbsoluteAnchor(pos=XDRPoint2D(x=150 * emu, y=0), ext=XDRPositiveSize2D(cx=emu, cy=emu))
    assert anchor_column(ws, anchor) == 1  # past A (145 px), inside B (64 px wide)
    anchor.pos.x = 100 * emu
    assert anchor_column(ws, anchor) == 0


@pytest.mark.parametrize(("formula", "parsed"), [
    ("'Q3 Sales'!$D$2:$D$9", ("Q3 Sales", (4, 2, 4, 9))),
    ("=Sales!A2:A9", ("Sales", (1, 2, 1, 9))),
    ("(Sales!$A$2:$A$9)", ("Sales", (1, 2, 1, 9))),
    ("$'Q3 Sales'.$A$2:$A$9", ("Q3 Sales", (1, 2, 1, 9))),
    ("'It''s'!B1", ("It's", (2, 1, 2, 1))),
    ("D2:D9", ("Default", (4, 2, 4, 9))),
    ("Sales!A2:A4,Sales!A6:A9", None),
    ("SomeName", None),
    (None, None),
])
def test_split_ref(formula, parsed):
    assert split_ref(formula, "Default") == parsed


def test_sheet_names(tmp_path):
    wb = _book()
    state = _state(tmp_path, wb)
    assert run_check(state, "xlsx.sheet_names", {"path": PATH, "expected": [SHEET, "Notes"]}).passed
    result = run_check(state, "xlsx.sheet_names", {"path": PATH, "expected": ["Notes", SHEET]})
    assert result.evidence == "sheets ['Q3 Sales', 'Notes'], expected ['Notes', 'Q3 Sales'] (right sheets, wrong order)"
    result = run_check(state, "xlsx.sheet_names", {"path": PATH, "expected": [SHEET, "notes"]})
    assert not result.passed and "upper/lower case" in result.evidence


def test_sheet_content_and_empty(tmp_path):
    wb = _book()
    wb.create_sheet("Blank")
    wb["Notes"]["C5"] = None  # a touched but empty cell does not count
    state = _state(tmp_path, wb)
    assert run_check(state, "xlsx.sheet_content", {"path": PATH, "sheet": "Notes", "rows": [["Note", ""]]}).passed
    result = run_check(state, "xlsx.sheet_content", {"path": PATH, "sheet": "Notes", "rows": [["Memo"], ["x"]]})
    assert result.evidence == "sheet 'Notes' has 1 rows, expected 2; row 1 is ['Note'], expected ['Memo']"
    assert run_check(state, "xlsx.sheet_empty", {"path": PATH, "sheet": "Blank"}).passed
    result = run_check(state, "xlsx.sheet_empty", {"path": PATH, "sheet": "Notes"})
    assert result.evidence == "sheet 'Notes' has 1 non-empty cells (first row: ['Note'])"
    result = run_check(state, "xlsx.sheet_empty", {"path": PATH, "sheet": "Missing"})
    assert not result.passed and "has no sheet 'Missing'" in result.evidence
