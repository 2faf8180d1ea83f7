"""calc.split_column: the family through the gate with every mutant, its check on hand-made end states (typed parts,
LEFT / MID formulas, a leading space, a number kept as text), its op and the teacher's lines for it."""

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
from workflows.calc.split_column import WORKFLOW

PATH = "/home/user/staff.xlsx"
ROWS = [["Employee", "Team", "Hours"], ["Lopez, Maria", "Ops", 12.5], ["Khan, Aisha", "Sales", 30]]
#: ROWS split in place at the comma
SPLIT = [["Last Name", "First Name", "Team", "Hours"], ["Lopez", "Maria", "Ops", 12.5], ["Khan", "Aisha", "Sales", 30]]


@pytest.mark.slow
@pytest.mark.parametrize("separator", ["space", "comma", "hyphen"])
@pytest.mark.parametrize("place", ["new_columns", "in_place"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, separator, place):
    folder = make_package(WORKFLOW, {"separator": separator, "place": place}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["xlsx.column_split", "xlsx.frame", "tree.frame"]


def _state(tmp_path: Path, rows: list[list[object]]) -> None:
    (tmp_path / "staff.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": rows}]}))


def _check(root: Path) -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "S", "header": "Employee", "separator": "comma",
            "parts": ["Last Name", "First Name"], "columns": [1, 2], "expected": SPLIT}
    result = run_check(State(root), "xlsx.column_split", args)
    return result.passed, result.evidence


def _split(root: Path, **extra: object) -> None:
    apply_ops(root, [{"op": "xlsx.split_column", "path": PATH, "sheet": "S", "column": "A", "separator": ",",
                      "headers": ["Last Name", "First Name"], "replace": True, **extra}])


def test_the_op_splits_in_place_and_the_check_reads_it(tmp_path):
    _state(tmp_path, ROWS)
    passed, evidence = _check(tmp_path)
    assert not passed and "A1 = 'Employee', expected 'Last Name'" in evidence
    _split(tmp_path)
    assert _check(tmp_path) == (True, "the 'Employee' column on S is split at the comma into 'Last Name' (A) and "
                                      "'First Name' (B), 2 rows")


def test_formulas_count_by_their_value(tmp_path):
    rows = [list(r) for r in SPLIT]
    rows[1][1] = '=RIGHT("Lopez, Maria",5)'  # verifiers.formula has no FIND; Calc saves the value
    _state(tmp_path, rows)
    assert _check(tmp_path)[0]


@pytest.mark.parametrize(("extra", "says"), [
    ({"keep_space": True}, "B2 = ' Maria', expected 'Maria'"),
    ({"swap": True}, "A1 = 'First Name', expected 'Last Name'"),
    ({"first_only": True}, "B2 = '', expected 'Maria'"),
    ({"no_header": True}, "A1 = '', expected 'Last Name'"),
    ({"replace": False}, "A1 = 'Employee', expected 'Last Name'"),
])
def test_the_slips(tmp_path, extra, says):
    _state(tmp_path, ROWS)
    _split(tmp_path, **extra)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_a_number_part_kept_as_text_fails(tmp_path):
    _state(tmp_path, [["Code", "Qty"], ["VAN-4821", 3]])
    ops = {"op": "xlsx.split_column", "path": PATH, "sheet": "S", "column": "A", "separator": "-",
           "headers": ["Prefix", "Number"]}
    apply_ops(tmp_path, [{**ops, "as_text": True}])
    args = {"path": PATH, "sheet": "S", "header": "Code", "separator": "hyphen", "parts": ["Prefix", "Number"],
            "columns": [3, 4], "expected": [["Code", "Qty", "Prefix", "Number"], ["VAN-4821", 3, "VAN", 4821]]}
    result = run_check(State(tmp_path), "xlsx.column_split", args)
    assert not result.passed and "D2 = \"'4821\", expected '4821' (a number stored as text)" in result.evidence
    _state(tmp_path, [["Code", "Qty"], ["VAN-4821", 3]])
    apply_ops(tmp_path, [ops])
    assert run_check(State(tmp_path), "xlsx.column_split", args).passed
    assert openpyxl.load_workbook(tmp_path / "staff.xlsx")["S"]["D2"].value == 4821


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "staff.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"column": "B", "separator": " "}, {"column": "B", "replace": True, "swap": True},
                                   {"column": "B", "separator": " ", "keep_space": True, "first_only": True},
                                   {"column": "C", "separator": "-", "replace": True, "as_text": True,
                                    "no_header": True}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.split_column", "path": BOOK, "sheet": "Sales", "separator": " ",
            "headers": ["Part 1", "Part 2"], **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
