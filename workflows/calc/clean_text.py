"""calc.clean_text: clean a messy text column in place: stray spaces trimmed, names put in proper case, or entries
written in capitals, the cleaned text replacing the old (no helper column left behind)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.xlsx_clean import CLEAN, proper
from workflows.calc import kit as cc

NAME = "calc.clean_text"
HOW = {
    "trim": "remove the stray spaces: none at the start or end of an entry and no doubled spaces inside (as TRIM "
            "does)",
    "proper": "put every entry in proper case (each word starting with a capital, as PROPER does)",
    "upper": "write every entry in capital letters (upper case)",
}
#: operation -> the operation a classic slip applies instead, and what it does
WRONG = {"trim": ("strip", "trims the ends only, leaving the doubled spaces inside"),
         "proper": ("upper", "puts the entries in capitals instead of proper case"),
         "upper": ("proper", "puts the entries in proper case instead of capitals")}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', clean up the '{header}' column in place: {how}. Replace the "
    "entries themselves (no helper column left over) and leave the header as it is. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', the '{header}' entries were typed carelessly. Fix them where they "
    "are: {how}. Change nothing else and save it in the same format.",
    "Please tidy the '{header}' column on sheet '{sheet}' of {path}: {how}. The cleaned text must replace the "
    "old one in the same cells. Save the workbook as xlsx.",
    "The '{header}' column of sheet '{sheet}' in {path} is messy. Correct every entry in place so that you "
    "{how}. Save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and clean the '{header}' values in their own "
    "cells: {how}. Don't keep formulas or an extra column. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Clean up the '{header}' column in {path.file}: {how}.",
    "Could you fix the '{header}' entries of {path.file} in place? Please {how}.",
    "The '{header}' values in my spreadsheet {path.file} are messy; {how}, right in those cells.",
    "Help me tidy the '{header}' column on the '{sheet}' sheet of {path.file}: {how}.",
    "Please correct the '{header}' entries of {path.file} where they are: {how}.",
)


class Params(TypedDict):
    operation: Literal["trim", "proper", "upper"]


@dataclass(frozen=True)
class Target:
    column: int
    expected: tuple[str, ...]  # each data cell's text once cleaned


def _candidates(layout: cc.Layout, operation: str) -> list[int]:
    """The text columns a task can clean: for trim, one with spaces inside its entries; for proper, one whose
    entries are already in proper case (names), so the messy versions have one right answer; for upper, the code
    or category column."""
    texts = [c for c in layout.columns_of("key", "category")
             if all(isinstance(v, str) and v.strip() for v in layout.column(c))]
    if operation == "trim":
        return [c for c in texts if sum(" " in str(v) for v in layout.column(c)) >= 2]
    if operation == "proper":
        return [c for c in texts if all(proper(str(v)) == v and any(ch.isalpha() for ch in str(v))
                                        for v in layout.column(c))]
    return [c for c in texts if any(str(v).upper() != v for v in layout.column(c))]


content = cc.redrawn_content(lambda layout, params: bool(_candidates(layout, params["operation"])))


def _messy(rng: random.Random, value: str, operation: str, i: int) -> str:
    """`value` as a careless typist left it (for trim: spaces at an end or doubled inside; for proper: the wrong
    case; for upper: small letters in part). Row i cycles through the kinds of mess so every kind is there."""
    if operation == "trim":
        kinds = [lambda v: " " + v, lambda v: v + "  ", lambda v: v.replace(" ", "  ", 1) if " " in v else v + " ",
                 lambda v: "  " + v.replace(" ", "   ", 1) + " "]
    elif operation == "proper":
        kinds = [str.lower, str.upper, lambda v: v[0].lower() + v[1:].upper() if len(v) > 1 else v.lower(),
                 str.lower]
    else:
        kinds = [str.lower, lambda v: v[:1] + v[1:].lower(), str.lower, lambda v: v]
    return kinds[i % len(kinds)](value)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    operation = params["operation"]
    column = rng.choice(_candidates(layout, operation) or layout.columns_of("key"))
    clean = [str(v) for v in layout.column(column)]
    expected = tuple(v.upper() if operation == "upper" else v for v in clean)
    rows = list(range(len(layout.rows)))
    dirty = set(rng.sample(rows[:-1], max(2, len(rows) // 2))) | {rows[-1]}  # the last row always needs cleaning
    order = sorted(dirty)
    values = list(clean)
    for k, i in enumerate(order):
        values[i] = _messy(rng, clean[i], operation, k)
        if values[i] == expected[i]:  # a mess that happens to be clean (a one-word value): spaces or case anyway
            values[i] = " " + clean[i] + " " if operation == "trim" else clean[i].lower()
    if operation == "trim" and not any("  " in v.strip() for v in values):
        spaced = [i for i in order if " " in clean[i]] or [i for i in rows if " " in clean[i]]
        if spaced:  # a doubled space inside, so that trimming the ends only is not enough
            values[spaced[0]] = clean[spaced[0]].replace(" ", "  ", 1)
    messy_rows = [[values[i] if c == column else v for c, v in enumerate(row)] for i, row in enumerate(layout.rows)]
    layout = layout.with_rows(messy_rows)
    facts = {"path": layout.path, "sheet": layout.sheet, "header": layout.header[column], "how": HOW[operation]}
    return Goal(layout, facts, Target(column, expected))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    header = layout.header[target.column]
    letter = layout.letter(target.column)
    cleaned = Check(
        id="cleaned",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every data cell of the '{header}' column holds its "
                  f"text cleaned in place: {HOW[params['operation']]}.",
        primitive="xlsx.text_cleaned",
        args={"path": layout.path, "sheet": layout.sheet, "header": header, "operation": params["operation"],
              "cells": [f"{letter}{r}" for r in range(2, layout.last_row + 1)], "expected": list(target.expected)},
    )
    return [cleaned]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    operation = params["operation"]
    base = {"op": "xlsx.clean_text", "path": layout.path, "sheet": layout.sheet,
            "ref": layout.col_ref(target.column), "operation": operation}
    slip, slip_does = WRONG[operation]
    misses = [Attempt(slip_does, [{**base, "operation": slip}]),
              Attempt("leaves the last entry as it was", [{**base, "skip_last": True}])]
    if CLEAN[operation](layout.header[target.column]) != layout.header[target.column]:
        misses.append(Attempt("cleans the header cell too", [{**base, "header": True}]))
    letter = layout.letter(target.column)
    misses.append(Attempt("cleans only the first half of the rows",
                          [{**base, "ref": f"{letter}2:{letter}{1 + len(layout.rows) // 2}"}]))
    return Attempts(Attempt(f"clean every entry of the column in place ({operation})", [base]), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Clean a messy text column in place: trim stray spaces, put names in proper case, or write entries "
                "in capitals, the cleaned text replacing the old.",
    knobs={"operation": ("trim", "proper", "upper")},
    source=(cc.sample, content),
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
