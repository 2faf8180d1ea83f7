"""calc.lookup: fill a new column with values looked up, row by row, from a table on a second sheet (each row's
category -> its code or its owner), with VLOOKUP or INDEX/MATCH (XLOOKUP is accepted too)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc
from workflows.calc.content import FIRST_NAMES, LAST_NAMES

NAME = "calc.lookup"
FUNCTIONS = ("VLOOKUP", "INDEX_MATCH")
#: what the table on the second sheet gives for each category: (new column header, sheet name, kind of value)
ATTRIBUTES = (("Budget Code", "Codes", "code"), ("Cost Center", "Cost Centers", "code"), ("Owner", "Owners", "person"),
              ("Approver", "Approvers", "person"))
USING = {"VLOOKUP": "VLOOKUP (an exact match: FALSE as its last argument)",
         "INDEX_MATCH": "INDEX and MATCH (an exact match: match type 0)"}
PHRASINGS = (
    "Open {path}. On the sheet '{sheet}', type the header '{header}' in {header_cell} and fill {ref} with formulas "
    "that look up each row's '{key}' in the table {table} of the sheet '{table_sheet}' and show its {what}, "
    "using {using}. Every cell of {ref} must be a formula. Save the file in place as xlsx.",
    "In the workbook {path}, add a column '{header}' to the sheet '{sheet}' (header in {header_cell}, values in "
    "{ref}). Each value is the {what} of the row's '{key}', looked up from {table} on the sheet '{table_sheet}' "
    "with {using}. Don't type the values; keep the xlsx format.",
    "The sheet '{table_sheet}' of {path} lists, in {table}, the {what} of each '{key}'. On the sheet '{sheet}', put "
    "'{header}' in {header_cell} and, in each cell of {ref}, a lookup formula using {using} that gives the {what} "
    "of that row's '{key}'. Save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. Label {header_cell} on the '{sheet}' sheet '{header}' and fill {ref} "
    "with {using} formulas that find each row's '{key}' in '{table_sheet}'!{table} and return its {what}. Save "
    "as xlsx, overwriting the file.",
    "Please add {header.a_quoted} column to the table on the sheet '{sheet}' of {path}: header in {header_cell}, "
    "and in {ref} one formula per row looking up the row's '{key}' in {table} on the sheet '{table_sheet}' with "
    "{using} to show its {what}. Save the workbook in the same place and format.",
)
NATURAL = (
    "Fill in a new '{header}' column in {path.file}: look up each row's '{key}' on the '{table_sheet}' sheet with "
    "{using.bare}.",
    "Help me add '{header}' to the '{sheet}' sheet of {path.file}, looking each '{key}' up in the "
    "'{table_sheet}' sheet using {using.bare}.",
    "I need {header.a_quoted} column in {path.file} that pulls the {what} for every '{key}' from the '{table_sheet}' "
    "sheet with {using.bare} formulas.",
    "Could you add the {what} of each row's '{key}' as a new '{header}' column in {path.file}? Look it up in "
    "'{table_sheet}' with {using.bare}.",
    "Please use {using.bare} to bring the {what} from the '{table_sheet}' sheet into a new '{header}' column of "
    "{path.file}, matched on '{key}'.",
)


class Params(TypedDict):
    function: Literal["VLOOKUP", "INDEX_MATCH"]


@dataclass(frozen=True)
class Target:
    function: str  # the knob: the lookup the instruction names
    key: int  # the main sheet's column whose value is looked up (the category column)
    table_sheet: str  # the second sheet
    table: str  # its table without the header, e.g. A2:B7
    values: dict[str, Any]  # key -> what the table gives for it
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells


def _values(rng: random.Random, kind: str, count: int) -> list[str]:
    """`count` distinct codes ('BC-214') or people ('Maya Lopez') for the table's result column."""
    found: list[str] = []
    prefix = rng.choice(("BC", "CC", "GL", "AC"))
    while len(found) < count:
        value = (f"{prefix}-{rng.randint(100, 999)}" if kind == "code"
                 else f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}")
        if value not in found:
            found.append(value)
    return found


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    key = layout.columns_of("category")[0]
    header, table_sheet, kind = rng.choice(ATTRIBUTES)
    if table_sheet.casefold() == layout.sheet.casefold():
        table_sheet = f"{table_sheet} List"
    categories = list(dict.fromkeys(str(v) for v in layout.column(key)))
    rng.shuffle(categories)
    while categories == sorted(categories, key=str.casefold) and len(categories) > 1:  # unsorted: FALSE matters
        rng.shuffle(categories)
    values = dict(zip(categories, _values(rng, kind, len(categories)), strict=True))
    rows = [[layout.header[key], header], *([c, v] for c, v in values.items())]
    layout = replace(layout, extra_sheets=[(table_sheet, rows)])
    last = len(categories) + 1
    table_ref = f"A2:B{last}"
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    what = header.lower()
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1", "ref": ref,
             "key": layout.header[key], "table": table_ref, "table_sheet": table_sheet, "what": what,
             "using": USING[params["function"]]}
    return Goal(layout, facts, Target(params["function"], key, table_sheet, table_ref, values, letter, header, ref))


def _quoted(sheet: str) -> str:
    return f"'{sheet}'" if not sheet.replace("_", "").isalnum() else sheet


def _formulas(layout: cc.Layout, target: Target, *, function: str | None = None, exact: bool = True,
              column: int = 2, slide: bool = False, shift: int = 0) -> dict[str, str]:
    """One lookup formula per data row; the near-misses' slips: an approximate match, another column of the table,
    a table reference without $ that slides down as the formula is filled down, the next row's key."""
    sheet = _quoted(target.table_sheet)
    key_letter = layout.letter(target.key)
    last = int(target.table.split(":")[1][1:])
    out = {}
    for r in range(2, layout.last_row + 1):
        down = r - 2 if slide else 0
        a = f"$A${2 + down}:$A${last + down}" if not slide else f"A{2 + down}:A{last + down}"
        b = f"$B${2 + down}:$B${last + down}" if not slide else f"B{2 + down}:B{last + down}"
        cell = f"{key_letter}{r + shift}"
        if (function or target.function) == "INDEX_MATCH":
            out[f"{target.letter}{r}"] = f"=INDEX({sheet}!{b},MATCH({cell},{sheet}!{a},{0 if exact else 1}))"
        else:
            whole = f"{a.split(':')[0]}:{b.split(':')[1]}"
            out[f"{target.letter}{r}"] = (f"=VLOOKUP({cell},{sheet}!{whole},{column}"
                                          f"{',FALSE' if exact else ''})")
    return out


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [target.values[str(row[target.key])] for row in layout.rows]
    return [Check(
        id="lookup_column",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and every cell "
                  f"of {target.ref} is a formula looking up its row's '{layout.header[target.key]}' in "
                  f"'{target.table_sheet}'!{target.table} and showing the matching '{target.header}'.",
        primitive="xlsx.lookup_column",
        args={"path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1", "header": target.header,
              "ref": target.ref, "key": layout.header[target.key], "table_sheet": target.table_sheet,
              "table": target.table, "function": target.function, "expected": expected, "formulas": formulas,
              "result_column": 2})]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    formulas = _formulas(layout, target)
    typed = {f"{target.letter}{r}": target.values[str(row[target.key])] for r, row in enumerate(layout.rows, 2)}
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    return Attempts(
        Attempt("header plus one exact-match lookup formula per data row", [{**base, "cells": {**head, **formulas}}]),
        [Attempt("leaves out the exact-match argument, so the unsorted table is searched approximately",
                 [{**base, "cells": {**head, **_formulas(layout, target, exact=False)}}]),
         Attempt("types the looked-up values instead of formulas", [{**base, "cells": {**head, **typed}}]),
         Attempt("the table reference has no $ and slides down as the formula is filled down",
                 [{**base, "cells": {**head, **_formulas(layout, target, slide=True)}}]),
         Attempt("formulas look up the next row's key (references shifted down by one)",
                 [{**base, "cells": {**head, **_formulas(layout, target, shift=1)}}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Fill a new column with values looked up from a table on a second sheet by each row's category "
                "(VLOOKUP or INDEX/MATCH, exact match).",
    knobs={"function": FUNCTIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
