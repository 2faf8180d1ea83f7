"""calc.fill_blanks: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.calc.fill_blanks import HOW, PHRASINGS, WORKFLOW

PATH = "/home/user/stock.xlsx"
#: Column B has blanks at B3 and B5; its numbers 10, 20, 40, 60 have average 32.5 and median 30.
ROWS = [["Item", "Qty"], ["a", 10], ["b", None], ["c", 20], ["d", None], ["e", 40], ["f", 60]]


@pytest.mark.slow
@pytest.mark.parametrize("fill", ["average", "previous", "zero"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, fill):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"fill": fill}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.blanks_filled", "xlsx.frame", "tree.frame"]


@pytest.mark.parametrize("fill", ["average", "previous", "zero"])
def test_every_phrasing_says_the_fill_and_no_other(fill):
    for phrasing in PHRASINGS:
        text = phrasing.format(path="/home/user/a.xlsx", sheet="S", header="Average Price", how=HOW[fill])
        assert set(extract.expressed(text, "fill")) == {fill}, text


def _state(tmp_path: Path, rows: list[list[object]]) -> State:
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": rows}]}))
    return State(tmp_path)


def _check(state: State, expected: list[float], fill: str = "average") -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "S", "header": "Qty", "fill": fill, "cells": ["B3", "B5"], "expected": expected}
    result = run_check(state, "xlsx.blanks_filled", args)
    return result.passed, result.evidence


def _edit(state: State, cells: dict[str, object]) -> State:
    apply_ops(state.root, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": cells}])
    return State(state.root)


def test_the_check_reads_exactly_the_blanks(tmp_path):
    state = _state(tmp_path, ROWS)
    assert _check(state, [32.5, 32.5]) == (False, "2 of the 2 empty cells of 'Qty' on S are not filled with the "
                                                  "average value: B3 is still empty; B5 is still empty")
    assert _check(_edit(state, {"B3": 32.5, "B5": 32.5}), [32.5, 32.5])[0]
    assert _check(_edit(state, {"B3": "=ROUND(AVERAGE(B2,B4,B6:B7),2)"}), [32.5, 32.5])[0], "a formula showing it"
    passed, evidence = _check(_edit(state, {"B5": "32.5"}), [32.5, 32.5])
    assert not passed and "B5 holds the text" in evidence and "not a number" in evidence
    passed, evidence = _check(_edit(state, {"B5": 30}), [32.5, 32.5])
    assert not passed and "B5 = 30, expected 32.5" in evidence
    assert _check(_edit(state, {"B5": 32.504}), [32.5, 32.5])[0], "the unrounded average is within tolerance"


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(State(tmp_path), [1.0, 2.0])
    assert not passed and "not a readable xlsx workbook" in evidence
    passed, evidence = _check(_state(tmp_path, ROWS), [1.0])
    assert not passed and "misconfigured" in evidence


@pytest.mark.parametrize(("fill", "extra", "b3", "b5", "b6"), [
    ("average", {}, 32.5, 32.5, 40),
    ("median", {}, 30, 30, 40),
    ("previous", {}, 10, 20, 40),
    ("next", {}, 20, 40, 40),
    ("zero", {}, 0, 0, 40),
    ("previous", {"skip": 1}, 10, None, 40),
    ("previous", {"spill": True}, 10, 20, 40),
    ("zero", {"spill": True}, 0, 0, 40),
])
def test_the_op_computes_the_fill_from_the_workbook(tmp_path, fill, extra, b3, b5, b6):
    state = _state(tmp_path, ROWS)
    apply_ops(tmp_path, [{"op": "xlsx.fill_blanks", "path": PATH, "sheet": "S", "ref": "B2:B7", "fill": fill,
                          **extra}])
    ws = openpyxl.load_workbook(state.path(PATH))["S"]
    assert (ws["B3"].value, ws["B5"].value, ws["B6"].value) == (b3, b5, b6)
    if extra.get("spill"):
        assert ws["B4"].value == b3, "the spill overwrote the filled cell below the first blank"
