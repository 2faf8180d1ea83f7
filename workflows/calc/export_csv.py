"""calc.export_csv: save one stated sheet of a two-sheet workbook as a CSV file of a stated name, with a stated
field delimiter (comma, semicolon or tab), the header row included; the workbook itself stays as it is.

Calc's File > Save As > Text CSV writes only the sheet on screen, so the sheet matters: the other sheet holds a
table of the same kind. Near-misses: the other sheet exported, another delimiter, the header row dropped, the
workbook copied under the .csv name instead of converted."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from workflows.calc import kit as cc
from workflows.calc.content import generate_table

NAME = "calc.export_csv"
HOW = {"comma": "commas", "semicolon": "semicolons", "tab": "tabs"}
#: delimiter -> the delimiter a classic slip uses instead
WRONG = {"comma": "semicolon", "semicolon": "comma", "tab": "comma"}
#: Names of the workbook's other sheet (an older table of the same kind).
OTHER_SHEETS = ("Archive", "Last Year", "Previous Period", "Draft", "Old Figures", "Backup")
PHRASINGS = (
    "Open {path} in LibreOffice Calc and save the sheet '{sheet}' as a CSV file at {dest}, with {how} between "
    "the fields and the header row kept as the first line. Do not change the workbook itself.",
    "Export the sheet '{sheet}' of the workbook {path} to the text file {dest}: one line per row, header row "
    "first, fields separated by {how}. The xlsx file must stay as it is.",
    "I need the data on sheet '{sheet}' of {path} as CSV. Save it as {dest} using {how} as the field delimiter "
    "and keep the column headers in the first line; leave the original workbook unchanged.",
    "Using Calc's File > Save As with the Text CSV format, write the sheet '{sheet}' of {path} to {dest}. Use "
    "{how} as separators, include the header row, and keep the xlsx workbook as it was.",
    "Convert the sheet '{sheet}' in {path} into a CSV file named {dest}, separating the fields with {how}. The "
    "first line must be the header row. Don't modify or move the workbook.",
)
NATURAL = (
    "Could you export the '{sheet}' sheet of {path.file} as CSV to {dest}, with {how} between the fields?",
    "I need the '{sheet}' sheet from {path.file} saved as {dest}, fields separated by {how}, headers included.",
    "Please save the '{sheet}' data in {path.file} as a CSV file at {dest}; use {how} as the separator.",
    "Our import tool wants the CSV file {dest}: the '{sheet}' sheet of {path.file}, header row first, split by {how}.",
    "Help me turn the '{sheet}' sheet of {path.file} into {dest}, a CSV with {how} separating the fields.",
)


class Params(TypedDict):
    delimiter: Literal["comma", "semicolon", "tab"]


@dataclass(frozen=True)
class Target:
    sheet: str  # the sheet to export
    other: str  # the workbook's other sheet
    dest: str  # the CSV's home path


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "sheet"


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    full = cc.layout_from(table, plan)
    other_table = generate_table(rng, n_rows=max(6, min(len(full.rows) + rng.randint(-3, 3), 40)),
                                 scenario=plan["scenario"])
    other = rng.choice([n for n in OTHER_SHEETS if n != full.sheet])
    older = cc.layout_from(other_table, plan)
    stem = full.filename.rsplit(".", 1)[0]
    folder = full.path.rsplit("/", 1)[0]
    where = rng.choice((folder, folder, f"{HOME}/Documents/exports", f"{HOME}/Desktop"))
    dest = f"{where}/{rng.choice((f'{stem}_{_slug(full.sheet)}', _slug(full.sheet), f'{stem}_export'))}.csv"
    if rng.random() < 0.5:  # the asked sheet second: Calc shows the other one when the file opens
        main = replace(full, sheet=other, header=older.header, kinds=older.kinds, rows=older.rows,
                       extra_sheets=[(full.sheet, [full.header, *full.rows])])
    else:
        main = replace(full, extra_sheets=[(other, [older.header, *older.rows])])
    facts = {"path": full.path, "sheet": full.sheet, "dest": dest, "how": HOW[params["delimiter"]]}
    return Goal(main, facts, Target(full.sheet, other, dest))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    exported = Check(
        id="exported",
        criterion=f"{target.dest} is a text file whose lines are the rows of sheet '{target.sheet}' of "
                  f"{layout.path}, header row first, with the fields separated by {HOW[params['delimiter']]}.",
        primitive="csv.sheet_export",
        args={"path": target.dest, "workbook": layout.path, "sheet": target.sheet,
              "delimiter": params["delimiter"]},
    )
    return [exported]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "fmt.export_csv", "path": layout.path, "sheet": target.sheet, "dest": target.dest,
            "delimiter": params["delimiter"]}
    wrong = WRONG[params["delimiter"]]
    return Attempts(
        Attempt(f"save sheet '{target.sheet}' as CSV with {HOW[params['delimiter']]} at the asked path", [base]),
        [Attempt(f"exports the other sheet, '{target.other}'", [{**base, "sheet": target.other}]),
         Attempt(f"separates the fields with {HOW[wrong]}", [{**base, "delimiter": wrong}]),
         Attempt("leaves the header row out", [{**base, "header": False}]),
         Attempt("copies the workbook under the .csv name instead of converting it", [{**base, "as_xlsx": True}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Save a stated sheet of a workbook as a CSV file of a stated name and field delimiter (comma, "
                "semicolon or tab), header row included, leaving the workbook unchanged.",
    knobs={"delimiter": ("comma", "semicolon", "tab")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
