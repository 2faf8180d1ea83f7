"""calc.percent_change: the family through the gate with every mutant, its checks (`xlsx.formula_column` for the
change, `xlsx.number_format` for the percent format, which now reads a formula's number) on hand-made end states,
and its phrasings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.calc.percent_change import DECIMALS, NATURAL, PHRASINGS, WORKFLOW, _words
from workflows.common import spoken

PATH = "/home/user/budget.xlsx"
ROWS = [["Line", "Budgeted", "Actual"], ["Rent", 1000, 1100], ["Travel", 400, 300]]
FORMULAS = ["=(C2-B2)/B2", "=(C3-B3)/B3"]


@pytest.mark.slow
@pytest.mark.parametrize("decimals", DECIMALS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, decimals):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"decimals": decimals}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives == ["xlsx.formula_column", "xlsx.number_format", "xlsx.frame", "tree.frame"], primitives


@pytest.mark.parametrize("decimals", DECIMALS)
def test_every_phrasing_says_percent_the_decimals_and_the_change(decimals):
    facts = spoken({"path": "/home/user/a.xlsx", "sheet": "S", "header": "Change %", "header_cell": "D1",
                    "ref": "D2:D3", "decimals_words": _words(decimals),
                    "calc": "from 'Budgeted' (column B) to 'Actual' (column C), that is, 'Actual' minus 'Budgeted', "
                            "divided by 'Budgeted'"})
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        said = set(extract.expressed(text, "number_format"))  # "decimal places" also reads as a plain number format
        assert "percent" in said and not said & {"currency", "date"}, text
        assert extract.decimals(text) == {decimals}, text
        assert set(extract.expressed(text, "aggregate")) == {"DIFFERENCE"}, text


def _run(tmp_path: Path, cells: dict[str, object], code: str | None) -> dict[str, tuple[bool, str]]:
    (tmp_path / "budget.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    ops: list[dict[str, object]] = [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S",
                                     "cells": {"D1": "Change %", **cells}}]
    if code:
        ops.append({"op": "xlsx.set_number_format", "path": PATH, "sheet": "S", "ref": "D2:D3", "number_format": code})
    apply_ops(tmp_path, ops)
    state = State(tmp_path)
    change = run_check(state, "xlsx.formula_column", {
        "path": PATH, "sheet": "S", "header_cell": "D1", "header": "Change %", "ref": "D2:D3",
        "expected": [0.1, -0.25], "tolerance": 0.0001, "formulas": FORMULAS})
    shown = run_check(state, "xlsx.number_format", {"path": PATH, "sheet": "S", "ref": "D2:D3", "kind": "percent",
                                                     "decimals": 1})
    return {"change": (change.passed, change.evidence), "format": (shown.passed, shown.evidence)}


@pytest.mark.parametrize(("cells", "code", "change", "shown", "evidence"), [
    ({"D2": "=(C2-B2)/B2", "D3": "=(C3-B3)/B3"}, "0.0%", True, True, ""),
    ({"D2": "=C2/B2-1", "D3": "=C3/$B3-1"}, "0.0%", True, True, ""),  # an equivalent formula
    ({"D2": "=(C2-B2)/B2*100", "D3": "=(C3-B3)/B3*100"}, "0.0", False, False, "expected 0.1"),
    ({"D2": "=(C2-B2)/B2", "D3": "=(C3-B3)/B3"}, None, True, False, "is general, not percent"),
    ({"D2": "=(C2-B2)/B2", "D3": "=(C3-B3)/B3"}, "0%", True, False, "has 0 decimals, not 1"),
    ({"D2": 0.1, "D3": -0.25}, "0.0%", False, True, "not a formula"),  # typed results
    ({"D2": "=(C2-B2)/C2", "D3": "=(C3-B3)/C3"}, "0.0%", False, True, "evaluates to"),
    ({"D2": "=(C2-B2)/B2", "D3": "'-25%"}, "0.0%", False, False, "D3 holds"),  # a percent typed as text
])
def test_the_checks_on_hand_made_end_states(tmp_path, cells, code, change, shown, evidence):
    found = _run(tmp_path, cells, code)
    assert (found["change"][0], found["format"][0]) == (change, shown), found
    assert evidence in found["change"][1] + found["format"][1], found
