"""xlsx primitive for splitting a text column into two (calc.split_column, Data > Text to Columns or LEFT/MID
formulas): the table holds the parts of each row's text, under their headers, in two new columns right of it or in
place of the split column.

Text compares exactly (a space left at the start of a part is the classic slip of a split at ", "); a part that is a
number compares as a number (a number left as text fails). What else may change is the frame's question.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError
from verifiers.meaning import Meaning
from verifiers.readers.xlsx import cell_text


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, int | float) and not isinstance(want, bool):
        return isinstance(got, int | float) and not isinstance(got, bool) and abs(float(got) - want) <= 1e-9
    return cell_text(got) == cell_text(want)


@primitive("xlsx.column_split", grounded=("path", "sheet", "header", "separator", "parts"),
           meaning=Meaning(action=r"split|separat|text to columns|break|divid"))
def column_split(state: State, path: str, sheet: str, header: str, separator: str, parts: list[str],
                 columns: list[int], expected: list[list[Any]]) -> Result:
    """The table from A1 holds `expected` (header row first; numbers as numbers, text exactly, dates as ISO text):
    the '{header}' column's text split at the `separator` (a word, for the evidence) into the columns `parts`,
    which sit at the 1-based `columns`. A formula counts by its value."""
    if not expected or not expected[0] or len(parts) != len(columns):
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
            if not _same(got, want):
                kind = " (a number stored as text)" if isinstance(want, int | float) and isinstance(got, str) else ""
                problems.append(f"{coord} = {cell_text(got)!r}, expected {cell_text(want)!r}{kind}")
    where = " and ".join(f"'{p}' ({get_column_letter(c)})" for p, c in zip(parts, columns, strict=True))
    if problems:
        return fail(f"the '{header}' column on {sheet} is not split at the {separator} into {where}: "
                    f"{len(problems)} cell(s) differ: {'; '.join(problems[:4])}")
    return ok(f"the '{header}' column on {sheet} is split at the {separator} into {where}, "
              f"{len(expected) - 1} rows")
