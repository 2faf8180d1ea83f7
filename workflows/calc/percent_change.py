"""calc.percent_change: add a column giving, row by row, the percentage change from one numeric column to another
that measures the same thing (Budgeted -> Actual, Midterm -> Final Exam), as a formula, formatted as a percentage
with the asked number of decimals."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc
from workflows.calc.formula_column import same_unit_groups

NAME = "calc.percent_change"
DECIMALS = (0, 1, 2)
HEADERS = ("Change %", "Percent Change", "% Change", "Change vs {old}")
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. Type the header '{header}' in {header_cell}, then fill {ref} with "
    "formulas giving each row's percentage change {calc}. Format {ref} as a percentage with {decimals_words}. "
    "Every cell of {ref} must be a formula. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', add a column titled '{header}' (header in {header_cell}). Each cell of "
    "{ref} holds a formula for the percentage change {calc}, and the cells are formatted as percent with "
    "{decimals_words}. Don't type the results. Keep the xlsx format.",
    "The table on sheet '{sheet}' of {path} needs a percentage change column. Put '{header}' in {header_cell} and, "
    "in each cell of {ref}, a formula for the change {calc}; show the column as a percentage with {decimals_words}. "
    "Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, label {header_cell} '{header}' and add row formulas "
    "in {ref} computing the percentage change {calc}, displayed in a percent format with {decimals_words}. Save as "
    "xlsx, overwriting the file.",
    "Please extend the table in {path} (sheet '{sheet}') with {header.a_quoted} column: header in {header_cell}, one "
    "formula per row in {ref} giving the percentage change {calc}, formatted as a percentage with "
    "{decimals_words}. Save the workbook in the same place and format.",
)
NATURAL = (
    "Add {header.a_quoted} column to {path.file} with the percentage change {calc.bare} for each row, shown as a "
    "percent with {decimals_words}.",
    "Help me work out the percentage change {calc.bare} in a new '{header}' column of {path.file}, formatted as "
    "percent with {decimals_words}.",
    "I need a new '{header}' column in {path.file}: formulas for the percentage change {calc.bare}, formatted as "
    "a percentage with {decimals_words}.",
    "Could you add {header.a_quoted} column to the '{sheet}' sheet of {path.file} showing the percentage change "
    "{calc.bare}, with {decimals_words}?",
    "Please put the percentage change {calc.bare} in a new '{header}' column of {path.file} using formulas, "
    "percent format with {decimals_words}.",
)


def _words(decimals: int) -> str:
    return "no decimal places" if decimals == 0 else f"{decimals} decimal place{'' if decimals == 1 else 's'}"


def _pairs(layout: cc.Layout) -> list[tuple[int, int]]:
    """(old, new) column pairs that measure the same thing, in sheet order, the old one never zero nor blank."""
    out = []
    for group in same_unit_groups(layout, layout.columns_of(*cc.NUMERIC_KINDS)):
        for i, old in enumerate(group):
            if all(isinstance(v, int | float) and v > 0 for v in layout.column(old)):
                out += [(old, new) for new in group[i + 1:]]
    return out


content = cc.redrawn_content(lambda layout, params: bool(_pairs(layout)))


class Params(TypedDict):
    decimals: Literal[0, 1, 2]


@dataclass(frozen=True)
class Target:
    decimals: int  # the knob: the percent format's decimals
    old: int  # the column the change is from (the base)
    new: int  # the column the change is to
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells

    @property
    def code(self) -> str:
        return ("0." + "0" * self.decimals if self.decimals else "0") + "%"


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    pairs = _pairs(layout)
    if not pairs:  # a model's table without two comparable columns: the first two numeric ones, made positive
        numeric = layout.columns_of(*cc.NUMERIC_KINDS)[:2]
        pairs = [(numeric[0], numeric[1])]
        layout = layout.with_rows([[max(v, 1) if i == numeric[0] and isinstance(v, int | float) else v
                                    for i, v in enumerate(row)] for row in layout.rows])
    old, new = rng.choice(pairs)
    decimals = params["decimals"]
    taken = {h.casefold() for h in layout.header}
    names = [h.format(old=layout.header[old]) for h in HEADERS]
    header = rng.choice([h for h in names if h.casefold() not in taken] or ["Change Rate"])
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    calc = (f"from '{layout.header[old]}' (column {layout.letter(old)}) to '{layout.header[new]}' (column "
            f"{layout.letter(new)}), that is, '{layout.header[new]}' minus '{layout.header[old]}', divided by "
            f"'{layout.header[old]}'")
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1", "ref": ref,
             "calc": calc, "decimals_words": _words(decimals)}
    return Goal(layout, facts, Target(decimals, old, new, letter, header, ref))


def _formulas(layout: cc.Layout, target: Target, *, base: str = "old", reverse: bool = False,
              hundred: bool = False) -> dict[str, str]:
    """One change formula per data row; the near-misses' slips: the change divided by the new value, the change the
    other way round, the change times 100 (a number, not a fraction a percent format shows)."""
    old, new = layout.letter(target.old), layout.letter(target.new)
    out = {}
    for r in range(2, layout.last_row + 1):
        first, second = (f"{old}{r}", f"{new}{r}") if reverse else (f"{new}{r}", f"{old}{r}")
        below = f"{new}{r}" if base == "new" else f"{old}{r}"
        out[f"{target.letter}{r}"] = f"=({first}-{second})/{below}" + ("*100" if hundred else "")
    return out


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [cc.evaluate_on(layout, f) for f in formulas]
    old, new = layout.header[target.old], layout.header[target.new]
    return [
        Check(id="change_column",
              criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and every "
                        f"cell of {target.ref} is a formula over its own row giving ('{new}' - '{old}') / '{old}'.",
              primitive="xlsx.formula_column",
              args={"path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1",
                    "header": target.header, "ref": target.ref, "expected": expected, "tolerance": 0.0001,
                    "formulas": formulas}),
        Check(id="percent_format",
              criterion=f"Every cell of {target.ref} is shown as a percentage with {_words(target.decimals)}.",
              primitive="xlsx.number_format",
              args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref, "kind": "percent",
                    "decimals": target.decimals}),
    ]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    cells = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    fmt = {"op": "xlsx.set_number_format", "path": layout.path, "sheet": layout.sheet, "ref": target.ref}
    right = _formulas(layout, target)
    percent = {**fmt, "number_format": target.code}
    other = 2 if target.decimals != 2 else 0
    return Attempts(
        Attempt("header, one change formula per data row, the column formatted as a percentage",
                [{**cells, "cells": {**head, **right}}, percent]),
        [Attempt("divides the change by the new value instead of the old one",
                 [{**cells, "cells": {**head, **_formulas(layout, target, base="new")}}, percent]),
         Attempt("takes the change the other way round (old minus new)",
                 [{**cells, "cells": {**head, **_formulas(layout, target, reverse=True)}}, percent]),
         Attempt("multiplies by 100 and shows a plain number instead of a percent format",
                 [{**cells, "cells": {**head, **_formulas(layout, target, hundred=True)}},
                  {**fmt, "number_format": "0." + "0" * target.decimals if target.decimals else "0"}]),
         Attempt("right formulas, but the column is left without a percent format",
                 [{**cells, "cells": {**head, **right}}]),
         Attempt(f"a percent format with {other} decimals instead of {target.decimals}",
                 [{**cells, "cells": {**head, **right}},
                  {**fmt, "number_format": ("0." + "0" * other if other else "0") + "%"}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    source=(cc.sample, content),
    description="Add a column of formulas giving each row's percentage change from one numeric column to another, "
                "formatted as a percentage with the asked decimals.",
    knobs={"decimals": DECIMALS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
