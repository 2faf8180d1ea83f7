"""calc.sort_rows: sort a table's data rows by one column (numeric, text or date; asc or desc)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openpyxl.utils import coordinate_to_tuple

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows import calc_common as cc

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


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    params = values["params"]
    layout = cc.layout_from(values["table"], values["plan"])
    candidates = layout.columns_of(*KIND_COLUMNS[params["key_kind"]])
    column = ctx.rng("goal").choice(candidates)
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": layout.data_ref, "header": layout.header[column],
             "order": ORDER_WORDS[params["key_kind"], params["order"]]}
    return {"layout": layout, "facts": facts, "target": column}


@node("rubric", "rubric", ("params", "layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    column: int = values["target"]
    descending = values["params"]["order"] == "desc"
    check = Check(
        id="sorted",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, rows {layout.data_ref} are sorted by "
                  f"'{layout.header[column]}' {'descending' if descending else 'ascending'}, rows kept intact.",
        primitive="xlsx.range_sorted",
        args={"path": layout.path, "sheet": layout.sheet, "ref": layout.data_ref,
              "key_column": layout.letter(column), "header": layout.header[column], "descending": descending,
              "rows": layout.text_rows()},
    )

    def rows_move(sheet: str, coord: str) -> bool:  # the data rows: `sorted` checks them
        return sheet == layout.sheet and coordinate_to_tuple(coord)[0] >= 2

    return {"rubric": [check, cc.unchanged_check(layout, skip=rows_move)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    column: int = values["target"]
    descending = values["params"]["order"] == "desc"
    base = {"op": "xlsx.sort_rows", "path": layout.path, "sheet": layout.sheet, "ref": layout.data_ref,
            "key_column": layout.letter(column)}
    return {"solutions": [
        Solution("oracle", "sort whole rows by the key column in the asked order",
                 [{**base, "descending": descending}]),
        Solution("near-miss-1", "sorts in the opposite direction", [{**base, "descending": not descending}]),
        Solution("near-miss-2", "sorts only the key column, breaking rows apart",
                 [{**base, "descending": descending, "key_only": True}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Sort the data rows of a table by one column, keeping rows intact.",
    knobs={"key_kind": ("numeric", "text", "date"), "order": ("asc", "desc")},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
