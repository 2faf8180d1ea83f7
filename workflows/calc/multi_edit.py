"""calc.multi_edit: several edits of one workbook in one request ("fill the blanks, format the prices and freeze
the header").

Users rarely ask for one change at a time: "in this sheet, put zeros in the empty Units cells, show Price as
dollars and freeze the top row". Every goal of the task edits the same workbook, on the same generated table, so
the second goal's preparation is the first one's document: one asset, one instruction listing the goals, one rubric
holding each goal's check and ONE frame over the combined change set (the kit's frame diffs the initial workbook
against the oracle's, which applies every goal's op in turn).

The goals are independent by construction (each touches its own region: the blanked cells of a whole-number
column, the data cells of a money column, the sheet's panes, the header row's fill), so their order never matters
and each check reads only its own region:

- `fill`: the blanked cells of a plain-number column get zero (`xlsx.fill_blanks`, `xlsx.blanks_filled`);
- `currency`: a money column's data cells get a US dollar format with 2 decimals (`xlsx.set_number_format`,
  `xlsx.number_format`);
- `freeze`: the header row is frozen (`xlsx.freeze_panes`, `xlsx.freeze_panes`);
- `color`: the header row gets a solid background colour (`xlsx.set_fill`, `xlsx.cell_style`).

The knob `edits` names which goals a task combines (2-4 of them). Near-misses: every goal done right but one left
out (the lazy agent who stops one short), and every goal done right but one done with its classic slip.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.multi_edit"
#: knob value -> the goals it combines, in the order the instruction lists them
EDITS: dict[str, tuple[str, ...]] = {
    "fill_currency": ("fill", "currency"),
    "freeze_color": ("freeze", "color"),
    "fill_currency_freeze": ("fill", "currency", "freeze"),
    "all_four": ("fill", "currency", "freeze", "color"),
}
COLORS = (("light blue", "DDEBF7"), ("light yellow", "FFF2CC"), ("light green", "E2EFDA"),
          ("light gray", "D9D9D9"), ("light orange", "FCE4D6"))
CURRENCY = "[$$-409]#,##0.00;[RED]-[$$-409]#,##0.00"  # as Calc writes a US dollar format
PLAIN = ("int", "number")  # the kinds of column whose blanks get zero (a money column is the currency goal's)
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', make these {count} changes:\n{goals}\nLeave everything else as it "
    "is and save the file in place as xlsx.",
    "The workbook {path} (sheet '{sheet}') needs {count} edits, all in this one file:\n{goals}\nDo not change "
    "anything else; save it in the same format.",
    "Please do all of the following on sheet '{sheet}' of {path}:\n{goals}\nKeep the other cells and settings "
    "unchanged and save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and carry out these {count} edits:\n{goals}\n"
    "Then save the spreadsheet in place, keeping the xlsx format.",
    "I have {count} things to fix in {path}, sheet '{sheet}':\n{goals}\nNothing else should change. Save the "
    "file as xlsx when done.",
)
NATURAL = (
    "A few fixes for {path.file}, please: {said}.",
    "Could you tidy up {path.file}? I need to {said}.",
    "Help me with my spreadsheet {path.file}: {said}.",
    "In {path.file}, please {said}. Then save it.",
    "Before I send {path.file} around, could you {said}?",
)


class Params(TypedDict):
    edits: Literal["fill_currency", "freeze_color", "fill_currency_freeze", "all_four"]


@dataclass(frozen=True)
class Target:
    goals: tuple[str, ...]
    fill_column: int | None  # the plain-number column with blanks
    fill_rows: tuple[int, ...]  # its blanked data rows (0-based)
    money_column: int | None  # the money column to show as dollars
    color: tuple[str, str] | None  # the header fill: (name, RGB hex)
    other_color: str  # a near-miss's wrong fill

    def fill_cells(self, layout: cc.Layout) -> list[str]:
        assert self.fill_column is not None
        return [f"{layout.letter(self.fill_column)}{row + 2}" for row in self.fill_rows]


def usable(layout: cc.Layout, params: Mapping[str, Any]) -> bool:
    """A table the goals fit: a plain-number column of at least 5 rows for `fill`, a money column for `currency`."""
    goals = EDITS[params["edits"]]
    return (("fill" not in goals or (bool(layout.columns_of(*PLAIN)) and len(layout.rows) >= 5))
            and ("currency" not in goals or bool(layout.columns_of("money"))))


content = cc.redrawn_content(usable)


def _header_ref(layout: cc.Layout) -> str:
    return f"A1:{layout.last_letter}1"


def _said(goal: str, layout: cc.Layout, target: Target, natural: bool) -> str:
    """One goal in words: a sentence of the explicit list, or a short clause of a user's request."""
    if goal == "fill":
        assert target.fill_column is not None
        header = layout.header[target.fill_column]
        return (f"put zero in each empty cell of the '{header}' column" if natural else
                f"Fill each empty cell of the '{header}' column with zero; the filled cells keep their values.")
    if goal == "currency":
        assert target.money_column is not None
        header, ref = layout.header[target.money_column], layout.col_ref(target.money_column)
        return (f"show '{header}' as US dollars with the $ sign and 2 decimals" if natural else
                f"Give the '{header}' cells {ref} a US dollar currency format with the $ sign and 2 decimal "
                f"places (the values stay as they are).")
    if goal == "freeze":
        return ("freeze the header row so it stays visible" if natural else
                "Freeze the panes at cell A2 so the header row (row 1) stays visible while scrolling.")
    assert target.color is not None
    name, hex_color = target.color
    return (f"give the header row a {name} background (hex {hex_color})" if natural else
            f"Give the header row ({_header_ref(layout)}) a solid {name} background fill (hex color {hex_color}).")


def _join(clauses: list[str]) -> str:
    return ", ".join(clauses[:-1]) + f" and {clauses[-1]}" if len(clauses) > 1 else clauses[0]


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    goals = EDITS[params["edits"]]
    full = cc.layout_from(table, plan)
    fill_column: int | None = None
    rows: tuple[int, ...] = ()
    money_column: int | None = None
    color: tuple[str, str] | None = None
    if "fill" in goals:
        fill_column = rng.choice(full.columns_of(*PLAIN))
        inner = range(1, len(full.rows) - 1)
        while True:  # 2-3 inner data rows, never two in a row
            rows = tuple(sorted(rng.sample(inner, min(len(inner), rng.randint(2, 3)))))
            if all(b - a > 1 for a, b in zip(rows, rows[1:], strict=False)):
                break
    if "currency" in goals:
        money_column = rng.choice(full.columns_of("money"))
    (name, hex_color), (_, other) = rng.sample(COLORS, 2)
    if "color" in goals:
        color = (name, hex_color)
    layout = full
    if fill_column is not None:
        layout = full.with_rows([[None if (i in rows and c == fill_column) else v for c, v in enumerate(row)]
                                 for i, row in enumerate(full.rows)])
    target = Target(goals, fill_column, rows, money_column, color, other)
    listed = "\n".join(f"{n}. {_said(g, layout, target, False)}" for n, g in enumerate(goals, start=1))
    facts = {"path": layout.path, "sheet": layout.sheet, "count": {2: "two", 3: "three", 4: "four"}[len(goals)],
             "goals": listed, "said": _join([_said(g, layout, target, True) for g in goals])}
    return Goal(layout, facts, target)


def _checks(layout: cc.Layout, target: Target) -> dict[str, Check]:
    where = f"sheet '{layout.sheet}' of {layout.path}"
    checks: dict[str, Check] = {}
    if target.fill_column is not None:
        header = layout.header[target.fill_column]
        checks["fill"] = Check(
            "filled", f"On {where}, each empty cell of the '{header}' column ({', '.join(target.fill_cells(layout))}) "
                      f"holds zero.",
            "xlsx.blanks_filled",
            {"path": layout.path, "sheet": layout.sheet, "header": header, "fill": "zero",
             "cells": target.fill_cells(layout), "expected": [0.0] * len(target.fill_rows)})
    if target.money_column is not None:
        ref = layout.col_ref(target.money_column)
        checks["currency"] = Check(
            "currency", f"On {where}, every cell of {ref} keeps its value and shows it as US dollars with the $ sign "
                        f"and 2 decimal places.",
            "xlsx.number_format",
            {"path": layout.path, "sheet": layout.sheet, "ref": ref, "kind": "currency", "symbol": "$",
             "decimals": 2})
    checks["freeze"] = Check(
        "frozen", f"On {where}, panes are frozen at A2, keeping the header row (row 1) in view.",
        "xlsx.freeze_panes", {"path": layout.path, "sheet": layout.sheet, "cell": "A2"})
    if target.color is not None:
        ref = _header_ref(layout)
        checks["color"] = Check(
            "header_fill", f"On {where}, every cell of the header row ({ref}) has a solid {target.color[0]} "
                           f"background (fill {target.color[1]}).",
            "xlsx.cell_style",
            {"path": layout.path, "sheet": layout.sheet, "ref": ref, "fill": target.color[1], "bold_before": ref})
    return checks


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    """Each goal's check, in the instruction's order (the kit appends the one frame over all their changes)."""
    checks = _checks(layout, target)
    return [checks[g] for g in target.goals]


def _ops(goal: str, layout: cc.Layout, target: Target, slip: bool = False) -> list[dict[str, Any]]:
    """The oracle's op for one goal, or (`slip`) its classic mistake."""
    base = {"path": layout.path, "sheet": layout.sheet}
    if goal == "fill":
        assert target.fill_column is not None
        return [{"op": "xlsx.fill_blanks", **base, "ref": layout.col_ref(target.fill_column), "fill": "zero",
                 **({"skip": 1} if slip else {})}]
    if goal == "currency":
        assert target.money_column is not None
        return [{"op": "xlsx.set_number_format", **base, "ref": layout.col_ref(target.money_column),
                 "number_format": '"$"#,##0' if slip else CURRENCY}]
    if goal == "freeze":
        return [{"op": "xlsx.freeze_panes", **base, "cell": "B2" if slip else "A2"}]
    assert target.color is not None
    return [{"op": "xlsx.set_fill", **base, "ref": _header_ref(layout),
             "color": target.other_color if slip else target.color[1]}]


SLIPS = {"fill": "leaves the last empty cell empty", "currency": "the dollar format without decimals",
         "freeze": "freezes the first column as well as the header row", "color": "a different header colour"}


def solve(layout: cc.Layout, target: Target) -> Attempts:
    goals = target.goals
    oracle = [op for g in goals for op in _ops(g, layout, target)]
    misses = []
    for left in goals:
        misses.append(Attempt(f"does every goal but '{left}'",
                              [op for g in goals if g != left for op in _ops(g, layout, target)]))
    for wrong in goals:
        misses.append(Attempt(f"every goal done, but '{wrong}' {SLIPS[wrong]}",
                              [op for g in goals for op in _ops(g, layout, target, slip=g == wrong)]))
    return Attempts(Attempt("carry out every goal on the one workbook: " + ", ".join(goals), oracle), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Make 2-4 independent edits of one workbook in one request (fill blanks with zero, a dollar format, "
                "a frozen header row, a header colour), changing nothing else.",
    knobs={"edits": tuple(EDITS)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=(cc.sample, content),
)
