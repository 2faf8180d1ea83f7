"""calc.conditional_format: highlight the cells of a numeric column that meet a condition (a threshold rule)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.conditional_format"
RULES = ("greater_than", "less_than", "between", "equal_to", "top_n")
#: knob -> (xlsx operator asked, the clearly opposite operator a near-miss uses)
OPERATORS = {"greater_than": ("greaterThan", "lessThan"), "less_than": ("lessThan", "greaterThan"),
             "between": ("between", "notBetween"), "equal_to": ("equal", "notEqual"), "top_n": ("top", "bottom")}
FILLS = (("light red", "FFC7CE"), ("light green", "C6EFCE"), ("light yellow", "FFEB9C"),
         ("light orange", "FCE4D6"), ("light blue", "DDEBF7"), ("light purple", "E4DFEC"))
MIN_STEP = {"int": 1, "money": 0.01, "number": 0.1}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', add a conditional formatting rule to {ref} (the '{header}' "
    "values) so that cells whose value is {condition} get a {color_name} background fill, hex color {fill}. "
    "Use conditional formatting, not manual formatting, and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', highlight the '{header}' cells in {ref} whose value is "
    "{condition}: create a conditional format for exactly that range that applies a {color_name} fill "
    "({fill}). Save it in the same format.",
    "Please set up conditional formatting on sheet '{sheet}' of {path}: in the range {ref} ('{header}'), any "
    "cell whose value is {condition} should be shown with a {color_name} background (#{fill}). Keep the xlsx "
    "format when saving.",
    "The '{header}' column of sheet '{sheet}' in {path} needs a visual flag. Apply a conditional formatting "
    "rule to {ref} that fills cells whose value is {condition} with {color_name} (hex {fill}), then save the "
    "spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and add conditional formatting over {ref} "
    "(column '{header}'): when a cell's value is {condition}, give it a {color_name} fill with the color code "
    "{fill}. Save the file (keep the xlsx format).",
)
NATURAL = (
    "In {path.file}, highlight the '{header}' cells whose value is {condition} in {color_name} "
    "({fill}), using conditional formatting.",
    "Help me make the '{header}' values that are {condition} stand out in {path.file}: a conditional "
    "format that fills them {color_name} ({fill}).",
    "I want cells in the '{header}' column of {path.file} highlighted {color_name} ({fill}) "
    "automatically when they are {condition}. Please set that up and save.",
    "Could you add conditional formatting to '{header}' on the '{sheet}' sheet of {path.file}, so "
    "values {condition} get {color_name.a} fill ({fill})?",
    "Please flag '{header}' entries {condition} in {path.file} with {color_name.a} background ({fill}) "
    "via a conditional formatting rule.",
)


def nice_step(values: Sequence[float], kind: str) -> float:
    """A round step about a tenth of the values' spread, never below the column's unit."""
    span = max(values) - min(values) or abs(max(values)) or 1.0
    return max(10.0 ** (math.floor(math.log10(span)) - 1), MIN_STEP.get(kind, 0.01))


def nice_inside(values: Sequence[float], quantile: float, kind: str) -> int | float:
    """A round number near the `quantile` of `values`, strictly between their min and max."""
    ordered = sorted(values)
    raw = ordered[min(len(ordered) - 2, max(1, round(quantile * (len(ordered) - 1))))]
    step = nice_step(values, kind)
    rounded = cc.tidy(round(raw / step) * step)
    return rounded if ordered[0] < rounded < ordered[-1] else cc.tidy(raw)


class Params(TypedDict):
    rule: Literal["greater_than", "less_than", "between", "equal_to", "top_n"]


@dataclass(frozen=True)
class Target:
    column: int  # the numeric column the rule covers
    ref: str  # its data cells
    values: list[int | float]  # the rule's operands: a threshold, two bounds, a value or a count
    wrong_values: list[int | float]  # near but wrong operands (a near-miss)
    fill: str  # the highlight color, hex
    condition: str  # the rule in words


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    rule = params["rule"]
    layout = cc.layout_from(table, plan)
    column = rng.choice(layout.columns_of(*cc.NUMERIC_KINDS))
    kind = layout.kinds[column]
    data = [float(v) for v in layout.column(column)]
    step = nice_step(data, kind)
    numbers: list[int | float]
    if rule in ("greater_than", "less_than"):
        numbers = [nice_inside(data, rng.uniform(0.3, 0.7), kind)]
        wrong = [cc.tidy(numbers[0] + step)]
        condition = f"{'greater' if rule == 'greater_than' else 'less'} than {cc.show_number(numbers[0])}"
    elif rule == "between":
        low, high = nice_inside(data, rng.uniform(0.15, 0.35), kind), nice_inside(data, rng.uniform(0.65, 0.85), kind)
        if not low < high:
            ordered = sorted(data)
            low, high = cc.tidy(ordered[2]), cc.tidy(ordered[-3])
        numbers = [low, high]
        wrong = [low, cc.tidy(high + step)]
        condition = f"between {cc.show_number(low)} and {cc.show_number(high)} (inclusive)"
    elif rule == "equal_to":
        picked = rng.sample(sorted(set(data)), 2)
        numbers, wrong = [cc.tidy(picked[0])], [cc.tidy(picked[1])]
        condition = f"equal to {cc.show_number(numbers[0])}"
    else:
        count = rng.randint(2, min(5, len(data) - 3))
        numbers, wrong = [count], [count + 1]
        condition = f"among the top {count} values of the range"
    color_name, fill = rng.choice(FILLS)
    ref = layout.col_ref(column)
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "header": layout.header[column],
             "condition": condition, "color_name": color_name, "fill": fill}
    return Goal(layout, cc.refer(facts, plan, layout, column), Target(column, ref, numbers, wrong, fill, condition))


def rubric(params: Params, layout: cc.Layout, target: Target, instruction: str) -> list[Check]:
    operator = OPERATORS[params["rule"]][0]
    column = target.ref not in instruction  # the user named the column: the whole column is what they asked for
    over = f"{target.ref} (or the whole of its column)" if column else f"exactly {target.ref}"
    check = Check(
        id="conditional_format",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, a conditional formatting rule over {over} "
                  f"fills cells whose value is {target.condition} with color {target.fill}.",
        primitive="xlsx.conditional_format",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref, "operator": operator,
              "values": target.values, "fill": target.fill} | ({"column": True} if column else {}),
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    operator, opposite = OPERATORS[params["rule"]]
    base = {"op": "xlsx.add_conditional_format", "path": layout.path, "sheet": layout.sheet, "ref": target.ref,
            "operator": operator, "values": target.values, "fill": target.fill}
    return Attempts(
        Attempt("a conditional format rule with the asked condition and fill over the column", [base]),
        [Attempt("uses the opposite comparison", [{**base, "operator": opposite}]),
         Attempt("uses a wrong threshold", [{**base, "values": target.wrong_values}]),
         Attempt("applies the rule to a range one row short", [{**base, "ref": cc.one_row_short(target.ref)}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a conditional formatting rule that highlights a numeric column's cells meeting a condition.",
    knobs={"rule": RULES},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=cc.INDIRECTION,
)
