"""calc.totals_row: add a labelled totals row (SUM, AVERAGE, MAX or MIN per numeric column) under a table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.calc import kit as cc
from workflows.calc.formula_column import evaluate_on
from workflows.calc.summary_cell import deciding_row, leaky, unleak

NAME = "calc.totals_row"
FUNCTIONS = ("SUM", "AVERAGE", "MAX", "MIN")
LABELS = {"SUM": ("Total", "Totals", "Grand Total"), "AVERAGE": ("Average", "Averages", "Mean"),
          "MAX": ("Maximum", "Highest", "Max"), "MIN": ("Minimum", "Lowest", "Min")}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', add a row directly under the table (row {row}): type '{label}' in "
    "{label_cell} and, for each numeric column ({columns}), enter a {function} formula over that column's data "
    "rows in {cells}. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', the data ends in row {last}. Put the label '{label}' in "
    "{label_cell} and {function} formulas in {cells}, one per numeric column ({columns}), each covering all data "
    "rows of its column. Keep the xlsx format when saving.",
    "Please add a '{label}' row right below the table on sheet '{sheet}' of {path}: the label goes in "
    "{label_cell}, and cells {cells} get formulas using {function} over the full data range of {columns}. "
    "Use formulas, not typed numbers, and save the workbook in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and build a summary row in row {row}. "
    "{label_cell} should read '{label}'; {cells} should hold {function} formulas for {columns}, each "
    "over rows 2 to {last} of its column. Save as xlsx, overwriting the file.",
    "The table on sheet '{sheet}' in {path} needs a '{label}' line directly beneath its last row. Write "
    "'{label}' in {label_cell} and enter {function} formulas in {cells} covering every data row of "
    "{columns}. Save the spreadsheet in the same file and format.",
)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _formula(layout: cc.Layout, function: str, column: int, first: int = 2) -> str:
    letter = layout.letter(column)
    return f"={function}({letter}{first}:{letter}{layout.last_row})"


def _unleaked(layout: cc.Layout, formula: str, column: int, function: str, facts: Mapping[str, Any]) -> cc.Layout:
    """`layout`, or (when `formula`'s value would appear in an instruction) one with the deciding cell moved."""
    if not leaky(evaluate_on(layout, formula), facts, PHRASINGS):
        return layout

    def value_of(rows: list[list[Any]]) -> float:
        return evaluate_on(layout.with_rows(rows), formula)

    moved = unleak([list(r) for r in layout.rows], column, layout.kinds[column],
                   deciding_row(layout.column(column), function), value_of,
                   lambda value: leaky(value, facts, PHRASINGS))
    return layout.with_rows(moved)


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    function = values["params"]["function"]
    layout = cc.layout_from(values["table"], values["plan"])
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    row = layout.last_row + 1
    label = rng.choice(LABELS[function])
    facts = {"path": layout.path, "sheet": layout.sheet, "row": row, "last": layout.last_row, "label": label,
             "label_cell": f"A{row}", "function": function,
             "columns": _join([f"'{layout.header[c]}' ({layout.letter(c)})" for c in numeric]),
             "cells": _join([f"{layout.letter(c)}{row}" for c in numeric])}
    for column in numeric:  # no computed total may show up in the instruction by coincidence
        layout = _unleaked(layout, _formula(layout, function, column), column, function, facts)
    target = {"function": function, "row": row, "label": label, "numeric": numeric}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    t = values["target"]
    where = {"path": layout.path, "sheet": layout.sheet}
    checks = [Check(id="label", criterion=f"A{t['row']} on sheet '{layout.sheet}' holds '{t['label']}'.",
                    primitive="xlsx.cell_value", args={**where, "cell": f"A{t['row']}", "expected": t["label"]})]
    for column in t["numeric"]:
        cell = f"{layout.letter(column)}{t['row']}"
        checks.append(Check(
            id=f"total_{layout.letter(column)}",
            criterion=f"{cell} holds a {t['function']} formula over {layout.col_ref(column)} "
                      f"('{layout.header[column]}') with the right value.",
            primitive="xlsx.formula_value",
            args={**where, "cell": cell, "function": t["function"], "ref": layout.col_ref(column),
                  "expected": evaluate_on(layout, _formula(layout, t["function"], column)), "tolerance": 0.005,
                  "formula": _formula(layout, t["function"], column)},
        ))
    return {"rubric": [*checks, cc.unchanged_check(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    t = values["target"]
    function, row, numeric = t["function"], t["row"], t["numeric"]
    skipped = ctx.rng("solve").choice(numeric)

    def cells(at: int, columns: list[int], first: int = 2) -> dict[str, Any]:
        formulas = {f"{layout.letter(c)}{at}": _formula(layout, function, c, first) for c in columns}
        return {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet,
                "cells": {f"A{at}": t["label"], **formulas}}

    return {"solutions": [
        Solution("oracle", "label plus one formula per numeric column over all data rows", [cells(row, numeric)]),
        Solution("near-miss-1", f"leaves out the '{layout.header[skipped]}' column",
                 [cells(row, [c for c in numeric if c != skipped])]),
        Solution("near-miss-2", "every range starts at row 3, leaving out the first data row",
                 [cells(row, numeric, first=3)]),
        Solution("near-miss-3", "puts the row one row too low, leaving a blank row under the table",
                 [cells(row + 1, numeric)]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Add a labelled totals row with one aggregate formula per numeric column under a table.",
    knobs={"function": FUNCTIONS},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
