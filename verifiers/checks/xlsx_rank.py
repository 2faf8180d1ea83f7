"""xlsx primitive for "rank the rows" tasks (calc.rank_column): a new column whose every data row holds a formula
ranking that row's number among the whole column's numbers (RANK / RANK.EQ; tied numbers share a rank, as Calc's
RANK gives them), in the asked direction.

A rank refers to the whole ranked column, so `xlsx.formula_column`'s "only cells of its own row" does not apply;
instead each formula must compute what the right RANK computes when the ranked numbers change
(`verifiers.formula.disagreement`): typed ranks dressed as formulas, a range that slides down as the formula is
filled, or ranks of another column cannot agree by coincidence."""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError, disagreement, referenced_ranges
from verifiers.meaning import Meaning, Said, choice
from verifiers.readers import StateError
from verifiers.readers.xlsx import bounds, cell_lookup, cell_text


@primitive("xlsx.rank_column", grounded=("path", "sheet", "header_cell", "header", "ref", "source", "descending"),
           secret=("formulas",),  # not the ranks: small whole numbers that "rank 1" or a cell name states anyway
           meaning=Meaning(action=r"rank|RANK\b",
                           args={"descending": Said("order", choice({True: "desc", False: "asc"}))}))
def rank_column(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str, source: str,
                descending: bool, expected: list[float], formulas: list[str]) -> Result:
    """`header_cell` holds `header` and each cell of the one-column `ref` holds a formula showing the matching rank
    of `expected` (the row's '`source`' number ranked among the column's numbers, 1 for the largest when
    `descending`, for the smallest otherwise; ties share a rank) and computing what the matching item of `formulas`
    computes when the ranked numbers change (any equivalent formula passes: RANK.EQ, absolute or mixed references,
    COUNTIF(...)+1)."""
    ws = state.sheet(path, sheet)
    min_col, min_row, max_col, max_row = bounds(ref)
    if min_col != max_col or max_row - min_row + 1 != len(expected) or len(formulas) != len(expected):
        raise StateError(f"check misconfigured: {ref} is not one column of {len(expected)} cells with "
                         f"{len(formulas)} formulas")
    shown = cell_text(ws[header_cell].value).strip()
    if shown.casefold() != header.strip().casefold():
        return fail(f"{sheet}!{header_cell} holds {shown!r}, expected the header {header!r}")
    lookup = cell_lookup(state.workbook(path), sheet)
    letter = get_column_letter(min_col)
    problems: list[str] = []
    example = ""
    for row, want, reference in zip(range(min_row, max_row + 1), expected, formulas, strict=True):
        coord = f"{letter}{row}"
        formula: Any = ws[coord].value
        if not (isinstance(formula, str) and formula.startswith("=")):
            problems.append(f"{coord} holds {cell_text(formula)!r}, not a formula")
            continue
        try:
            refs = referenced_ranges(formula)
            value = _formula_result(state, path, sheet, coord)
            differs = None if not refs else disagreement(formula, reference, lookup)
        except FormulaError as exc:
            problems.append(f"{coord}: {exc}")
            continue
        if not refs:
            problems.append(f"{coord} = {formula!r} refers to no cell")
        elif isinstance(value, str | bool) or not same_value(value, want, 1e-9):
            problems.append(f"{coord} = {formula!r} shows {cell_text(value)!r}, expected the rank {cell_text(want)}")
        elif differs:
            problems.append(f"{coord} = {formula!r} is not the asked rank: {differs}")
        elif not example:
            example = f"{coord} = {formula!r} -> {cell_text(value)}"
    direction = "largest" if descending else "smallest"
    if problems:
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        return fail(f"{len(problems)} of {len(expected)} cells of {sheet}!{ref} do not rank '{source}' with 1 for the "
                    f"{direction}: {'; '.join(problems[:3])}{more}")
    return ok(f"{sheet}!{header_cell} = {shown!r}; all {len(expected)} cells of {ref} rank '{source}' with 1 for the "
              f"{direction}, e.g. {example}")
