"""calc.transpose_range: the family through the gate with every mutant, its check on hand-made end states, its op
and the teacher's lines for it."""

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
from workflows.calc.transpose_range import WORKFLOW

PATH = "/home/user/stock.xlsx"
ROWS = [["Item", "Qty", "Since"], ["bolt", 10, dt.date(2025, 3, 1)], ["nut", 20.5, dt.date(2025, 4, 2)]]
#: ROWS transposed, as the check reads them (numbers, else canonical texts)
BLOCK = [["Item", "bolt", "nut"], ["Qty", 10, 20.5], ["Since", "2025-03-01", "2025-04-02"]]


@pytest.mark.slow
@pytest.mark.parametrize("dest", ["below", "new_sheet"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, dest):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"dest": dest}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        goals = ["xlsx.range_transposed"] + (["xlsx.sheet_names"] if dest == "new_sheet" else [])
        assert [c["primitive"] for c in task["rubric"]] == [*goals, "xlsx.frame", "tree.frame"]


def _state(tmp_path: Path) -> State:
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    return State(tmp_path)


def _check(state: State, sheet: str = "S", anchor: str = "A6") -> tuple[bool, str]:
    args = {"path": PATH, "sheet": sheet, "anchor": anchor, "source_sheet": "S", "source_ref": "A1:C3",
            "expected": BLOCK}
    result = run_check(State(state.root), "xlsx.range_transposed", args)
    return result.passed, result.evidence


def _transpose(state: State, **extra: object) -> State:
    apply_ops(state.root, [{"op": "xlsx.transpose_range", "path": PATH, "sheet": "S", "ref": "A1:C3",
                            "dest_sheet": "S", "anchor": "A6", **extra}])
    return State(state.root)


def test_the_check_reads_the_block_at_the_anchor(tmp_path):
    state = _state(tmp_path)
    passed, evidence = _check(state)
    assert not passed and "A6 = '', expected 'Item'" in evidence
    assert _check(_transpose(state)) == (True, "S!A6:C8 holds S!A1:C3 transposed (3 rows x 3 columns)")


@pytest.mark.parametrize(("extra", "says"), [
    ({"plain": True}, "B6 = 'Qty', expected 'bolt'"),
    ({"anchor": "A7"}, "A6 = '', expected 'Item'"),
    ({"ref": "A2:C3"}, "A6 = 'bolt', expected 'Item'"),
])
def test_the_slips_fail_the_check(tmp_path, extra, says):
    passed, evidence = _check(_transpose(_state(tmp_path), **extra))
    assert not passed and says in evidence, evidence


def test_a_number_pasted_as_text_fails(tmp_path):
    state = _transpose(_state(tmp_path))
    apply_ops(tmp_path, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {"B7": "10"}}])
    passed, evidence = _check(state)
    assert not passed and "B7 = \"'10\", expected '10'" in evidence


def test_the_op_adds_the_sheet_and_keeps_formats(tmp_path):
    _transpose(_state(tmp_path), dest_sheet="Side", anchor="B2", cut=True)
    wb = openpyxl.load_workbook(tmp_path / "stock.xlsx")
    assert wb.sheetnames == ["S", "Side"]
    assert [[c.value for c in row] for row in wb["Side"]["B2:D2"]] == [["Item", "bolt", "nut"]]
    assert wb["Side"]["C4"].number_format == "yyyy-mm-dd"
    assert wb["S"]["A1"].value is None, "cut empties the source"
    assert _check(State(tmp_path), sheet="Side", anchor="B2")[0]


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(State(tmp_path))
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{}, {"dest_sheet": "Side", "anchor": "B2"}, {"plain": True, "cut": True}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.transpose_range", "path": BOOK, "sheet": "Sales", "ref": "A1:E13", "dest_sheet": "Sales",
            "anchor": "A16", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
