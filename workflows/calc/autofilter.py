"""calc.autofilter: add an AutoFilter over the whole table or over its first columns (header row included)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from openpyxl.utils import get_column_letter

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.autofilter"
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', add an AutoFilter to {scope}: the range {ref}, with the filter "
    "buttons in the header row. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', switch on AutoFilter for {ref} ({scope}) so each of those "
    "header cells gets a drop-down. Save it in the same format.",
    "Please put filter drop-downs on {scope} on sheet '{sheet}' of {path} by applying an AutoFilter to "
    "exactly {ref}. Save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}', select {ref} ({scope}) and turn on "
    "AutoFilter. No filter criteria are needed. Save the spreadsheet in place.",
    "On sheet '{sheet}' in {path}, set up an AutoFilter over {ref}, that is {scope}. Save the file, keeping "
    "the xlsx format.",
)
NATURAL = (
    "Add filter buttons to {scope} on the '{sheet}' sheet of {path.file}, so I can filter it by column. "
    "No filter needs to be set yet; just save the file.",
    "I want to filter the data in {path.file} by column. Turn on AutoFilter for {scope} on '{sheet}' "
    "and save.",
    "Help me switch on the autofilter dropdowns in {path.file}, sheet '{sheet}', for {scope}, then save "
    "it.",
    "Could you enable filtering on {scope} in my spreadsheet {path.file} (sheet '{sheet}')? Keep it "
    "saved as it is.",
    "Please put AutoFilter arrows on {scope} in {path.file} ('{sheet}' sheet) without filtering "
    "anything out yet.",
)


class Params(TypedDict):
    target: Literal["table", "header_to_column"]


@dataclass(frozen=True)
class Target:
    ref: str  # the range the AutoFilter must cover, header row included
    last_col: int  # its last column, 1-based


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    if params["target"] == "table":
        last_col = layout.width
        scope = "the whole table with its header row"
    else:  # a leading block of columns, strictly narrower than the table and at least three wide
        last_col = rng.randint(3, layout.width - 1)
        scope = f"the header row and data rows of columns A to {get_column_letter(last_col)} only"
    ref = f"A1:{get_column_letter(last_col)}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "scope": scope}
    return Goal(layout, facts, Target(ref, last_col))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    check = Check(
        id="autofilter",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, an AutoFilter covers exactly {target.ref}.",
        primitive="xlsx.autofilter",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref},
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    last_col, last_row = target.last_col, layout.last_row
    base = {"op": "xlsx.set_autofilter", "path": layout.path, "sheet": layout.sheet}

    def box(col: int, row: int) -> str:
        return f"A1:{get_column_letter(col)}{row}"

    if params["target"] == "header_to_column":
        widened = Attempt("filters the whole table instead of the stated columns", [{**base, "ref": layout.table_ref}])
    else:
        widened = Attempt("filters only the data rows, leaving the header out", [{**base, "ref": layout.data_ref}])
    return Attempts(
        Attempt(f"AutoFilter over exactly {target.ref}", [{**base, "ref": target.ref}]),
        [Attempt("range stops one row short of the last data row", [{**base, "ref": box(last_col, last_row - 1)}]),
         Attempt("range stops one column short", [{**base, "ref": box(last_col - 1, last_row)}]),
         widened],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add an AutoFilter over a stated table range (the whole table or its first columns).",
    knobs={"target": ("table", "header_to_column")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
