"""calc.date_diff: the family through the gate with every mutant, `xlsx.date_column` on hand-made whole-year,
whole-month and working-day end states (the slips of a hurried user, equivalents that must pass), the evaluator's
NETWORKDAYS, the end date the goal picks, and the phrasings."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.xlsx_text import DATE_WORDS
from verifiers.formula import evaluate
from workflows.calc import kit as cc
from workflows.calc.content import generate_table
from workflows.calc.date_diff import NATURAL, OPERATION, PHRASINGS, SLIPS, UNITS, WORKFLOW, _formulas, goal
from workflows.common import spoken

PATH = "/home/user/staff.xlsx"
ROWS = [["Name", "Start Date"], ["Ana", dt.date(2019, 8, 20)], ["Li", dt.date(2021, 3, 1)]]
RIGHT = {"years": ('=DATEDIF(B{r},DATE(2024,6,15),"Y")', [4.0, 3.0]),
         "months": ('=DATEDIF(B{r},DATE(2024,6,15),"M")', [57.0, 39.0]),
         "workdays": ("=NETWORKDAYS(B{r},DATE(2024,6,15))", [1259.0, 860.0])}


@pytest.mark.slow
@pytest.mark.parametrize("unit", UNITS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, unit):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"unit": unit}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives == ["xlsx.date_column", "xlsx.frame", "tree.frame"], primitives


@pytest.mark.parametrize("unit", UNITS)
def test_every_phrasing_asks_for_the_unit(unit):
    calc = {"years": "the whole years from 'Start Date' (column B) until 2024-06-15 (only complete years count)",
            "months": "the whole months from 'Start Date' (column B) until 2024-06-15 (only complete months count)",
            "workdays": "the working days from 'Start Date' (column B) until 2024-06-15 (Monday to Friday)"}[unit]
    facts = spoken({"path": "/home/user/a.xlsx", "sheet": "S", "header": "Tenure", "header_cell": "C1",
                    "ref": "C2:C3", "calc": calc})
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        assert re.search(rf"\b(?:{DATE_WORDS[OPERATION[unit]]})", text, re.IGNORECASE), text
        assert "2024-06-15" in text and "formula" in text, text


@pytest.mark.parametrize("unit", UNITS)
def test_the_end_date_follows_every_row_and_catches_every_slip(unit):
    for seed in range(3):
        table = generate_table(random.Random(seed), n_rows=10, scenario="payroll")
        made = goal(random.Random(seed), {"unit": unit}, table, {"scenario": "payroll", "n_rows": 10,
                                                                  "folder": "Documents"})
        layout, target = made.state, made.target
        assert all(d < target.until for d in layout.column(target.source))
        right = [cc.evaluate_on(layout, f) for f in _formulas(layout, target).values()]
        for template, _ in SLIPS[unit]:
            assert [cc.evaluate_on(layout, f) for f in _formulas(layout, target, template).values()] != right


def test_networkdays_counts_weekdays_with_both_ends_and_holidays():
    cells = {"A1": dt.date(2024, 1, 1), "A2": dt.date(2024, 1, 31), "B1": dt.date(2024, 1, 15)}

    def lookup(sheet, coord):
        return cells.get(coord)

    assert evaluate("=NETWORKDAYS(A1,A2)", lookup) == 23.0
    assert evaluate("=NETWORKDAYS(A2,A1)", lookup) == -23.0
    assert evaluate("=NETWORKDAYS(A1,A2,B1)", lookup) == 22.0
    assert evaluate("=NETWORKDAYS(A1,A1)", lookup) == 1.0


def _check(tmp_path: Path, unit: str, cells: dict[str, object]) -> tuple[bool, str]:
    (tmp_path / "staff.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    apply_ops(tmp_path, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {"C1": "Tenure", **cells}}])
    template, expected = RIGHT[unit]
    args = {"path": PATH, "sheet": "S", "header_cell": "C1", "header": "Tenure", "ref": "C2:C3",
            "operation": OPERATION[unit], "source": "Start Date", "expected": expected,
            "formulas": [template.format(r=r) for r in (2, 3)], "until": "2024-06-15"}
    result = run_check(State(tmp_path), "xlsx.date_column", args)
    return result.passed, result.evidence


def _fill(template: str) -> dict[str, object]:
    return {f"C{r}": template.format(r=r) for r in (2, 3)}


@pytest.mark.parametrize(("unit", "cells", "passes", "evidence"), [
    ("years", _fill('=DATEDIF(B{r},DATE(2024,6,15),"y")'), True, "all 2 cells"),
    ("years", _fill('=DATEDIF($B{r},DATE(2024,6,15),"Y")'), True, "all 2 cells"),
    ("years", _fill("=2024-YEAR(B{r})"), False, "expected 4.0"),  # Ana's anniversary (20 August) is still ahead
    ("years", {"C2": 4, "C3": 3}, False, "not a formula"),
    ("months", _fill('=DATEDIF(B{r},DATE(2024,6,15),"M")'), True, "all 2 cells"),
    ("months", _fill("=(2024-YEAR(B{r}))*12+6-MONTH(B{r})"), False, "expected 57.0"),
    ("months", {**_fill('=DATEDIF(B{r},DATE(2024,6,15),"M")'), "C3": "=0*B3+39"}, False, "is not the asked"),
    ("workdays", _fill("=NETWORKDAYS(B{r},DATE(2024,6,15))"), True, "all 2 cells"),
    ("workdays", _fill("=DATE(2024,6,15)-B{r}"), False, "expected 1259.0"),
    ("workdays", _fill("=NETWORKDAYS(B{r},DATE(2024,6,15))-1"), False, "expected 1259.0"),
    ("workdays", {"C2": "=NETWORKDAYS(B3,DATE(2024,6,15))", "C3": "=NETWORKDAYS(B3,DATE(2024,6,15))"}, False,
     "outside row 2"),
])
def test_the_check_on_hand_made_end_states(tmp_path, unit, cells, passes, evidence):
    passed, found = _check(tmp_path, unit, cells)
    assert passed == passes and evidence in found, found
