"""calc.rank_column: the family through the gate with every mutant, its check `xlsx.rank_column` on hand-made end
states (ties numbered apart, RANK.EQ and COUNTIF equivalents, a range sliding down, typed ranks), the evaluator's
RANK, the tie the goal plants, and its phrasings."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.formula import evaluate
from workflows.calc import kit as cc
from workflows.calc.content import generate_table
from workflows.calc.rank_column import HOW, NATURAL, ORDERS, PHRASINGS, WORKFLOW, goal
from workflows.common import spoken

PATH = "/home/user/sales.xlsx"
ROWS = [["Rep", "Units"], ["Ana", 40], ["Li", 75], ["Bo", 40], ["Eva", 12]]
RIGHT = {"descending": [2.0, 1.0, 2.0, 4.0], "ascending": [2.0, 4.0, 2.0, 1.0]}


@pytest.mark.slow
@pytest.mark.parametrize("order", ORDERS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, order):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"order": order}, tmp_path, seed=seed)
        assert_accepted(folder)
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives == ["xlsx.rank_column", "xlsx.frame", "tree.frame"], primitives


@pytest.mark.parametrize("order", ORDERS)
def test_every_phrasing_says_the_order_and_no_other(order):
    facts = spoken({"path": "/home/user/a.xlsx", "sheet": "S", "header": "Rank", "header_cell": "C1", "ref": "C2:C5",
                    "source": "Units", "how": HOW[order]})
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        assert set(extract.expressed(text, "order")) == {{"descending": "desc", "ascending": "asc"}[order]}, text
        assert "RANK" in text, text


def test_the_goal_plants_a_tie_in_an_unsorted_column():
    for seed in range(6):
        rng = random.Random(seed)
        plan = {"scenario": "sales", "n_rows": 10, "folder": "Documents"}
        table = generate_table(random.Random(seed), n_rows=10, scenario="sales")
        made = goal(rng, {"order": "descending"}, table, plan)
        layout, target = made.state, made.target
        values = layout.column(target.source)
        assert len(set(values)) < len(values)
        assert values not in (sorted(values), sorted(values, reverse=True))
        assert isinstance(cc.evaluate_on(layout, f"=RANK({layout.letter(target.source)}2,"
                                                 f"${layout.letter(target.source)}$2:"
                                                 f"${layout.letter(target.source)}${layout.last_row})"), float)


def test_rank_evaluates_as_calc_ranks():
    cells = {"A1": 5, "A2": 3, "A3": 5, "A4": 9, "A5": "n/a"}

    def lookup(sheet, coord):
        return cells.get(coord)

    assert [evaluate(f"=RANK(A{r},$A$1:$A$5)", lookup) for r in (1, 2, 3, 4)] == [2.0, 4.0, 2.0, 1.0]
    assert [evaluate(f"=_xlfn.RANK.EQ(A{r},A$1:A$5,1)", lookup) for r in (1, 2, 3, 4)] == [2.0, 1.0, 2.0, 4.0]
    with pytest.raises(Exception, match="not among"):
        evaluate("=RANK(7,A1:A4)", lookup)


def _check(tmp_path: Path, order: str, cells: dict[str, object]) -> tuple[bool, str]:
    (tmp_path / "sales.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    apply_ops(tmp_path, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "S", "cells": {"C1": "Rank", **cells}}])
    flag = 0 if order == "descending" else 1
    args = {"path": PATH, "sheet": "S", "header_cell": "C1", "header": "Rank", "ref": "C2:C5", "source": "Units",
            "descending": order == "descending", "expected": RIGHT[order],
            "formulas": [f"=RANK(B{r},$B$2:$B$5,{flag})" for r in range(2, 6)]}
    result = run_check(State(tmp_path), "xlsx.rank_column", args)
    return result.passed, result.evidence


def _fill(template: str) -> dict[str, object]:
    return {f"C{r}": template.format(r=r) for r in range(2, 6)}


@pytest.mark.parametrize(("order", "cells", "passes", "evidence"), [
    ("descending", _fill("=RANK(B{r},$B$2:$B$5)"), True, "rank 'Units' with 1 for the largest"),
    ("descending", _fill("=RANK.EQ(B{r},B$2:B$5,0)"), True, "all 4 cells"),
    ("descending", _fill('=COUNTIF($B$2:$B$5,">"&B{r})+1'), True, "all 4 cells"),
    ("ascending", _fill("=RANK(B{r},$B$2:$B$5,1)"), True, "1 for the smallest"),
    # review session 23: a whole-column range, as a person selects the column
    ("ascending", _fill("=RANK(B{r},$B:$B,1)"), True, "1 for the smallest"),
    ("descending", _fill("=RANK.EQ(B{r},B:B)"), True, "all 4 cells"),
    ("ascending", _fill("=RANK(B{r},$B$2:$B$5)"), False, "expected the rank 4"),
    # ties numbered apart: Bo's 40 gets rank 3 instead of sharing rank 2
    ("descending", _fill("=RANK(B{r},$B$2:$B$5)+COUNTIF($B$2:B{r},B{r})-1"), False, "C4 = "),
    ("descending", _fill("=RANK(B{r},B{r}:B5)"), False, "shows '1'"),
    ("descending", {"C2": 2, "C3": 1, "C4": 2, "C5": 4}, False, "holds '2', not a formula"),
    ("descending", {**_fill("=RANK(B{r},$B$2:$B$5)"), "C3": "=0*B3+1"}, False, "is not the asked rank"),
    ("descending", {**_fill("=RANK(B{r},$B$2:$B$5)"), "C5": "=4"}, False, "refers to no cell"),
])
def test_the_check_on_hand_made_end_states(tmp_path, order, cells, passes, evidence):
    passed, found = _check(tmp_path, order, cells)
    assert passed == passes and evidence in found, found
