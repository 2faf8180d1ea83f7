"""calc.text_formula: the family through the gate with every mutant, its check `xlsx.text_column` on hand-made end
states (typed text, a typed answer dressed as a formula, the wrong case, stray spaces kept), and its phrasings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.xlsx_text import operations_said
from workflows.calc.text_formula import NATURAL, OPERATIONS, PHRASINGS, WORKFLOW
from workflows.common import spoken

PATH = "/home/user/staff.xlsx"
ROWS = [["Name", "Team"], ["  ana  de  SOUSA ", "Ops"], ["LI wei", "Legal"]]
CALC = {"upper": "the text of 'Name' (column A) in capital letters (UPPER)",
        "lower": "the text of 'Name' (column A) in lower case (LOWER)",
        "proper": "the text of 'Name' (column A) in proper case (PROPER: each word starting with one capital)",
        "trim": "the text of 'Name' (column A) with its extra spaces removed (TRIM)",
        "join": "'Name' (column A) and 'Team' (column B) joined with ' - ' between them (use &, CONCAT or TEXTJOIN)"}


@pytest.mark.slow
@pytest.mark.parametrize("operation", OPERATIONS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, operation):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"operation": operation}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        primitives = [c["primitive"] for c in task["rubric"]]
        assert primitives[0] == "xlsx.text_column" and "xlsx.frame" in primitives, primitives


@pytest.mark.parametrize("operation", OPERATIONS)
def test_every_phrasing_says_the_operation_and_no_rival(operation):
    facts = spoken({"path": "/home/user/a.xlsx", "sheet": "S", "header": "Label", "header_cell": "C1",
                    "ref": "C2:C3", "calc": CALC[operation]})
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        assert operations_said(text) == [operation], text


def _state(tmp_path: Path) -> State:
    (tmp_path / "staff.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    return State(tmp_path)


def _check(state: State, operation: str, cells: dict[str, object]) -> tuple[bool, str]:
    apply_ops(state.root, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {"C1": "Clean", **cells}}])
    reference = {"proper": "=PROPER(A{r})", "trim": "=TRIM(A{r})", "join": '=A{r}&" - "&B{r}'}[operation]
    expected = {"proper": ["  Ana  De  Sousa ", "Li Wei"], "trim": ["ana de SOUSA", "LI wei"],
                "join": ["  ana  de  SOUSA  - Ops", "LI wei - Legal"]}[operation]
    args = {"path": PATH, "sheet": "S", "header_cell": "C1", "header": "Clean", "ref": "C2:C3",
            "operation": operation, "sources": ["Name"], "expected": expected,
            "formulas": [reference.format(r=r) for r in (2, 3)]}
    result = run_check(State(state.root), "xlsx.text_column", args)
    return result.passed, result.evidence


@pytest.mark.parametrize(("operation", "cells", "passes", "evidence"), [
    ("trim", {"C2": "=TRIM(A2)", "C3": "=TRIM($A$3)"}, True, "all 2 cells of C2:C3 are trim formulas"),
    ("trim", {"C2": "ana de SOUSA", "C3": "LI wei"}, False, "C2 holds 'ana de SOUSA', not a formula"),
    ("trim", {"C2": "=A2", "C3": "=TRIM(A3)"}, False, "C2 = '=A2' shows '  ana  de  SOUSA ', expected"),
    ("trim", {"C2": '=IF(A2="","","ana de SOUSA")', "C3": "=TRIM(A3)"}, False, "is not the asked trim"),
    ("proper", {"C2": "=PROPER(A2)", "C3": "=PROPER(A3)"}, True, "proper formulas"),
    ("proper", {"C2": "=PROPER(A2)", "C3": "=UPPER(A3)"}, False, "C3 = '=UPPER(A3)' shows 'LI WEI'"),
    ("proper", {"C2": "=PROPER(A2)", "C3": "=PROPER(A2)"}, False, "refers to A2, outside row 3"),
    ("join", {"C2": '=CONCAT(A2," - ",B2)', "C3": '=_xlfn.TEXTJOIN(" - ",TRUE,A3:B3)'}, True, "join formulas"),
    ("join", {"C2": '=A2&" - "&B2', "C3": "=A3&B3"}, False, "C3 = '=A3&B3' shows 'LI weiLegal'"),
    ("join", {"C2": '=A2&" - "&B2', "C3": '="LI wei - "&B3'}, False, "is not the asked join"),
])
def test_the_check_on_hand_made_end_states(tmp_path, operation, cells, passes, evidence):
    passed, found = _check(_state(tmp_path), operation, cells)
    assert passed == passes and evidence in found, found


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "staff.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    args = {"path": PATH, "sheet": "S", "header_cell": "C1", "header": "Clean", "ref": "C2:C3", "operation": "trim",
            "sources": ["Name"], "expected": ["a", "b"], "formulas": ["=TRIM(A2)", "=TRIM(A3)"]}
    result = run_check(State(tmp_path), "xlsx.text_column", args)
    assert not result.passed and "not a readable xlsx workbook" in result.evidence
