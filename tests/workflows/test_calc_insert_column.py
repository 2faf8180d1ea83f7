"""calc.insert_column: the family through the gate with every mutant, its check on hand-made end states (a column
typed over its neighbour, on the wrong side, a value left in a cell meant empty), its op and the teacher's lines
for it."""

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
from workflows.calc.insert_column import WORKFLOW

PATH = "/home/user/stock.xlsx"
ROWS = [["Item", "Qty", "Cost"], ["bolt", 10, 2.5], ["nut", 20, 1.25]]
#: ROWS with 'Tax' (10% of Cost) inserted before 'Cost'
INSERTED: list[list[object]] = [["Item", "Qty", "Tax", "Cost"], ["bolt", 10, 0.25, 2.5], ["nut", 20, 0.13, 1.25]]


@pytest.mark.slow
@pytest.mark.parametrize("fill", ["blank", "text", "percent"])
@pytest.mark.parametrize("side", ["before", "after"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, fill, side):
    folder = make_package(WORKFLOW, {"fill": fill, "side": side}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    formulas = ["xlsx.formula_column"] if fill == "percent" else []
    assert [c["primitive"] for c in task["rubric"]] == ["xlsx.column_inserted", *formulas, "xlsx.frame",
                                                        "tree.frame"]


def _state(tmp_path: Path, rows: list[list[object]]) -> None:
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": rows}]}))


def _check(root: Path, expected: list[list[object]] = INSERTED) -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "S", "header": "Tax", "place": "before the 'Cost' column", "column": 3,
            "expected": expected}
    result = run_check(State(root), "xlsx.column_inserted", args)
    return result.passed, result.evidence


def _insert(root: Path, **extra: object) -> None:
    apply_ops(root, [{"op": "xlsx.insert_column", "path": PATH, "sheet": "S", "at": "C", "header": "Tax",
                      "source": "C", "percent": 10, **extra}])


def test_the_op_inserts_and_the_check_reads_it(tmp_path):
    _state(tmp_path, ROWS)
    passed, evidence = _check(tmp_path)
    assert not passed and "its header row reads ['Item', 'Qty', 'Cost', '']" in evidence
    _insert(tmp_path)
    assert _check(tmp_path) == (True, "the table on S has the column 'Tax' inserted before the 'Cost' column "
                                      "(column C), the others shifted whole")
    ws = openpyxl.load_workbook(tmp_path / "stock.xlsx")["S"]
    assert ws["C2"].value == "=ROUND(D2*10/100,2)", "the formula takes the moved column"


@pytest.mark.parametrize(("extra", "says"), [
    ({"overwrite": True}, "D1 = '', expected 'Cost'"),
    ({"at": "D"}, "C1 = 'Cost', expected 'Tax'"),
    ({"header": None}, "C1 = '', expected 'Tax'"),
    ({"skip_last": True}, "C3 = '', expected '0.13'"),
    ({"source": "B"}, "C2 = '1', expected '0.25'"),
])
def test_the_slips(tmp_path, extra, says):
    _state(tmp_path, ROWS)
    _insert(tmp_path, **extra)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_a_cell_meant_empty_must_be_empty(tmp_path):
    blank = [["Item", "Notes", "Qty", "Cost"], ["bolt", None, 10, 2.5], ["nut", None, 20, 1.25]]
    _state(tmp_path, [["Item", "Notes", "Qty", "Cost"], ["bolt", "ok", 10, 2.5], ["nut", None, 20, 1.25]])
    passed, evidence = _check(tmp_path, blank)
    assert not passed and "B2 = 'ok', expected it empty" in evidence
    _state(tmp_path, ROWS)
    apply_ops(tmp_path, [{"op": "xlsx.insert_column", "path": PATH, "sheet": "S", "at": "B", "header": "Notes"}])
    assert _check(tmp_path, blank)[0]


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"at": "B"}, {"at": "C", "text": "USD", "skip_last": True},
                                   {"at": "D", "source": "E", "percent": 15},
                                   {"at": "E", "source": "D", "percent": 8, "overwrite": True, "header": None}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.insert_column", "path": BOOK, "sheet": "Sales", "header": "New", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
