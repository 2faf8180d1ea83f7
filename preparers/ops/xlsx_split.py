"""xlsx op for splitting a text column into two (calc.split_column): each row's text cut at the first separator,
the parts written into two new columns right of the table or in place of the column (the columns right of it
moving one over, as inserting a column and running Data > Text to Columns does).

The op cuts the texts it reads from the workbook it edits, so an oracle built on it is a second computation,
independent of the family's goal.
"""

from __future__ import annotations

from typing import Any

from openpyxl import Workbook
from openpyxl.utils import column_index_from_string

from preparers.ops import OpError, op


def split_text(text: str, separator: str, as_text: bool = False, keep_space: bool = False) -> tuple[Any, Any]:
    """`text` cut at the first `separator` (the spaces around the cut dropped, unless `keep_space`); a part made of
    digits only becomes a number, as Text to Columns reads it (unless `as_text`)."""
    left, found, right = text.partition(separator)
    if not found:
        return text, None
    parts: list[Any] = [left.rstrip(), right if keep_space else right.lstrip()]
    if not as_text:
        parts = [int(p) if p.isdigit() else p for p in parts]
    return parts[0], parts[1]


@op("xlsx.split_column")
def split_column(wb: Workbook, sheet: str, column: str, separator: str, headers: list[str], replace: bool = False,
                 swap: bool = False, first_only: bool = False, keep_space: bool = False, as_text: bool = False,
                 no_header: bool = False) -> None:
    """Split the text of `column` (a letter; header in row 1) at `separator` into two columns headed `headers`:
    with `replace` the column's place holds the two parts and every column right of it moves one over (values and
    number formats); else the parts go into the two columns right of the sheet's last column and the original stays.

    Slips, for near-misses: `swap` writes the parts the other way round; `first_only` writes only the first part;
    `keep_space` leaves the space after the separator on the second part; `as_text` keeps a number part as text;
    `no_header` leaves the two header cells empty."""
    if len(headers) != 2:
        raise OpError(f"xlsx.split_column: headers={headers!r} must name two columns")
    ws = wb[sheet]
    source = column_index_from_string(column)
    width, height = ws.max_column, ws.max_row
    if not 1 <= source <= width:
        raise OpError(f"xlsx.split_column: column={column!r} is outside the sheet's {width} columns")
    texts = [ws.cell(r, source).value for r in range(2, height + 1)]
    if replace:
        for c in range(width, source, -1):
            for r in range(1, height + 1):
                cell, moved = ws.cell(r, c + 1), ws.cell(r, c)
                cell.value, cell.number_format = moved.value, moved.number_format
        first = source
        ws.cell(1, source + 1).number_format = "General"
        for r in range(2, height + 1):
            ws.cell(r, source + 1).number_format = "General"
    else:
        first = width + 1
    lines = [headers, *[split_text(str(t), separator, as_text, keep_space) if t is not None else (None, None)
                        for t in texts]]
    for r, (a, b) in enumerate(lines, start=1):
        if swap:
            a, b = b, a
        if first_only:
            b = None
        if r == 1 and no_header:
            a = b = None
        ws.cell(r, first).value = a
        ws.cell(r, first + 1).value = b
