"""calc.copy_sheet: duplicate a worksheet under a new name at a stated place among the sheets (Sheet > Duplicate
Sheet, or Move or Copy Sheet with Copy), the copy holding the same values, number formats and bold as the
original, which stays as it was."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.copy_sheet"
#: How a person names the copy of sheet {s}.
COPY_NAMES = ("{s} Backup", "{s} Copy", "{s} Draft", "{s} Working", "{s} Original", "{s} Archive")
#: The second sheet every workbook of these tasks has: (name, rows).
SIDE_SHEETS = (
    ("Notes", [["Notes"], ["Figures exported from the shared drive."], ["Check the totals before sending."]]),
    ("Read Me", [["About this workbook"], ["One row per record; dates are ISO."], ["Ask before editing."]]),
    ("Contacts", [["Name", "Role"], ["Dana Whitfield", "Owner"], ["Sam Ortega", "Reviewer"]]),
    ("Changelog", [["Change"], ["Added the latest records."], ["Fixed two typos in names."]]),
)
PHRASINGS = (
    "Open {path} and make a copy of the sheet '{sheet}' named '{copy}', placed {place}. The copy must hold the "
    "same cells, number formats and bold headers as '{sheet}', which stays unchanged. Save the file in place as "
    "xlsx.",
    "In the workbook {path}, duplicate the worksheet '{sheet}'. Call the duplicate '{copy}' and put it {place}; "
    "leave the original sheet and '{side}' as they are. Save it in the same format.",
    "Please copy sheet '{sheet}' of {path} into a new sheet '{copy}' {place}, keeping every value and format "
    "(a full sheet copy, not pasted values). Save the workbook as xlsx.",
    "I need a backup of the '{sheet}' sheet inside {path}: a duplicate sheet named '{copy}', {place}, "
    "identical to the original. Save the spreadsheet in place.",
    "Using LibreOffice Calc (Sheet > Duplicate Sheet, or Move or Copy Sheet), open {path}, copy the sheet "
    "'{sheet}', name the copy '{copy}' and place it {place}. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Duplicate the '{sheet}' sheet of {path.file} as '{copy}' and put it {place}.",
    "Could you make a copy of the '{sheet}' sheet in {path.file}, named '{copy}', {place}?",
    "I'd like a duplicate of the '{sheet}' sheet in {path.file} called '{copy}', {place}; keep the original as it is.",
    "Help me copy the '{sheet}' tab of {path.file} to a new tab '{copy}' {place}.",
    "Please add a copy of sheet '{sheet}' to {path.file} under the name '{copy}', {place}.",
)


class Params(TypedDict):
    place: Literal["after", "end", "first"]


@dataclass(frozen=True)
class Target:
    copy: str  # the new sheet's name
    side: str  # the workbook's second sheet
    order: tuple[str, ...]  # the sheets once copied
    place: str  # where, in words


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    side, rows = rng.choice([s for s in SIDE_SHEETS if s[0] != layout.sheet])
    layout = replace(layout, extra_sheets=[(side, rows)])
    copy = rng.choice(COPY_NAMES).format(s=layout.sheet)
    if len(copy) > 31:  # a sheet name holds at most 31 characters
        copy = f"Copy of {layout.sheet}"[:31]
    where = params["place"]
    if where == "after":
        order = (layout.sheet, copy, side)
        place = f"right after '{layout.sheet}' (between '{layout.sheet}' and '{side}')"
    elif where == "end":
        order, place = (layout.sheet, side, copy), f"at the end, after '{side}'"
    else:
        order, place = (copy, layout.sheet, side), f"as the first sheet, before '{layout.sheet}' and '{side}'"
    facts = {"path": layout.path, "sheet": layout.sheet, "copy": copy, "place": place, "side": side}
    return Goal(layout, facts, Target(copy, side, order, place))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    copied = Check(
        id="copied",
        criterion=f"In {layout.path}, the sheet '{target.copy}' holds the same cells as '{layout.sheet}': every "
                  f"value, number format and bold header.",
        primitive="xlsx.sheet_copied",
        args={"path": layout.path, "sheet": target.copy, "source": layout.sheet},
    )
    # the frame counts the sheets; their names and order are this check's question
    sheets = Check(
        id="sheets",
        criterion=f"{layout.path} has the sheets {list(target.order)}, in that order ('{target.copy}' "
                  f"{target.place}).",
        primitive="xlsx.sheet_names",
        args={"path": layout.path, "expected": list(target.order)},
    )
    return [copied, sheets]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    index = target.order.index(target.copy)
    base = {"op": "xlsx.copy_sheet", "path": layout.path, "sheet": layout.sheet, "name": target.copy,
            "index": index}
    slip = {**base, "op": "xlsx.duplicate_sheet"}
    default = 2 if params["place"] == "after" else 1  # Calc puts a duplicate right after the original
    return Attempts(
        Attempt("copy the sheet whole under the new name at the asked place", [base]),
        [Attempt("pastes the values only, losing the number formats and bold", [{**slip, "values_only": True}]),
         Attempt("copies the rows below the header only", [{**slip, "skip_header": True}]),
         Attempt("leaves the copy where Calc put it (or at the end) instead of the asked place",
                 [{**base, "index": default}]),
         Attempt("renames and moves the original instead of copying it", [{**slip, "move": True}]),
         Attempt("keeps Calc's default name for the copy", [{**base, "name": f"{layout.sheet}_2"}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Duplicate a worksheet under a stated name, right after the original, at the end or first, the "
                "copy holding the same values, number formats and bold.",
    knobs={"place": ("after", "end", "first")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
