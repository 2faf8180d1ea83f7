"""calc.sort_rows: sort a table's data rows by one column (numeric, text or date; asc or desc)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.sort_rows"
KIND_COLUMNS = {"numeric": cc.NUMERIC_KINDS, "text": ("key",), "date": ("date",)}
ORDER_WORDS = {
    ("numeric", "asc"): "from smallest to largest", ("numeric", "desc"): "from largest to smallest",
    ("text", "asc"): "alphabetically from A to Z", ("text", "desc"): "in reverse alphabetical order (Z to A)",
    ("date", "asc"): "from oldest to newest", ("date", "desc"): "from newest to oldest",
}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', sort the data rows {ref} by the '{header}' column {order}. "
    "Keep each row's values together and leave the header in row 1. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', reorder the records so the '{header}' column runs {order}. "
    "Whole rows must move together (range {ref}); the header row stays on top. Save it in the same format.",
    "Please sort the table on sheet '{sheet}' of {path} by '{header}', {order}. Sort entire rows "
    "({ref}), not just that column, and keep the header row where it is. Save the workbook as xlsx.",
    "The rows of {ref} on sheet '{sheet}' in {path} are in no particular order. Sort them by the "
    "'{header}' column {order}, keeping rows intact, and save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and sort rows {ref} {order} by the "
    "'{header}' column. Don't split rows apart or move the header. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Sort the table in {path.file} by '{header}', {order}.",
    "Help me sort the rows on the '{sheet}' sheet of {path.file} by the '{header}' column, {order}.",
    "Could you order the records in {path.file} by '{header}' {order}? Keep each row together.",
    "I'd like the data in my spreadsheet {path.file} arranged by '{header}', {order}.",
    "Please sort {path.file} so the '{header}' column runs {order}, moving whole rows.",
)


class Params(TypedDict):
    key_kind: Literal["numeric", "text", "date"]
    order: Literal["asc", "desc"]


@dataclass(frozen=True)
class Target:
    column: int  # index of the sort key in the layout's header

    def descending(self, params: Params) -> bool:
        return params["order"] == "desc"


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    column = rng.choice(layout.columns_of(*KIND_COLUMNS[params["key_kind"]]))
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": layout.data_ref, "header": layout.header[column],
             "order": ORDER_WORDS[params["key_kind"], params["order"]]}
    return Goal(layout, cc.refer(facts, plan, layout, column), Target(column))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    descending = target.descending(params)
    header = layout.header[target.column]
    check = Check(
        id="sorted",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, rows {layout.data_ref} are sorted by "
                  f"'{header}' {'descending' if descending else 'ascending'}, rows kept intact.",
        primitive="xlsx.range_sorted",
        args={"path": layout.path, "sheet": layout.sheet, "ref": layout.data_ref,
              "key_column": layout.letter(target.column), "header": header, "descending": descending,
              "rows": layout.text_rows()},
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    descending = target.descending(params)
    base = {"op": "xlsx.sort_rows", "path": layout.path, "sheet": layout.sheet, "ref": layout.data_ref,
            "key_column": layout.letter(target.column)}
    return Attempts(
        Attempt("sort whole rows by the key column in the asked order", [{**base, "descending": descending}]),
        [Attempt("sorts in the opposite direction", [{**base, "descending": not descending}]),
         Attempt("sorts only the key column, breaking rows apart",
                 [{**base, "descending": descending, "key_only": True}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Sort the data rows of a table by one column, keeping rows intact.",
    knobs={"key_kind": ("numeric", "text", "date"), "order": ("asc", "desc")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=cc.INDIRECTION,
)
