"""xlsx op for inserting a column into a table (calc.insert_column): the columns from a letter on move one to the
right (values and number formats), and the new column gets a header and, per data row, nothing, a text, or a
formula taking a percentage of another column of the row.

The op shifts what it reads from the workbook it edits, so an oracle built on it is a second computation,
independent of the family's goal.
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.utils import column_index_from_string, get_column_letter

from preparers.ops import OpError, op


@op("xlsx.insert_column")
def insert_column(wb: Workbook, sheet: str, at: str, header: str | None, text: str | None = None,
                  source: str | None = None, percent: float | None = None, overwrite: bool = False,
                  skip_last: bool = False) -> None:
    """Insert a column at `at` (the letter the new column gets) on `sheet`, header `header` in row 1, and fill its
    data rows (2 to the last row of the table): with `text` each gets that text; with `source` and `percent` each
    gets `=ROUND(<source cell of its row>*percent/100,2)` (`source` names the column before the insertion).

    Slips, for near-misses: `overwrite` writes the new column over the one at `at` instead of shifting the others;
    `skip_last` leaves the last data row of the new column empty; `header=None` leaves the header cell empty."""
    ws = wb[sheet]
    new = column_index_from_string(at)
    width, height = ws.max_column, ws.max_row
    if not 1 <= new <= width + 1:
        raise OpError(f"xlsx.insert_column: at={at!r} is outside the sheet's {width} columns")
    if (source is None) != (percent is None):
        raise OpError("xlsx.insert_column: a percentage column needs both `source` and `percent`")
    if not overwrite:
        for c in range(width, new - 1, -1):
            for r in range(1, height + 1):
                cell, moved = ws.cell(r, c + 1), ws.cell(r, c)
                cell.value, cell.number_format = moved.value, moved.number_format
    for r in range(1, height + 1):
        ws.cell(r, new).value = None
        ws.cell(r, new).number_format = "General"
    ws.cell(1, new).value = header
    src = None
    if source is not None:
        index = column_index_from_string(source)
        src = get_column_letter(index + 1 if index >= new and not overwrite else index)
    for r in range(2, height + 1 - (1 if skip_last else 0)):
        if text is not None:
            ws.cell(r, new).value = text
        elif src is not None:
            ws.cell(r, new).value = f"=ROUND({src}{r}*{percent:g}/100,2)"
