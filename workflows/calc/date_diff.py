"""calc.date_diff: add a column measuring, row by row, the time from the row's date until a stated date: whole
years (DATEDIF "Y", years of service or age), whole months (DATEDIF "M"), or working days (NETWORKDAYS)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.date_diff"
UNITS = ("years", "months", "workdays")
OPERATION = {"years": "years_between", "months": "months_between", "workdays": "workdays"}
HEADERS = {"years": ("Full Years", "Years Elapsed", "Years Since"),
           "months": ("Full Months", "Months Elapsed", "Months Since"),
           "workdays": ("Working Days", "Business Days", "Workdays Since")}
#: unit -> the right formula over the row's date cell {c} and the end date's DATE({y},{m},{d})
FORMULAS = {"years": '=DATEDIF({c},DATE({y},{m},{d}),"Y")', "months": '=DATEDIF({c},DATE({y},{m},{d}),"M")',
            "workdays": "=NETWORKDAYS({c},DATE({y},{m},{d}))"}
#: unit -> the slips a hurried user makes, as (formula, what it does)
SLIPS = {
    "years": (("={y}-YEAR({c})", "subtracts the years alone, counting a year whose anniversary is still ahead"),
              ("=ROUND((DATE({y},{m},{d})-{c})/365,0)", "rounds the years to the nearest one instead of counting "
               "complete years")),
    "months": (("=({y}-YEAR({c}))*12+{m}-MONTH({c})", "counts calendar months, ignoring whether the day is reached"),
               ("=ROUND((DATE({y},{m},{d})-{c})/30,0)", "divides the days by 30 and rounds")),
    "workdays": (("=DATE({y},{m},{d})-{c}", "counts every calendar day, weekends included"),
                 ("=NETWORKDAYS({c},DATE({y},{m},{d}))-1", "leaves out the first day")),
}
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. Type the header '{header}' in {header_cell}, then fill {ref} with "
    "formulas so that each row shows {calc}. Every cell of {ref} must be a formula over its own row. Save the file "
    "in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', add a column titled '{header}' (header in {header_cell}). For every "
    "data row, the cells {ref} should hold a formula giving {calc}. Don't type the results. Keep the xlsx format.",
    "The table on sheet '{sheet}' of {path} needs a date difference column. Put '{header}' in {header_cell} and, in "
    "each cell of {ref}, enter a formula giving, for that row, {calc}. Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, label {header_cell} '{header}' and add row-by-row "
    "formulas in {ref} that give {calc}. Save as xlsx, overwriting the file.",
    "Please extend the table in {path} (sheet '{sheet}') with {header.a_quoted} column: header in {header_cell}, one "
    "formula per data row in {ref}, each giving {calc}. Save the workbook in the same place and format.",
)
NATURAL = (
    "Add {header.a_quoted} column to {path.file} with formulas giving {calc.bare} for each row.",
    "Help me add a new '{header}' column on the '{sheet}' sheet of {path.file}: a formula per row giving "
    "{calc.bare}.",
    "I need {header.a_quoted} column in {path.file} whose formulas work out {calc.bare}.",
    "Could you add '{header}' to {path.file}, with a formula in each row for {calc.bare}?",
    "Please put {calc.bare} into a new '{header}' column of {path.file}, one formula per row.",
)


class Params(TypedDict):
    unit: Literal["years", "months", "workdays"]


@dataclass(frozen=True)
class Target:
    unit: str  # the knob
    source: int  # the date column
    until: dt.date  # the stated end date
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells


def _formulas(layout: cc.Layout, target: Target, template: str | None = None, shift: int = 0) -> dict[str, str]:
    text = template or FORMULAS[target.unit]
    column = layout.letter(target.source)
    end = target.until
    return {f"{target.letter}{r}": text.format(c=f"{column}{r + shift}", y=end.year, m=end.month, d=end.day)
            for r in range(2, layout.last_row + 1)}


def _caught(layout: cc.Layout, unit: str, source: int, end: dt.date) -> bool:
    """Whether each slip of `unit` shows a wrong value on some row when the end date is `end`."""
    probe = Target(unit, source, end, "", "", "")
    right = [cc.evaluate_on(layout, f) for f in _formulas(layout, probe).values()]
    for template, _ in SLIPS[unit]:
        slipped = [cc.evaluate_on(layout, f) for f in _formulas(layout, probe, template).values()]
        if slipped == right:
            return False
    return True


def _end_date(rng: random.Random, layout: cc.Layout, unit: str, source: int) -> dt.date:
    """A stated end date after every row's date on which every slip of `unit` goes wrong for some row (a day of the
    month some row's date has not reached, an anniversary still ahead)."""
    last = max(v for v in layout.column(source) if isinstance(v, dt.date))
    fallback = None
    for _ in range(40):
        years = rng.randint(1, 4) if unit == "years" else rng.randint(0, 1)
        end = dt.date(last.year + years, rng.randint(1, 12), rng.randint(2, 27))
        if end <= last + dt.timedelta(days=20):
            continue
        fallback = fallback or end
        if _caught(layout, unit, source, end):
            return end
    return fallback or last + dt.timedelta(days=400)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    unit = params["unit"]
    layout = cc.layout_from(table, plan)
    source = layout.columns_of("date")[0]
    until = _end_date(rng, layout, unit, source)
    name = f"'{layout.header[source]}' (column {layout.letter(source)})"
    calc = {
        "years": f"the whole years from {name} until {until.isoformat()} (only complete years count, as DATEDIF "
                 f"with \"Y\" gives them)",
        "months": f"the whole months from {name} until {until.isoformat()} (only complete months count, as DATEDIF "
                  f"with \"M\" gives them)",
        "workdays": f"the working days from {name} until {until.isoformat()} (Monday to Friday, both dates counted, "
                    f"as NETWORKDAYS gives them)",
    }[unit]
    taken = {h.casefold() for h in layout.header}
    header = rng.choice([h for h in HEADERS[unit] if h.casefold() not in taken] or [f"{HEADERS[unit][0]} Column"])
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1", "ref": ref,
             "calc": calc}
    return Goal(layout, facts, Target(unit, source, until, letter, header, ref))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [cc.evaluate_on(layout, f) for f in formulas]
    what = {"years": "whole years", "months": "whole months", "workdays": "working days (NETWORKDAYS)"}[target.unit]
    return [Check(
        id="date_diff_column",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and every cell "
                  f"of {target.ref} is a formula over its own row giving the {what} from the row's "
                  f"'{layout.header[target.source]}' until {target.until.isoformat()}.",
        primitive="xlsx.date_column",
        args={"path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1", "header": target.header,
              "ref": target.ref, "operation": OPERATION[target.unit], "source": layout.header[target.source],
              "expected": expected, "formulas": formulas, "until": target.until.isoformat()})]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    formulas = _formulas(layout, target)
    typed = {cell: cc.tidy(cc.evaluate_on(layout, f)) for cell, f in formulas.items()}
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    slips = [Attempt(does, [{**base, "cells": {**head, **_formulas(layout, target, template)}}])
             for template, does in SLIPS[target.unit]]
    return Attempts(
        Attempt("header plus one date-difference formula per data row", [{**base, "cells": {**head, **formulas}}]),
        [*slips,
         Attempt("types the results instead of formulas", [{**base, "cells": {**head, **typed}}]),
         Attempt("formulas refer to the next row (references shifted down by one)",
                 [{**base, "cells": {**head, **_formulas(layout, target, shift=1)}}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a column of formulas giving the whole years, whole months or working days from each row's date "
                "until a stated date (DATEDIF, NETWORKDAYS).",
    knobs={"unit": UNITS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
