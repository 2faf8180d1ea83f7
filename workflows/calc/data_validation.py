"""calc.data_validation: restrict what a column's data cells accept (a list of values, or number bounds)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.calc import kit as cc
from workflows.calc.conditional_format import one_row_short, show_number, tidy

NAME = "calc.data_validation"
KINDS = ("list", "whole_between", "decimal_greater")
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', add data validation to {ref} (the '{header}' column) that "
    "allows only {rule}. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', restrict what can be entered in {ref} ('{header}'): set up a "
    "validity rule that allows only {rule}. Save it in the same format.",
    "Please protect the '{header}' cells {ref} on sheet '{sheet}' of {path} against bad input with a data "
    "validation rule allowing only {rule}. Keep the xlsx format when saving.",
    "Entries in {ref} on sheet '{sheet}' of {path} (column '{header}') should be limited to {rule}. Add the "
    "matching data validation to every cell of that range and save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, select {ref} on sheet '{sheet}' and use Data > Validity so that "
    "those cells accept only {rule}. Save the file (keep the xlsx format).",
)


def round_step(values: list[float]) -> float:
    """Half of the largest value's power of ten: 100 -> 50, 2400 -> 500, 14 -> 5."""
    top = max(abs(v) for v in values) or 1.0
    return 10.0 ** math.floor(math.log10(top)) / 2


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    kind = values["params"]["kind"]
    layout = cc.layout_from(values["table"], values["plan"])
    if kind == "list":
        column = layout.columns_of("category")[0]
        items = list(dict.fromkeys(layout.column(column)))
        rng.shuffle(items)
        spec: dict[str, Any] = {"kind": "list", "items": items}
        rule = f"values from a list of exactly these entries: {', '.join(items)}"
        wrong: list[dict[str, Any]] = [{"items": items[:-1]}]
        wrong_desc = ["the list misses one of the asked values"]
    else:
        if kind == "whole_between":
            ints = layout.columns_of("int")
            column = rng.choice(ints or layout.columns_of(*cc.NUMERIC_KINDS))
            if not ints:  # no whole-number column: the chosen one is kept in whole units
                rows = [[round(v) if i == column else v for i, v in enumerate(row)] for row in layout.rows]
                kinds = ["int" if i == column else k for i, k in enumerate(layout.kinds)]
                layout = replace(layout, rows=rows, kinds=kinds)
        else:
            column = rng.choice(layout.columns_of("money", "number") or layout.columns_of(*cc.NUMERIC_KINDS))
        data = [float(v) for v in layout.column(column)]
        step = round_step(data)
        low = tidy(max(0.0, math.ceil(min(data) / step - 1) * step))  # a round bound below the smallest value
        if kind == "whole_between":
            high = tidy(math.ceil(max(data) / step) * step)
            spec = {"kind": "whole", "operator": "between", "minimum": low, "maximum": high}
            rule = f"whole numbers between {show_number(low)} and {show_number(high)} (inclusive)"
            wrong = [{"maximum": tidy(high + step)}, {"kind": "decimal"}]
            wrong_desc = ["a wrong maximum", "allows decimal numbers instead of whole numbers"]
        else:
            spec = {"kind": "decimal", "operator": "greaterThan", "minimum": low}
            rule = f"decimal numbers greater than {show_number(low)}"
            wrong = [{"minimum": tidy(low + step)}, {"kind": "whole"}]
            wrong_desc = ["a wrong lower bound", "allows only whole numbers instead of decimals"]
    ref = layout.col_ref(column)
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "header": layout.header[column], "rule": rule}
    target = {"ref": ref, "spec": spec, "rule": rule, "wrong": wrong, "wrong_desc": wrong_desc}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("params", "layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    check = Check(
        id="data_validation",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {target['ref']} has a data validation "
                  f"allowing only {target['rule']}.",
        primitive="xlsx.data_validation",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target["ref"], **target["spec"]},
    )
    return {"rubric": [check, cc.unchanged_check(layout, exact=True)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    base = {"op": "xlsx.add_data_validation", "path": layout.path, "sheet": layout.sheet, "ref": target["ref"],
            **target["spec"]}
    solutions = [
        Solution("oracle", "the asked validation on every data cell of the column", [base]),
        Solution("near-miss-1", "the validation misses the last row", [{**base, "ref": one_row_short(target["ref"])}]),
    ]
    solutions += [Solution(f"near-miss-{i}", description, [{**base, **change}])
                  for i, (description, change) in enumerate(zip(target["wrong_desc"], target["wrong"], strict=True),
                                                            start=2)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Add a data validation (a list of values, or number bounds) to a column's data cells.",
    knobs={"kind": KINDS},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
