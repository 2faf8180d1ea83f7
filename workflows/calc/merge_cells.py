"""calc.merge_cells: merge a stated range into one cell (a title over the table, a group label, a notes box).

Targets:
- title_row: the table starts in row 2 under a title in A1; merge A1:<last column>1 so the title spans it.
- header_block: merge a block of empty cells next to a label: a group label above the numeric columns
  (row 1, table from row 2) or a notes box beside the table (under a "Notes"-like label).
- center_title: like title_row, and the merged title must be centered horizontally. "Center Across
  Selection" alone is not a merge and fails; on a merged cell it shows centered and is accepted.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import xlsx
from workflows.calc import kit as cc

NAME = "calc.merge_cells"
GROUP_LABELS = ("Figures", "Key Figures", "Amounts", "Measures", "Numbers")
NOTE_LABELS = ("Notes", "Reviewer Notes", "Comments", "Remarks")
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', merge the cells {ref} into a single cell {purpose}. "
    "Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}': merge {ref} into one cell {purpose}. Keep all other "
    "contents as they are and save the workbook in the same format.",
    "Please merge the range {ref} on sheet '{sheet}' of {path} {purpose}. Leave the table data "
    "untouched, then save the file in place (xlsx).",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and merge the cell range {ref} "
    "{purpose}. Save the spreadsheet, keeping the xlsx format.",
    "On sheet '{sheet}' in {path}, select {ref} and merge it into one cell {purpose}. Then save the "
    "file in place as xlsx.",
)
NATURAL = (
    "On the '{sheet}' sheet of {path.file}, merge {ref} {purpose}.",
    "Help me tidy the layout of {path.file}: merge cells {ref} into one {purpose}.",
    "Could you merge {ref} in my spreadsheet {path.file} {purpose}?",
    "Please combine {ref} on '{sheet}' into a single merged cell {purpose}. The file is {path.file}.",
    "I'd like {ref} in {path.file} merged {purpose}. Keep everything else as it is.",
)
CENTER_EXTRA = ", and center its content horizontally"


def _ref(col_lo: int, row_lo: int, col_hi: int, row_hi: int) -> str:
    return f"{get_column_letter(col_lo)}{row_lo}:{get_column_letter(col_hi)}{row_hi}"


class Params(TypedDict):
    target: Literal["title_row", "header_block", "center_title"]


@dataclass(frozen=True)
class Target:
    ref: str  # the range to merge
    text: str | None  # the text the merged cell must still show (None for an empty notes box)
    misses: list[tuple[str, str]]  # plausible wrong ranges: (why it is wrong, the range)


@dataclass(frozen=True)
class SheetExtras:
    """What the initial sheet holds besides the table (the goal's `sheet_extras` output, read by prepare)."""

    offset: int  # rows the table is shifted down by (1 under a title or group-label row)
    cells: dict[str, str]  # label cells: coordinate -> text, bold
    title_font: int  # the labels' font size (0: the default size)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    target_kind = params["target"]
    layout = cc.layout_from(table, plan)
    width = layout.width
    if target_kind in ("title_row", "center_title"):
        box = (1, 1, width, 1)
        extras = SheetExtras(offset=1, cells={"A1": layout.title}, title_font=14)
        purpose = f"so the title '{layout.title}' in A1 spans the whole table below it"
        text: str | None = layout.title
        # near-miss ranges: one column short, one column too wide
        misses = [("one column short of the table width", (1, 1, width - 1, 1)),
                  ("one column wider than the table", (1, 1, width + 1, 1))]
    elif rng.random() < 0.5:  # group label above the numeric columns
        numeric = layout.columns_of(*cc.NUMERIC_KINDS)
        low, high = numeric[0] + 1, numeric[-1] + 1
        label = rng.choice(GROUP_LABELS)
        cell = f"{get_column_letter(low)}1"
        box = (low, 1, high, 1)
        extras = SheetExtras(offset=1, cells={cell: label}, title_font=0)
        purpose = f"so the label '{label}' in {cell} spans the numeric columns below it"
        text = label
        size = ("one column short", (low, 1, high - 1, 1)) if high - low >= 2 else \
            ("one column too wide", (low, 1, high + 1, 1))
        misses = [size, ("starting one column too early", (low - 1, 1, high - 1, 1))]
    else:  # a notes box beside the table, under a label
        label = rng.choice(NOTE_LABELS)
        col = width + 2
        cols, rows = rng.randint(2, 3), rng.randint(3, 5)
        cell = f"{get_column_letter(col)}1"
        box = (col, 2, col + cols - 1, 1 + rows)
        extras = SheetExtras(offset=0, cells={cell: label}, title_font=0)
        purpose = f"to make one notes box under the '{label}' label in {cell}"
        text = None
        misses = [("one column short", (col, 2, col + cols - 2, 1 + rows)),
                  ("including the label row above the box", (col, 1, col + cols - 1, 1 + rows))]
    ref = _ref(*box)
    if target_kind == "center_title":
        purpose += CENTER_EXTRA
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "purpose": purpose}
    target = Target(ref, text, [(why, _ref(*b)) for why, b in misses])
    return Goal(layout, facts, target, extra={"sheet_extras": extras})


def _workbook(layout: cc.Layout, extras: SheetExtras) -> Any:
    """The initial workbook: the table, shifted down for a title row, plus the label cells."""
    wb = xlsx.build_workbook(cc.workbook_spec(layout))
    ws = wb[layout.sheet]
    if extras.offset:
        ws.insert_rows(1, extras.offset)
    for ref, value in extras.cells.items():
        ws[ref] = value
        ws[ref].font = Font(bold=True, size=extras.title_font or None)
    return wb


def prepare(layout: cc.Layout, sheet_extras: SheetExtras) -> Mapping[str, Any]:
    return cc.workbook_outputs(layout, xlsx.to_bytes(_workbook(layout, sheet_extras)))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    centered = params["target"] == "center_title"
    args: dict[str, Any] = {"path": layout.path, "sheet": layout.sheet, "ref": target.ref}
    criterion = f"On sheet '{layout.sheet}' of {layout.path}, {target.ref} is one merged cell"
    if target.text is not None:
        args["text"] = target.text
        criterion += f" still showing '{target.text}'"
    if centered:
        args["horizontal"] = "center"
        criterion += ", centered horizontally"
    return [Check(id="merged", criterion=criterion + ".", primitive="xlsx.merged_range", args=args)]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.merge_cells", "path": layout.path, "sheet": layout.sheet}
    centered = params["target"] == "center_title"
    align = {"horizontal": "center"} if centered else {}
    oracle = Attempt("merge exactly the asked range" + (" and center it" if centered else ""),
                     [{**base, "ref": target.ref, **align}])
    if not centered:
        return Attempts(oracle, [Attempt(f"merges {ref}, {why}", [{**base, "ref": ref}]) for why, ref in target.misses])
    why, ref = target.misses[0]
    return Attempts(oracle, [
        Attempt("merges the range but leaves the title left-aligned", [{**base, "ref": target.ref}]),
        Attempt("uses Center Across Selection instead of merging",
                [{"op": "xlsx.center_across_selection", "path": layout.path, "sheet": layout.sheet,
                  "ref": target.ref}]),
        Attempt(f"merges and centers a range {why}", [{**base, "ref": ref, **align}]),
    ])


WORKFLOW = family(
    NAME, cc.CALC,
    description="Merge a stated cell range into one cell (a title row, a label block), optionally centered.",
    knobs={"target": ("title_row", "header_block", "center_title")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
    outputs=("sheet_extras",),
)
