"""calc.conditional_sum: fill a small per-category summary block beside the table (its labels already typed) with
SUMIF, COUNTIF or AVERAGEIF formulas: each category's total, number of rows, or average of a numeric column."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import xlsx
from workflows.calc import kit as cc

NAME = "calc.conditional_sum"
FUNCTIONS = ("SUMIF", "COUNTIF", "AVERAGEIF")
#: function -> the value column's header in the block ({h}: the numeric column), what each value is
HEADS = {"SUMIF": ("Total {h}", "the total of '{h}' for that {c}"),
         "COUNTIF": ("Rows", "how many rows of the table have that {c}"),
         "AVERAGEIF": ("Average {h}", "the average of '{h}' for that {c}")}
#: function -> the function a slip uses instead
OTHER = {"SUMIF": "AVERAGEIF", "AVERAGEIF": "SUMIF", "COUNTIF": "SUMIF"}
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. The summary block {block} lists each {category} in {labels}. Fill "
    "{values} with {function} formulas giving {what}, each referring to the table and to its own label cell. Save "
    "the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', complete the summary beside the table: for every {category} label in "
    "{labels}, put in the cell to its right ({values}) a formula using {function} for {what}. Don't type the results. "
    "Keep the xlsx format.",
    "The sheet '{sheet}' of {path} has a summary block {block} with one row per {category}. Use {function} to fill "
    "{values} with {what}, reading the {category} from the label in the same row. Save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, fill the cells {values} of the summary block with "
    "{function} formulas over the whole table giving {what} (the labels are in {labels}). Save as xlsx, "
    "overwriting the file.",
    "Please finish the summary block {block} on the sheet '{sheet}' of {path}: each cell of {values} should hold "
    "a formula using {function} that gives {what}, with the criterion taken from the label beside it. Save the "
    "workbook in the same place and format.",
)
NATURAL = (
    "Fill in the summary next to the table in {path.file} with {function} formulas in {values}: {what} for each "
    "{category} label.",
    "Help me complete the per-{category} summary in {path.file} ({values}) using {function}, giving {what}.",
    "I need {function} formulas in {values} of {path.file} showing {what}, one per {category} label.",
    "Could you use {function} to fill {values} in {path.file} with {what}, reading each label in {labels}?",
    "Please put {function} formulas in {values} of the summary block in {path.file} so each {category} row shows "
    "{what}.",
)


class Params(TypedDict):
    function: Literal["SUMIF", "COUNTIF", "AVERAGEIF"]


@dataclass(frozen=True)
class Target:
    function: str  # the knob
    category: int  # the category column
    source: int  # the summed / averaged numeric column
    labels: list[str]  # the categories, in the block's order
    label_col: str  # the block's label column letter
    value_col: str  # the block's value column letter
    head: str  # the value column's header

    @property
    def label_cells(self) -> dict[str, str]:
        return {f"{self.label_col}{r}": label for r, label in enumerate(self.labels, 2)}

    @property
    def ref(self) -> str:
        return f"{self.value_col}2:{self.value_col}{len(self.labels) + 1}"

    @property
    def value_cells(self) -> list[str]:
        return [f"{self.value_col}{r}" for r in range(2, len(self.labels) + 2)]


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    function = params["function"]
    layout = cc.layout_from(table, plan)
    category = layout.columns_of("category")[0]
    source = rng.choice(layout.columns_of(*cc.NUMERIC_KINDS))
    labels = sorted({str(v) for v in layout.column(category)}, key=str.casefold)
    # the first row's category second: its range then loses that row when a range without $ slides down one row
    first = str(layout.rows[0][category])
    labels.remove(first)
    labels.insert(1, first)
    label_col, value_col = layout.letter(layout.width + 1), layout.letter(layout.width + 2)
    head = HEADS[function][0].format(h=layout.header[source])
    last = len(labels) + 1
    name = layout.header[category]
    what = HEADS[function][1].format(h=layout.header[source], c=f"'{name}'")
    facts = {"path": layout.path, "sheet": layout.sheet, "block": f"{label_col}1:{value_col}{last}",
             "labels": f"{label_col}2:{label_col}{last}", "values": f"{value_col}2:{value_col}{last}",
             "category": f"'{name}'", "function": function, "what": what, "source": layout.header[source]}
    return Goal(layout, facts, Target(function, category, source, labels, label_col, value_col, head))


def prepare(layout: cc.Layout, target: Target) -> Mapping[str, Any]:
    """The table plus the summary block's headers and category labels, its value cells empty."""
    wb = xlsx.build_workbook(cc.workbook_spec(layout))
    ws = wb[layout.sheet]
    ws[f"{target.label_col}1"] = layout.header[target.category]
    ws[f"{target.value_col}1"] = target.head
    for coord, label in target.label_cells.items():
        ws[coord] = label
    return cc.workbook_outputs(layout, xlsx.to_bytes(wb))


def _formulas(layout: cc.Layout, target: Target, *, function: str | None = None, slide: bool = False,
              typed: bool = False) -> dict[str, str]:
    """One formula per label; the near-misses' slips: another function, ranges without $ that slide down as the
    formula is filled, the category typed into the formula instead of read from its label."""
    name = function or target.function
    cat, num, last = layout.letter(target.category), layout.letter(target.source), layout.last_row
    out = {}
    for i, (coord, label) in enumerate(zip(target.value_cells, target.labels, strict=True)):
        top, bottom = (2 + i, last + i) if slide else (2, last)
        anchor = "" if slide else "$"
        keys = f"{anchor}{cat}{anchor}{top}:{anchor}{cat}{anchor}{bottom}"
        values = f"{anchor}{num}{anchor}{top}:{anchor}{num}{anchor}{bottom}"
        criterion = '"' + label.replace('"', '""') + '"' if typed else f"{target.label_col}{2 + i}"
        out[coord] = (f"=COUNTIF({keys},{criterion})" if name == "COUNTIF"
                      else f"={name}({keys},{criterion},{values})")
    return out


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [cc.evaluate_on(layout, f, target.label_cells) for f in formulas]
    return [Check(
        id="summary_block",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, each cell of {target.ref} holds a formula calling "
                  f"{target.function} over the table giving its row's '{layout.header[target.category]}' "
                  f"{'count' if target.function == 'COUNTIF' else repr(layout.header[target.source])}, read from the "
                  f"label beside it.",
        primitive="xlsx.conditional_summary",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref, "labels": target.labels,
              "function": target.function, "expected": expected,
              "source": layout.header[target.category if target.function == "COUNTIF" else target.source],
              "formulas": formulas})]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    right = _formulas(layout, target)
    values = {c: cc.tidy(cc.evaluate_on(layout, f, target.label_cells)) for c, f in right.items()}
    other = OTHER[target.function]
    return Attempts(
        Attempt(f"one {target.function} formula per label, ranges anchored, criterion from the label",
                [{**base, "cells": right}]),
        [Attempt(f"uses {other} instead of {target.function}",
                 [{**base, "cells": _formulas(layout, target, function=other)}]),
         Attempt("the ranges have no $ and slide down as the formula is filled down",
                 [{**base, "cells": _formulas(layout, target, slide=True)}]),
         Attempt("types each category into its formula instead of referring to the label",
                 [{**base, "cells": _formulas(layout, target, typed=True)}]),
         Attempt("types the results instead of formulas", [{**base, "cells": values}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Fill a per-category summary block beside the table with SUMIF, COUNTIF or AVERAGEIF formulas.",
    knobs={"function": FUNCTIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
