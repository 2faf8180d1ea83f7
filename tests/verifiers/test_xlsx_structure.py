"""Unit tests for the structure primitives, including files shaped the way LibreOffice Calc saves them."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl import Workbook

from preparers.ops import apply_ops
from verifiers.checks import State, run_check

PATH = "/home/user/t.xlsx"
SHEET_XML = "xl/worksheets/sheet1.xml"


def _workbook(tmp_path: Path, ops: list[dict] | None = None) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Data Sheet"
    ws.append(["Name", "Region", "Units", "Revenue", "Notes"])
    for i in range(1, 9):
        ws.append([f"Row {i}", "North" if i % 2 else "South", i * 3, i * 100.5, ""])
    ws["G1"] = "Label"
    for letter in "ABCDE":
        ws.column_dimensions[letter].width = 12
    wb.save(tmp_path / "t.xlsx")
    if ops:
        apply_ops(tmp_path, [{"path": PATH, "sheet": "Data Sheet", **o} for o in ops])
    return tmp_path / "t.xlsx"


def _rewrite(file: Path, member: str, edit) -> None:
    """Rewrite one zip member's text (to emulate what another writer, e.g. LibreOffice, saves)."""
    with zipfile.ZipFile(file) as src:
        items = [(info, src.read(info.filename)) for info in src.infolist()]
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in items:
            if info.filename == member:
                data = edit(data.decode("utf-8")).encode("utf-8")
            dst.writestr(info, data)


def _check(tmp_path: Path, name: str, **args):
    return run_check(State(tmp_path), name, {"path": PATH, "sheet": "Data Sheet", **args})


# --- xlsx.merged_range --------------------------------------------------------------------------------

def test_merged_range_passes_on_exact_merge_with_text(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.merge_cells", "ref": "A1:E1"}])
    result = _check(tmp_path, "xlsx.merged_range", ref="A1:E1", text="Name")
    assert result.passed, result.evidence
    assert "A1:E1 is merged" in result.evidence


def test_merged_range_fails_on_short_merge_and_names_it(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.merge_cells", "ref": "A1:D1"}])
    result = _check(tmp_path, "xlsx.merged_range", ref="A1:E1")
    assert not result.passed
    assert "not merged" in result.evidence and "A1:D1" in result.evidence


def test_merged_range_centering(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.merge_cells", "ref": "$A$1:$E$1", "horizontal": "center"}])
    assert _check(tmp_path, "xlsx.merged_range", ref="A1:E1", horizontal="center").passed


def test_merged_range_accepts_center_across_selection_on_a_merged_cell(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.merge_cells", "ref": "A1:E1", "horizontal": "centerContinuous"}])
    assert _check(tmp_path, "xlsx.merged_range", ref="A1:E1", horizontal="center").passed


def test_merged_range_fails_when_not_centered(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.merge_cells", "ref": "A1:E1"}])
    result = _check(tmp_path, "xlsx.merged_range", ref="A1:E1", horizontal="center")
    assert not result.passed
    assert "horizontal alignment is 'general'" in result.evidence


def test_center_across_selection_is_not_a_merge(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.center_across_selection", "ref": "A1:E1"}])
    result = _check(tmp_path, "xlsx.merged_range", ref="A1:E1", horizontal="center")
    assert not result.passed
    assert "merged ranges: none" in result.evidence


def test_merged_range_fails_when_text_lost(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.merge_cells", "ref": "A1:E1"}])
    result = _check(tmp_path, "xlsx.merged_range", ref="A1:E1", text="Quarterly Title")
    assert not result.passed and "'Name'" in result.evidence


def test_missing_file_is_a_fail_not_an_error(tmp_path):
    result = _check(tmp_path, "xlsx.merged_range", ref="A1:E1")
    assert not result.passed and "does not exist" in result.evidence


# --- xlsx.columns_hidden ------------------------------------------------------------------------------

def test_columns_hidden_passes(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.hide_columns", "columns": ["B", "D"]}])
    result = _check(tmp_path, "xlsx.columns_hidden", columns=["B", "D"], headers=["Region", "Revenue"],
                    visible=["A", "C", "E"])
    assert result.passed, result.evidence


def test_columns_hidden_fails_on_adjacent_column(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.hide_columns", "columns": ["C"]}])
    result = _check(tmp_path, "xlsx.columns_hidden", columns=["B"], headers=["Region"], visible=["A", "C", "D", "E"])
    assert not result.passed
    assert "column B is not hidden" in result.evidence


def test_columns_hidden_fails_when_an_other_column_is_hidden_too(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.hide_columns", "columns": ["B", "C"]}])
    result = _check(tmp_path, "xlsx.columns_hidden", columns=["B"], headers=["Region"], visible=["A", "C", "D", "E"])
    assert not result.passed
    assert "column C should stay visible" in result.evidence


def test_columns_hidden_fails_when_column_deleted(tmp_path):
    wb_path = _workbook(tmp_path)
    wb = openpyxl.load_workbook(wb_path)
    wb["Data Sheet"].delete_cols(2)
    wb.save(wb_path)
    result = _check(tmp_path, "xlsx.columns_hidden", columns=["B"], headers=["Region"], visible=["A", "C", "D"])
    assert not result.passed and "deleted or moved" in result.evidence


LO_COLS = ('<cols><col collapsed="false" customWidth="true" hidden="false" outlineLevel="0" max="1" min="1" '
           'style="0" width="12.5"/><col collapsed="false" customWidth="true" hidden="true" outlineLevel="0" '
           'max="3" min="2" style="0" width="17"/><col collapsed="false" customWidth="false" hidden="false" '
           'outlineLevel="0" max="1024" min="4" style="0" width="11.52"/></cols>')


def test_columns_hidden_reads_grouped_libreoffice_dimensions(tmp_path):
    file = _workbook(tmp_path)
    _rewrite(file, SHEET_XML, lambda xml: re.sub(r"<cols>.*</cols>", LO_COLS, xml))
    both = _check(tmp_path, "xlsx.columns_hidden", columns=["B", "C"], headers=["Region", "Units"],
                  visible=["A", "D", "E"])
    assert both.passed, both.evidence
    assert "dimension B:C" in both.evidence
    only_b = _check(tmp_path, "xlsx.columns_hidden", columns=["B"], headers=["Region"], visible=["A", "C", "D", "E"])
    assert not only_b.passed and "column C should stay visible" in only_b.evidence


def test_hide_columns_op_splits_a_grouped_dimension(tmp_path):
    file = _workbook(tmp_path)
    _rewrite(file, SHEET_XML, lambda xml: re.sub(r"<cols>.*</cols>", LO_COLS, xml))
    apply_ops(tmp_path, [{"op": "xlsx.hide_columns", "path": PATH, "sheet": "Data Sheet", "columns": ["E"]}])
    result = _check(tmp_path, "xlsx.columns_hidden", columns=["B", "C", "E"], headers=["Region", "Units", "Notes"],
                    visible=["A", "D", "F"])
    assert result.passed, result.evidence


# --- xlsx.freeze_panes --------------------------------------------------------------------------------

@pytest.mark.parametrize("cell", ["A2", "B1", "B2"])
def test_freeze_panes_passes(tmp_path, cell):
    _workbook(tmp_path, [{"op": "xlsx.freeze_panes", "cell": cell}])
    result = _check(tmp_path, "xlsx.freeze_panes", cell=cell)
    assert result.passed, result.evidence


def test_freeze_panes_fails_on_wrong_cell(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.freeze_panes", "cell": "A3"}])
    result = _check(tmp_path, "xlsx.freeze_panes", cell="A2")
    assert not result.passed
    assert "frozen at A3, expected A2" in result.evidence


def test_freeze_panes_fails_without_pane(tmp_path):
    _workbook(tmp_path)
    result = _check(tmp_path, "xlsx.freeze_panes", cell="A2")
    assert not result.passed and "not frozen" in result.evidence


def _lo_view(pane: str, view_top_left: str = "A1") -> str:
    return (f'<sheetViews><sheetView showFormulas="false" showGridLines="true" tabSelected="true" '
            f'topLeftCell="{view_top_left}" zoomScale="100" workbookViewId="0">{pane}'
            '<selection pane="bottomLeft" activeCell="C30" sqref="C30"/></sheetView></sheetViews>')


def test_freeze_panes_uses_splits_when_libreoffice_saved_a_scrolled_pane(tmp_path):
    file = _workbook(tmp_path)
    pane = '<pane xSplit="0" ySplit="1" topLeftCell="A25" activePane="bottomLeft" state="frozen"/>'
    _rewrite(file, SHEET_XML, lambda xml: re.sub(r"<sheetViews>.*</sheetViews>", _lo_view(pane), xml))
    result = _check(tmp_path, "xlsx.freeze_panes", cell="A2")
    assert result.passed, result.evidence
    assert "topLeftCell=A25" in result.evidence


def test_freeze_panes_counts_splits_from_a_scrolled_view(tmp_path):
    file = _workbook(tmp_path)
    pane = '<pane xSplit="0" ySplit="1" topLeftCell="A6" activePane="bottomLeft" state="frozen"/>'
    _rewrite(file, SHEET_XML, lambda xml: re.sub(r"<sheetViews>.*</sheetViews>", _lo_view(pane, "A5"), xml))
    result = _check(tmp_path, "xlsx.freeze_panes", cell="A2")
    assert not result.passed and "frozen at A6" in result.evidence


def test_split_window_is_not_frozen(tmp_path):
    file = _workbook(tmp_path)
    pane = '<pane xSplit="1200" ySplit="600" topLeftCell="B2" activePane="bottomRight" state="split"/>'
    _rewrite(file, SHEET_XML, lambda xml: re.sub(r"<sheetViews>.*</sheetViews>", _lo_view(pane), xml))
    result = _check(tmp_path, "xlsx.freeze_panes", cell="B2")
    assert not result.passed and "split, not frozen" in result.evidence


# --- xlsx.autofilter ----------------------------------------------------------------------------------

def test_autofilter_passes_on_exact_range(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.set_autofilter", "ref": "A1:E9"}])
    result = _check(tmp_path, "xlsx.autofilter", ref="$A$1:$E$9")
    assert result.passed, result.evidence


def test_autofilter_fails_one_row_short(tmp_path):
    _workbook(tmp_path, [{"op": "xlsx.set_autofilter", "ref": "A1:E8"}])
    result = _check(tmp_path, "xlsx.autofilter", ref="A1:E9")
    assert not result.passed
    assert "covers A1:E8" in result.evidence and "expected A1:E9" in result.evidence


def test_autofilter_fails_without_filter(tmp_path):
    _workbook(tmp_path)
    result = _check(tmp_path, "xlsx.autofilter", ref="A1:E9")
    assert not result.passed and "no AutoFilter" in result.evidence


def test_autofilter_accepts_the_filter_database_name(tmp_path):
    file = _workbook(tmp_path)
    name = ("<definedNames><definedName function=\"false\" hidden=\"true\" localSheetId=\"0\" "
            "name=\"_xlnm._FilterDatabase\" vbProcedure=\"false\">'Data Sheet'!$A$1:$E$9</definedName>"
            "</definedNames><calcPr")
    _rewrite(file, "xl/workbook.xml", lambda xml: xml.replace("<calcPr", name, 1))
    result = _check(tmp_path, "xlsx.autofilter", ref="A1:E9")
    assert result.passed, result.evidence
    assert "_FilterDatabase" in result.evidence
    short = _check(tmp_path, "xlsx.autofilter", ref="A1:F9")
    assert not short.passed
