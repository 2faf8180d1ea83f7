"""xlsx primitive for a duplicated sheet (calc.copy_sheet, Sheet > Duplicate Sheet or Move or Copy Sheet with
Copy): a sheet of the workbook holds what another holds, cell by cell, with the same number formats and bold.

Where the copy sits among the sheets is `xlsx.sheet_names`' question; what else may change is the frame's.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.xlsx import cell_text

#: The most cells compared (the tables of these tasks hold a few hundred).
_LIMIT = 20_000


def _looks(cell: Any) -> tuple[str, str, str, bool]:
    """(kind, value as text, number format, bold) of a cell; an empty cell has no format or bold to compare."""
    value = cell.value
    if value is None:
        return "-", "", "", False
    number = isinstance(value, int | float) and not isinstance(value, bool)
    shown = repr(float(value)).removesuffix(".0") if number else cell_text(value)
    return ("n" if number else "s"), shown, cell.number_format or "General", bool(cell.font and cell.font.b)


@primitive("xlsx.sheet_copied", grounded=("path", "sheet", "source"),
           meaning=Meaning(action=r"cop(?:y|ies|ied)|duplicat|clone"))
def sheet_copied(state: State, path: str, sheet: str, source: str) -> Result:
    """`sheet` holds what `source` holds in the same workbook: every cell's value (numbers as numbers, text as
    text), its number format and its bold, over the used area of both."""
    if sheet == source:
        return fail("check misconfigured: a sheet cannot be its own copy")
    wb = state.workbook(path)
    for name in (sheet, source):
        if name not in wb.sheetnames:
            return fail(f"{path} has no sheet {name!r} (sheets: {wb.sheetnames})")
    copy, original = wb[sheet], wb[source]
    rows, cols = max(copy.max_row, original.max_row), max(copy.max_column, original.max_column)
    if rows * cols > _LIMIT:
        return fail(f"{sheet} or {source} spans {rows} x {cols} cells, more than a copied table holds")
    problems = []
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            want, got = _looks(original.cell(r, c)), _looks(copy.cell(r, c))
            if want == got:
                continue
            coord = f"{get_column_letter(c)}{r}"
            if want[:2] != got[:2]:
                kind = " (a number stored as text)" if (want[0], got[0]) == ("n", "s") else ""
                problems.append(f"{coord} = {got[1] or 'nothing'!r}{kind}, {source} has {want[1] or 'nothing'!r}")
            elif want[2] != got[2]:
                problems.append(f"{coord} has the number format {got[2]!r}, {source} has {want[2]!r}")
            else:
                problems.append(f"{coord} is {'' if got[3] else 'not '}bold, unlike on {source}")
    if problems:
        return fail(f"{sheet} is not a copy of {source}: {len(problems)} cell(s) differ: {'; '.join(problems[:4])}")
    return ok(f"{sheet} holds what {source} holds ({original.max_row} rows x {original.max_column} columns, values, "
              f"number formats and bold)")
