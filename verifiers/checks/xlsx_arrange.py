"""xlsx primitives for Calc's Paste Special > Transpose, Sheet > Fill Cells > Fill Series and moving a column
(calc.transpose_range, calc.fill_series, calc.move_column): a block holds a source range turned on its side; a
column holds an arithmetic series; a table holds its columns in a new order.

What else may change is the frame's question (`xlsx.frame`), not these checks'.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from openpyxl.utils import coordinate_to_tuple, get_column_letter, range_boundaries

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError
from verifiers.meaning import Meaning
from verifiers.readers.xlsx import cell_text

#: Excel's and Calc's day 0: a date series written as formulas reads back as serial numbers.
_EPOCH = dt.date(1899, 12, 30)


def _value(state: State, path: str, sheet: str, coord: str, raw: Any) -> Any:
    if isinstance(raw, str) and raw.startswith("="):
        return _formula_result(state, path, sheet, coord)
    return raw


@primitive("xlsx.range_transposed", grounded=("path", "sheet", "anchor", "source_sheet", "source_ref"),
           meaning=Meaning(action=r"transpos|rows? (?:become|into|as) (?:the )?columns|"
                                  r"swap(?:ping|ped)? (?:the )?rows and columns|rows and columns swapped"))
def range_transposed(state: State, path: str, sheet: str, anchor: str, source_sheet: str, source_ref: str,
                     expected: list[list[Any]]) -> Result:
    """The block starting at `anchor` on `sheet` holds `expected` (the rows of `source_sheet`!`source_ref` as its
    columns: numbers, else canonical cell texts): row i of the source is column i of the block. Numbers compare as
    numbers (a number pasted as text fails), dates by day; a cell left empty in the source stays empty."""
    if not expected or not expected[0]:
        return fail("check misconfigured: nothing expected")
    ws = state.sheet(path, sheet)
    row0, col0 = coordinate_to_tuple(anchor)
    problems = []
    for i, line in enumerate(expected):
        for j, want in enumerate(line):
            coord = f"{get_column_letter(col0 + j)}{row0 + i}"
            try:
                got = _value(state, path, sheet, coord, ws[coord].value)
            except FormulaError as exc:
                problems.append(f"{coord}: {exc}")
                continue
            if not same_value(got, want):
                problems.append(f"{coord} = {cell_text(got)!r}, expected {cell_text(want)!r}")
    end = f"{get_column_letter(col0 + len(expected[0]) - 1)}{row0 + len(expected) - 1}"
    where = f"{sheet}!{anchor}:{end}"
    if problems:
        return fail(f"{len(problems)} cells of {where} do not hold {source_sheet}!{source_ref} transposed: "
                    f"{'; '.join(problems[:4])}")
    return ok(f"{where} holds {source_sheet}!{source_ref} transposed ({len(expected)} rows x {len(expected[0])} "
              f"columns)")


def _as_number(value: Any) -> float | None:
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return float((value - _EPOCH).days)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


@primitive("xlsx.series_filled", grounded=("path", "sheet", "header", "ref", "start", "step"),
           meaning=Meaning(action=r"series|sequence|number|increas|increment|step|fill|count"))
def series_filled(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str, start: Any,
                  step: float, dates: bool = False) -> Result:
    """`header_cell` holds `header` and the one-column `ref` holds the series `start`, `start + step`, ... down to
    its last cell: numbers, or with `dates` days counted from the ISO date `start` (typed dates, or formulas
    showing them). A series typed as text, or one that repeats the start value, fails."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    if min_col != max_col or None in (min_col, min_row, max_row):
        return fail(f"check misconfigured: ref={ref!r} is not one column")
    ws = state.sheet(path, sheet)
    problems = []
    if cell_text(ws[header_cell].value).strip() != header:
        problems.append(f"{header_cell} = {cell_text(ws[header_cell].value)!r}, expected the header {header!r}")
    first = _as_number(dt.date.fromisoformat(start)) if dates else float(start)
    assert first is not None
    letter = get_column_letter(min_col)
    for k, row in enumerate(range(min_row, max_row + 1)):
        coord, want = f"{letter}{row}", first + k * step
        try:
            got = _value(state, path, sheet, coord, ws[coord].value)
        except FormulaError as exc:
            problems.append(f"{coord}: {exc}")
            continue
        typed_number = isinstance(got, int | float) and not isinstance(ws[coord].value, str)
        # a typed number where a date belongs shows as a serial, not a date (a formula's value is a serial anyway)
        number = None if dates and typed_number else _as_number(got)
        shown = (_EPOCH + dt.timedelta(days=want)).isoformat() if dates else cell_text(want)
        if number is None or abs(number - want) > 1e-6:
            problems.append(f"{coord} = {cell_text(got)!r}, expected {shown}")
    kind = f"the date series from {start} every {cell_text(step)} day(s)" if dates else \
        f"the series {cell_text(start)}, {cell_text(first + step)}, ..."
    if problems:
        return fail(f"{sheet}!{ref} does not hold {kind} under '{header}': {'; '.join(problems[:4])}")
    return ok(f"{sheet}!{header_cell} reads '{header}' and {ref} holds {kind}")



@primitive("xlsx.column_moved", grounded=("path", "sheet", "header", "place"),
           meaning=Meaning(action=r"move|put|place|shift|reorder|rearrang|drag"))
def column_moved(state: State, path: str, sheet: str, header: str, place: str, order: list[str],
                 expected: list[list[Any]]) -> Result:
    """The table from A1 holds `expected` (header row first; numbers, else canonical cell texts): its columns in the
    order `order`, the '{header}' column moved to `place` (words, for the evidence), each column whole."""
    if not expected or not expected[0]:
        return fail("check misconfigured: nothing expected")
    ws = state.sheet(path, sheet)
    problems = []
    for i, line in enumerate(expected):
        for j, want in enumerate(line):
            coord = f"{get_column_letter(j + 1)}{i + 1}"
            try:
                got = _value(state, path, sheet, coord, ws[coord].value)
            except FormulaError as exc:
                problems.append(f"{coord}: {exc}")
                continue
            if not same_value(got, want):
                problems.append(f"{coord} = {cell_text(got)!r}, expected {cell_text(want)!r}")
    now = [cell_text(ws.cell(1, j + 1).value) for j in range(len(expected[0]))]
    if problems:
        return fail(f"the table on {sheet} is not in the order {order} ('{header}' {place}); its header row reads "
                    f"{now}: {'; '.join(problems[:4])}")
    return ok(f"the table on {sheet} has its columns in the order {order}, '{header}' {place}")
