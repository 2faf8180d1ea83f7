"""calc.date_formula: add a column whose every data row holds a date formula over that row's date: the date N
months later (EDATE), its year or month, or the days from it until a given date."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.date_formula"
OPERATIONS = ("edate", "year", "month", "days_until")
MONTHS = (1, 2, 3, 6, 12, 18)
HEADERS = {
    "edate": ("Follow-up Date", "Review Date", "Due Date", "Renewal Date"),
    "year": ("{h} Year", "Year"), "month": ("{h} Month", "Month No"),
    "days_until": ("Days Left", "Days To Year End", "Days Remaining"),
}
#: operation -> the formula of one row over its date cell {c}, ({m} months, {y} the end date's year)
FORMULAS = {"edate": "=EDATE({c},{m})", "year": "=YEAR({c})", "month": "=MONTH({c})",
            "days_until": "=DATE({y},12,31)-{c}"}
SLIPS = {"edate": ("={c}+{d}", "adds 30 days per month instead of whole calendar months"),
         "year": ("=MONTH({c})", "takes the month (MONTH) instead of the year"),
         "month": ("=DAY({c})", "takes the day of the month (DAY) instead of the month"),
         "days_until": ("=DATE({y},12,31)-{c}+1", "counts both the first and the last day (one day too many)")}
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. Add a new column: type the header '{header}' in {header_cell}, "
    "then fill {ref} with formulas so that each row shows {calc}. Every cell of {ref} must be a formula that "
    "uses the cells of its own row (no typed-in values). Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', create a column titled '{header}' (header in cell {header_cell}). "
    "For every data row, the cells {ref} should hold a formula giving {calc} from that same row. "
    "Don't type the results in by hand. Keep the xlsx format when saving.",
    "The table on sheet '{sheet}' of {path} needs a date column worked out. Put '{header}' in {header_cell} and, "
    "in each cell of {ref}, enter a formula that gives, for that row, {calc}. Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, label cell {header_cell} '{header}' and add "
    "row-by-row formulas in {ref} that give {calc}. Each formula must refer to its own row. Save as xlsx, "
    "overwriting the file.",
    "Please extend the table in {path} (sheet '{sheet}') with {header.a_quoted} column: header in {header_cell}, "
    "formulas in {ref}, one per data row, each giving {calc}. Values must come from formulas, not be typed. "
    "Save the workbook in the same place and format.",
)
NATURAL = (
    "Add {header.a_quoted} column to the table in {path.file} showing {calc.bare} for each row, using formulas.",
    "Help me add a new column '{header}' on the '{sheet}' sheet of {path.file}: a formula per row "
    "giving {calc.bare}.",
    "I need {header.a_quoted} column next to the data in {path.file}, with formulas that give {calc.bare} "
    "row by row.",
    "Please add '{header}' as a new column in {path.file}: each row should show {calc.bare} through a formula, "
    "not a typed value.",
    "Could you extend the table in {path.file} with {header.a_quoted} column whose formulas give {calc.bare}?",
)


class Params(TypedDict):
    operation: Literal["edate", "year", "month", "days_until"]


@dataclass(frozen=True)
class Target:
    operation: str  # the knob
    source: int  # the date column
    months: int  # EDATE's months (0 for the other operations)
    until: int  # the year whose 31 December the days count to (0 for the other operations)
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    operation = params["operation"]
    layout = cc.layout_from(table, plan)
    source = layout.columns_of("date")[0]
    name = f"'{layout.header[source]}' (column {layout.letter(source)})"
    months = rng.choice(MONTHS) if operation == "edate" else 0
    dates = [v for v in layout.column(source) if isinstance(v, dt.date)]
    until = max(d.year for d in dates) if operation == "days_until" else 0
    calc = {
        "edate": f"the date {months} month{'s' if months > 1 else ''} after {name}, using EDATE (whole calendar "
                 f"months, not 30-day steps)",
        "year": f"the year of {name} as a number (YEAR)",
        "month": f"the month number of {name} (MONTH)",
        "days_until": f"the number of days from {name} until {until}-12-31 (that end date minus the row's date)",
    }[operation]
    taken = {h.casefold() for h in layout.header}
    options = [h.format(h=layout.header[source]) for h in HEADERS[operation]]
    header = rng.choice([h for h in options if h.casefold() not in taken] or [f"{options[0]} Column"])
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1",
             "ref": ref, "calc": calc}
    return Goal(layout, facts, Target(operation, source, months, until, letter, header, ref))


def _formulas(layout: cc.Layout, target: Target, template: str | None = None, shift: int = 0) -> dict[str, str]:
    text = template or FORMULAS[target.operation]
    column = layout.letter(target.source)
    return {f"{target.letter}{r}": text.format(c=f"{column}{r + shift}", m=target.months, d=30 * target.months,
                                               y=target.until)
            for r in range(2, layout.last_row + 1)}


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [cc.evaluate_on(layout, f) for f in formulas]
    args: dict[str, Any] = {
        "path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1", "header": target.header,
        "ref": target.ref, "operation": target.operation, "source": layout.header[target.source],
        "expected": expected, "formulas": formulas}
    if target.months:
        args["months"] = target.months
    if target.until:
        args["until"] = f"{target.until}-12-31"
    months = f"{target.months} month{'s' if target.months > 1 else ''}"
    what = {"edate": f"the date {months} after the row's '{layout.header[target.source]}'",
            "year": "the year of the row's date", "month": "the month number of the row's date",
            "days_until": f"the days from the row's date until {target.until}-12-31"}[target.operation]
    return [Check(
        id="date_column",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and every cell "
                  f"of {target.ref} is a formula over its own row showing {what}.",
        primitive="xlsx.date_column", args=args)]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    formulas = _formulas(layout, target)
    typed = {cell: cc.tidy(cc.evaluate_on(layout, f)) for cell, f in formulas.items()}
    last = f"{target.letter}{layout.last_row}"
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    # a date a formula computes shows as a date: the oracle formats the new column as the date column is
    shown = [{"op": "xlsx.set_number_format", "path": layout.path, "sheet": layout.sheet, "ref": target.ref,
              "number_format": layout.date_format or "YYYY-MM-DD"}] if target.operation == "edate" else []
    slip, slip_does = SLIPS[target.operation]
    return Attempts(
        Attempt("header plus one date formula per data row", [{**base, "cells": {**head, **formulas}}, *shown]),
        [Attempt(slip_does, [{**base, "cells": {**head, **_formulas(layout, target, slip)}}, *shown]),
         Attempt("types the results instead of formulas", [{**base, "cells": {**head, **typed}}, *shown]),
         Attempt("fills every row but the last one",
                 [{**base, "cells": {**head, **{c: f for c, f in formulas.items() if c != last}}}, *shown]),
         Attempt("formulas refer to the next row (references shifted down by one)",
                 [{**base, "cells": {**head, **_formulas(layout, target, shift=1)}}, *shown])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a column of date formulas over each row's date: the date N months later (EDATE), its year or "
                "month, or the days from it until a year's end.",
    knobs={"operation": OPERATIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
