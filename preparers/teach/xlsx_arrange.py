"""Transpose, fill-series and move-column ops as openpyxl lines (preparers/ops/xlsx_arrange.py): read the source
range and write its rows as columns; compute each cell of a series from its start and step; read every column of
the sheet, reorder them and write them back."""

from __future__ import annotations

from typing import Any

from openpyxl.utils import range_boundaries

from preparers.teach import snippet


@snippet("xlsx.transpose_range")
def transpose_range(wb: str, path: str, sheet: str, ref: str, dest_sheet: str, anchor: str, plain: bool = False,
                    cut: bool = False) -> str:
    lines = [f"src = {wb}[{sheet!r}]",
             f"block = [[(c.value, c.number_format) for c in row] for row in src[{ref!r}]]"]
    if cut:  # a near-miss: cut and paste instead of copy
        lines += [f"for row in src[{ref!r}]:", "    for c in row:",
                  "        c.value, c.number_format = None, 'General'"]
    lines += [f"name = {dest_sheet!r}",
              f"dest = {wb}[name] if name in {wb}.sheetnames else {wb}.create_sheet(name)",
              "from openpyxl.utils import coordinate_to_tuple",
              f"r0, c0 = coordinate_to_tuple({anchor!r})",
              "for i, line in enumerate(block):",
              "    for j, (value, fmt) in enumerate(line):",
              f"        cell = dest.cell({'r0 + i, c0 + j' if plain else 'r0 + j, c0 + i'})  # row i -> column i",
              "        cell.value = value",
              "        if value is not None:",
              "            cell.number_format = fmt"]
    return "\n".join(lines)


@snippet("xlsx.fill_series")
def fill_series(wb: str, path: str, sheet: str, header_cell: str, header: str, ref: str, start: Any, step: float,
                dates: bool = False) -> str:
    min_col, min_row, _, max_row = range_boundaries(ref)
    lines = [f"ws = {wb}[{sheet!r}]", f"ws[{header_cell!r}] = {header!r}"]
    if dates:
        lines += ["import datetime as dt", f"first = dt.date.fromisoformat({start!r})",
                  f"for k, r in enumerate(range({min_row}, {max_row + 1})):",
                  f"    cell = ws.cell(r, {min_col})",
                  f"    cell.value = first + dt.timedelta(days=k * {step!r})",
                  "    cell.number_format = 'yyyy-mm-dd'"]
    else:
        lines += [f"for k, r in enumerate(range({min_row}, {max_row + 1})):",
                  f"    ws.cell(r, {min_col}).value = {start!r} + k * {step!r}"]
    return "\n".join(lines)


@snippet("xlsx.move_column")
def move_column(wb: str, path: str, sheet: str, column: str, to: int, copy: bool = False, swap: bool = False,
                data_only: bool = False) -> str:
    first = 2 if data_only else 1
    lines = [f"ws = {wb}[{sheet!r}]",
             "from openpyxl.utils import column_index_from_string",
             f"rows = range({first}, ws.max_row + 1)",
             "cols = [[(ws.cell(r, c).value, ws.cell(r, c).number_format) for r in rows] "
             "for c in range(1, ws.max_column + 1)]",
             f"moving = column_index_from_string({column!r}) - 1"]
    if swap:  # a near-miss: the two columns trade places
        lines.append(f"cols[moving], cols[{to}] = cols[{to}], cols[moving]")
    elif copy:  # a near-miss: copied, the original left where it was
        lines.append(f"cols.insert({to} + (1 if {to} > moving else 0), cols[moving])")
    else:
        lines.append(f"cols.insert({to}, cols.pop(moving))  # column {column} becomes column {to + 1}")
    lines += ["for c, cells in enumerate(cols, start=1):",
              "    for r, (value, fmt) in zip(rows, cells):",
              "        ws.cell(r, c).value = value",
              "        ws.cell(r, c).number_format = fmt"]
    return "\n".join(lines)
