"""calc.date_formula: the family through the gate with every mutant, its check `xlsx.date_column` on hand-made end
states (typed serials, 30-day months, a typed answer dressed as a formula, DATEDIF for a subtraction), its phrasings."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.xlsx_text import DATE_WORDS
from workflows.calc.date_formula import NATURAL, OPERATIONS, PHRASINGS, WORKFLOW
from workflows.common import spoken

PATH = "/home/user/leases.xlsx"
ROWS = [["Tenant", "Signed"], ["Ana", dt.date(2024, 1, 31)], ["Li", dt.date(2023, 11, 15)]]
CALC = {"edate": "the date 3 months after 'Signed' (column B), using EDATE (whole calendar months, not 30-day steps)",
        "year": "the year of 'Signed' (column B) as a number (YEAR)",
        "month": "the month number of 'Signed' (column B) (MONTH)",
        "days_until": "the number of days from 'Signed' (column B) until 2024-12-31 (that end date minus the row's "
                      "date)"}


@pytest.mark.slow
@pytest.mark.parametrize("operation", OPERATIONS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, operation):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"operation": operation}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives[0] == "xlsx.date_column" and "xlsx.frame" in primitives, primitives


@pytest.mark.parametrize("operation", OPERATIONS)
def test_every_phrasing_asks_for_the_operation(operation):
    facts = spoken({"path": "/home/user/a.xlsx", "sheet": "S", "header": "Due", "header_cell": "C1",
                    "ref": "C2:C3", "calc": CALC[operation]})
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        assert re.search(rf"\b(?:{DATE_WORDS[operation]})", text, re.IGNORECASE), text


def _check(tmp_path: Path, operation: str, cells: dict[str, object]) -> tuple[bool, str]:
    (tmp_path / "leases.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    apply_ops(tmp_path, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {"C1": "Due", **cells}}])
    reference = {"edate": "=EDATE(B{r},3)", "days_until": "=DATE(2024,12,31)-B{r}", "year": "=YEAR(B{r})"}[operation]
    expected = {"edate": [45412.0, 45337.0], "days_until": [335.0, 412.0], "year": [2024.0, 2023.0]}[operation]
    args = {"path": PATH, "sheet": "S", "header_cell": "C1", "header": "Due", "ref": "C2:C3", "operation": operation,
            "source": "Signed", "expected": expected, "formulas": [reference.format(r=r) for r in (2, 3)]}
    result = run_check(State(tmp_path), "xlsx.date_column", args)
    return result.passed, result.evidence


@pytest.mark.parametrize(("operation", "cells", "passes", "evidence"), [
    ("edate", {"C2": "=EDATE(B2,3)", "C3": "=EDATE($B$3,3)"}, True, "all 2 cells of C2:C3 are edate formulas"),
    ("edate", {"C2": 45412, "C3": "=EDATE(B3,3)"}, False, "C2 holds '45412', not a formula"),
    # 31 January 2024 plus 90 days is 30 April, EDATE's answer too: only the probe dates tell them apart
    ("edate", {"C2": "=B2+90", "C3": "=EDATE(B3,3)"}, False, "C2 = '=B2+90' is not the asked edate"),
    ("edate", {"C2": "=0*B2+45412", "C3": "=EDATE(B3,3)"}, False, "is not the asked edate: with probe dates"),
    ("days_until", {"C2": '=DATEDIF(B2,DATE(2024,12,31),"D")', "C3": "=DATE(2024,12,31)-B3"}, True, "days_until"),
    ("days_until", {"C2": "=DATE(2024,12,31)-B2+1", "C3": "=DATE(2024,12,31)-B3"}, False, "shows '336'"),
    ("year", {"C2": "=YEAR(B2)", "C3": "=YEAR(B2)"}, False, "refers to B2, outside row 3"),
    ("year", {"C2": "=YEAR(B2)", "C3": "=2023+0*B3"}, False, "is not the asked year"),
])
def test_the_check_on_hand_made_end_states(tmp_path, operation, cells, passes, evidence):
    passed, found = _check(tmp_path, operation, cells)
    assert passed == passes and evidence in found, found
