"""calc.data_validation: restrict what a column's data cells accept (a list of values, or number bounds)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

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
NATURAL = (
    "Only allow {rule} in the '{header}' column of {path.file}.",
    "Help me stop bad entries in {path.file}: the '{header}' cells should allow only {rule}.",
    "Could you restrict the '{header}' column on the '{sheet}' sheet of {path.file} to {rule}?",
    "I want the '{header}' column of {path.file} to reject anything but {rule}. Please set that "
    "validation up.",
    "Please add a validity rule to the '{header}' data in {path.file} allowing only {rule}.",
)


def round_step(values: list[float]) -> float:
    """Half of the largest value's power of ten: 100 -> 50, 2400 -> 500, 14 -> 5."""
    top = max(abs(v) for v in values) or 1.0
    return 10.0 ** math.floor(math.log10(top)) / 2


class Params(TypedDict):
    kind: Literal["list", "whole_between", "decimal_greater"]


@dataclass(frozen=True)
class Target:
    ref: str  # the data cells to validate
    spec: dict[str, Any]  # the validation (kind, operator, bounds or list items), as the check and op take it
    rule: str  # the rule in words
    misses: list[tuple[str, dict[str, Any]]]  # plausible wrong rules: what each does, how it changes the spec


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    kind = params["kind"]
    layout = cc.layout_from(table, plan)
    if kind == "list":
        column = layout.columns_of("category")[0]
        items = list(dict.fromkeys(layout.column(column)))
        rng.shuffle(items)
        spec: dict[str, Any] = {"kind": "list", "items": items}
        rule = f"values from a list of exactly these entries: {', '.join(items)}"
        misses: list[tuple[str, dict[str, Any]]] = [("the list misses one of the asked values", {"items": items[:-1]})]
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
        low = cc.tidy(max(0.0, math.ceil(min(data) / step - 1) * step))  # a round bound below the smallest value
        if kind == "whole_between":
            high = cc.tidy(math.ceil(max(data) / step) * step)
            spec = {"kind": "whole", "operator": "between", "minimum": low, "maximum": high}
            rule = f"whole numbers between {cc.show_number(low)} and {cc.show_number(high)} (inclusive)"
            misses = [("a wrong maximum", {"maximum": cc.tidy(high + step)}),
                      ("allows decimal numbers instead of whole numbers", {"kind": "decimal"})]
        else:
            spec = {"kind": "decimal", "operator": "greaterThan", "minimum": low}
            rule = f"decimal numbers greater than {cc.show_number(low)}"
            misses = [("a wrong lower bound", {"minimum": cc.tidy(low + step)}),
                      ("allows only whole numbers instead of decimals", {"kind": "whole"})]
    ref = layout.col_ref(column)
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "header": layout.header[column], "rule": rule}
    return Goal(layout, cc.refer(facts, plan, layout, column), Target(ref, spec, rule, misses))


def rubric(params: Params, layout: cc.Layout, target: Target, instruction: str) -> list[Check]:
    column = target.ref not in instruction  # the user named the column: the whole column is what they asked for
    also = " (the rest of its column may have it too)" if column else ""
    check = Check(
        id="data_validation",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {target.ref} has a data validation "
                  f"allowing only {target.rule}{also}.",
        primitive="xlsx.data_validation",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref, **target.spec}
        | ({"column": True} if column else {}),
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.add_data_validation", "path": layout.path, "sheet": layout.sheet, "ref": target.ref,
            **target.spec}
    return Attempts(
        Attempt("the asked validation on every data cell of the column", [base]),
        [Attempt("the validation misses the last row", [{**base, "ref": cc.one_row_short(target.ref)}]),
         *(Attempt(description, [{**base, **change}]) for description, change in target.misses)],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a data validation (a list of values, or number bounds) to a column's data cells.",
    knobs={"kind": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=cc.INDIRECTION,
)
