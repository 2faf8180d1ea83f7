"""calc.view_settings: change a view option saved with the sheet: hide the row and column headers, show them again,
or hide zero values.

The zoom and the grid lines were meant as knob values too, but a LibreOffice re-save of the xlsx drops both (it writes
zoomScale="100" and showGridLines="true" whatever the file said), so a task asking for them could not be verified
after a real save; the headers and the zero values it keeps."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import xlsx
from workflows.calc import kit as cc

NAME = "calc.view_settings"
SETTINGS = ("hide_headers", "show_headers", "hide_zeros")
#: setting -> (the option it changes, its new state, how the instruction asks for it)
ASKS: dict[str, tuple[str, bool, str]] = {
    "hide_headers": ("headers", False, "hide the row and column headers (the row numbers and column letters)"),
    "show_headers": ("headers", True, "show the row and column headers (the row numbers and column letters) again, "
                                      "which are hidden now"),
    "hide_zeros": ("zeros", False, "hide zeros (the zero values, so that cells holding 0 look blank)"),
}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', {action}. This is a view option of the sheet; change no cell. Save the "
    "file in place as xlsx.",
    "In the workbook {path}, change the view of the sheet '{sheet}': {action}. Leave the data and every other option "
    "as it is, and keep the xlsx format.",
    "Using LibreOffice Calc, open {path}, go to the sheet '{sheet}' and {action}. Save the spreadsheet in place so "
    "the setting is kept.",
    "On the sheet '{sheet}' of {path}, {action} through the view options (not by editing or formatting cells). Save "
    "the workbook as xlsx, overwriting it.",
    "Please {action} on the sheet '{sheet}' in {path}, then save the file in the same place and format.",
)
NATURAL = (
    "In {path.file}, please {action.bare} on the '{sheet}' sheet.",
    "Could you {action.bare} in {path.file}? Just the view of the '{sheet}' sheet.",
    "Help me {action.bare} for the '{sheet}' sheet of {path.file} and save it.",
    "I'd like to {action.bare} in my spreadsheet {path.file} ('{sheet}' sheet).",
    "For the '{sheet}' sheet in {path.file}, {action.bare}, and keep the file as it is otherwise.",
)


class Params(TypedDict):
    setting: Literal["hide_headers", "show_headers", "hide_zeros"]


@dataclass(frozen=True)
class Target:
    setting: str  # the knob
    option: str  # headers or zeros
    initial: dict[str, bool]  # the view before: {"headers": ..., "zeros": ...}

    @property
    def wanted(self) -> dict[str, bool]:
        return {**self.initial, self.option: ASKS[self.setting][1]}


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    setting = params["setting"]
    option, _, action = ASKS[setting]
    layout = cc.layout_from(table, plan)
    if setting == "hide_zeros":  # a few zeros in a whole-number column, the cells the user wants blank
        column = rng.choice(layout.columns_of("int") or layout.columns_of(*cc.NUMERIC_KINDS))
        rows = [list(r) for r in layout.rows]
        for i in rng.sample(range(len(rows)), min(2, len(rows) - 1)):
            rows[i][column] = 0
        layout = layout.with_rows(rows)
    initial = {"headers": setting != "show_headers", "zeros": True}
    facts = {"path": layout.path, "sheet": layout.sheet, "action": action}
    return Goal(layout, facts, Target(setting, option, initial))


def prepare(layout: cc.Layout, target: Target) -> Mapping[str, Any]:
    """The table, its headers hidden when the task shows them again."""
    wb = xlsx.build_workbook(cc.workbook_spec(layout))
    if not target.initial["headers"]:
        wb[layout.sheet].sheet_view.showRowColHeaders = False
    return cc.workbook_outputs(layout, xlsx.to_bytes(wb))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    wanted = target.wanted
    says = {"headers": "row and column headers", "zeros": "zero values"}
    state = "; ".join(f"{says[o]} {'shown' if wanted[o] else 'hidden'}" for o in ("headers", "zeros"))
    # the frame models no view option: the one the task does not change is read here too (it keeps its state)
    return [Check(
        id="sheet_view",
        criterion=f"The sheet '{layout.sheet}' of {layout.path} is saved with {state}.",
        primitive="xlsx.sheet_view",
        args={"path": layout.path, "sheet": layout.sheet, "asked": target.option, **wanted})]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.sheet_view", "path": layout.path, "sheet": layout.sheet}
    asked = {target.option: target.wanted[target.option]}
    other = "zeros" if target.option == "headers" else "headers"
    misses = [Attempt("turns the grid lines off instead", [{**base, "gridlines": False}]),
              Attempt(f"changes the {other} instead", [{**base, other: not target.initial[other]}]),
              Attempt(f"also hides the {other}", [{**base, **asked, other: False}])]
    return Attempts(Attempt(f"sets the {target.option} to {'shown' if asked[target.option] else 'hidden'}",
                            [{**base, **asked}]), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Change a view option saved with the sheet: hide or show the row and column headers, or hide zero "
                "values.",
    knobs={"setting": SETTINGS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
