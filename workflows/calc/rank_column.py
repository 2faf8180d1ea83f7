"""calc.rank_column: add a column ranking each row by one numeric column (RANK / RANK.EQ), 1 for the largest
(descending) or for the smallest (ascending); tied numbers share a rank, as Calc's RANK gives them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.rank_column"
ORDERS = ("descending", "ascending")
HEADERS = ("Rank", "{h} Rank", "Ranking", "Rank By {h}")
#: order -> how the instruction says which end gets rank 1 (words of the lexicon domain "order")
HOW = {"descending": "highest first (rank 1 for the largest value, in descending order)",
       "ascending": "lowest first (rank 1 for the smallest value, in ascending order)"}
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. Type the header '{header}' in {header_cell}, then fill {ref} with "
    "RANK formulas that rank each row's '{source}' among all the '{source}' values, {how}. Tied values share "
    "the same rank. Every cell of {ref} must be a formula. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', add a column titled '{header}' (header in {header_cell}). Each cell of "
    "{ref} should rank that row's '{source}' against the whole '{source}' column using RANK or RANK.EQ, {how}; "
    "equal values get the same rank. Don't type the ranks by hand. Keep the xlsx format.",
    "The table on sheet '{sheet}' of {path} needs a ranking. Put '{header}' in {header_cell} and, in each cell of "
    "{ref}, a formula using RANK that gives the position of the row's '{source}' among all rows, {how}; ties share "
    "a rank. Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, label {header_cell} '{header}' and rank the rows by "
    "'{source}' with RANK formulas in {ref}, {how}; tied values get the same rank. Save as xlsx, overwriting the "
    "file.",
    "Please extend the table in {path} (sheet '{sheet}') with {header.a_quoted} column: header in {header_cell}, and "
    "in {ref} one RANK formula per row ranking its '{source}' among all '{source}' values, {how}. Ties share a rank. "
    "Save the workbook in the same place and format.",
)
NATURAL = (
    "Add {header.a_quoted} column to {path.file} that ranks every row by '{source}' with RANK formulas, {how.bare}.",
    "Help me rank the rows of the '{sheet}' sheet in {path.file} by '{source}': a new '{header}' column of RANK "
    "formulas, {how.bare}.",
    "I need the rows of {path.file} ranked by '{source}' in a new '{header}' column, using RANK, {how.bare}.",
    "Could you add {header.a_quoted} column to {path.file} ranking each row's '{source}' with a formula using RANK, "
    "{how.bare}?",
    "Please use RANK to fill a new '{header}' column in {path.file} from '{source}', {how.bare}; ties can share a "
    "rank.",
)


class Params(TypedDict):
    order: Literal["descending", "ascending"]


@dataclass(frozen=True)
class Target:
    order: str  # the knob
    source: int  # the ranked numeric column
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells


def _monotone(values: list[Any]) -> bool:
    return values == sorted(values) or values == sorted(values, reverse=True)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    source = rng.choice(layout.columns_of(*cc.NUMERIC_KINDS))
    rows = [list(r) for r in layout.rows]
    # one tie, so that "tied values share a rank" is checked (the offline tables hold distinct numbers)
    first, second = rng.sample(range(len(rows)), 2)
    rows[second][source] = rows[first][source]
    if _monotone([r[source] for r in rows]):  # a sorted column would let a range sliding down rank it right
        rows[0][source], rows[-1][source] = rows[-1][source], rows[0][source]
    layout = layout.with_rows(rows)
    taken = {h.casefold() for h in layout.header}
    names = [h.format(h=layout.header[source]) for h in HEADERS]
    header = rng.choice([h for h in names if h.casefold() not in taken] or ["Row Rank"])
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1", "ref": ref,
             "source": layout.header[source], "how": HOW[params["order"]]}
    return Goal(layout, facts, Target(params["order"], source, letter, header, ref))


def _formulas(layout: cc.Layout, target: Target, *, order: str | None = None, slide: bool = False,
              short: bool = False, ties: bool = False) -> dict[str, str]:
    """One RANK formula per data row; the near-misses' slips: the other direction, a range without $ that slides
    down as the formula is filled, a range one row short, ties numbered one after another."""
    column = layout.letter(target.source)
    last = layout.last_row - 1 if short else layout.last_row
    flag = 0 if (order or target.order) == "descending" else 1
    out = {}
    for r in range(2, layout.last_row + 1):
        span = f"{column}{r}:{column}{last + r - 2}" if slide else f"${column}$2:${column}${last}"
        formula = f"=RANK({column}{r},{span},{flag})"
        if ties:
            formula += f"+COUNTIF(${column}$2:{column}{r},{column}{r})-1"
        out[f"{target.letter}{r}"] = formula
    return out


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    expected = [cc.evaluate_on(layout, f) for f in formulas]
    direction = "largest" if target.order == "descending" else "smallest"
    return [Check(
        id="rank_column",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and every cell "
                  f"of {target.ref} is a formula ranking its row's '{layout.header[target.source]}' among the whole "
                  f"column, 1 for the {direction}, tied values sharing a rank.",
        primitive="xlsx.rank_column",
        args={"path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1", "header": target.header,
              "ref": target.ref, "source": layout.header[target.source],
              "descending": target.order == "descending", "expected": expected, "formulas": formulas})]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    formulas = _formulas(layout, target)
    typed = {cell: int(cc.evaluate_on(layout, f)) for cell, f in formulas.items()}
    other = "ascending" if target.order == "descending" else "descending"
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    return Attempts(
        Attempt("header plus one RANK formula per data row over the anchored column",
                [{**base, "cells": {**head, **formulas}}]),
        [Attempt(f"ranks in the other direction ({other})",
                 [{**base, "cells": {**head, **_formulas(layout, target, order=other)}}]),
         Attempt("the ranked range has no $ and slides down as the formula is filled down",
                 [{**base, "cells": {**head, **_formulas(layout, target, slide=True)}}]),
         Attempt("the ranked range stops one row short of the table",
                 [{**base, "cells": {**head, **_formulas(layout, target, short=True)}}]),
         Attempt("numbers tied rows one after another, as a sort position would",
                 [{**base, "cells": {**head, **_formulas(layout, target, ties=True)}}]),
         Attempt("types the ranks instead of formulas", [{**base, "cells": {**head, **typed}}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add a column ranking each row by a numeric column with RANK (1 for the largest or the smallest; "
                "ties share a rank).",
    knobs={"order": ORDERS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
