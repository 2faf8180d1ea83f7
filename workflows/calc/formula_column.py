"""calc.formula_column: add a column whose every data row holds a formula over that row's numeric cells."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.formula_column"
FUNCTIONS = ("SUM", "AVERAGE", "MIN", "MAX", "ROUND", "PRODUCT", "DIFFERENCE")
HEADERS = {
    "SUM": ("Total", "Combined Total", "Sum"), "AVERAGE": ("Average", "Mean Value", "Row Average"),
    "MIN": ("Lowest", "Minimum", "Row Min"), "MAX": ("Highest", "Maximum", "Row Max"),
    "ROUND": ("{h} Rounded", "Rounded {h}"), "PRODUCT": ("Extended Value", "Line Total", "Product"),
    "DIFFERENCE": ("Difference", "Variance", "Net"),
}
ROUND_WORDS = {2: "2 decimal places", 1: "1 decimal place", 0: "a whole number (0 decimal places)",
               -1: "the nearest ten (-1 digits)"}
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. Add a new column: type the header '{header}' in {header_cell}, "
    "then fill {ref} with formulas so that each row shows {calc}. Every cell of {ref} must be a formula that "
    "uses the cells of its own row (no typed-in numbers). Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', create a column titled '{header}' (header in cell {header_cell}). "
    "For every data row, the cells {ref} should hold a formula computing {calc} from that same row. "
    "Don't type the results as numbers. Keep the xlsx format when saving.",
    "The table on sheet '{sheet}' of {path} needs a calculated column. Put '{header}' in {header_cell} and, in "
    "each cell of {ref}, enter a formula for {calc} of that row. Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, label cell {header_cell} '{header}' and add "
    "row-by-row formulas in {ref} that compute {calc}. Each formula must refer to its own row. Save as xlsx, "
    "overwriting the file.",
    "Please extend the table in {path} (sheet '{sheet}') with {header.a_quoted} column: header in {header_cell}, "
    "formulas in {ref}, one per data row, each giving {calc}. Values must come from formulas, not constants. "
    "Save the workbook in the same place and format.",
)
NATURAL = (
    "Add {header.a_quoted} column to the table in {path.file} that works out {calc.bare} for each row, using "
    "formulas.",
    "Help me add a new column '{header}' on the '{sheet}' sheet of {path.file}: a formula per row "
    "giving {calc.bare}.",
    "I need {header.a_quoted} column next to the data in {path.file}, with formulas computing {calc.bare} "
    "row by row.",
    "Could you extend the table in {path.file} with {header.a_quoted} column whose formulas calculate "
    "{calc.bare}?",
    "Please add '{header}' as a new column in {path.file}: for each row it should compute {calc.bare} "
    "with a formula, not a typed number.",
)


def same_kind_first(rng: random.Random, layout: cc.Layout, columns: list[int], counts: tuple[int, ...]) -> list[int]:
    """The first count of `counts` that some kind of `columns` has that many columns of; else any `counts[-1]`
    columns. Kept in sheet order."""
    by_kind: dict[str, list[int]] = {}
    for c in columns:
        by_kind.setdefault(layout.kinds[c], []).append(c)
    for count in counts:
        groups = [g for g in by_kind.values() if len(g) >= count]
        if groups:
            return sorted(rng.sample(rng.choice(groups), count))
    return sorted(rng.sample(columns, counts[-1]))


RATE_WORDS = ("rate", "each", "unit", "price", "per ")

#: What each numeric column of the offline scenarios (workflows/calc/content.py) measures. Columns combine by
#: + - MIN MAX AVERAGE only when they measure the same thing (Budgeted minus Actual, Midterm plus Final Exam), and
#: by * only as an amount times a price per that amount (Hours Worked * Hourly Rate, On Hand * Unit Cost): never
#: "Square Feet minus Lot Acres" or "Midterm Score multiplied by Assignments".
UNITS: dict[str, str] = {
    **dict.fromkeys(("budgeted", "planned", "actual", "spent to date", "amount paid", "fee", "amount", "claimed", "tax",
                     "sales tax", "reimbursed", "paid out", "parts cost", "parts", "labor cost", "labor charge",
                     "gross pay", "gross", "asking price", "list price", "revenue", "deal value", "commission",
                     "bonus", "freight cost", "shipping fee"), "$"),
    **dict.fromkeys(("unit cost", "cost each"), "$/item"), **dict.fromkeys(("on hand", "in stock", "reorder level",
                                                                            "reorder point"), "item"),
    **dict.fromkeys(("hourly rate", "pay rate", "bill rate"), "$/hour"),
    **dict.fromkeys(("labor hours", "shop hours", "hours worked", "regular hours", "overtime", "overtime hrs",
                     "billable hours", "billable", "admin hours", "internal hours", "resolution hours", "hours open"),
                    "hour"),
    **dict.fromkeys(("midterm", "midterm score", "final exam", "final score", "homework", "assignments", "project",
                     "lab work"), "point"),
    **dict.fromkeys(("lead days", "days before event", "days on market", "market days"), "day"),
    **dict.fromkeys(("distance km", "travel km", "route km"), "km"),
    **dict.fromkeys(("odometer", "mileage"), "odometer"),
    **dict.fromkeys(("invoices", "invoice count"), "invoice"),
    **dict.fromkeys(("tasks closed", "tickets closed"), "task"),
    **dict.fromkeys(("floor area", "square feet"), "sq ft"), **dict.fromkeys(("lot acres", "lot size"), "acre"),
    **dict.fromkeys(("units", "units sold"), "unit"), **dict.fromkeys(("weight kg", "gross kg"), "kg"),
    **dict.fromkeys(("packages", "parcels"), "package"), **dict.fromkeys(("messages", "replies"), "message"),
    **dict.fromkeys(("response minutes", "first reply min"), "minute"),
}


#: For a header `UNITS` does not list (a model's own column): a word in it -> what it measures.
UNIT_WORDS = (("hour", "hour"), ("hrs", "hour"), ("day", "day"), ("minute", "minute"), ("km", "km"), ("kg", "kg"),
              ("mile", "mile"), ("score", "point"), ("points", "point"))


def unit_of(layout: cc.Layout, column: int) -> str | None:
    """What the column measures: `UNITS` for the offline scenarios' headers; for another header, money ("$", or
    "$/hour" for a rate) or a unit word it contains (`UNIT_WORDS`); None when nothing says."""
    header = layout.header[column].casefold()
    if header in UNITS:
        return UNITS[header]
    words = set(re.findall(r"[a-z]+", header))
    if layout.kinds[column] == "money":
        return "$/hour" if words & {"hourly", "rate"} else None if words & {"each", "unit", "per"} else "$"
    return next((unit for word, unit in UNIT_WORDS if word in header), None)


def same_unit_groups(layout: cc.Layout, columns: list[int]) -> list[list[int]]:
    """The numeric columns grouped by what they measure, groups of two or more only, in sheet order."""
    by_unit: dict[str, list[int]] = {}
    for c in columns:
        unit = unit_of(layout, c)
        if unit is not None:
            by_unit.setdefault(unit, []).append(c)
    return [group for group in by_unit.values() if len(group) >= 2]


def priced_pairs(layout: cc.Layout, columns: list[int]) -> list[list[int]]:
    """[amount, price per that amount] pairs, in sheet order: Hours Worked with Hourly Rate, On Hand with Unit Cost."""
    units = {c: unit_of(layout, c) for c in columns}
    return [sorted([c, r]) for r in columns for c in columns
            if (units[r] or "").startswith("$/") and units[c] == (units[r] or "")[2:]]


def compatible(layout: cc.Layout, function: str) -> bool:
    """Whether the table has operand columns that mean something together for `function`."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    if function == "ROUND":
        return True
    if function == "PRODUCT":
        return bool(priced_pairs(layout, numeric))
    return bool(same_unit_groups(layout, numeric))


def _quoted(layout: cc.Layout, columns: list[int]) -> str:
    names = [f"'{layout.header[c]}' (column {layout.letter(c)})" for c in columns]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _plan(rng: random.Random, layout: cc.Layout, function: str) -> tuple[list[int], int, str]:
    """Operand columns, ROUND digits, and the prose for the computation."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    digits = 0
    groups = same_unit_groups(layout, numeric)
    if function in ("SUM", "DIFFERENCE", "AVERAGE", "MIN", "MAX") and groups:  # columns that measure the same thing
        wanted = rng.choice(((3, 2), (2,))) if function in ("AVERAGE", "MIN", "MAX") else (2,)
        count = next((n for n in wanted if any(len(g) >= n for g in groups)), 2)
        cols = sorted(rng.sample(rng.choice([g for g in groups if len(g) >= count]), count))
    elif function == "PRODUCT" and priced_pairs(layout, numeric):  # an amount times its price: Hours * Hourly Rate
        cols = rng.choice(priced_pairs(layout, numeric))
    elif function in ("SUM", "DIFFERENCE"):  # a model's table with columns UNITS does not know: by kind, as before
        cols = same_kind_first(rng, layout, numeric, (2,))
    elif function in ("AVERAGE", "MIN", "MAX"):
        cols = same_kind_first(rng, layout, numeric, rng.choice(((3, 2), (2,))))
    elif function == "PRODUCT":  # a quantity times a rate, e.g. Units * Unit Cost, when the headers say so
        counts = [c for c in numeric if layout.kinds[c] in ("int", "number")]
        money = [c for c in numeric if layout.kinds[c] == "money"]
        rates = [c for c in money if any(w in layout.header[c].casefold() for w in RATE_WORDS)]
        if counts and (rates or money):
            cols = sorted([rng.choice(counts), rng.choice(rates or money)])
        else:
            cols = sorted(rng.sample(numeric, 2))
    else:
        fractional = [c for c in numeric if layout.kinds[c] != "int"]
        cols = [rng.choice(fractional or numeric)]
        digits = {"money": rng.choice((0, 1)), "number": 0, "int": -1}[layout.kinds[cols[0]]]
    what = _quoted(layout, cols)
    pair = [_quoted(layout, [c]) for c in cols]
    calc = {
        "SUM": f"the sum of {what} (use SUM or +)",
        "AVERAGE": f"the average of {what}, using AVERAGE",
        "MIN": f"the {'smaller' if len(cols) == 2 else 'smallest'} of {what}, using MIN",
        "MAX": f"the {'larger' if len(cols) == 2 else 'largest'} of {what}, using MAX",
        "ROUND": f"{what} rounded to {ROUND_WORDS[digits]}, using ROUND",
        "PRODUCT": f"{pair[0]} multiplied by {pair[-1]} (use * or PRODUCT)",
        "DIFFERENCE": f"{pair[0]} minus {pair[-1]}",
    }[function]
    return cols, digits, calc


def row_formula(layout: cc.Layout, function: str, cols: list[int], digits: int, row: int) -> str:
    cells = [f"{layout.letter(c)}{row}" for c in cols]
    if function == "ROUND":
        return f"=ROUND({cells[0]},{digits})"
    if function == "PRODUCT":
        return f"={cells[0]}*{cells[1]}"
    if function == "DIFFERENCE":
        return f"={cells[0]}-{cells[1]}"
    return f"={function}({','.join(cells)})"


class Params(TypedDict):
    function: Literal["SUM", "AVERAGE", "MIN", "MAX", "ROUND", "PRODUCT", "DIFFERENCE"]


@dataclass(frozen=True)
class Target:
    function: str  # the knob: what each row's formula computes
    cols: list[int]  # the operand columns, in sheet order
    digits: int  # ROUND's digits (0 for the other functions)
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    function = params["function"]
    layout = cc.layout_from(table, plan)
    cols, digits, calc = _plan(rng, layout, function)
    taken = {h.casefold() for h in layout.header}
    names = [h.format(h=layout.header[cols[0]]) for h in HEADERS[function]]
    header = rng.choice([h for h in names if h.casefold() not in taken] or [f"{names[0]} Column"])
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1",
             "ref": ref, "calc": calc}
    return Goal(layout, facts, Target(function, cols, digits, letter, header, ref))


def _formulas(layout: cc.Layout, target: Target, shift: int = 0) -> dict[str, str]:
    return {f"{target.letter}{r}": row_formula(layout, target.function, target.cols, target.digits, r + shift)
            for r in range(2, layout.last_row + 1)}


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [cc.evaluate_on(layout, f) for f in formulas]
    check = Check(
        id="formula_column",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and "
                  f"every cell of {target.ref} is a formula over its own row with the right value.",
        primitive="xlsx.formula_column",
        args={"path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1",
              "header": target.header, "ref": target.ref, "expected": expected, "tolerance": 0.001,
              "formulas": formulas},
    )
    return [check]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    formulas = _formulas(layout, target)
    constants = {cell: cc.evaluate_on(layout, f) for cell, f in formulas.items()}
    last = f"{target.letter}{layout.last_row}"
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    return Attempts(
        Attempt("header plus one row formula per data row", [{**base, "cells": {**head, **formulas}}]),
        [Attempt("types the computed results as constants instead of formulas",
                 [{**base, "cells": {**head, **constants}}]),
         Attempt("fills every row but the last one",
                 [{**base, "cells": {**head, **{c: f for c, f in formulas.items() if c != last}}}]),
         Attempt("formulas refer to the next row (references shifted down by one)",
                 [{**base, "cells": {**head, **_formulas(layout, target, shift=1)}}])],
    )


content = cc.redrawn_content(lambda layout, params: compatible(layout, params["function"]))


WORKFLOW = family(
    NAME, cc.CALC,
    source=(cc.sample, content),
    description="Add a calculated column whose every data row holds a formula over that row.",
    knobs={"function": FUNCTIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
