"""xlsx op for duplicating a sheet (calc.copy_sheet): a copy of a sheet, values, number formats and fonts, under a
new name at a stated place among the sheets.
"""

from __future__ import annotations

from copy import copy

from openpyxl import Workbook

from preparers.ops import OpError, op


@op("xlsx.duplicate_sheet")
def copy_sheet(wb: Workbook, sheet: str, name: str, index: int, values_only: bool = False,
               skip_header: bool = False, move: bool = False) -> None:
    """Copy `sheet` to a new sheet `name`, placed so that it becomes the `index`-th sheet (0-based).

    Slips, for near-misses: `values_only` copies the values alone (number formats and bold lost, as pasting
    values does); `skip_header` copies from row 2 (the header row left out); `move` renames and moves the sheet
    itself instead of copying it."""
    if sheet not in wb.sheetnames:
        raise OpError(f"xlsx.duplicate_sheet: no sheet {sheet!r} (sheets: {wb.sheetnames})")
    if name in wb.sheetnames:
        raise OpError(f"xlsx.duplicate_sheet: a sheet {name!r} is there already")
    ws = wb[sheet]
    if move:
        ws.title = name
        new = ws
    elif values_only or skip_header:
        new = wb.create_sheet(name)
        for row in ws.iter_rows(min_row=2 if skip_header else 1):
            for cell in row:
                target = new.cell(cell.row, cell.column)
                target.value = cell.value
                if not values_only:
                    target.number_format = cell.number_format
                    target.font = copy(cell.font)
    else:
        new = wb.copy_worksheet(ws)
        new.title = name
    wb._sheets.remove(new)
    wb._sheets.insert(index, new)
