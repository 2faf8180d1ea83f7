"""calc.paste_values: replace the formulas of a computed column with the values they show (Paste Special > Values
only), in place or into a new column beside it, before the sheet is sent on."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc
from workflows.calc.formula_column import priced_pairs, same_unit_groups

NAME = "calc.paste_values"
#: (header, formula operator) of the first computed column, over two columns of the table.
PRODUCT_HEADERS = ("Line Total", "Extended Value", "Amount Due")
SUM_HEADERS = ("Combined Total", "Total")
DIFF_HEADERS = ("Difference", "Variance", "Net")
#: (header, factor) of the second computed column, a share of the first: money, then anything else.
MONEY_SHARES = (("Tax (8%)", 0.08), ("Deposit (10%)", 0.1), ("Discount (5%)", 0.05), ("Fee (15%)", 0.15))
OTHER_SHARES = (("Quarter Share", 0.25), ("Ten Percent", 0.1), ("Target (+15%)", 1.15))
COPY_HEADERS = ("{h} (values)", "{h} Final", "{h} Snapshot", "{h} Fixed")
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', the '{header}' column ({ref}) is computed by formulas. {Where}. "
    "Use Paste Special with values only, change no other cell, and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', the cells {ref} of the '{header}' column hold formulas. I need "
    "their values as plain numbers: {where}. Keep each result at full precision (not rounded); save it in the "
    "same format.",
    "Before I send {path} on, the '{header}' column on sheet '{sheet}' ({ref}) must not depend on formulas any "
    "more: {where}. They must be numbers, not text. Leave the other columns as they are and save the workbook "
    "as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}', copy {ref} (the '{header}' column) and use "
    "Paste Special > Values only: {where}. Nothing else changes. Save the file (keep the xlsx format).",
    "Please freeze the '{header}' formulas of sheet '{sheet}' in {path} ({ref}) into their values: {where}. "
    "The numbers must be exact, not rounded. Save the spreadsheet in place.",
)
NATURAL = (
    "Can you turn the '{header}' formulas in {path.file} into plain values? {Where}.",
    "I'm sending {path.file} to a client, so the '{header}' column should hold values instead of formulas: "
    "{where}.",
    "Help me paste the '{header}' column of {path.file} as values only; {where}.",
    "Please replace the formulas behind '{header}' in {path.file} with the numbers they show: {where}.",
    "The '{header}' column in my spreadsheet {path.file} needs to be static values, not formulas; {where}.",
)
WHERE = {
    "in_place": "replace each formula with its value in the same cells, leaving the other formula column alone",
    "new_column": "paste its values only into column {dest} under the header '{dest_header}' in {dest}1, and keep "
                  "the original formulas where they are",
}


class Params(TypedDict):
    where: Literal["in_place", "new_column"]


@dataclass(frozen=True)
class Target:
    column: int  # the column whose formulas are pasted as values (0-based, in the layout with the computed columns)
    neighbour: int  # the other computed column, which keeps its formulas
    expected: tuple[float, ...]  # what each data row's formula shows
    dest: str | None  # where the values go (column letter), None in place
    dest_header: str | None


def _first(rng: random.Random, layout: cc.Layout) -> tuple[list[int], str, str] | None:
    """The first computed column: (operand columns, operator, header), over columns that mean something together
    and give fractions (a product with a price, a sum or difference of money or one-decimal numbers); None when the
    table has none."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    options: list[tuple[list[int], str, tuple[str, ...]]] = []
    options += [(pair, "*", PRODUCT_HEADERS) for pair in priced_pairs(layout, numeric)]
    for group in same_unit_groups(layout, numeric):
        fractional = [c for c in group if layout.kinds[c] != "int"]
        for c in fractional:
            other = next(o for o in group if o != c)
            pair = sorted([c, other])
            options += [(pair, "+", SUM_HEADERS), (pair, "-", DIFF_HEADERS)]
    if not options:
        return None
    cols, operator, headers = rng.choice(options)
    taken = {h.casefold() for h in layout.header}
    return cols, operator, rng.choice([h for h in headers if h.casefold() not in taken] or [f"{headers[0]} Calc"])


def usable(layout: cc.Layout, params: Any) -> bool:
    return _first(random.Random(0), layout) is not None


def _with_formulas(layout: cc.Layout, cols: list[int], operator: str, header: str,
                   share: tuple[str, float]) -> cc.Layout:
    """The layout with two computed columns after the table: `header` (= a operator b) and a share of it."""
    a, b = (layout.letter(c) for c in cols)
    first = layout.letter(layout.width)
    kind = "money" if "money" in (layout.kinds[c] for c in cols) else "number"
    rows = [[*row, f"={a}{r}{operator}{b}{r}", f"={first}{r}*{share[1]}"] for r, row in enumerate(layout.rows, 2)]
    return cc.Layout(path=layout.path, sheet=layout.sheet, header=[*layout.header, header, share[0]],
                     kinds=[*layout.kinds, kind, kind], rows=rows, title=layout.title,
                     date_format=layout.date_format, lookalikes=layout.lookalikes)


def _values(base: cc.Layout, full: cc.Layout, column: int) -> list[float]:
    """What each data row of computed `column` of `full` shows (the first computed column worked out first)."""
    first = full.letter(base.width)
    firsts = {f"{first}{r}": cc.evaluate_on(base, str(row[base.width])) for r, row in enumerate(full.rows, 2)}
    if column == base.width:
        return list(firsts.values())
    return [cc.evaluate_on(base, str(row[column]), firsts) for row in full.rows]


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    base = cc.layout_from(table, plan)
    picked = _first(rng, base)
    if picked is None:  # a model's table without columns to combine: any two numeric columns, multiplied
        numeric = base.columns_of(*cc.NUMERIC_KINDS)
        picked = (sorted(rng.sample(numeric, 2)), "*", PRODUCT_HEADERS[0])
    cols, operator, header = picked
    money = "money" in (base.kinds[c] for c in cols)
    share = rng.choice(MONEY_SHARES if money else OTHER_SHARES)
    full = _with_formulas(base, cols, operator, header, share)
    columns = [base.width, base.width + 1]
    rng.shuffle(columns)
    for column in columns:  # a column whose values a rounding would change, first the drawn one
        expected = _values(base, full, column)
        if any(abs(v - round(v)) > 0.004 for v in expected):
            break
    neighbour = next(c for c in (base.width, base.width + 1) if c != column)
    dest = dest_header = None
    facts: dict[str, Any] = {"path": full.path, "sheet": full.sheet, "header": full.header[column],
                             "ref": full.col_ref(column)}
    if params["where"] == "new_column":
        dest = full.letter(full.width)
        dest_header = rng.choice(COPY_HEADERS).format(h=full.header[column])
        facts["where"] = WHERE["new_column"].format(dest=dest, dest_header=dest_header)
    else:
        facts["where"] = WHERE["in_place"]
    facts["Where"] = facts["where"][0].upper() + facts["where"][1:]
    return Goal(full, facts, Target(column, neighbour, tuple(expected), dest, dest_header))


def _cells(layout: cc.Layout, letter: str) -> list[str]:
    return [f"{letter}{r}" for r in range(2, layout.last_row + 1)]


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    header = layout.header[target.column]
    letter = target.dest or layout.letter(target.column)
    cells = _cells(layout, letter)
    where = f"{letter}2:{letter}{layout.last_row}"
    values = Check(
        id="values",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {where} holds, as a typed number, the "
                  f"value the formula of the '{header}' column showed in its row (no formula, no text, no rounding).",
        primitive="xlsx.values_pasted",
        args={"path": layout.path, "sheet": layout.sheet, "header": header, "cells": cells,
              "expected": list(target.expected)},
    )
    if target.dest is None:
        return [values]
    head = Check(
        id="dest_header",
        criterion=f"{layout.sheet}!{target.dest}1 of {layout.path} reads '{target.dest_header}'.",
        primitive="xlsx.cell_value",
        args={"path": layout.path, "sheet": layout.sheet, "cell": f"{target.dest}1",
              "expected": target.dest_header},
    )
    return [values, head]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base: dict[str, Any] = {"op": "xlsx.paste_values", "path": layout.path, "sheet": layout.sheet,
                            "ref": layout.col_ref(target.column)}
    if target.dest is not None:
        base = {**base, "dest": f"{target.dest}2", "header": target.dest_header}
    slips = [Attempt("rounds each value to a whole number", [{**base, "digits": 0}]),
             Attempt("pastes the values as text", [{**base, "text": True}]),
             Attempt("leaves the last row out", [{**base, "skip": 1}])]
    if target.dest is None:
        other = {**base, "ref": layout.col_ref(target.neighbour)}
        slips.append(Attempt("converts the neighbouring formula column to values too", [base, other]))
    else:
        slips += [Attempt("links each cell to the original with a formula instead of pasting its value",
                          [{**base, "link": True}]),
                  Attempt("also replaces the original formulas with their values (cut rather than copy)",
                          [base, {k: v for k, v in base.items() if k not in ("dest", "header")}])]
    how = "over the formulas" if target.dest is None else f"into column {target.dest}"
    return Attempts(Attempt(f"paste the column's values only, {how}", [base]), slips)


WORKFLOW = family(
    NAME, cc.CALC,
    source=(cc.sample, cc.redrawn_content(usable)),
    description="Replace the formulas of a computed column with the values they show (Paste Special > Values only), "
                "in place or into a new column, changing nothing else.",
    knobs={"where": ("in_place", "new_column")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
