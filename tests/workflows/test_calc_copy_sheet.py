"""calc.copy_sheet: the family through the gate with every mutant, its check on hand-made end states (pasted values,
a missing header row, a changed cell), the ops and the teacher's lines for the slips."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox
from preparers import xlsx
from preparers.ops import apply_ops
from preparers.teach import teach
from tests.gatekit import assert_accepted, make_package
from tests.preparers.test_teach_xlsx import BOOK, _home, _read, _workbook
from verifiers.checks import State, run_check
from workflows.calc.copy_sheet import WORKFLOW

PATH = "/home/user/stock.xlsx"
ROWS = [["Item", "Qty", "Cost"], ["bolt", 10, 2.5], ["nut", 20, 1.25]]


@pytest.mark.slow
@pytest.mark.parametrize("place", ["after", "end", "first"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, place):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"place": place}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.sheet_copied", "xlsx.sheet_names", "xlsx.frame",
                                                            "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"sheets": [{"name": "Stock", "rows": ROWS, "number_formats": {"C": "#,##0.00"}},
                       {"name": "Notes", "rows": [["Note"], ["counted in May"]]}]}
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build(spec))


def _check(root: Path) -> tuple[bool, str]:
    result = run_check(State(root), "xlsx.sheet_copied", {"path": PATH, "sheet": "Stock Copy", "source": "Stock"})
    return result.passed, result.evidence


def _copy(root: Path, op: str = "xlsx.copy_sheet", **extra: object) -> None:
    apply_ops(root, [{"op": op, "path": PATH, "sheet": "Stock", "name": "Stock Copy", "index": 1, **extra}])


def test_a_whole_copy_passes(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path) == (False, "/home/user/stock.xlsx has no sheet 'Stock Copy' (sheets: ['Stock', 'Notes'])")
    _copy(tmp_path)
    assert _check(tmp_path) == (True, "Stock Copy holds what Stock holds (3 rows x 3 columns, values, number formats "
                                      "and bold)")
    assert openpyxl.load_workbook(tmp_path / "stock.xlsx").sheetnames == ["Stock", "Stock Copy", "Notes"]
    _state(tmp_path)
    _copy(tmp_path, "xlsx.duplicate_sheet")
    assert _check(tmp_path)[0], "the slips' op copies whole without a slip"


@pytest.mark.parametrize(("extra", "says"), [
    ({"values_only": True}, "A1 is not bold, unlike on Stock"),
    ({"skip_header": True}, "A1 = 'nothing', Stock has 'Item'"),
    ({"move": True}, "has no sheet 'Stock'"),
])
def test_the_slips(tmp_path, extra, says):
    _state(tmp_path)
    _copy(tmp_path, "xlsx.duplicate_sheet", **extra)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_pasted_values_lose_the_number_format(tmp_path):
    _state(tmp_path)
    _copy(tmp_path, "xlsx.duplicate_sheet", values_only=True)
    wb = openpyxl.load_workbook(tmp_path / "stock.xlsx")
    for cell in wb["Stock Copy"][1]:
        cell.font = openpyxl.styles.Font(bold=True)
    wb.save(tmp_path / "stock.xlsx")
    passed, evidence = _check(tmp_path)
    assert not passed and "C2 has the number format 'General', Stock has '#,##0.00'" in evidence, evidence


def test_a_changed_cell_fails(tmp_path):
    _state(tmp_path)
    _copy(tmp_path)
    wb = openpyxl.load_workbook(tmp_path / "stock.xlsx")
    wb["Stock Copy"]["B3"] = "20"
    wb.save(tmp_path / "stock.xlsx")
    passed, evidence = _check(tmp_path)
    assert not passed and "B3 = \"'20\" (a number stored as text), Stock has '20'" in evidence, evidence


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"index": 0}, {"index": 2, "values_only": True}, {"index": 1, "skip_header": True},
                                   {"index": 0, "move": True}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.duplicate_sheet", "path": BOOK, "sheet": "Sales", "name": "Sales Copy", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
