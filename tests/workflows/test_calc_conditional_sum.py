"""calc.conditional_sum: the family through the gate with every mutant, `xlsx.conditional_summary` on hand-made end
states (equivalent formulas, a category typed into the formula, a sliding range, the wrong function, typed totals),
the label order the goal picks, and the phrasings."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.xlsx_summary import _names_function
from workflows.calc.conditional_sum import FUNCTIONS, NATURAL, PHRASINGS, WORKFLOW, goal
from workflows.calc.content import generate_table
from workflows.common import spoken

PATH = "/home/user/sales.xlsx"
ROWS = [["Rep", "Region", "Units"], ["Ana", "North", 10], ["Li", "South", 5], ["Bo", "North", 7],
        ["Eva", "South", 1]]
BLOCK = {"E1": "Region", "F1": "Total Units", "E2": "North", "E3": "South"}
RIGHT = {"SUMIF": ("=SUMIF($B$2:$B$5,E{r},$C$2:$C$5)", [17.0, 6.0]),
         "COUNTIF": ("=COUNTIF($B$2:$B$5,E{r})", [2.0, 2.0]),
         "AVERAGEIF": ("=AVERAGEIF($B$2:$B$5,E{r},$C$2:$C$5)", [8.5, 3.0])}


@pytest.mark.slow
@pytest.mark.parametrize("function", FUNCTIONS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, function):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"function": function}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives == ["xlsx.conditional_summary", "xlsx.frame", "tree.frame"], primitives


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_phrasing_names_the_function_and_the_value_cells(function):
    facts = spoken({"path": "/home/user/a.xlsx", "sheet": "S", "block": "E1:F3", "labels": "E2:E3", "values": "F2:F3",
                    "category": "'Region'", "function": function, "what": "the total of 'Units' for that 'Region'",
                    "source": "Units"})
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        assert _names_function(text, {"function": function}) is None, text
        assert "F2:F3" in text and not re.search(r"\ba (?:SUMIF|COUNTIF|AVERAGEIF)\b", text), text


def test_the_first_rows_category_is_the_second_label():
    for seed in range(5):
        table = generate_table(random.Random(seed), n_rows=12, scenario="sales")
        made = goal(random.Random(seed), {"function": "SUMIF"}, table,
                    {"scenario": "sales", "n_rows": 12, "folder": "Documents"})
        layout, target = made.state, made.target
        assert target.labels[1] == str(layout.rows[0][target.category])
        assert sorted(target.labels) == sorted({str(v) for v in layout.column(target.category)})


def _check(tmp_path: Path, function: str, cells: dict[str, object]) -> tuple[bool, str]:
    (tmp_path / "sales.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    apply_ops(tmp_path, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {**BLOCK, **cells}}])
    template, expected = RIGHT[function]
    args = {"path": PATH, "sheet": "S", "ref": "F2:F3", "labels": ["North", "South"], "function": function,
            "source": "Units", "expected": expected, "formulas": [template.format(r=r) for r in (2, 3)]}
    result = run_check(State(tmp_path), "xlsx.conditional_summary", args)
    return result.passed, result.evidence


def _fill(template: str) -> dict[str, object]:
    return {f"F{r}": template.format(r=r) for r in (2, 3)}


@pytest.mark.parametrize(("function", "cells", "passes", "evidence"), [
    ("SUMIF", _fill("=SUMIF($B$2:$B$5,E{r},$C$2:$C$5)"), True, "all 2 summary cells"),
    ("SUMIF", _fill("=SUMIF(B$2:B$5,$E{r},C$2:C$5)"), True, "all 2 summary cells"),
    ("SUMIF", _fill('=SUMIF($B$2:$B$5,"North",$C$2:$C$5)'), False, "F3 (South)"),
    ("SUMIF", {"F2": '=SUMIF($B$2:$B$5,"North",$C$2:$C$5)', "F3": "=SUMIF($B$2:$B$5,E3,$C$2:$C$5)"}, False,
     "is not the asked SUMIF"),  # the right total, but typed criterion: a renamed label would not follow
    ("SUMIF", {"F2": "=SUMIF(B2:B5,E2,C2:C5)", "F3": "=SUMIF(B3:B6,E3,C3:C6)"}, True, "all 2"),  # lucky slide
    ("SUMIF", {"F2": 17, "F3": 6}, False, "not a formula"),
    ("COUNTIF", _fill("=COUNTIF($B$2:$B$5,E{r})"), True, "COUNTIF formulas"),
    ("COUNTIF", _fill("=SUMIF($B$2:$B$5,E{r},$C$2:$C$5)"), False, "does not call COUNTIF"),
    ("AVERAGEIF", _fill("=AVERAGEIF($B$2:$B$5,E{r},$C$2:$C$5)"), True, "AVERAGEIF formulas"),
    # review session 23: whole-column ranges, as a person selects the columns
    ("AVERAGEIF", _fill("=AVERAGEIF($B:$B,E{r},$C:$C)"), True, "AVERAGEIF formulas"),
    ("SUMIF", _fill("=SUMIF(B:B,E{r},C:C)"), True, "all 2 summary cells"),
    ("AVERAGEIF", {"F2": "=AVERAGEIF($B$2:$B$5,E2,$C$2:$C$5)", "F3": "=AVERAGEIF($B$2:$B$5,E3,$C$2:$C$5)*0+3"},
     False, "is not the asked AVERAGEIF"),
])
def test_the_check_on_hand_made_end_states(tmp_path, function, cells, passes, evidence):
    passed, found = _check(tmp_path, function, cells)
    assert passed == passes and evidence in found, found
