"""calc.totals_row: add a labelled totals row (SUM, AVERAGE, MAX or MIN per numeric column) under a table."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import with_article
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.totals_row"
FUNCTIONS = ("SUM", "AVERAGE", "MAX", "MIN")
LABELS = {"SUM": ("Total", "Totals", "Grand Total"), "AVERAGE": ("Average", "Averages", "Mean"),
          "MAX": ("Maximum", "Highest", "Max"), "MIN": ("Minimum", "Lowest", "Min")}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', add a row directly under the table (row {row}): type '{label}' in "
    "{label_cell} and, for each numeric column ({columns}), enter {function.a} formula over that column's data "
    "rows in {cells}. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', the data ends in row {last}. Put the label '{label}' in "
    "{label_cell} and {function} formulas in {cells}, one per numeric column ({columns}), each covering all data "
    "rows of its column. Keep the xlsx format when saving.",
    "Please add {label.a_quoted} row right below the table on sheet '{sheet}' of {path}: the label goes in "
    "{label_cell}, and cells {cells} get formulas using {function} over the full data range of {columns}. "
    "Use formulas, not typed numbers, and save the workbook in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and build a summary row in row {row}. "
    "{label_cell} should read '{label}'; {cells} should hold {function} formulas for {columns}, each "
    "over rows 2 to {last} of its column. Save as xlsx, overwriting the file.",
    "The table on sheet '{sheet}' in {path} needs {label.a_quoted} line directly beneath its last row. Write "
    "'{label}' in {label_cell} and enter {function} formulas in {cells} covering every data row of "
    "{columns}. Save the spreadsheet in the same file and format.",
)
NATURAL = (
    "Add {label.a_quoted} row under the table in {path.file} with {function} formulas for {columns}.",
    "Help me add a summary row below the data in {path.file}: label it '{label}' and use {function} "
    "formulas for {columns}.",
    "Could you put {label.a_quoted} row at the bottom of the table on '{sheet}' in {path.file}, with "
    "{function} of {columns} as formulas?",
    "I need a row after the data in {path.file} reading '{label}', with {function} formulas under "
    "{columns}.",
    "Please add {label.a_quoted} row to finish the table in {path.file}; its formulas use {function} for "
    "{columns}.",
)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _formula(layout: cc.Layout, function: str, column: int, first: int = 2) -> str:
    letter = layout.letter(column)
    return f"={function}({letter}{first}:{letter}{layout.last_row})"


def _unleaked(layout: cc.Layout, formula: str, column: int, function: str, facts: Mapping[str, Any]) -> cc.Layout:
    """`layout`, or (when `formula`'s value would appear in an instruction) one with the deciding cell moved."""
    if not cc.leaky(cc.evaluate_on(layout, formula), facts, PHRASINGS):
        return layout

    def value_of(rows: list[list[Any]]) -> float:
        return cc.evaluate_on(layout.with_rows(rows), formula)

    moved = cc.unleak([list(r) for r in layout.rows], column, layout.kinds[column],
                      cc.deciding_row(layout.column(column), function), value_of,
                      lambda value: cc.leaky(value, facts, PHRASINGS))
    return layout.with_rows(moved)


class Params(TypedDict):
    function: Literal["SUM", "AVERAGE", "MAX", "MIN"]


@dataclass(frozen=True)
class Target:
    function: str  # the aggregate of every totals cell
    row: int  # the totals row, directly under the table
    label: str  # the label in column A of that row
    numeric: list[int]  # the numeric columns, one formula each


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    function = params["function"]
    layout = cc.layout_from(table, plan)
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    row = layout.last_row + 1
    label = rng.choice(LABELS[function])
    facts = {"path": layout.path, "sheet": layout.sheet, "row": row, "last": layout.last_row, "label": label,
             "label_cell": f"A{row}", "function": function,
             "columns": _join([f"'{layout.header[c]}' ({layout.letter(c)})" for c in numeric]),
             "cells": _join([f"{layout.letter(c)}{row}" for c in numeric])}
    for column in numeric:  # no computed total may show up in the instruction by coincidence
        layout = _unleaked(layout, _formula(layout, function, column), column, function, facts)
    return Goal(layout, facts, Target(function, row, label, numeric))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    t = target
    where = {"path": layout.path, "sheet": layout.sheet}
    checks = [Check(id="label", criterion=f"A{t.row} on sheet '{layout.sheet}' holds '{t.label}'.",
                    primitive="xlsx.cell_value", args={**where, "cell": f"A{t.row}", "expected": t.label})]
    for column in t.numeric:
        cell = f"{layout.letter(column)}{t.row}"
        formula = _formula(layout, t.function, column)
        checks.append(Check(
            id=f"total_{layout.letter(column)}",
            criterion=f"{cell} holds {with_article(t.function)} formula over {layout.col_ref(column)} "
                      f"('{layout.header[column]}') with the right value.",
            primitive="xlsx.formula_value",
            args={**where, "cell": cell, "function": t.function, "ref": layout.col_ref(column),
                  "expected": cc.evaluate_on(layout, formula), "tolerance": 0.005, "formula": formula},
        ))
    return checks


def solve(rng: random.Random, layout: cc.Layout, target: Target) -> Attempts:
    function, row, numeric = target.function, target.row, target.numeric
    skipped = rng.choice(numeric)

    def cells(at: int, columns: list[int], first: int = 2) -> list[dict[str, Any]]:
        formulas = {f"{layout.letter(c)}{at}": _formula(layout, function, c, first) for c in columns}
        return [{"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet,
                 "cells": {f"A{at}": target.label, **formulas}}]

    return Attempts(
        Attempt("label plus one formula per numeric column over all data rows", cells(row, numeric)),
        [Attempt(f"leaves out the '{layout.header[skipped]}' column", cells(row, [c for c in numeric if c != skipped])),
         Attempt("every range starts at row 3, leaving out the first data row", cells(row, numeric, first=3)),
         Attempt("puts the row one row too low, leaving a blank row under the table", cells(row + 1, numeric))],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a labelled totals row with one aggregate formula per numeric column under a table.",
    knobs={"function": FUNCTIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
