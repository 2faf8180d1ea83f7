"""xlsx ops for Paste Special > Transpose, Fill Series and moving a column (calc.transpose_range, calc.fill_series,
calc.move_column).

Each computes from the workbook it edits (the transposed block is read from the source range, the series from its
start and step, the moved columns from the sheet), so an oracle built on them is a second computation, independent
of the family's goal.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from openpyxl import Workbook
from openpyxl.utils import column_index_from_string, coordinate_to_tuple, get_column_letter, range_boundaries

from preparers.ops import OpError, op

#: The format a date typed into Calc shows by default in these workbooks (preparers/xlsx.py writes the same).
DATE_FORMAT = "yyyy-mm-dd"


@op("xlsx.transpose_range")
def transpose_range(wb: Workbook, sheet: str, ref: str, dest_sheet: str, anchor: str, plain: bool = False,
                    cut: bool = False) -> None:
    """Paste `sheet`!`ref` transposed (its rows become columns) with its values and number formats at
    `dest_sheet`!`anchor`; `dest_sheet` is added after the last sheet when the workbook has none of that name.

    Two classic slips, for near-misses: `plain` pastes the range as it is (not transposed); `cut` empties the
    source range too (cut and paste instead of copy)."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    if None in (min_col, min_row, max_col, max_row):
        raise OpError(f"xlsx.transpose_range: ref={ref!r} is not a range like A1:F13")
    source = wb[sheet]
    block = [[(c.value, c.number_format) for c in row]
             for row in source.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col)]
    if cut:
        for row in source.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col):
            for c in row:
                c.value, c.number_format = None, "General"
    dest = wb[dest_sheet] if dest_sheet in wb.sheetnames else wb.create_sheet(dest_sheet)
    row0, col0 = coordinate_to_tuple(anchor)
    for i, line in enumerate(block):
        for j, (value, fmt) in enumerate(line):
            r, c = (row0 + i, col0 + j) if plain else (row0 + j, col0 + i)
            cell = dest.cell(r, c)
            cell.value = value
            if value is not None:
                cell.number_format = fmt


@op("xlsx.fill_series")
def fill_series(wb: Workbook, sheet: str, header_cell: str, header: str, ref: str, start: Any, step: float,
                dates: bool = False) -> None:
    """Write `header` into `header_cell` and fill the one-column `ref` with `start`, `start + step`, ... (with
    `dates`, days counted from the ISO date `start`, shown as yyyy-mm-dd). A step of 0 copies the start value
    down, as dragging a single cell with Ctrl does (a near-miss)."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    if min_col != max_col or None in (min_col, min_row, max_row):
        raise OpError(f"xlsx.fill_series: ref={ref!r} is not one column")
    ws = wb[sheet]
    ws[header_cell] = header
    letter = get_column_letter(min_col)
    for k, row in enumerate(range(min_row, max_row + 1)):
        cell = ws[f"{letter}{row}"]
        if dates:
            cell.value = dt.date.fromisoformat(start) + dt.timedelta(days=k * step)
            cell.number_format = DATE_FORMAT
        else:
            value = start + k * step
            cell.value = int(value) if float(value).is_integer() else round(value, 9)


@op("xlsx.move_column")
def move_column(wb: Workbook, sheet: str, column: str, to: int, copy: bool = False, swap: bool = False,
                data_only: bool = False) -> None:
    """Move `column` (a letter, header and data, values and number formats) so that it becomes the `to`-th column
    (0-based) of the sheet's used range, the columns between shifting over, as cutting it and inserting the cut
    cells there does.

    Three slips, for near-misses: `copy` inserts a copy there and keeps the original; `swap` trades places with the
    column at `to` instead of shifting the ones between; `data_only` moves the cells below the header only."""
    ws = wb[sheet]
    width = ws.max_column
    moving = column_index_from_string(column) - 1
    if not (0 <= moving < width and 0 <= to < width):
        raise OpError(f"xlsx.move_column: column={column!r}, to={to} outside the sheet's {width} columns")
    rows = range(2 if data_only else 1, ws.max_row + 1)
    cols = [[(ws.cell(r, c).value, ws.cell(r, c).number_format) for r in rows] for c in range(1, width + 1)]
    if swap:
        cols[moving], cols[to] = cols[to], cols[moving]
    elif copy:
        cols.insert(to + (1 if to > moving else 0), cols[moving])
    else:
        cols.insert(to, cols.pop(moving))
    for c, cells in enumerate(cols, start=1):
        for r, (value, fmt) in zip(rows, cells, strict=True):
            ws.cell(r, c).value = value
            ws.cell(r, c).number_format = fmt
