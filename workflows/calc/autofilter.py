"""calc.autofilter: add an AutoFilter over the whole table or over its first columns (header row included)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openpyxl.utils import get_column_letter

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.calc import kit as cc

NAME = "calc.autofilter"
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', add an AutoFilter to {scope}: the range {ref}, with the filter "
    "buttons in the header row. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', switch on AutoFilter for {ref} ({scope}) so each of those "
    "header cells gets a drop-down. Save it in the same format.",
    "Please put filter drop-downs on {scope} on sheet '{sheet}' of {path} by applying an AutoFilter to "
    "exactly {ref}. Save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}', select {ref} ({scope}) and turn on "
    "AutoFilter. No filter criteria are needed. Save the spreadsheet in place.",
    "On sheet '{sheet}' in {path}, set up an AutoFilter over {ref}, that is {scope}. Save the file, keeping "
    "the xlsx format.",
)


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout = cc.layout_from(values["table"], values["plan"])
    if values["params"]["target"] == "table":
        last_col = layout.width
        scope = "the whole table with its header row"
    else:  # a leading block of columns, strictly narrower than the table and at least three wide
        last_col = ctx.rng("goal").randint(3, layout.width - 1)
        scope = f"the header row and data rows of columns A to {get_column_letter(last_col)} only"
    ref = f"A1:{get_column_letter(last_col)}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "scope": scope}
    return {"layout": layout, "facts": facts, "target": {"ref": ref, "last_col": last_col}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    ref = values["target"]["ref"]
    check = Check(
        id="autofilter",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, an AutoFilter covers exactly {ref}.",
        primitive="xlsx.autofilter",
        args={"path": layout.path, "sheet": layout.sheet, "ref": ref},
    )
    return {"rubric": [check, cc.unchanged_check(layout, exact=True)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    ref, last_col = values["target"]["ref"], values["target"]["last_col"]
    last_row = layout.last_row
    base = {"op": "xlsx.set_autofilter", "path": layout.path, "sheet": layout.sheet}

    def box(col: int, row: int) -> str:
        return f"A1:{get_column_letter(col)}{row}"

    solutions = [
        Solution("oracle", f"AutoFilter over exactly {ref}", [{**base, "ref": ref}]),
        Solution("near-miss-1", "range stops one row short of the last data row",
                 [{**base, "ref": box(last_col, last_row - 1)}]),
        Solution("near-miss-2", "range stops one column short", [{**base, "ref": box(last_col - 1, last_row)}]),
    ]
    if values["params"]["target"] == "header_to_column":
        solutions.append(Solution("near-miss-3", "filters the whole table instead of the stated columns",
                                  [{**base, "ref": layout.table_ref}]))
    else:
        solutions.append(Solution("near-miss-3", "filters only the data rows, leaving the header out",
                                  [{**base, "ref": layout.data_ref}]))
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Add an AutoFilter over a stated table range (the whole table or its first columns).",
    knobs={"target": ("table", "header_to_column")},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
