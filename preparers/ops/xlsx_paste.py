"""xlsx op for "replace the formulas with their values" (calc.paste_values, Paste Special > Values only): the
results of a column's arithmetic formulas written over them, or into another column."""

from __future__ import annotations

import re
from copy import copy
from typing import Any

from openpyxl import Workbook
from openpyxl.utils import get_column_letter, range_boundaries

from preparers.ops import OpError, op

_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)")
_ARITHMETIC = re.compile(r"[0-9.eE+\-*/() ]+")


def formula_value(ws: Any, coord: str, depth: int = 0) -> Any:
    """What cell `coord` shows: its value, or the result of its arithmetic formula (cells, numbers, + - * / and
    parentheses; a formula may refer to another formula's cell)."""
    value = ws[coord].value
    if not (isinstance(value, str) and value.startswith("=")):
        return value
    if depth > 8:
        raise OpError(f"xlsx.paste_values: {coord}: formulas refer to each other too deep")

    def number(match: re.Match[str]) -> str:
        got = formula_value(ws, f"{match[1]}{match[2]}", depth + 1)
        if not isinstance(got, int | float) or isinstance(got, bool):
            raise OpError(f"xlsx.paste_values: {coord} refers to {match[0]}, which holds no number")
        return repr(float(got))

    expr = _REF.sub(number, value[1:])
    if not _ARITHMETIC.fullmatch(expr):
        raise OpError(f"xlsx.paste_values: {coord} holds {value!r}, not plain arithmetic")
    return eval(expr, {"__builtins__": {}}, {})  # noqa: S307 - digits and + - * / ( ) only, checked above


@op("xlsx.paste_values")
def paste_values(wb: Workbook, sheet: str, ref: str, dest: str | None = None, header: str | None = None,
                 digits: int | None = None, text: bool = False, skip: int = 0, link: bool = False) -> None:
    """Replace the formulas of the one-column range `ref` (e.g. "F2:F13") with the values they show; with `dest`
    (the top cell of another column, e.g. "H2"), write the values there instead, under `header` in the row above
    (bold like the source's header), each cell with its source's number format, and keep the formulas.

    Slips, for near-misses: `digits` rounds each value; `text` writes it as text; `skip` leaves the last `skip`
    cells alone; `link` writes a formula pointing at the source cell instead of its value (dest only)."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    if min_col != max_col:
        raise OpError(f"xlsx.paste_values: ref={ref!r} is not one column")
    if sheet not in wb.sheetnames:
        raise OpError(f"xlsx.paste_values: no sheet {sheet!r}")
    ws = wb[sheet]
    if dest is None:
        to_col, to_row = min_col, min_row
    else:
        to_col, to_row = range_boundaries(f"{dest}:{dest}")[:2]
        if header is not None:
            head = ws.cell(to_row - 1, to_col)
            head.value = header
            head.font = copy(ws.cell(min_row - 1, min_col).font)
    rows = range(min_row, max_row + 1 - skip)
    values = {row: formula_value(ws, f"{get_column_letter(min_col)}{row}") for row in rows}
    for row in rows:
        source = ws.cell(row, min_col)
        target = ws.cell(to_row + row - min_row, to_col)
        value = values[row]
        if link:
            value = f"={source.coordinate}"
        elif digits is not None:
            value = round(value, digits)
            value = int(value) if digits <= 0 else value
        if text and not link:
            value = str(value)
        target.value = value
        if dest is not None:
            target.number_format = source.number_format
