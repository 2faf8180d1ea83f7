"""calc.clean_text: the family through the gate with every mutant, its check on hand-made end states (a formula left
in a cell, the ends trimmed but doubled spaces kept, capitals instead of proper case), its op and the teacher's
lines for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox
from preparers import xlsx
from preparers.ops import apply_ops
from preparers.teach import teach
from tests.gatekit import assert_accepted, make_package
from tests.preparers.test_teach_xlsx import BOOK, _home, _read, _workbook
from verifiers.checks import State, run_check
from workflows.calc.clean_text import WORKFLOW

PATH = "/home/user/people.xlsx"
MESSY: list[list[object]] = [["Name", "Hours"], [" maria  lopez", 3], ["JAMES SMITH  ", 5], ["Aisha Khan", 2]]
PROPER = ["Maria Lopez", "James Smith", "Aisha Khan"]


@pytest.mark.slow
@pytest.mark.parametrize("operation", ["trim", "proper", "upper"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, operation):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"operation": operation}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.text_cleaned", "xlsx.frame", "tree.frame"]


def _state(tmp_path: Path, rows: list[list[object]] = MESSY) -> None:
    (tmp_path / "people.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": rows}]}))


def _check(root: Path, expected: list[str], operation: str = "proper") -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "S", "header": "Name", "operation": operation, "cells": ["A2", "A3", "A4"],
            "expected": expected}
    result = run_check(State(root), "xlsx.text_cleaned", args)
    return result.passed, result.evidence


def _clean(root: Path, operation: str, **extra: object) -> None:
    apply_ops(root, [{"op": "xlsx.clean_text", "path": PATH, "sheet": "S", "ref": "A2:A4", "operation": operation,
                      **extra}])


def test_trim_then_proper_gives_the_names(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path, PROPER)
    assert not passed and "A2 = ' maria  lopez', expected 'Maria Lopez'" in evidence
    _clean(tmp_path, "trim")
    assert _check(tmp_path, ["maria lopez", "JAMES SMITH", "Aisha Khan"], "trim")[0]
    _clean(tmp_path, "proper")
    assert _check(tmp_path, PROPER) == (True, "all the 3 data cells of 'Name' on S hold their proper text (A2: "
                                              "'Maria Lopez')")


@pytest.mark.parametrize(("operation", "extra", "says"), [
    ("strip", {}, "A2 = 'maria  lopez', expected 'maria lopez'"),
    ("trim", {"skip_last": True}, "cleaned (trim)"),
])
def test_trim_slips(tmp_path, operation, extra, says):
    _state(tmp_path, [["Name", "Hours"], [" maria  lopez", 3], ["JAMES SMITH  ", 5], [" Aisha Khan", 2]])
    _clean(tmp_path, operation, **extra)
    passed, evidence = _check(tmp_path, ["maria lopez", "JAMES SMITH", "Aisha Khan"], "trim")
    assert not passed and says in evidence, evidence


def test_capitals_are_not_proper_case_and_a_formula_is_not_text(tmp_path):
    _state(tmp_path, [["Name", "Hours"], ["maria lopez", 3], ["JAMES SMITH", 5], ["Aisha Khan", 2]])
    _clean(tmp_path, "upper")
    passed, evidence = _check(tmp_path, PROPER)
    assert not passed and "A2 = 'MARIA LOPEZ', expected 'Maria Lopez'" in evidence
    _state(tmp_path, [["Name", "Hours"], ['=PROPER("maria lopez")', 3], ["James Smith", 5], ["Aisha Khan", 2]])
    passed, evidence = _check(tmp_path, PROPER)
    assert not passed and "A2 holds the formula" in evidence


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "people.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path, PROPER)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"operation": "trim"}, {"operation": "proper", "header": True},
                                   {"operation": "upper", "skip_last": True}, {"operation": "strip"}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.clean_text", "path": BOOK, "sheet": "Sales", "ref": "A2:A13", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
