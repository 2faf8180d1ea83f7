"""xlsx primitive for inserting a column into a table (calc.insert_column, Sheet > Insert Columns): the table holds a
new column at a stated place, under its header, empty or filled with a value or a computed number per row, and every
other column shifted over whole.

What else may change is the frame's question (`xlsx.frame`), not this check's.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError
from verifiers.meaning import Meaning
from verifiers.readers.xlsx import cell_text


@primitive("xlsx.column_inserted", grounded=("path", "sheet", "header", "place"),
           meaning=Meaning(action=r"insert|add|new\b|make room|put"))
def column_inserted(state: State, path: str, sheet: str, header: str, place: str, column: int,
                    expected: list[list[Any]], tolerance: float = 0.006) -> Result:
    """The table from A1 holds `expected` (header row first; numbers within `tolerance`, else canonical cell texts,
    None for an empty cell): a column headed `header` inserted as the 1-based `column` ({place} in words), the
    columns from there on shifted one to the right, each whole. A formula counts by its value."""
    if not expected or not expected[0]:
        return fail("check misconfigured: nothing expected")
    ws = state.sheet(path, sheet)
    problems = []
    for i, line in enumerate(expected):
        for j, want in enumerate(line):
            coord = f"{get_column_letter(j + 1)}{i + 1}"
            got = ws[coord].value
            if isinstance(got, str) and got.startswith("="):
                try:
                    got = _formula_result(state, path, sheet, coord)
                except (FormulaError, KeyError) as exc:
                    problems.append(f"{coord}: {exc}")
                    continue
            if want is None:
                if got is not None and cell_text(got).strip():
                    problems.append(f"{coord} = {cell_text(got)!r}, expected it empty")
            elif not same_value(got, want, tolerance):
                problems.append(f"{coord} = {cell_text(got)!r}, expected {cell_text(want)!r}")
    letter = get_column_letter(column)
    now = [cell_text(ws.cell(1, j + 1).value) for j in range(len(expected[0]))]
    if problems:
        return fail(f"the table on {sheet} has no column '{header}' inserted {place} (as column {letter}); its header "
                    f"row reads {now}: {len(problems)} cell(s) differ: {'; '.join(problems[:4])}")
    return ok(f"the table on {sheet} has the column '{header}' inserted {place} (column {letter}), the others "
              f"shifted whole")
