"""calc.fill_series: add a column right of a table and fill it down with a number or date series of a stated start
and step (Sheet > Fill Cells > Fill Series, or a dragged fill handle)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.fill_series"
#: series -> the headers a person gives such a column
HEADERS = {"number": ("Entry No.", "Ref No.", "Line No.", "Seq", "Ticket No.", "Item No."),
           "date": ("Review Date", "Follow-up Date", "Check Date", "Due Date", "Audit Date", "Call Date")}
#: series -> the starts and steps drawn (a date series starts on a day of 2025 and counts days)
STARTS = {"number": (1, 10, 100, 101, 1000, 5001)}
STEPS = {"number": (1, 2, 5, 10, 100), "date": (1, 7, 14)}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', type the header '{header}' into {header_cell} and fill {ref} below "
    "it with {series}. Leave every other cell as it is and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', add a column headed '{header}' in {header_cell}. Its cells {ref} "
    "should hold {series}, one value per row. Save it in the same format.",
    "Please add the column '{header}' to the table on sheet '{sheet}' of {path}: header in {header_cell}, and "
    "{series} down {ref}. Don't change the existing data. Save the workbook as xlsx.",
    "The table on sheet '{sheet}' of {path} needs a column headed '{header}'. Put that header in {header_cell} and "
    "fill {ref} with {series}; keep everything else unchanged and save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}', enter '{header}' in {header_cell} and use "
    "Sheet > Fill Cells > Fill Series to fill {ref} with {series}. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Add a column '{header}' next to the table in {path.file}, filled with {series}.",
    "Could you give the table in {path.file} a column '{header}' holding {series}, one per row?",
    "Help me add a column '{header}' at the right of the data in {path.file}: {series}.",
    "I need a new '{header}' column in {path.file} with {series} down every row of the table.",
    "Please fill a new column '{header}' beside the table in {path.file} with {series}.",
)


class Params(TypedDict):
    series: Literal["number", "date"]


@dataclass(frozen=True)
class Target:
    header: str
    start: int | str  # a number, or an ISO date
    step: int

    def dates(self) -> bool:
        return isinstance(self.start, str)


def _series_words(start: int | str, step: int) -> str:
    if isinstance(start, str):
        days = "1 day" if step == 1 else f"{step} days"
        return f"a date series starting at {start} and going up by {days} on each row"
    return f"a number series starting at {start} and increasing by {step} on each row"


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    series = params["series"]
    header = rng.choice([h for h in HEADERS[series] if h not in layout.header])
    step = rng.choice(STEPS[series])
    start: int | str
    if series == "date":
        start = (dt.date(2025, 1, 6) + dt.timedelta(days=rng.randrange(0, 330))).isoformat()
    else:
        start = rng.choice(STARTS["number"])
    letter = layout.letter(layout.width)
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1",
             "ref": f"{letter}2:{letter}{layout.last_row}", "series": _series_words(start, step)}
    return Goal(layout, facts, Target(header, start, step))


def _places(layout: cc.Layout) -> tuple[str, str]:
    letter = layout.letter(layout.width)
    return f"{letter}1", f"{letter}2:{letter}{layout.last_row}"


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    header_cell, ref = _places(layout)
    filled = Check(
        id="series",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {header_cell} reads '{target.header}' and {ref} "
                  f"holds {_series_words(target.start, target.step)}.",
        primitive="xlsx.series_filled",
        args={"path": layout.path, "sheet": layout.sheet, "header_cell": header_cell, "header": target.header,
              "ref": ref, "start": target.start, "step": target.step, "dates": target.dates()},
    )
    return [filled]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    header_cell, ref = _places(layout)
    base = {"op": "xlsx.fill_series", "path": layout.path, "sheet": layout.sheet, "header_cell": header_cell,
            "header": target.header, "ref": ref, "start": target.start, "step": target.step,
            "dates": target.dates()}
    letter = header_cell[:-1]
    slips = [Attempt("copies the start value down every row instead of a series", [{**base, "step": 0}]),
             Attempt("stops the series one row short of the table's last row",
                     [{**base, "ref": cc.one_row_short(ref)}]),
             Attempt("starts the series one row too low, leaving the first row empty and running past the table",
                     [{**base, "ref": f"{letter}3:{letter}{layout.last_row + 1}"}])]
    if target.step != 1:
        slips.insert(1, Attempt("fills with a step of 1 instead of the stated step", [{**base, "step": 1}]))
    return Attempts(Attempt("type the header and fill the series down the column", [base]), slips)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a column right of a table and fill it with a number or date series of a stated start and "
                "step, changing nothing else.",
    knobs={"series": ("number", "date")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
