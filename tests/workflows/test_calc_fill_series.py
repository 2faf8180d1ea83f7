"""calc.fill_series: the family through the gate with every mutant, its check on hand-made end states, its op and
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
from workflows.calc.fill_series import WORKFLOW

PATH = "/home/user/stock.xlsx"
ROWS = [["Item", "Qty"], ["bolt", 10], ["nut", 20], ["washer", 30]]


@pytest.mark.slow
@pytest.mark.parametrize("series", ["number", "date"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, series):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"series": series}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.series_filled", "xlsx.frame", "tree.frame"]


def _state(tmp_path: Path) -> State:
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    return State(tmp_path)


def _check(root: Path, start: object, step: int, dates: bool = False) -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "S", "header_cell": "C1", "header": "Seq", "ref": "C2:C4", "start": start,
            "step": step, "dates": dates}
    result = run_check(State(root), "xlsx.series_filled", args)
    return result.passed, result.evidence


def _edit(root: Path, cells: dict[str, object]) -> None:
    apply_ops(root, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {"C1": "Seq", **cells}}])


def test_the_check_reads_a_number_series(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path, 100, 5)
    assert not passed and "C1 = '', expected the header 'Seq'" in evidence
    _edit(tmp_path, {"C2": 100, "C3": 105, "C4": 110})
    assert _check(tmp_path, 100, 5) == (True, "S!C1 reads 'Seq' and C2:C4 holds the series 100, 105, ...")
    _edit(tmp_path, {"C3": "=C2+5", "C4": "=C3+5"})
    assert _check(tmp_path, 100, 5)[0], "formulas showing the series"
    _edit(tmp_path, {"C4": "110"})
    passed, evidence = _check(tmp_path, 100, 5)
    assert not passed and "C4 = \"'110\", expected 110" in evidence, "a number typed as text"


def test_the_check_reads_a_date_series(tmp_path):
    _state(tmp_path)
    _edit(tmp_path, {"C2": dt.date(2025, 3, 3), "C3": dt.date(2025, 3, 10), "C4": 45733})
    passed, evidence = _check(tmp_path, "2025-03-03", 7, dates=True)
    assert not passed and "C4 = '45733', expected 2025-03-17" in evidence, "a serial without a date format"
    _edit(tmp_path, {"C4": dt.date(2025, 3, 17)})
    assert _check(tmp_path, "2025-03-03", 7, dates=True)[0]
    _edit(tmp_path, {"C3": "=C2+7", "C4": "=C3+7"})
    assert _check(tmp_path, "2025-03-03", 7, dates=True)[0], "formulas counting the days"
    _edit(tmp_path, {"C3": dt.date(2025, 3, 4), "C4": dt.date(2025, 3, 5)})
    passed, evidence = _check(tmp_path, "2025-03-03", 7, dates=True)
    assert not passed and "C3 = '2025-03-04', expected 2025-03-10" in evidence, "a step of one day"


@pytest.mark.parametrize(("extra", "column"), [
    ({}, [100, 105, 110]),
    ({"step": 0}, [100, 100, 100]),
    ({"ref": "C3:C5"}, [None, 100, 105, 110]),
    ({"start": "2025-12-30", "step": 1, "dates": True},
     [dt.datetime(2025, 12, 30), dt.datetime(2025, 12, 31), dt.datetime(2026, 1, 1)]),
])
def test_the_op_writes_the_series(tmp_path, extra, column):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "xlsx.fill_series", "path": PATH, "sheet": "S", "header_cell": "C1",
                          "header": "Seq", "ref": "C2:C4", "start": 100, "step": 5, **extra}])
    ws = openpyxl.load_workbook(tmp_path / "stock.xlsx")["S"]
    assert ws["C1"].value == "Seq"
    assert [ws.cell(r, 3).value for r in range(2, 2 + len(column))] == column


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path, 1, 1)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"start": 1001, "step": 10}, {"start": "2025-06-02", "step": 14, "dates": True}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.fill_series", "path": BOOK, "sheet": "Sales", "header_cell": "F1", "header": "Seq",
            "ref": "F2:F13", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
