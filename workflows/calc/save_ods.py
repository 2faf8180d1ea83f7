"""calc.save_ods: save an Excel workbook as OpenDocument Spreadsheet (.ods) beside it, under its own name (what
Calc's File > Save As proposes) or under a stated new one; the xlsx itself stays where it is, unchanged.

The workbook has two sheets: the data table and a short notes sheet (a title, who prepared it, a date, a count), so
a save that keeps only the active sheet is seen. The check (`ods.workbook_values`) reads the .ods through the bounded
OpenDocument spreadsheet reader (verifiers/readers/ods.py): its declared type is ODF spreadsheet, it has the
workbook's sheets in order and every cell value (numbers, dates, text). Near-misses: the xlsx copied under the .ods
name (no conversion), the workbook moved instead of copied (Save As, then the xlsx deleted), the notes sheet left
out, the table's last row lost.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.checks.ods import encode
from workflows.calc import kit as cc

NAME = "calc.save_ods"
SUFFIXES = ("_odf", "_open_format", "_for_libreoffice", "_shared", "_v2", "_archive")
NOTES = ("Notes", "About", "Read me")
TEAMS = ("Finance team", "Operations desk", "M. Okafor", "J. Lindqvist", "Planning office", "R. Alvarez")
PHRASINGS = (
    "Open {path} in LibreOffice Calc and save a copy of it in ODF Spreadsheet format (.ods) as {dest}, with all "
    "its sheets. Keep the original xlsx file where it is, unchanged.",
    "Convert the Excel workbook {path} to OpenDocument Spreadsheet and save it as {dest}. Every sheet must come "
    "along, and the xlsx must stay as it is.",
    "Using File > Save As in Calc with the ODF Spreadsheet type, save {path} as {dest}. Do not delete, rename or "
    "modify the original workbook.",
    "Make an .ods version of {path} at {dest}: the same workbook, all sheets and values, saved in OpenDocument "
    "format. Leave the xlsx where it is.",
    "Save the workbook {path} in OpenDocument Spreadsheet format under the name {dest}; the Excel file itself must "
    "not change or move.",
)
NATURAL = (
    "Could you save {path.file} as an ODS file at {dest}? Keep the Excel version too.",
    "I need {path.file} in OpenDocument format, saved as {dest}, with every sheet.",
    "Please convert {path.file} to .ods and save it as {dest}; leave the xlsx as it is.",
    "Our archive only takes ODF: save the whole workbook {path.file} as {dest}, please.",
    "Help me save a copy of {path.file} in ODS format at {dest}.",
)


class Params(TypedDict):
    name: Literal["same", "renamed"]


@dataclass(frozen=True)
class Target:
    dest: str  # the .ods's home path


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[cc.Layout, Target]:
    full = cc.layout_from(table, plan)
    checked = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(700))
    notes: list[list[Any]] = [["About this workbook", None], ["Title", full.title or full.sheet],
             ["Prepared by", rng.choice(TEAMS)], ["Last checked", checked], ["Rows of data", len(full.rows)]]
    name = next(n for n in NOTES if n != full.sheet)
    layout = replace(full, extra_sheets=[(name, notes)])
    stem = layout.path.rsplit(".", 1)[0]
    dest = f"{stem}.ods" if params["name"] == "same" else f"{stem}{rng.choice(SUFFIXES)}.ods"
    return Goal(layout, {"path": layout.path, "dest": dest}, Target(dest))


def _sheets(layout: cc.Layout) -> list[dict[str, Any]]:
    """The workbook's sheets as the check compares them: each non-empty cell's value by its coordinate."""
    sheets = []
    for spec in cc.workbook_spec(layout)["sheets"]:
        cells = {f"{layout.letter(c)}{r + 1}": encode(v) for r, row in enumerate(spec["rows"])
                 for c, v in enumerate(row) if v is not None and v != ""}
        sheets.append({"name": spec["name"], "cells": cells})
    return sheets


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    names = ", ".join(f"'{s['name']}'" for s in _sheets(layout))
    return [Check(
        id="saved",
        criterion=f"{target.dest} is an OpenDocument spreadsheet with the sheets of {layout.path} ({names}) in "
                  "order, every cell holding the workbook's value.",
        primitive="ods.workbook_values",
        args={"path": target.dest, "source": layout.path, "sheets": _sheets(layout)},
    )]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "fmt.save_ods", "path": layout.path, "dest": target.dest}
    return Attempts(
        Attempt(f"save the workbook as an ODF spreadsheet at {target.dest}", [base]),
        [Attempt("copies the xlsx under the .ods name instead of converting it", [{**base, "as_copy": True}]),
         Attempt("saves the .ods, then deletes the xlsx (moved, not copied)", [{**base, "moved": True}]),
         Attempt("leaves the notes sheet out of the .ods", [{**base, "drop_sheet": True}]),
         Attempt("loses the table's last row in the .ods", [{**base, "drop_row": True}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Save an Excel workbook as OpenDocument Spreadsheet (.ods) beside it, under its own name or a "
                "stated new one, with all its sheets and values, keeping the xlsx unchanged.",
    knobs={"name": ("same", "renamed")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
