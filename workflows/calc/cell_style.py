"""calc.cell_style: direct cell formatting of a stated range (bold data column, header fill, font size)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from openpyxl.utils import get_column_letter, range_boundaries

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.cell_style"
STYLES = ("bold_column", "fill_header", "font_size")
COLORS = (("light blue", "DDEBF7"), ("light yellow", "FFF2CC"), ("light green", "E2EFDA"),
          ("light gray", "D9D9D9"), ("light orange", "FCE4D6"), ("pale purple", "E4DFEC"))
SIZES = (9, 10, 12, 14, 16, 18)  # the file's cells start at 11 pt
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', apply {style} to {target}. Leave the other cells as they are and "
    "save the file in place as xlsx.",
    "In the workbook {path} (sheet '{sheet}'), format {target} with {style}. Save it in the same xlsx format.",
    "Please give {target} on sheet '{sheet}' of {path} {style}. Keep everything else unchanged and save the "
    "workbook as xlsx.",
    "The sheet '{sheet}' in {path} needs some formatting: {target} should get {style}. Save the spreadsheet "
    "in place (keep the xlsx format).",
    "Using LibreOffice Calc, open {path}, select {target} on sheet '{sheet}' and apply {style}. Then save the "
    "file as xlsx.",
)
NATURAL = (
    "In {path.file}, give {target.bare} {style}.",
    "Help me format {target.bare} on the '{sheet}' sheet of {path.file} with {style}.",
    "Could you apply {style} to {target.bare} in my spreadsheet {path.file}?",
    "I want {target.bare} in {path.file} to stand out: use {style}, then save.",
    "Please style {target.bare} of the '{sheet}' sheet in {path.file} with {style}.",
)


def all_but_last(ref: str) -> list[str]:
    """The ranges covering every cell of `ref` except its bottom-right one (row-major order)."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    first, last = get_column_letter(min_col), get_column_letter(max_col)
    parts = [f"{first}{min_row}:{last}{max_row - 1}"] if max_row > min_row else []
    if max_col > min_col:
        parts.append(f"{first}{max_row}:{get_column_letter(max_col - 1)}{max_row}")
    return parts


class Params(TypedDict):
    style: Literal["bold_column", "fill_header", "font_size"]


@dataclass(frozen=True)
class Target:
    ref: str  # the range to format
    asked: dict[str, Any]  # the style every cell of it must have: {"bold": True} / {"fill": hex} / {"size": pt}
    where: str  # the range in words
    miss: str  # a plausible wrong style: what it does ...
    miss_change: dict[str, Any]  # ... and how it changes the oracle's op
    bold_before: str  # the cells that are bold in the initial file (the header row)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    style = params["style"]
    layout = cc.layout_from(table, plan)
    header_ref = f"A1:{layout.last_letter}1"
    if style == "bold_column":
        column = rng.randrange(layout.width)
        ref = layout.col_ref(column)
        where = f"the data cells of the '{layout.header[column]}' column ({ref})"
        asked: dict[str, Any] = {"bold": True}
        change: dict[str, Any] = {"bold": None, "italic": True}
        miss = "italic instead of bold"
        words = "a bold font"
    elif style == "fill_header":
        ref = header_ref
        where = f"the header row ({ref})"
        (name, color), (_, other) = rng.sample(COLORS, 2)
        asked = {"fill": color}
        miss, change = "a different fill color", {"color": other}
        words = f"a solid {name} background fill (hex color {color})"
    else:
        choice = rng.choice(("header", "column", "table"))
        if choice == "header":
            ref, where = header_ref, f"the header row ({header_ref})"
        elif choice == "column":
            column = rng.randrange(layout.width)
            ref = layout.col_ref(column)
            where = f"the data cells of the '{layout.header[column]}' column ({ref})"
        else:
            ref, where = layout.table_ref, f"the whole table including the header ({layout.table_ref})"
        size = rng.choice(SIZES)
        asked = {"size": size}
        miss, change = "a wrong font size", {"size": size + 2}
        words = f"a font size of {size} pt"
    facts = {"path": layout.path, "sheet": layout.sheet, "target": where, "style": words}
    return Goal(layout, facts, Target(ref, asked, where, miss, change, header_ref))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    check = Check(
        id="cell_style",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {target.where} has "
                  f"{', '.join(f'{k} {v}' for k, v in target.asked.items())}.",
        primitive="xlsx.cell_style",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref, **target.asked,
              "bold_before": target.bold_before},
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    if "fill" in target.asked:
        base = {"op": "xlsx.set_fill", "path": layout.path, "sheet": layout.sheet, "color": target.asked["fill"]}
    else:
        base = {"op": "xlsx.set_font", "path": layout.path, "sheet": layout.sheet, **target.asked}
    return Attempts(
        Attempt("the asked formatting on every cell of the range", [{**base, "ref": target.ref}]),
        [Attempt("misses the last cell of the range", [{**base, "ref": part} for part in all_but_last(target.ref)]),
         Attempt(target.miss, [{**base, "ref": target.ref, **target.miss_change}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Format a stated range directly: bold a column's data, fill the header row, or set a font size.",
    knobs={"style": STYLES},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
