"""calc.hide_columns: hide one or two stated columns of a table (by letter and header), keep the rest visible."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.hide_columns"
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', hide {columns}. Hide rather than delete, keep every other "
    "column of the table visible, and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', hide {columns} without deleting any data, and leave the "
    "remaining columns visible. Save it in the same format.",
    "Please hide {columns} on sheet '{sheet}' of {path}. The data must stay in the file, only hidden, and "
    "all other columns should remain shown. Save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and hide {columns}. Don't hide any other "
    "column and don't delete data. Save the spreadsheet in place.",
    "On sheet '{sheet}' in {path}, hide {columns} from view while keeping the data; the other columns must "
    "stay visible. Save the file, keeping the xlsx format.",
)
NATURAL = (
    "Please hide {columns} on the '{sheet}' sheet of {path.file}; I don't need to see that right now.",
    "Help me declutter {path.file}: hide {columns} without deleting any data.",
    "Could you hide {columns} in my spreadsheet {path.file}? Leave the other columns visible.",
    "I want {columns} out of sight in {path.file} ('{sheet}'): hide rather than delete, then save.",
    "In {path.file}, make {columns} hidden so the rest of the table is easier to read.",
)


def _describe(letters: list[str], headers: list[str]) -> str:
    parts = [f"{letter} ('{header}')" for letter, header in zip(letters, headers, strict=True)]
    return f"column {parts[0]}" if len(parts) == 1 else f"columns {' and '.join(parts)}"


class Params(TypedDict):
    count: Literal["one", "two"]


@dataclass(frozen=True)
class Target:
    columns: list[int]  # the column indexes to hide, in order
    neighbour: int  # a column beside the (last) target that is not itself one: the "adjacent column" mistake


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    candidates = list(range(1, layout.width))  # never the key column A
    if params["count"] == "one":
        chosen = [rng.choice(candidates)]
    else:
        pairs = [(a, b) for a in candidates for b in candidates if b - a >= 2]
        chosen = list(rng.choice(pairs))
    letters = [layout.letter(i) for i in chosen]
    headers = [layout.header[i] for i in chosen]
    facts = {"path": layout.path, "sheet": layout.sheet, "columns": _describe(letters, headers)}
    last = chosen[-1]
    neighbour = last + 1 if last + 1 < layout.width and last + 1 not in chosen else last - 1
    return Goal(layout, facts, Target(chosen, neighbour))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    chosen = target.columns
    letters = [layout.letter(i) for i in chosen]
    headers = [layout.header[i] for i in chosen]
    visible = [layout.letter(i) for i in range(layout.width) if i not in chosen]
    check = Check(
        id="hidden",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {_describe(letters, headers)} "
                  f"{'are' if len(chosen) > 1 else 'is'} hidden (not deleted) and columns {', '.join(visible)} "
                  "stay visible.",
        primitive="xlsx.columns_hidden",
        args={"path": layout.path, "sheet": layout.sheet, "columns": letters, "headers": headers,
              "visible": visible},
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    chosen = target.columns
    letters = [layout.letter(i) for i in chosen]
    neighbour = layout.letter(target.neighbour)
    base = {"op": "xlsx.hide_columns", "path": layout.path, "sheet": layout.sheet}
    oracle = Attempt("hide exactly the stated columns", [{**base, "columns": letters}])
    swapped = letters[:-1] + [neighbour]
    if len(chosen) == 1:
        return Attempts(oracle, [
            Attempt("hides the adjacent column instead", [{**base, "columns": swapped}]),
            Attempt("hides the stated column together with its neighbour",
                    [{**base, "columns": letters + [neighbour]}]),
        ])
    span = [layout.letter(i) for i in range(chosen[0], chosen[-1] + 1)]
    return Attempts(oracle, [
        Attempt("hides only the first of the two columns", [{**base, "columns": letters[:1]}]),
        Attempt("hides the adjacent column instead of the second one", [{**base, "columns": swapped}]),
        Attempt("hides the whole span between the two columns", [{**base, "columns": span}]),
    ])


WORKFLOW = family(
    NAME, cc.CALC,
    description="Hide one or two stated columns of a table, leaving the other columns visible.",
    knobs={"count": ("one", "two")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
