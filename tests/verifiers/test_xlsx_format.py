"""Tests for verifiers.checks.xlsx_format: conditional formats, number formats, data validation, cell styles."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import PatternFill

from preparers.ops.xlsx_format import (
    add_conditional_format,
    add_data_validation,
    set_fill,
    set_font,
    set_number_format,
)
from verifiers.checks import State, run_check
from verifiers.checks.xlsx_format import expression_meaning
from verifiers.readers.xlsx_format import parse_format, render_date

PATH = "/home/user/book.xlsx"


def _workbook() -> Workbook:
    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Region", "When", "Amount"])
    for i, region in enumerate(["North", "South", "East", "North", "West"], start=2):
        ws.append([region, dt.date(2024, 3, i), i * 100.5])
    ws["H1"], ws["H2"], ws["H3"], ws["H4"] = "West", "East", "South", "North"
    return wb


def _state(tmp_path: Path, wb: Workbook) -> State:
    wb.save(tmp_path / "book.xlsx")
    return State(tmp_path)


def _patch(tmp_path: Path, part: str, pattern: str, replacement: str) -> None:
    """Rewrite one XML part of book.xlsx, to imitate how another writer (LibreOffice) encodes it."""
    path = tmp_path / "book.xlsx"
    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    text, count = re.subn(pattern, replacement, files[part].decode(), flags=re.S)
    assert count, f"{pattern!r} not found in {part}"
    files[part] = text.encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)


# --- number format parsing ---------------------------------------------------------------------------

@pytest.mark.parametrize("code,kind,decimals,thousands,symbols", [
    ("[$$-409]#,##0.00;[RED]-[$$-409]#,##0.00", "currency", 2, True, "$"),
    ('"$"#,##0.00', "currency", 2, True, "$"),
    ("\\$#,##0", "currency", 0, True, "$"),
    ("#,##0.00\\ [$€-407]", "currency", 2, True, "€"),
    ("#,##0.00", "number", 2, True, ""),
    ("0.00", "number", 2, False, ""),
    ("0.0%", "percent", 1, False, ""),
    ("0%", "percent", 0, False, ""),
    ("General", "general", 0, False, ""),
    ("YYYY-MM-DD", "date", 0, False, ""),
    ("0.00E+00", "scientific", 2, False, ""),
])
def test_parse_format_classifies_excel_and_libreoffice_codes(code, kind, decimals, thousands, symbols):
    info = parse_format(code)
    assert (info.kind, info.decimals, info.thousands, info.symbols) == (kind, decimals, thousands, symbols)


@pytest.mark.parametrize("code,shown", [
    ("yyyy-mm-dd", "2024-03-05"),
    ("YYYY\\-MM\\-DD;@", "2024-03-05"),
    ("[$-409]MMMM D, YYYY;@", "March 5, 2024"),
    ('mmmm d", "yyyy', "March 5, 2024"),
    ("mmm d, yyyy", "Mar 5, 2024"),
    ("mm/dd/yyyy", "03/05/2024"),
    ("[$-F800]dddd, mmmm dd, yyyy", "Tuesday, March 05, 2024"),
])
def test_render_date_shows_what_calc_would(code, shown):
    assert render_date(code, dt.date(2024, 3, 5)) == shown


def test_expression_meaning_reads_simple_comparisons():
    assert expression_meaning("$C2>500", "C2") == ("greaterThan", [500.0])
    assert expression_meaning("500>C2", "C2") == ("lessThan", [500.0])
    assert expression_meaning("AND(C2<=900; C2>=100)", "C2") == ("between", [100.0, 900.0])
    assert expression_meaning("C3>500", "C2") is None  # not anchored on the range's first cell


# --- xlsx.conditional_format -------------------------------------------------------------------------

CF = {"path": PATH, "sheet": "Data", "ref": "C2:C6", "operator": "greaterThan", "values": [300], "fill": "FFC7CE"}


def test_conditional_format_passes_on_a_cellis_rule(tmp_path):
    wb = _workbook()
    add_conditional_format(wb, sheet="Data", ref="C2:C6", operator="greaterThan", values=[300], fill="ffc7ce")
    result = run_check(_state(tmp_path, wb), "xlsx.conditional_format", CF)
    assert result.passed, result.evidence


def test_conditional_format_accepts_libreoffice_dxf_and_split_formula_rules(tmp_path):
    wb = _workbook()
    fill = PatternFill(bgColor="FFFFC7CE")
    wb["Data"].conditional_formatting.add("C2:C3", FormulaRule(formula=["$C2>300"], fill=fill))
    wb["Data"].conditional_formatting.add("C4:C6", FormulaRule(formula=["C4>300"], fill=fill))
    _state(tmp_path, wb)
    _patch(tmp_path, "xl/styles.xml", r"<dxf>.*?</dxf>",
           '<dxf><fill><patternFill><bgColor rgb="FFFFC7CE"/></patternFill></fill></dxf>')
    result = run_check(State(tmp_path), "xlsx.conditional_format", CF)
    assert result.passed, result.evidence


@pytest.mark.parametrize("change,evidence", [
    ({"values": [350]}, "no rule greaterThan 300; rules seen: C2:C6: cellIs greaterThan 350"),
    ({"operator": "lessThan"}, "no rule greaterThan 300; rules seen: C2:C6: cellIs lessThan 300"),
    ({"ref": "C2:C5"}, "misses C6"),
    ({"fill": "C6EFCE"}, "its fill is not FFC7CE"),
])
def test_conditional_format_fails_with_evidence(tmp_path, change, evidence):
    wb = _workbook()
    args = {"sheet": "Data", "ref": "C2:C6", "operator": "greaterThan", "values": [300], "fill": "FFC7CE", **change}
    add_conditional_format(wb, **args)
    result = run_check(_state(tmp_path, wb), "xlsx.conditional_format", CF)
    assert not result.passed
    assert evidence in result.evidence


def test_conditional_format_top_rule_and_no_rules(tmp_path):
    wb = _workbook()
    state = _state(tmp_path, wb)
    top = {**CF, "operator": "top", "values": [3]}
    assert run_check(state, "xlsx.conditional_format", top).evidence == "Data has no conditional formatting rules"
    add_conditional_format(wb, sheet="Data", ref="C2:C6", operator="bottom", values=[3], fill="FFC7CE")
    assert not run_check(_state(tmp_path, wb), "xlsx.conditional_format", top).passed
    wb = _workbook()
    add_conditional_format(wb, sheet="Data", ref="C2:C6", operator="top", values=[3], fill="FFC7CE")
    assert run_check(_state(tmp_path, wb), "xlsx.conditional_format", top).passed


def test_a_whole_column_rule_passes_only_where_the_user_named_the_column(tmp_path):
    """'the Amount column': a rule over C1:C1048576 (a whole-column selection, as Calc saves it) is what was
    asked; with the range stated (C2:C6) it is not; a rule reaching into another column never is."""
    wb = _workbook()
    add_conditional_format(wb, sheet="Data", ref="C1:C1048576", operator="greaterThan", values=[300], fill="FFC7CE")
    state = _state(tmp_path, wb)
    result = run_check(state, "xlsx.conditional_format", CF)
    assert not result.passed and "also covers C1, C7" in result.evidence
    assert run_check(state, "xlsx.conditional_format", {**CF, "column": True}).passed
    wb = _workbook()
    add_conditional_format(wb, sheet="Data", ref="C2:D6", operator="greaterThan", values=[300], fill="FFC7CE")
    result = run_check(_state(tmp_path, wb), "xlsx.conditional_format", {**CF, "column": True})
    assert not result.passed and "also covers D2" in result.evidence
    args = {"path": PATH, "sheet": "Data", "ref": "C2:C6", "kind": "whole", "operator": "between", "minimum": 0,
            "maximum": 1000}
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="C2:C1048576", kind="whole", minimum=0, maximum=1000)
    state = _state(tmp_path, wb)
    assert not run_check(state, "xlsx.data_validation", args).passed
    assert run_check(state, "xlsx.data_validation", {**args, "column": True}).passed


# --- xlsx.number_format ------------------------------------------------------------------------------

def test_number_format_currency_passes_and_fails_with_evidence(tmp_path):
    args = {"path": PATH, "sheet": "Data", "ref": "C2:C6", "kind": "currency", "symbol": "$", "decimals": 2}
    wb = _workbook()
    set_number_format(wb, sheet="Data", ref="C2:C6", number_format="[$$-409]#,##0.00;[RED]-[$$-409]#,##0.00")
    assert run_check(_state(tmp_path, wb), "xlsx.number_format", args).passed
    set_number_format(wb, sheet="Data", ref="C6", number_format="#,##0.00")
    result = run_check(_state(tmp_path, wb), "xlsx.number_format", args)
    assert not result.passed
    assert result.evidence == "Data!C2:C6: 1 of 5 cells wrong: C6: format '#,##0.00' is number, not currency"


def test_number_format_date_renders_the_example(tmp_path):
    args = {"path": PATH, "sheet": "Data", "ref": "B2:B6", "kind": "date", "example_date": "2024-03-05",
            "shows": "March 5, 2024"}
    wb = _workbook()
    set_number_format(wb, sheet="Data", ref="B2:B6", number_format="[$-409]MMMM D, YYYY;@")
    assert run_check(_state(tmp_path, wb), "xlsx.number_format", args).passed
    set_number_format(wb, sheet="Data", ref="B2:B6", number_format="mmm d, yyyy")
    result = run_check(_state(tmp_path, wb), "xlsx.number_format", args)
    assert not result.passed and "shows 2024-03-05 as 'Mar 5, 2024', not 'March 5, 2024'" in result.evidence


def test_number_format_rejects_values_typed_as_text(tmp_path):
    wb = _workbook()
    wb["Data"]["C2"] = "$201.00"
    result = run_check(_state(tmp_path, wb), "xlsx.number_format",
                       {"path": PATH, "sheet": "Data", "ref": "C2:C6", "kind": "percent", "decimals": 1})
    assert not result.passed and "C2 holds '$201.00' (not a number)" in result.evidence


# --- xlsx.data_validation ----------------------------------------------------------------------------

LIST = {"path": PATH, "sheet": "Data", "ref": "A2:A6", "kind": "list", "items": ["North", "South", "East", "West"]}


def test_data_validation_list_accepts_literal_and_range_sources(tmp_path):
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="A2:A6", kind="list", items=["West", "East", "South", "North"])
    assert run_check(_state(tmp_path, wb), "xlsx.data_validation", LIST).passed
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="A2:A6", kind="list", items=["x"])
    _state(tmp_path, wb)
    _patch(tmp_path, "xl/worksheets/sheet1.xml", r"<formula1>.*?</formula1>", "<formula1>$H$1:$H$4</formula1>")
    result = run_check(State(tmp_path), "xlsx.data_validation", LIST)
    assert result.passed, result.evidence


def test_data_validation_list_missing_an_item_fails(tmp_path):
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="A2:A6", kind="list", items=["North", "South", "East"])
    result = run_check(_state(tmp_path, wb), "xlsx.data_validation", LIST)
    assert not result.passed and "missing ['West']" in result.evidence


def test_data_validation_bounds_and_coverage(tmp_path):
    args = {"path": PATH, "sheet": "Data", "ref": "C2:C6", "kind": "whole", "operator": "between",
            "minimum": 0, "maximum": 1000}
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="C2:C4", kind="whole", minimum=0, maximum=1000)
    add_data_validation(wb, sheet="Data", ref="C5:C6", kind="whole", minimum=0.0, maximum=1000.0)
    assert run_check(_state(tmp_path, wb), "xlsx.data_validation", args).passed
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="C2:C5", kind="whole", minimum=0, maximum=1000)
    result = run_check(_state(tmp_path, wb), "xlsx.data_validation", args)
    assert not result.passed and "does not cover C6" in result.evidence
    wb = _workbook()
    add_data_validation(wb, sheet="Data", ref="C2:C6", kind="whole", minimum=0, maximum=500)
    result = run_check(_state(tmp_path, wb), "xlsx.data_validation", args)
    assert not result.passed and "C2:C6: between 0 500" in result.evidence


# --- xlsx.cell_style ---------------------------------------------------------------------------------

def test_cell_style_bold_fill_and_size(tmp_path):
    wb = _workbook()
    set_font(wb, sheet="Data", ref="A2:A6", bold=True, size=14)
    set_fill(wb, sheet="Data", ref="A1:C1", color="ddebf7")
    state = _state(tmp_path, wb)
    assert run_check(state, "xlsx.cell_style", {"path": PATH, "sheet": "Data", "ref": "A2:A6", "bold": True}).passed
    assert run_check(state, "xlsx.cell_style", {"path": PATH, "sheet": "Data", "ref": "A2:A6", "size": 14}).passed
    assert run_check(state, "xlsx.cell_style", {"path": PATH, "sheet": "Data", "ref": "A1:C1",
                                                "fill": "DDEBF7"}).passed


def test_cell_style_reports_the_cells_that_differ(tmp_path):
    wb = _workbook()
    set_fill(wb, sheet="Data", ref="A1:B1", color="DDEBF7")
    set_font(wb, sheet="Data", ref="B2:B6", italic=True)
    state = _state(tmp_path, wb)
    result = run_check(state, "xlsx.cell_style", {"path": PATH, "sheet": "Data", "ref": "A1:C1", "fill": "DDEBF7"})
    assert not result.passed and result.evidence == "Data!A1:C1: 1 problems for fill DDEBF7: C1 fill is none"
    result = run_check(state, "xlsx.cell_style", {"path": PATH, "sheet": "Data", "ref": "B2:B3", "bold": True})
    assert not result.passed and "B2 is not bold; B3 is not bold" in result.evidence
