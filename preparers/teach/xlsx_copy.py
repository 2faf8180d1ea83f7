"""The copy-sheet op as openpyxl lines (preparers/ops/xlsx_copy.py): copy_worksheet, rename it, and put it in its
place among the sheets."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("xlsx.duplicate_sheet")
def copy_sheet(wb: str, path: str, sheet: str, name: str, index: int, values_only: bool = False,
               skip_header: bool = False, move: bool = False) -> str:
    lines = [f"ws = {wb}[{sheet!r}]"]
    if move:  # a near-miss: the sheet itself renamed and moved
        lines += [f"ws.title = {name!r}", "new = ws"]
    elif values_only or skip_header:  # near-misses: pasted values, or the rows below the header only
        lines += ["from copy import copy", f"new = {wb}.create_sheet({name!r})",
                  f"for row in ws.iter_rows(min_row={2 if skip_header else 1}):",
                  "    for cell in row:",
                  "        target = new.cell(cell.row, cell.column)",
                  "        target.value = cell.value"]
        if not values_only:
            lines += ["        target.number_format = cell.number_format", "        target.font = copy(cell.font)"]
    else:
        lines += [f"new = {wb}.copy_worksheet(ws)", f"new.title = {name!r}"]
    lines += [f"{wb}.move_sheet(new, offset={index} - {wb}.sheetnames.index(new.title))  # sheet {index + 1}"]
    return "\n".join(lines)
