"""calc.group_summary: summarise a table by its category column on a new sheet, one row per category (A to Z) with
the total, average, count or highest value of its rows: what a pivot table or SUMIF / AVERAGEIF / COUNTIF formulas
give, checked by its values."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.xlsx_group import aggregate
from verifiers import extract
from workflows.calc import kit as cc
from workflows.common import spoken

NAME = "calc.group_summary"
FUNCTIONS = ("SUM", "AVERAGE", "COUNT", "MAX")
#: Names a person gives the sheet of a summary (none says an aggregate: "Totals" would ask for sums).
NEW_SHEETS = ("Summary", "Breakdown", "Overview", "Rollup", "By Group", "Grouped")
LABELS = {"SUM": "Total {v}", "AVERAGE": "Average {v}", "COUNT": "Count", "MAX": "Highest {v}"}
HOW = {"SUM": "the total of its '{v}' values", "AVERAGE": "the average of its '{v}' values (two decimals are enough)",
       "COUNT": "how many rows of the table it has", "MAX": "the highest '{v}' value among its rows"}
#: function -> the aggregate a classic slip computes instead (a pivot table's default for a number field is Sum)
WRONG = {"SUM": "COUNT", "AVERAGE": "SUM", "COUNT": "SUM", "MAX": "MIN"}
PHRASINGS = (
    "Open {path} and summarise the table on sheet '{sheet}' by its '{group}' column on a new sheet named '{dest}' "
    "(after '{sheet}'): put the headers '{group}' in A1 and '{label}' in B1, then one row per '{group}' value, "
    "sorted A to Z, with {how} in column B. Save the file in place as xlsx.",
    "In the workbook {path}, add a sheet '{dest}' after '{sheet}' holding a summary per '{group}': column A lists "
    "each '{group}' value once in alphabetical order under the header '{group}', and column B, headed '{label}', "
    "gives for each one {how}. Leave the original table unchanged and save it in the same format.",
    "Please build a group summary of sheet '{sheet}' in {path}: on a new sheet '{dest}', row 1 holds '{group}' and "
    "'{label}', and below it every distinct '{group}' (A to Z) with {how}. No other rows. Save the workbook as "
    "xlsx.",
    "The data on sheet '{sheet}' of {path} needs a per-'{group}' breakdown. Create a sheet called '{dest}' right "
    "after it with the header row '{group}' | '{label}' and one line for each '{group}', in A-Z order, showing "
    "{how}. Save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path} and, on a new sheet '{dest}' placed after '{sheet}', make a summary table "
    "starting at A1: headers '{group}' and '{label}', then each '{group}' value sorted A to Z with {how} (typed "
    "values or formulas). Save the file (keep the xlsx format).",
)
NATURAL = (
    "Add a sheet '{dest}' to {path.file} that lists each '{group}' A to Z with {how}, under the headers "
    "'{group}' and '{label}'.",
    "Could you summarise the '{sheet}' data of {path.file} per '{group}' on a new sheet '{dest}'? Column A the "
    "'{group}' (A to Z), column B '{label}': {how}.",
    "I need a per-'{group}' summary of {path.file} on a new '{dest}' sheet: headers '{group}' and '{label}', one "
    "row per '{group}' in alphabetical order with {how}.",
    "Help me group the rows of {path.file} by '{group}' on a new sheet '{dest}', giving each '{group}' (A to Z) "
    "{how} in {label.a_quoted} column.",
    "Please make a '{dest}' sheet in {path.file} with one row per '{group}', sorted A to Z, and {how} next to "
    "each under the header '{label}'.",
)


class Params(TypedDict):
    function: Literal["SUM", "AVERAGE", "COUNT", "MAX"]


@dataclass(frozen=True)
class Target:
    group: int  # the category column
    value: int | None  # the aggregated column (None for COUNT)
    dest: str  # the new sheet
    label: str  # B1 of the new sheet
    groups: tuple[str, ...]  # the categories, A to Z
    expected: tuple[float, ...]  # the aggregate of each, in the same order


def _values(layout: cc.Layout, group: int, value: int | None) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    for row in layout.rows:
        found.setdefault(str(row[group]), []).append(1.0 if value is None else float(row[value]))
    return found


def _facts(layout: cc.Layout, function: str, value: int | None, dest: str) -> dict[str, Any]:
    v = layout.header[value] if value is not None else ""
    group = layout.header[layout.columns_of("category")[0]]
    return {"path": layout.path, "sheet": layout.sheet, "group": group, "dest": dest,
            "label": LABELS[function].format(v=v), "how": HOW[function].format(v=v)}


def _says_only(facts: dict[str, Any], function: str) -> bool:
    """Every phrasing filled with `facts` asks for `function` and for no other aggregate (a header such as 'Invoice
    Count' or 'First Reply Min' would say another one)."""
    return all(set(extract.expressed(p.format(**spoken(facts)), "aggregate")) == {function}
               for p in (*PHRASINGS, *NATURAL))


def _choices(layout: cc.Layout, function: str) -> list[int | None]:
    """The value columns a task can aggregate without its instruction saying another aggregate."""
    if not layout.columns_of("category"):
        return []
    candidates: list[int | None] = [None] if function == "COUNT" else list(layout.columns_of(*cc.NUMERIC_KINDS))
    return [c for c in candidates if _says_only(_facts(layout, function, c, NEW_SHEETS[0]), function)]


content = cc.redrawn_content(lambda layout, params: bool(_choices(layout, params["function"])))


def _first_out_of_order(rows: list[list[Any]], group: int) -> list[list[Any]]:
    """`rows` with the categories' first appearances not already A to Z (the near-miss that keeps the order of
    appearance must give another table): the first row of a later category moved to the top when they are."""
    order = list(dict.fromkeys(str(r[group]) for r in rows))
    if order != sorted(order):
        return rows
    i = next(i for i, r in enumerate(rows) if str(r[group]) == order[-1])
    return [rows[i], *rows[:i], *rows[i + 1:]]


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    function = params["function"]
    choices = _choices(layout, function) or [None if function == "COUNT" else layout.columns_of(*cc.NUMERIC_KINDS)[0]]
    value = rng.choice(choices)
    group = layout.columns_of("category")[0]
    layout = layout.with_rows(_first_out_of_order(layout.rows, group))
    dest = rng.choice([n for n in NEW_SHEETS if n != layout.sheet])
    found = _values(layout, group, value)
    groups = tuple(sorted(found))
    expected = tuple(float(aggregate(function, found[g])) for g in groups)
    facts = _facts(layout, function, value, dest)
    return Goal(layout, facts, Target(group, value, dest, facts["label"], groups, expected))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    group = layout.header[target.group]
    args: dict[str, Any] = {"path": layout.path, "sheet": target.dest, "source_sheet": layout.sheet,
                            "group_header": group, "label": target.label, "function": params["function"],
                            "groups": list(target.groups), "expected": list(target.expected)}
    if target.value is not None:
        args["value_header"] = layout.header[target.value]
    summary = Check(
        id="summary",
        criterion=f"In {layout.path}, the sheet '{target.dest}' holds the headers '{group}' and '{target.label}' "
                  f"in A1:B1, then each '{group}' of sheet '{layout.sheet}' once, A to Z ({', '.join(target.groups)}"
                  f"), with {HOW[params['function']].format(v=args.get('value_header', ''))} in column B.",
        primitive="xlsx.group_summary", args=args,
    )
    # the frame counts the sheets; their names and order are a goal check's question
    sheets = Check(
        id="sheets",
        criterion=f"{layout.path} has the sheets '{layout.sheet}' and '{target.dest}', in that order.",
        primitive="xlsx.sheet_names",
        args={"path": layout.path, "expected": [layout.sheet, target.dest]},
    )
    return [summary, sheets]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    function = params["function"]
    value = layout.letter(target.value) if target.value is not None else None
    base = {"op": "xlsx.group_summary", "path": layout.path, "sheet": layout.sheet,
            "group": layout.letter(target.group), "value": value, "function": function, "dest_sheet": target.dest,
            "headers": [layout.header[target.group], target.label]}
    slip = WRONG[function]
    slip_value = value or layout.letter(layout.columns_of(*cc.NUMERIC_KINDS)[0])
    misses = [Attempt(f"computes the {slip.lower()} of each group instead", [{**base, "function": slip,
                                                                               "value": slip_value}]),
              Attempt("lists the groups in the order they first appear instead of A to Z",
                      [{**base, "order": "first"}]),
              Attempt("leaves the last group out", [{**base, "drop_last": True}]),
              Attempt("puts the summary beside the table on the same sheet instead of on a new sheet",
                      [{**base, "dest_sheet": layout.sheet, "anchor": f"{layout.letter(layout.width + 1)}1"}]),
              Attempt("writes the groups from A1 without the header row", [{**base, "header_row": False}])]
    others = [c for c in layout.columns_of(*cc.NUMERIC_KINDS) if c != target.value]
    if target.value is not None and others:
        misses.append(Attempt("aggregates another numeric column", [{**base, "value": layout.letter(others[0])}]))
    return Attempts(Attempt(f"summarise the table per group on the new sheet ({function})", [base]), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Summarise a table by its category column on a new sheet: one row per category, A to Z, with the "
                "total, average, count or highest value of its rows (a pivot-like table, checked by its values).",
    knobs={"function": FUNCTIONS},
    source=(cc.sample, content),
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
