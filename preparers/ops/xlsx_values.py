"""xlsx ops that change cell values and rows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl import Workbook
from openpyxl.utils import column_index_from_string, range_boundaries

from kit import parsecache
from preparers.ops import document_kind, op


def _load(host: Path, root: Path) -> Workbook:
    if not host.is_file():
        raise FileNotFoundError(host)
    return parsecache.parse(host, "xlsx", openpyxl.load_workbook)


def _save(workbook: Workbook, host: Path) -> None:
    workbook.save(host)


document_kind("xlsx", load=_load, save=_save)


def _sort_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return (0, value.toordinal() if isinstance(value, dt.date) else value)
    if isinstance(value, int | float):
        return (0, value)
    return (1, str(value).casefold())


@op("xlsx.set_cells")
def set_cells(wb: Workbook, sheet: str, cells: dict[str, Any]) -> None:
    """Write values or formulas (strings starting with '=') into cells, e.g. {"F2": "=D2*E2"}."""
    ws = wb[sheet]
    for ref, value in cells.items():
        ws[ref] = value


@op("xlsx.sort_rows")
def sort_rows(wb: Workbook, sheet: str, ref: str, key_column: str, descending: bool = False,
              key_only: bool = False) -> None:
    """Sort the rows of `ref` (e.g. "A2:E21", no header) by `key_column` (a letter). `key_only` sorts that column alone,
    breaking rows apart: a classic mistake, used by near-misses."""
    ws = wb[sheet]
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    key = column_index_from_string(key_column) - min_col
    cols = range(min_col, max_col + 1)
    row_numbers = range(min_row, max_row + 1)
    rows = [[ws.cell(r, c).value for c in cols] for r in row_numbers]
    if key_only:
        column = sorted((row[key] for row in rows), key=_sort_value, reverse=descending)
        for row, value in zip(rows, column, strict=True):
            row[key] = value
    else:
        rows.sort(key=lambda row: _sort_value(row[key]), reverse=descending)
    for r, row in zip(row_numbers, rows, strict=True):
        for c, value in zip(cols, row, strict=True):
            ws.cell(r, c).value = value


@op("xlsx.delete_rows")
def delete_rows(wb: Workbook, sheet: str, rows: list[int]) -> None:
    """Delete whole rows (1-based), shifting the rows below up."""
    ws = wb[sheet]
    for row in sorted(set(rows), reverse=True):
        ws.delete_rows(row)



@op("xlsx.replace_values")
def replace_values(wb: Workbook, sheet: str, old: str, new: str, ref: str | None = None,
                   first_only: bool = False) -> None:
    """Replace every cell whose whole (trimmed) text is `old` by `new`, within `ref` or, when `ref` is None, the
    whole sheet (row by row). `first_only` replaces just the first match: a classic mistake, used by near-misses."""
    ws = wb[sheet]
    if ref is None:
        cells = [cell for row in ws.iter_rows() for cell in row]
    else:
        min_col, min_row, max_col, max_row = range_boundaries(ref)
        cells = [ws.cell(r, c) for r in range(min_row, max_row + 1) for c in range(min_col, max_col + 1)]
    for cell in cells:
        if isinstance(cell.value, str) and cell.value.strip() == old:
            cell.value = new
            if first_only:
                return
