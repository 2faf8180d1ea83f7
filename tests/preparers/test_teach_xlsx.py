"""Workbook teacher snippets (preparers/teach/xlsx.py): the openpyxl lines a person would type leave the workbook the
op they teach leaves, run exactly as a student's command runs (forge.agent.shell.AgentShell, bubblewrap).

Each case applies its ops to one copy of a workbook with `apply_ops` and runs `teach(ops)` on another, then compares
what the rubric and the frame read (verifiers.frame.xlsx.workbook_facts) and what they do not (fonts' sizes,
alignments, frozen panes, charts' references, rule and validation details, the active sheet)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.styles import Font

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers.ops import apply_ops
from preparers.teach import look, teach
from preparers.teach.xlsx import set_cells
from verifiers.frame.xlsx import workbook_facts

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")

H = "/home/user"
BOOK = f"{H}/Documents/sales q1.xlsx"
REGIONS = ["north", "South", "east", "West", "north", "Central", "south", "East", "west", "Central", "North", "east"]
UNITS: list[int | None] = [12, None, 7, 30, None, 18, 5, 22, None, 9, 14, 3]


def _workbook(root: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Rep", "Date", "Units", "Price"])
    for i, (region, units) in enumerate(zip(REGIONS, UNITS, strict=True)):
        ws.append([region, f"Rep {i % 5}", dt.datetime(2024, 1 + i % 12, 28 - 2 * i), units, round(9.5 + 1.25 * i, 2)])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.column_dimensions["A"].width = 14
    ws.column_dimensions["B"].width = 12
    other = wb.create_sheet("Lookup")
    other.append(["Region", "Manager"])
    other.append(["north", "Ana"])
    wb.create_sheet("Notes")["A1"] = "draft"
    wb.active = 2
    (root / "Documents").mkdir(parents=True)
    wb.save(root / "Documents" / "sales q1.xlsx")


def _color(color: Any) -> Any:
    return getattr(color, "rgb", None)


def _read(path: Path) -> dict[str, Any]:
    """Everything the ops change, read back with openpyxl."""
    wb = openpyxl.load_workbook(path)
    seen: dict[str, Any] = {"facts": workbook_facts(wb), "sheets": wb.sheetnames,
                            "active": wb._active_sheet_index}
    for ws in wb.worksheets:
        seen[ws.title] = {
            "cells": {c.coordinate: (c.value, c.number_format, c.font.b, c.font.i, c.font.sz, c.fill.fill_type,
                                     _color(c.fill.fgColor), _color(c.fill.bgColor), c.alignment.horizontal)
                      for row in ws.iter_rows() for c in row},
            "freeze": ws.freeze_panes, "filter": ws.auto_filter.ref, "merged": sorted(map(str, ws.merged_cells.ranges)),
            "hidden": sorted(k for k, d in ws.column_dimensions.items() if d.hidden),
            "widths": {k: d.width for k, d in ws.column_dimensions.items()},
            "validations": [(str(dv.sqref), dv.type, dv.operator, dv.formula1, dv.formula2, dv.allow_blank,
                             dv.showErrorMessage, dv.errorStyle) for dv in ws.data_validations.dataValidation],
            "cf": [(str(cf.sqref), r.type, r.operator, r.formula, r.rank, r.bottom,
                    _color(r.dxf.fill.fgColor) if r.dxf and r.dxf.fill else None,
                    _color(r.dxf.fill.bgColor) if r.dxf and r.dxf.fill else None)
                   for cf in ws.conditional_formatting for r in cf.rules],
            # the series name as a reference: add_data(titles_from_data=True) writes it relative, the op absolute
            "charts": [(type(ch).__name__, getattr(ch, "type", None),
                        [(s.val.numRef.f if s.val else None,
                          s.tx.strRef.f.replace("$", "") if s.tx and s.tx.strRef else None,
                          (s.cat.numRef or s.cat.strRef).f if s.cat else None) for s in ch.series])
                       for ch in ws._charts],
        }
    return seen


def op(_op: str, /, **args: Any) -> dict[str, Any]:
    return {"op": f"xlsx.{_op}", "path": BOOK, **args}


SALES = {"sheet": "Sales"}
CASES: dict[str, list[dict[str, Any]]] = {
    "set_cells-fill-down": [op("set_cells", **SALES, cells={
        "F1": "Revenue", **{f"F{r}": f"=D{r}*E{r}" for r in range(2, 14)}, "A15": "Total", "D15": "=SUM(D2:D13)",
        "G2": "=IF(D2>10,\"big {x}\",'s')", "G3": "=IF(D3>10,\"big {x}\",'s')", "G4": "=IF(D4>10,\"big {x}\",'s')",
        "H2": "=$D$2+D2", "H3": "=$D$2+D3", "H4": "=$D$2+D4", "H9": 4.5})],
    "sort_rows-date-desc": [op("sort_rows", **SALES, ref="A2:E13", key_column="C", descending=True)],
    "sort_rows-text": [op("sort_rows", **SALES, ref="A2:E13", key_column="A")],
    "sort_rows-blanks": [op("sort_rows", **SALES, ref="B2:E13", key_column="D", descending=True)],
    "sort_rows-key-only": [op("sort_rows", **SALES, ref="A2:E13", key_column="E", descending=True, key_only=True)],
    "delete_rows": [op("delete_rows", **SALES, rows=[7, 3, 7])],
    "replace_values-sheet": [op("replace_values", **SALES, old="north", new="North Division")],
    "replace_values-range-first": [op("replace_values", **SALES, old="east", new="East", ref="A2:A13",
                                      first_only=True)],
    "conditional_format": [op("add_conditional_format", **SALES, ref="D2:D13", operator="greaterThan", values=[10],
                              fill="#ffc7ce"),
                           op("add_conditional_format", **SALES, ref="E2:E13", operator="between",
                              values=[10, 15.5], fill="C6EFCE")],
    "conditional_format-top-bottom": [op("add_conditional_format", **SALES, ref="D2:D13", operator="top",
                                         values=[3], fill="FFEB9C"),
                                      op("add_conditional_format", **SALES, ref="E2:E13", operator="bottom",
                                         values=[2], fill="DDEBF7")],
    "number_format": [op("set_number_format", **SALES, ref="E2:E13", number_format="[$$-409]#,##0.00"),
                      op("set_number_format", **SALES, ref="C2:C13", number_format="DD/MM/YYYY")],
    "data_validation-list": [op("add_data_validation", **SALES, ref="A2:A13", kind="list",
                                items=["North", "South", "East"])],
    "data_validation-numbers": [op("add_data_validation", **SALES, ref="D2:D13", kind="whole", minimum=0,
                                   maximum=100),
                                op("add_data_validation", **SALES, ref="E2:E13", kind="decimal",
                                   operator="greaterThan", minimum=2.5)],
    "set_font": [op("set_font", **SALES, ref="A1:E1", size=13, italic=True),
                 op("set_font", **SALES, ref="D2:D13", bold=True)],
    "set_fill": [op("set_fill", **SALES, ref="A1:E1", color="DDEBF7")],
    "merge_cells": [op("set_cells", **SALES, cells={"G1": "Q1 sales"}),
                    op("merge_cells", **SALES, ref="G1:J1", horizontal="center"),
                    op("merge_cells", **SALES, ref="G3:H4")],
    "center_across_selection": [op("center_across_selection", **SALES, ref="A1:E1")],
    "hide_columns": [op("hide_columns", **SALES, columns=["B", "E"])],
    "freeze_panes": [op("freeze_panes", **SALES, cell="B2")],
    "autofilter": [op("set_autofilter", **SALES, ref="A1:E13")],
    "chart-column-named": [op("add_chart", **SALES, chart_type="column", values="D2:D13", categories="A2:A13",
                              name_cell="D1")],
    "chart-bar-line-pie-area": [op("add_chart", **SALES, chart_type="bar", values="E2:E13", categories="B2:B13",
                                   name_cell="A1", anchor="H20"),
                                op("add_chart", **SALES, chart_type="line", values="E2:E13", anchor="P2"),
                                op("add_chart", **SALES, chart_type="pie", values="D2:D6", categories="A2:A6",
                                   name_cell="D1", anchor="P20"),
                                op("add_chart", **SALES, chart_type="area", values="E2:E13", name_cell="E1")],
    "sheets": [op("add_sheet", name="Budget", index=1), op("rename_sheet", sheet="Notes", new_name="Read me"),
               op("move_sheet", sheet="Lookup", index=0), op("copy_sheet", sheet="Sales", name="Sales (2)", index=2)],
    "delete_sheet-active": [op("delete_sheet", sheet="Notes")],
    "delete_sheet-first": [op("delete_sheet", sheet="Sales")],
    "clear_sheet": [op("clear_sheet", sheet="Lookup")],
    "fill_blanks-average": [op("fill_blanks", **SALES, ref="D2:D13", fill="average")],
    "fill_blanks-median": [op("fill_blanks", **SALES, ref="D2:D13", fill="median", decimals=1)],
    "fill_blanks-previous": [op("fill_blanks", **SALES, ref="D2:D13", fill="previous")],
    "fill_blanks-next": [op("fill_blanks", **SALES, ref="D2:D13", fill="next")],
    "fill_blanks-zero-slips": [op("fill_blanks", **SALES, ref="D2:D13", fill="zero", skip=1, spill=True)],
    "transpose_range": [op("transpose_range", **SALES, ref="A1:E13", dest_sheet="Flipped", anchor="A1")],
    "fill_series-dates": [op("fill_series", **SALES, header_cell="F1", header="Seq", ref="F2:F13",
                             start="2025-06-02", step=14, dates=True)],
    "move_column": [op("move_column", **SALES, column="E", to=1)],
}


def _home(root: Path, sandbox: Sandbox) -> Path:
    _workbook(root)
    if sandbox.as_root:
        chown_tree(root)
    return root


@pytest.mark.parametrize("name", list(CASES))
def test_the_snippet_leaves_the_workbook_the_op_leaves(tmp_path: Path, name: str) -> None:
    ops = CASES[name]
    by_op = tmp_path / "op"
    _workbook(by_op)
    apply_ops(by_op, ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert sorted(p.name for p in (by_shell / "Documents").iterdir()) == ["sales q1.xlsx"]  # nothing left beside it
    mine, theirs = _read(by_shell / "Documents" / "sales q1.xlsx"), _read(by_op / "Documents" / "sales q1.xlsx")
    _workbook(tmp_path / "initial")
    assert theirs != _read(tmp_path / "initial" / "Documents" / "sales q1.xlsx")  # the case changes something
    assert mine == theirs


def test_every_xlsx_op_has_a_case() -> None:
    """Here, or in its family's own test file, which compares the op with its teacher lines on the family's
    workbooks (`test_the_teacher_lines_leave_what_the_op_leaves` in tests/workflows/test_calc_<family>.py)."""
    from preparers.ops import registry

    taught = {raw["op"] for ops in CASES.values() for raw in ops}
    family_tests = [f.read_text() for f in (Path(__file__).parents[1] / "workflows").glob("test_calc_*.py")]
    taught |= {name for name in registry() for text in family_tests
               if f'"{name}"' in text and "def test_the_teacher_lines_leave_what_the_op_leaves" in text}
    missing = sorted(name for name in registry() if name.startswith("xlsx.") and name not in taught)
    assert missing == [], f"xlsx ops whose teacher lines no test compares with the op: {missing}"


def test_the_look_prints_the_rows(tmp_path: Path) -> None:
    sandbox = Sandbox()
    home = _home(tmp_path / "home", sandbox)
    seen = AgentShell(sandbox).run(home, look(CASES["sort_rows-text"], [BOOK]))
    assert seen.exit_code == 0, seen.shown
    assert "== Sales A1:E13" in seen.shown and "'Central'" in seen.shown


def test_a_formula_column_is_filled_down_in_a_loop() -> None:
    cells = {"G1": "Mean", **{f"G{r}": f"=AVERAGE(D{r},E{r})" for r in range(2, 30)}, "G31": "=SUM(G2:G29)"}
    lines = set_cells("wb", BOOK, "Sales", cells).splitlines()
    assert "for r in range(2, 30):" in lines and "    ws[f'G{r}'] = f'=AVERAGE(D{r},E{r})'" in lines
    assert len(lines) == 5  # the sheet, the label, the loop (2 lines), the total: not one line per row
