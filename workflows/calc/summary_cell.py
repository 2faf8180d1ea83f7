"""calc.summary_cell: put one aggregate formula (SUM, COUNTIF, MEDIAN...) with a label two rows below a table."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import with_article
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.summary_cell"
FUNCTIONS = ("SUM", "AVERAGE", "MIN", "MAX", "COUNT", "COUNTIF", "SUMIF", "MEDIAN")
LABELS = {"SUM": "Total {h}", "AVERAGE": "Average {h}", "MIN": "Lowest {h}", "MAX": "Highest {h}",
          "MEDIAN": "Median {h}", "COUNT": "{h} Entries", "COUNTIF": "{v} Count", "SUMIF": "{v} {h}"}
WRONG = {"SUM": "AVERAGE", "AVERAGE": "SUM", "MIN": "MAX", "MAX": "MIN", "MEDIAN": "AVERAGE"}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', enter a formula in cell {cell} that uses {function} to compute "
    "{what}. Type the label '{label}' in {label_cell}, next to it. Save the file in place as xlsx.",
    "In the workbook {path} (sheet '{sheet}'), add a summary below the table: cell {label_cell} gets the text "
    "'{label}' and cell {cell} gets {function.a} formula giving {what}. Use a formula, not a typed number, and "
    "save the workbook in xlsx format.",
    "On the '{sheet}' sheet of {path}, I need {what}. Put it in {cell} as a formula with the {function} function, "
    "and write '{label}' in {label_cell} as its label. Then save the spreadsheet (same file, xlsx).",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and write {function.a} formula in {cell} for "
    "{what}. Label it by typing '{label}' into {label_cell}. Save the file, keeping the xlsx format.",
    "Please add {function.a} formula to {cell} on sheet '{sheet}' of {path} that returns {what}, with the label "
    "'{label}' in cell {label_cell}. Don't type the result by hand. Save the workbook in place.",
)
NATURAL = (
    "Put {what.bare} in cell {cell} of {path.file} as {function.a} formula, with the label '{label}' "
    "next to it in {label_cell}.",
    "Help me add {what.bare} to {path.file}: {function.a} formula in {cell}, labeled '{label}' in "
    "{label_cell}.",
    "Could you calculate {what.bare} in {cell} on the '{sheet}' sheet of {path.file}, using {function}, "
    "and type '{label}' in {label_cell}?",
    "I need {what.bare} in my spreadsheet {path.file}: {function.a} formula in {cell}, label '{label}' "
    "in {label_cell}.",
    "Please have {cell} of {path.file} compute {what.bare} with {function}; write '{label}' in "
    "{label_cell} as its label.",
)


class Params(TypedDict):
    function: Literal["SUM", "AVERAGE", "MIN", "MAX", "COUNT", "COUNTIF", "SUMIF", "MEDIAN"]


@dataclass(frozen=True)
class Option:
    """One way to pose the task: a column (and a category value for *IF), its formula, cells and prose."""

    function: str
    column: int  # the aggregated column (the category column for COUNTIF)
    value: str | None  # the *IF criterion
    ref: str  # the aggregated (COUNTIF: criteria) range
    formula: str
    what: str  # the result in words
    cell: str  # where the formula goes, two rows below the table
    label_cell: str  # where its label goes, left of it
    label: str


@dataclass(frozen=True)
class Target(Option):
    expected: float  # the formula's value on the (unleaked) layout


def _option(layout: cc.Layout, function: str, column: int, value: str | None, short: bool = False) -> Option:
    """Cells, formula, label and prose for one choice (column; category value for *IF)."""
    cat = layout.columns_of("category")[0]
    last = layout.last_row - 1 if short else layout.last_row
    row = layout.last_row + 2

    def rng_of(c: int) -> str:
        return f"{layout.letter(c)}2:{layout.letter(c)}{last}"

    header, cat_header = layout.header[column], layout.header[cat]
    home = cat if function == "COUNTIF" else column
    ref = rng_of(home)
    formula = {
        "COUNTIF": f'=COUNTIF({rng_of(cat)},"{value}")',
        "SUMIF": f'=SUMIF({rng_of(cat)},"{value}",{ref})',
    }.get(function, f"={function}({ref})")
    what = {
        "SUM": f"the total of the '{header}' column ({ref})",
        "AVERAGE": f"the average of the '{header}' column ({ref})",
        "MIN": f"the smallest value of the '{header}' column ({ref})",
        "MAX": f"the largest value of the '{header}' column ({ref})",
        "MEDIAN": f"the median of the '{header}' column ({ref})",
        "COUNT": f"how many numbers the '{header}' column ({ref}) holds",
        "COUNTIF": f"how many rows have '{cat_header}' equal to '{value}' (criteria range {ref})",
        "SUMIF": f"the total '{header}' ({ref}) of the rows whose '{cat_header}' ({rng_of(cat)}) is '{value}'",
    }[function]
    return Option(function=function, column=column, value=value, ref=ref, formula=formula, what=what,
                  cell=f"{layout.letter(home)}{row}", label_cell=f"{layout.letter(home - 1)}{row}",
                  label=LABELS[function].format(h=header, v=value))


def _options(layout: cc.Layout, function: str) -> list[Option]:
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    cat = layout.columns_of("category")[0]
    values = sorted(set(layout.column(cat)))
    if function == "COUNTIF":
        return [_option(layout, function, cat, v) for v in values]
    if function == "SUMIF":
        return [_option(layout, function, c, v) for c in numeric for v in values]
    return [_option(layout, function, c, None) for c in numeric]


def _facts(layout: cc.Layout, option: Option) -> dict[str, Any]:
    return {"path": layout.path, "sheet": layout.sheet, "function": option.function, "what": option.what,
            "cell": option.cell, "label": option.label, "label_cell": option.label_cell}


def _settle(rng: random.Random, layout: cc.Layout, function: str) -> tuple[cc.Layout, Option, float]:
    """A layout and option whose answer does not leak into the instruction (moving data only when needed)."""
    options = _options(layout, function)
    rng.shuffle(options)

    def is_leaky(option: Option, value: Any) -> bool:
        return cc.leaky(value, _facts(layout, option), PHRASINGS)

    for option in options:
        value = cc.evaluate_on(layout, option.formula)
        if not is_leaky(option, value):
            return layout, option, value
    option = options[0]
    cat = layout.columns_of("category")[0]
    rows = [list(r) for r in layout.rows]
    if function == "COUNTIF":  # relabel rows of the largest other category until the count no longer leaks
        for _ in range(len(rows)):
            counts = Counter(r[cat] for r in rows)
            donors = [r for r in rows if r[cat] != option.value]
            if not donors:
                break
            max(donors, key=lambda r: counts[r[cat]])[cat] = option.value
            moved = layout.with_rows(rows)
            value = cc.evaluate_on(moved, option.formula)
            if not is_leaky(option, value):
                return moved, option, value
        raise ValueError("no COUNTIF criterion avoids a leak")
    if function == "COUNT":  # empty cells of the counted column (a missing reading) until the count is safe
        for blanked in rows[: len(rows) // 2]:
            blanked[option.column] = None
            moved = layout.with_rows(rows)
            value = cc.evaluate_on(moved, option.formula)
            if not is_leaky(option, value):
                return moved, option, value
        raise ValueError("no COUNT avoids a leak")
    column = option.column
    picked = [i for i, r in enumerate(rows) if function != "SUMIF" or r[cat] == option.value]
    row = picked[cc.deciding_row([rows[i][column] for i in picked], function)]
    moved_rows = cc.unleak(rows, column, layout.kinds[column], row,
                           lambda trial: cc.evaluate_on(layout.with_rows(trial), option.formula),
                           lambda value: is_leaky(option, value))
    moved = layout.with_rows(moved_rows)
    return moved, option, cc.evaluate_on(moved, option.formula)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout, option, expected = _settle(rng, cc.layout_from(table, plan), params["function"])
    return Goal(layout, _facts(layout, option), Target(**asdict(option), expected=expected))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    t = target
    where = {"path": layout.path, "sheet": layout.sheet}
    return [
        Check(id="label", criterion=f"{t.label_cell} on sheet '{layout.sheet}' holds the label '{t.label}'.",
              primitive="xlsx.cell_value", args={**where, "cell": t.label_cell, "expected": t.label}),
        Check(id="formula",
              criterion=f"{t.cell} holds {with_article(t.function)} formula over {t.ref} with the right value.",
              primitive="xlsx.formula_value",
              args={**where, "cell": t.cell, "function": t.function, "ref": t.ref, "expected": t.expected,
                    "tolerance": 0.005, "formula": t.formula}),
    ]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    t = target
    function = t.function
    short = _option(layout, function, t.column, t.value, short=True)
    if function == "COUNT":
        key = layout.letter(layout.columns_of("key")[0])
        wrong, why = f"=COUNT({key}2:{key}{layout.last_row})", "counts the text key column, which COUNT ignores"
    elif function in WRONG:
        wrong, why = f"={WRONG[function]}({t.ref})", f"uses {WRONG[function]} instead of {function}"
    else:
        plain = "COUNTA" if function == "COUNTIF" else "SUM"
        wrong, why = f"={plain}({t.ref})", f"uses {plain} over the whole range, ignoring the condition"
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}

    def cells(value: Any) -> list[dict[str, Any]]:
        return [{**base, "cells": {t.label_cell: t.label, t.cell: value}}]

    return Attempts(
        Attempt(f"label plus {t.formula}", cells(t.formula)),
        [Attempt("the range stops one row short of the last data row", cells(short.formula)),
         Attempt(why, cells(wrong)),
         Attempt("types the right result as a constant instead of a formula", cells(t.expected))],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Put one labelled aggregate formula (SUM, AVERAGE, COUNTIF, SUMIF...) below a table.",
    knobs={"function": FUNCTIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
