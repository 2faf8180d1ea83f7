"""calc.fill_blanks: fill the empty cells of a numeric column with the column's average, the value above, or zero.

"Help me fill the missing values in column B with the average / the previous value / zero" (a common OSWorld
Calc request). The goal blanks 2-3 cells of a numeric column (never the first or last data row, never two in a
row, so "the value above" and "the value below" always exist and differ); the check reads exactly those cells,
and the frame guards every other filled cell, so a value typed over a filled cell fails.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.grounding import leaks
from workflows.calc import kit as cc

NAME = "calc.fill_blanks"
HOW = {
    "average": "the average of the values already in that column, rounded to two decimals",
    "previous": "the previous value in that column (the value directly above the empty cell)",
    "zero": "zero",
}
#: fill -> (the rule a classic slip applies instead, what the slip does)
WRONG = {
    "average": ("median", "uses the median instead of the average"),
    "previous": ("next", "copies the value below each empty cell instead of the one above"),
    "zero": ("average", "fills in the column's average instead of zero"),
}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', fill the empty cells of the '{header}' column with {how}. "
    "Leave every other cell as it is and save the file in place as xlsx.",
    "Some values are missing in the '{header}' column of sheet '{sheet}' in {path}. Fill each blank cell with "
    "{how}; do not change any cell that already has a value. Save the workbook in the same format.",
    "In the workbook {path}, sheet '{sheet}', the '{header}' column has gaps. Put {how} into each empty cell of "
    "that column, keep all other cells unchanged, and save it as xlsx.",
    "Help me fill the missing values in the '{header}' column of {path} (sheet '{sheet}'): each empty cell should "
    "get {how}. Don't touch the cells that are filled; save the file in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and fill the blanks in the '{header}' column with "
    "{how}. Everything else stays the same. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Help me fill the missing values in the '{header}' column of {path.file} with {how}.",
    "Some '{header}' cells in {path.file} are empty. Please fill them with {how}.",
    "Could you fill in the blanks of the '{header}' column on the '{sheet}' sheet of {path.file}, using "
    "{how}?",
    "I need the empty '{header}' cells in my spreadsheet {path.file} filled with {how}. Leave the rest "
    "alone.",
    "Please complete the '{header}' column in {path.file}: every blank cell should get {how}.",
)


class Params(TypedDict):
    fill: Literal["average", "previous", "zero"]


@dataclass(frozen=True)
class Target:
    column: int  # index of the column with the blanks in the layout's header
    rows: tuple[int, ...]  # the blanked data rows (0-based, in order)
    expected: tuple[float, ...]  # what each blank must hold, in the same order

    def cells(self, layout: cc.Layout) -> list[str]:
        return [f"{layout.letter(self.column)}{row + 2}" for row in self.rows]


def _fill(fill: str, values: list[Any], row: int) -> float:
    """The value blank `row` of a column with `values` (None where blank) must get under rule `fill`."""
    numbers = [v for v in values if v is not None]
    if fill in ("average", "median"):
        return round(statistics.fmean(numbers) if fill == "average" else statistics.median(numbers), 2)
    if fill in ("previous", "next"):
        return float(values[row - 1] if fill == "previous" else values[row + 1])
    return 0.0


def _draw(rng: random.Random, layout: cc.Layout) -> tuple[int, tuple[int, ...], list[Any]]:
    """A numeric column and 2-3 inner, non-adjacent data rows to blank: (column, rows, column with blanks)."""
    column = rng.choice(layout.columns_of(*cc.NUMERIC_KINDS))
    inner = range(1, len(layout.rows) - 1)
    while True:
        rows = tuple(sorted(rng.sample(inner, rng.randint(2, 3))))
        if all(b - a > 1 for a, b in zip(rows, rows[1:], strict=False)):
            values = [None if i in rows else v for i, v in enumerate(layout.column(column))]
            return column, rows, values


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    full = cc.layout_from(table, plan)
    fill, slip = params["fill"], WRONG[params["fill"]][0]
    for _ in range(20):  # a draw whose answer leaks into the instruction, or equals the slip's, is drawn again
        column, rows, values = _draw(rng, full)
        expected = tuple(_fill(fill, values, r) for r in rows)
        facts = {"path": full.path, "sheet": full.sheet, "header": full.header[column], "how": HOW[fill]}
        distinct = all(abs(e - _fill(slip, values, r)) > 0.015 for e, r in zip(expected, rows, strict=True))
        if distinct and not leaks(" ".join(facts.values()), list(expected)):
            break
    blanked = [[None if (i in rows and c == column) else v for c, v in enumerate(row)]
               for i, row in enumerate(full.rows)]
    return Goal(full.with_rows(blanked), cc.refer(facts, plan, full, column), Target(column, rows, expected))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    header = layout.header[target.column]
    filled = Check(
        id="filled",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, each empty cell of the '{header}' column "
                  f"({', '.join(target.cells(layout))}) holds {HOW[params['fill']]}.",
        primitive="xlsx.blanks_filled",
        args={"path": layout.path, "sheet": layout.sheet, "header": header, "fill": params["fill"],
              "cells": target.cells(layout), "expected": list(target.expected)},
    )
    return [filled]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.fill_blanks", "path": layout.path, "sheet": layout.sheet,
            "ref": layout.col_ref(target.column), "fill": params["fill"]}
    slip, slip_does = WRONG[params["fill"]]
    return Attempts(
        Attempt(f"fill each empty cell of the column with {HOW[params['fill']]}", [base]),
        [Attempt(slip_does, [{**base, "fill": slip}]),
         Attempt("fills all but the last empty cell", [{**base, "skip": 1}]),
         Attempt("drags the fill one row too far, over the value below the first empty cell",
                 [{**base, "spill": True}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Fill the empty cells of a numeric column with the column's average, the value above, or zero, "
                "changing nothing else.",
    knobs={"fill": ("average", "previous", "zero")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=cc.INDIRECTION,
)
