"""Unit tests for the value primitives in verifiers.checks.xlsx_values."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl

from verifiers.checks import State, run_check

PATH = "/home/user/book.xlsx"
ROWS = [
    ["Rep", "Region", "Date", "Units", "Price"],
    ["Ana", "North", dt.date(2024, 1, 5), 3, 2.5],
    ["Ben", "South", dt.date(2024, 1, 9), 4, 10.0],
    ["Cy", "North", dt.date(2024, 2, 1), 5, 1.25],
]


def _state(tmp_path: Path, extra: dict[str, Any] | None = None, rows: list[list[Any]] | None = None) -> State:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    for row in rows if rows is not None else ROWS:
        ws.append(row)
    for coord, value in (extra or {}).items():
        ws[coord] = value
    wb.save(tmp_path / "book.xlsx")
    return State(tmp_path)


def _check(state: State, name: str, **args: Any) -> tuple[bool, str]:
    result = run_check(state, name, {"path": PATH, "sheet": "Sales", **args})
    return result.passed, result.evidence


# --- xlsx.formula_column ---------------------------------------------------------------------------------

COLUMN = {"header_cell": "F1", "header": "Total", "ref": "F2:F4", "expected": [7.5, 40.0, 6.25]}


def test_formula_column_accepts_equivalent_row_formulas(tmp_path):
    state = _state(tmp_path, {"F1": "total", "F2": "=D2*E2", "F3": "=PRODUCT(D3:E3)", "F4": "=$D4*$E4"})
    passed, evidence = _check(state, "xlsx.formula_column", **COLUMN)
    assert passed, evidence
    assert "all 3 cells of F2:F4" in evidence


def test_formula_column_rejects_constants(tmp_path):
    state = _state(tmp_path, {"F1": "Total", "F2": 7.5, "F3": 40, "F4": 6.25})
    passed, evidence = _check(state, "xlsx.formula_column", **COLUMN)
    assert not passed
    assert "F2 holds '7.5', not a formula" in evidence


def test_formula_column_rejects_references_to_other_rows(tmp_path):
    state = _state(tmp_path, {"F1": "Total", "F2": "=D2*E2", "F3": "=D3*E3", "F4": "=D3*E3+0*D4"})
    passed, evidence = _check(state, "xlsx.formula_column", **COLUMN)
    assert not passed
    assert "1 of 3 cells" in evidence and "refers to D3, E3, outside row 4" in evidence


def test_formula_column_rejects_a_missing_row_and_a_wrong_header(tmp_path):
    state = _state(tmp_path, {"F1": "Total", "F2": "=D2*E2", "F3": "=D3*E3"})
    passed, evidence = _check(state, "xlsx.formula_column", **COLUMN)
    assert not passed and "F4 holds '', not a formula" in evidence
    state = _state(tmp_path, {"F1": "Sum", "F2": "=D2*E2", "F3": "=D3*E3", "F4": "=D4*E4"})
    passed, evidence = _check(state, "xlsx.formula_column", **COLUMN)
    assert not passed and "F1 holds 'Sum', expected the header 'Total'" in evidence


def test_formula_column_rejects_a_wrong_value(tmp_path):
    state = _state(tmp_path, {"F1": "Total", "F2": "=D2+E2", "F3": "=D3*E3", "F4": "=D4*E4"})
    passed, evidence = _check(state, "xlsx.formula_column", **COLUMN)
    assert not passed and "F2 = '=D2+E2' evaluates to '5.5', expected 7.5" in evidence


# --- xlsx.values_replaced --------------------------------------------------------------------------------

ORIGINAL = {"A1": "Rep", "B1": "Region", "A2": "Ana", "B2": "North", "A3": "Ben", "B3": "South", "A4": "Cy",
            "B4": "North", "H1": "Region", "H2": "North"}
LEGEND = {"H1": "Region", "H2": "North"}


def test_values_replaced_in_a_column(tmp_path):
    state = _state(tmp_path, {**LEGEND, "B2": "North Group", "B4": "North Group"}, rows=[r[:2] for r in ROWS])
    passed, evidence = _check(state, "xlsx.values_replaced", old="North", new="North Group", scope="B2:B4",
                              cells=ORIGINAL)
    assert passed, evidence
    assert "all 2 cells" in evidence


def test_values_replaced_fails_when_one_occurrence_is_left(tmp_path):
    state = _state(tmp_path, {**LEGEND, "B2": "North Group"}, rows=[r[:2] for r in ROWS])
    passed, evidence = _check(state, "xlsx.values_replaced", old="North", new="North Group", scope="B2:B4",
                              cells=ORIGINAL)
    assert not passed and "1 cells of Sales!B2:B4 still hold 'North': B4" in evidence


def test_values_replaced_fails_on_a_case_variant_or_an_out_of_scope_change(tmp_path):
    state = _state(tmp_path, {**LEGEND, "B2": "north group", "B4": "north group"}, rows=[r[:2] for r in ROWS])
    passed, evidence = _check(state, "xlsx.values_replaced", old="North", new="North Group", scope="B2:B4",
                              cells=ORIGINAL)
    assert not passed and "B2='north group'" in evidence
    state = _state(tmp_path, {"H1": "Region", "H2": "North Group", "B2": "North Group", "B4": "North Group"},
                   rows=[r[:2] for r in ROWS])
    passed, evidence = _check(state, "xlsx.values_replaced", old="North", new="North Group", scope="B2:B4",
                              cells=ORIGINAL)
    assert not passed and "H2: 'North' -> 'North Group'" in evidence


def test_values_replaced_on_the_whole_sheet(tmp_path):
    replaced = {"H1": "Region", "H2": "North Group", "B2": "North Group", "B4": "North Group"}
    state = _state(tmp_path, replaced, rows=[r[:2] for r in ROWS])
    passed, evidence = _check(state, "xlsx.values_replaced", old="North", new="North Group", scope="sheet",
                              cells=ORIGINAL)
    assert passed, evidence
    state = _state(tmp_path, {**LEGEND, "B2": "North Group", "B4": "North Group"}, rows=[r[:2] for r in ROWS])
    passed, evidence = _check(state, "xlsx.values_replaced", old="North", new="North Group", scope="sheet",
                              cells=ORIGINAL)
    assert not passed and "still hold 'North': H2" in evidence


# --- xlsx.table_rows -------------------------------------------------------------------------------------

HEADER = ["Rep", "Region", "Date", "Units", "Price"]
TEXT_ROWS = [["Ana", "North", "2024-01-05", "3", "2.5"], ["Ben", "South", "2024-01-09", "4", "10"],
             ["Cy", "North", "2024-02-01", "5", "1.25"]]


def test_table_rows_passes_on_the_exact_table(tmp_path):
    passed, evidence = _check(_state(tmp_path), "xlsx.table_rows", header=HEADER, rows=TEXT_ROWS)
    assert passed, evidence
    assert "3 data rows (A2:E4)" in evidence


def test_table_rows_fails_on_a_left_duplicate_a_blank_row_or_a_wrong_order(tmp_path):
    passed, evidence = _check(_state(tmp_path, rows=[*ROWS, ROWS[1]]), "xlsx.table_rows", header=HEADER,
                              rows=TEXT_ROWS)
    assert not passed and "the table has 4 data rows, expected 3; row 5 is ['Ana'" in evidence
    passed, evidence = _check(_state(tmp_path, rows=[ROWS[0], ROWS[1], [None] * 5, *ROWS[2:]]), "xlsx.table_rows",
                              header=HEADER, rows=TEXT_ROWS)
    assert not passed and "row 3 is blank" in evidence
    passed, evidence = _check(_state(tmp_path, rows=[ROWS[0], ROWS[2], ROWS[1], ROWS[3]]), "xlsx.table_rows",
                              header=HEADER, rows=TEXT_ROWS)
    assert not passed and "row 2 is ['Ben'" in evidence


# --- xlsx.formula_value / xlsx.cell_value ----------------------------------------------------------------

def test_formula_value_checks_function_range_and_value(tmp_path):
    state = _state(tmp_path, {"D6": "=SUM($D$2:$D$4)", "E6": "=MAX(E2:E3)", "B6": '=COUNTIF(B2:B4,"North")'})
    assert _check(state, "xlsx.formula_value", cell="D6", function="SUM", ref="D2:D4", expected=12)[0]
    assert _check(state, "xlsx.formula_value", cell="B6", function="COUNTIF", ref="B2:B4", expected=2)[0]
    passed, evidence = _check(state, "xlsx.formula_value", cell="E6", function="MAX", ref="E2:E4", expected=10)
    assert not passed and "does not reference E2:E4" in evidence
    passed, evidence = _check(state, "xlsx.formula_value", cell="D6", function="AVERAGE", ref="D2:D4", expected=4)
    assert not passed and "does not call AVERAGE" in evidence


def test_cell_value_fails_instead_of_raising_on_a_broken_formula(tmp_path):
    state = _state(tmp_path, {"A6": "=NOSUCHFUNC(A1)"})
    passed, evidence = _check(state, "xlsx.cell_value", cell="A6", expected="Total")
    assert not passed and "unknown function" in evidence
