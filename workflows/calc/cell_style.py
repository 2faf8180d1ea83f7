"""calc.cell_style: direct cell formatting of a stated range (bold data column, header fill, font size)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openpyxl.utils import get_column_letter, range_boundaries

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


def all_but_last(ref: str) -> list[str]:
    """The ranges covering every cell of `ref` except its bottom-right one (row-major order)."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    first, last = get_column_letter(min_col), get_column_letter(max_col)
    parts = [f"{first}{min_row}:{last}{max_row - 1}"] if max_row > min_row else []
    if max_col > min_col:
        parts.append(f"{first}{max_row}:{get_column_letter(max_col - 1)}{max_row}")
    return parts


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    style = values["params"]["style"]
    layout = cc.layout_from(values["table"], values["plan"])
    header_ref = f"A1:{layout.last_letter}1"
    if style == "bold_column":
        column = rng.randrange(layout.width)
        ref = layout.col_ref(column)
        where = f"the data cells of the '{layout.header[column]}' column ({ref})"
        check: dict[str, Any] = {"bold": True}
        wrong: tuple[str, dict[str, Any]] = ("italic instead of bold", {"bold": None, "italic": True})
        words = "a bold font"
    elif style == "fill_header":
        ref = header_ref
        where = f"the header row ({ref})"
        (name, color), (_, other) = rng.sample(COLORS, 2)
        check = {"fill": color}
        wrong = ("a different fill color", {"color": other})
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
        check = {"size": size}
        wrong = ("a wrong font size", {"size": size + 2})
        words = f"a font size of {size} pt"
    facts = {"path": layout.path, "sheet": layout.sheet, "target": where, "style": words}
    target = {"ref": ref, "check": check, "where": where, "wrong": wrong, "bold_before": header_ref}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("params", "layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    check = Check(
        id="cell_style",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {target['where']} has "
                  f"{', '.join(f'{k} {v}' for k, v in target['check'].items())}.",
        primitive="xlsx.cell_style",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target["ref"], **target["check"],
              "bold_before": target["bold_before"]},
    )
    return {"rubric": [check, cc.unchanged_check(layout, exact=True)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    if "fill" in target["check"]:
        base = {"op": "xlsx.set_fill", "path": layout.path, "sheet": layout.sheet, "color": target["check"]["fill"]}
    else:
        base = {"op": "xlsx.set_font", "path": layout.path, "sheet": layout.sheet, **target["check"]}
    description, change = target["wrong"]
    return {"solutions": [
        Solution("oracle", "the asked formatting on every cell of the range", [{**base, "ref": target["ref"]}]),
        Solution("near-miss-1", "misses the last cell of the range",
                 [{**base, "ref": part} for part in all_but_last(target["ref"])]),
        Solution("near-miss-2", description, [{**base, "ref": target["ref"], **change}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Format a stated range directly: bold a column's data, fill the header row, or set a font size.",
    knobs={"style": STYLES},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
