"""calc.merge_cells: merge a stated range into one cell (a title over the table, a group label, a notes box).

Targets:
- title_row: the table starts in row 2 under a title in A1; merge A1:<last column>1 so the title spans it.
- header_block: merge a block of empty cells next to a label: a group label above the numeric columns
  (row 1, table from row 2) or a notes box beside the table (under a "Notes"-like label).
- center_title: like title_row, and the merged title must be centered horizontally. "Center Across
  Selection" alone is not a merge and fails; on a merged cell it shows centered and is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openpyxl.styles import Font
from openpyxl.utils import coordinate_to_tuple, get_column_letter, range_boundaries

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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
CENTER_EXTRA = ", and center its content horizontally"


def _ref(col_lo: int, row_lo: int, col_hi: int, row_hi: int) -> str:
    return f"{get_column_letter(col_lo)}{row_lo}:{get_column_letter(col_hi)}{row_hi}"


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target", "sheet_extras"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    target_kind = values["params"]["target"]
    rng = ctx.rng("goal")
    layout = cc.layout_from(values["table"], values["plan"])
    width = layout.width
    if target_kind in ("title_row", "center_title"):
        box = (1, 1, width, 1)
        extras = {"offset": 1, "cells": {"A1": layout.title}, "title_font": 14}
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
        extras = {"offset": 1, "cells": {cell: label}, "title_font": 0}
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
        extras = {"offset": 0, "cells": {cell: label}, "title_font": 0}
        purpose = f"to make one notes box under the '{label}' label in {cell}"
        text = None
        misses = [("one column short", (col, 2, col + cols - 2, 1 + rows)),
                  ("including the label row above the box", (col, 1, col + cols - 1, 1 + rows))]
    ref = _ref(*box)
    if target_kind == "center_title":
        purpose += CENTER_EXTRA
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "purpose": purpose}
    target = {"ref": ref, "text": text, "misses": [(why, _ref(*b)) for why, b in misses]}
    return {"layout": layout, "facts": facts, "target": target, "sheet_extras": extras}


def _workbook(layout: cc.Layout, extras: Mapping[str, Any]) -> Any:
    """The initial workbook: the table, shifted down for a title row, plus the label cells."""
    wb = xlsx.build_workbook(cc.workbook_spec(layout))
    ws = wb[layout.sheet]
    if extras["offset"]:
        ws.insert_rows(1, extras["offset"])
    for ref, value in extras["cells"].items():
        ws[ref] = value
        ws[ref].font = Font(bold=True, size=extras["title_font"] or None)
    return wb


@node("prepare", "prepare", ("layout", "sheet_extras"), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    return cc.workbook_outputs(layout, xlsx.to_bytes(_workbook(layout, values["sheet_extras"])))


@node("rubric", "rubric", ("params", "layout", "target", "sheet_extras"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    col_lo, row_lo, col_hi, row_hi = range_boundaries(target["ref"])

    def in_box(sheet: str, coord: str) -> bool:  # the merged cells: checked by `merged`
        row, col = coordinate_to_tuple(coord)
        return sheet == layout.sheet and col_lo <= col <= col_hi and row_lo <= row <= row_hi
    centered = values["params"]["target"] == "center_title"
    args: dict[str, Any] = {"path": layout.path, "sheet": layout.sheet, "ref": target["ref"]}
    criterion = f"On sheet '{layout.sheet}' of {layout.path}, {target['ref']} is one merged cell"
    if target["text"] is not None:
        args["text"] = target["text"]
        criterion += f" still showing '{target['text']}'"
    if centered:
        args["horizontal"] = "center"
        criterion += ", centered horizontally"
    merged = Check(id="merged", criterion=criterion + ".", primitive="xlsx.merged_range", args=args)
    wb = _workbook(layout, values["sheet_extras"])
    return {"rubric": [merged, cc.unchanged_check(layout, skip=in_box, workbook=wb)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    base = {"op": "xlsx.merge_cells", "path": layout.path, "sheet": layout.sheet}
    centered = values["params"]["target"] == "center_title"
    align = {"horizontal": "center"} if centered else {}
    solutions = [Solution("oracle", "merge exactly the asked range" + (" and center it" if centered else ""),
                          [{**base, "ref": target["ref"], **align}])]
    if centered:
        solutions += [
            Solution("near-miss-1", "merges the range but leaves the title left-aligned",
                     [{**base, "ref": target["ref"]}]),
            Solution("near-miss-2", "uses Center Across Selection instead of merging",
                     [{"op": "xlsx.center_across_selection", "path": layout.path, "sheet": layout.sheet,
                       "ref": target["ref"]}]),
            Solution("near-miss-3", f"merges and centers a range {target['misses'][0][0]}",
                     [{**base, "ref": target["misses"][0][1], **align}]),
        ]
    else:
        solutions += [Solution(f"near-miss-{i}", f"merges {ref}, {why}", [{**base, "ref": ref}])
                      for i, (why, ref) in enumerate(target["misses"], start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Merge a stated cell range into one cell (a title row, a label block), optionally centered.",
    knobs={"target": ("title_row", "header_block", "center_title")},
    nodes=(*cc.source_nodes(), goal, prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
