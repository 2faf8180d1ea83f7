"""calc.freeze_panes: freeze the header row, the first column, or both, at a stated cell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.freeze_panes"
#: target -> (freeze cell, what stays in view, near-miss cells with why)
TARGETS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "header_row": ("A2", "the header row (row 1)",
                   (("A3", "freezes two rows instead of one"), ("B1", "freezes the first column instead"),
                    ("B2", "freezes the first column as well"))),
    "first_column": ("B1", "the first column (column A)",
                     (("C1", "freezes two columns instead of one"), ("A2", "freezes the header row instead"),
                      ("B2", "freezes the header row as well"))),
    "both": ("B2", "both the header row (row 1) and the first column (column A)",
             (("A2", "freezes only the header row"), ("B1", "freezes only the first column"),
              ("C3", "freezes one row and one column too many"))),
}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', freeze the panes at cell {cell} to keep {what} in view while "
    "scrolling. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', keep {what} visible when scrolling by freezing panes at "
    "cell {cell}. Don't change the data, and save it in the same format.",
    "Please freeze {what} on sheet '{sheet}' of {path} (the frozen panes should start at cell {cell}). "
    "Save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and set frozen panes at {cell}, keeping {what} "
    "on screen however far you scroll. Save the spreadsheet in place.",
    "On sheet '{sheet}' in {path}, freeze rows and columns at cell {cell}, which locks {what} on screen. "
    "Save the file, keeping the xlsx format.",
)
NATURAL = (
    "Freeze {what.bare} in {path.file}; scrolling through the '{sheet}' sheet should keep that part in "
    "view.",
    "Help me keep {what.bare} of the '{sheet}' sheet in {path.file} on screen when scrolling, by "
    "freezing panes.",
    "Could you freeze {what.bare} in my spreadsheet {path.file}? I keep losing track of the labels when "
    "I scroll.",
    "Please lock {what.bare} in place on '{sheet}' in {path.file} by freezing the panes there.",
    "I'd like {what.bare} of {path.file} ('{sheet}') frozen so the labels stay visible while scrolling.",
)


class Params(TypedDict):
    target: Literal["header_row", "first_column", "both"]


@dataclass(frozen=True)
class Target:
    cell: str  # the freeze cell: rows above it and columns left of it stay in view


def goal(params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    cell, what, _ = TARGETS[params["target"]]
    layout = cc.layout_from(table, plan)
    facts = {"path": layout.path, "sheet": layout.sheet, "cell": cell, "what": what}
    return Goal(layout, facts, Target(cell))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    _, what, _ = TARGETS[params["target"]]
    check = Check(
        id="frozen",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, panes are frozen at {target.cell}, "
                  f"keeping {what} in view.",
        primitive="xlsx.freeze_panes",
        args={"path": layout.path, "sheet": layout.sheet, "cell": target.cell},
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    _, _, misses = TARGETS[params["target"]]
    base = {"op": "xlsx.freeze_panes", "path": layout.path, "sheet": layout.sheet}
    return Attempts(
        Attempt(f"freeze panes at {target.cell}", [{**base, "cell": target.cell}]),
        [Attempt(f"freezes at {wrong}: {why}", [{**base, "cell": wrong}]) for wrong, why in misses],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Freeze panes so the header row, the first column, or both stay visible while scrolling.",
    knobs={"target": ("header_row", "first_column", "both")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
