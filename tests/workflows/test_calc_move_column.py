"""calc.move_column: the family through the gate with every mutant, its check on hand-made end states, its op and
the teacher's lines for it."""

from __future__ import annotations

import datetime as dt
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
from workflows.calc.move_column import WORKFLOW

PATH = "/home/user/stock.xlsx"
ROWS = [["Item", "Qty", "Since", "Bin"], ["bolt", 10, dt.date(2025, 3, 1), "A1"],
        ["nut", 20.5, dt.date(2025, 4, 2), "B7"]]
#: ROWS with 'Bin' moved to the front
MOVED = [["Bin", "Item", "Qty", "Since"], ["A1", "bolt", 10, "2025-03-01"], ["B7", "nut", 20.5, "2025-04-02"]]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["first", "last", "before"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, where):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"where": where}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.column_moved", "xlsx.frame", "tree.frame"]


def _state(tmp_path: Path) -> State:
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    return State(tmp_path)


def _check(root: Path) -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "S", "header": "Bin", "place": "first", "order": MOVED[0], "expected": MOVED}
    result = run_check(State(root), "xlsx.column_moved", args)
    return result.passed, result.evidence


def _move(root: Path, **extra: object) -> None:
    apply_ops(root, [{"op": "xlsx.move_column", "path": PATH, "sheet": "S", "column": "D", "to": 0, **extra}])


def test_the_check_reads_the_new_order(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "its header row reads ['Item', 'Qty', 'Since', 'Bin']" in evidence
    _move(tmp_path)
    assert _check(tmp_path) == (True, "the table on S has its columns in the order ['Bin', 'Item', 'Qty', "
                                      "'Since'], 'Bin' first")
    ws = openpyxl.load_workbook(tmp_path / "stock.xlsx")["S"]
    assert ws["D2"].number_format == "yyyy-mm-dd", "formats move with their column"


@pytest.mark.parametrize(("extra", "says"), [
    ({"copy": True}, "its header row reads ['Bin', 'Item', 'Qty', 'Since']"),  # a fifth column left over: frame
    ({"swap": True}, "B1 = 'Qty', expected 'Item'"),
    ({"data_only": True}, "A1 = 'Item', expected 'Bin'"),
    ({"to": 1}, "A1 = 'Item', expected 'Bin'"),
])
def test_the_slips(tmp_path, extra, says):
    _state(tmp_path)
    _move(tmp_path, **extra)
    passed, evidence = _check(tmp_path)
    if extra.get("copy"):
        ws = openpyxl.load_workbook(tmp_path / "stock.xlsx")["S"]
        assert passed and ws["E1"].value == "Bin", "the check reads the table; the frame refuses the extra column"
        return
    assert not passed and says in evidence, evidence


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"column": "E", "to": 1}, {"column": "A", "to": 4}, {"column": "B", "to": 4,
                                                                                          "copy": True},
                                   {"column": "D", "to": 0, "swap": True, "data_only": True}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.move_column", "path": BOOK, "sheet": "Sales", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
