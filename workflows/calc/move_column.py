"""calc.move_column: move one column of a table, whole, to the front, to the end, or right before another column
(cut and Insert Cut Cells, or drag with Alt)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.readers.xlsx import cell_text
from workflows.calc import kit as cc

NAME = "calc.move_column"
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', move the '{header}' column (header and data) {place}. The other "
    "columns keep their order and shift over; no column is duplicated or left empty. Save the file in place as "
    "xlsx.",
    "In the workbook {path}, sheet '{sheet}', the '{header}' column is in the wrong place. Move it, with all its "
    "values, {place}, keeping every row together. Save it in the same format.",
    "Please rearrange the columns on sheet '{sheet}' of {path}: the '{header}' column should go {place}. "
    "Don't leave a copy behind or an empty column. Save the workbook as xlsx.",
    "Reorder the table on sheet '{sheet}' in {path} so that the '{header}' column sits {place}; the remaining "
    "columns stay in their current order. Save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}', cut the '{header}' column and insert it {place} "
    "(the other columns move over to make room). Save the file (keep the xlsx format).",
)
NATURAL = (
    "Move the '{header}' column in {path.file} {place}.",
    "Could you put the '{header}' column of {path.file} {place}? Keep the rest in order.",
    "In my spreadsheet {path.file}, I want the '{header}' column moved {place}.",
    "Help me rearrange {path.file}: the '{header}' column belongs {place}.",
    "Please shift the '{header}' column of the table in {path.file} {place}, keeping rows intact.",
)


class Params(TypedDict):
    where: Literal["first", "last", "before"]


@dataclass(frozen=True)
class Target:
    column: int  # the column that moves
    to: int  # its index once moved (0-based); the others keep their order
    place: str  # where, in words

    def order(self, width: int) -> list[int]:
        rest = [c for c in range(width) if c != self.column]
        return [*rest[:self.to], self.column, *rest[self.to:]]


def _json(value: Any) -> Any:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else cell_text(value)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    width, where = layout.width, params["where"]
    # two or more places away from where it goes: a swap, or a slip of one place, must give another table
    if where == "first":
        column, to = rng.randrange(2, width), 0
        place = "to the front, so that it becomes the first column (A)"
    elif where == "last":
        column, to = rng.randrange(0, width - 2), width - 1
        place = "to the end of the table, so that it becomes the last column"
    else:
        pairs = [(c, b, b if b < c else b - 1) for c in range(width) for b in range(width) if b != c]
        column, before, to = rng.choice([(c, b, t) for c, b, t in pairs if abs(c - t) >= 2])
        place = f"right before the '{layout.header[before]}' column"
    facts = {"path": layout.path, "sheet": layout.sheet, "header": layout.header[column], "place": place}
    return Goal(layout, facts, Target(column, to, place))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    order = target.order(layout.width)
    table = [list(layout.header), *layout.rows]
    header = layout.header[target.column]
    moved = Check(
        id="moved",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, the '{header}' column has moved {target.place}: "
                  f"the columns read {[layout.header[c] for c in order]}, each with its own values in every row.",
        primitive="xlsx.column_moved",
        args={"path": layout.path, "sheet": layout.sheet, "header": header, "place": target.place,
              "order": [layout.header[c] for c in order],
              "expected": [[_json(row[c]) for c in order] for row in table]},
    )
    return [moved]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.move_column", "path": layout.path, "sheet": layout.sheet,
            "column": layout.letter(target.column), "to": target.to}
    off = target.to - 1 if params["where"] == "last" else target.to + 1
    return Attempts(
        Attempt("move the column, header and data, to the asked place", [base]),
        [Attempt("copies the column there and leaves the original in place", [{**base, "copy": True}]),
         Attempt("swaps it with the column at that place instead of shifting the others", [{**base, "swap": True}]),
         Attempt("moves the values but leaves the header row as it was", [{**base, "data_only": True}]),
         Attempt("drops it one column off (after the column instead of before it, or second to last)",
                 [{**base, "to": off}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Move one column of a table, header and data, to the front, to the end or before another column, "
                "the others keeping their order.",
    knobs={"where": ("first", "last", "before")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
