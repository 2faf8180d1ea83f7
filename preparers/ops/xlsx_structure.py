"""xlsx ops: structure (merged cells, hidden columns, frozen panes, autofilters)."""

from __future__ import annotations

from copy import copy

from openpyxl import Workbook
from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries
from openpyxl.worksheet.dimensions import ColumnDimension

from preparers.ops import op


@op("xlsx.merge_cells")
def merge_cells(wb: Workbook, sheet: str, ref: str, horizontal: str | None = None) -> None:
    """Merge the cells of `ref` (e.g. "A1:F1") into one; `horizontal` (e.g. "center") also aligns the merged cell."""
    ws = wb[sheet]
    ws.merge_cells(ref)
    if horizontal is not None:
        min_col, min_row, _, _ = range_boundaries(ref)
        cell = ws.cell(min_row, min_col)
        alignment = copy(cell.alignment)
        alignment.horizontal = horizontal
        cell.alignment = alignment


@op("xlsx.center_across_selection")
def center_across_selection(wb: Workbook, sheet: str, ref: str) -> None:
    """Give every cell of `ref` the "Center Across Selection" alignment (centerContinuous) without merging them."""
    ws = wb[sheet]
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    for row in range(min_row, max_row + 1):
        for col in range(min_col, max_col + 1):
            cell = ws.cell(row, col)
            alignment = copy(cell.alignment)
            alignment.horizontal = "centerContinuous"
            cell.alignment = alignment


def _own_dimension(ws, index: int) -> ColumnDimension:
    """The column dimension of column `index` alone, splitting a grouped min..max dimension if one covers it."""
    for key, dim in list(ws.column_dimensions.items()):
        low = dim.min or column_index_from_string(key)
        high = dim.max or low
        if low <= index <= high and (low, high) != (index, index):
            del ws.column_dimensions[key]
            for part_low, part_high in ((low, index - 1), (index, index), (index + 1, high)):
                if part_low > part_high:
                    continue
                part = copy(dim)
                part.index = get_column_letter(part_low)
                part.min, part.max = part_low, part_high
                ws.column_dimensions[part.index] = part
            break
    dim = ws.column_dimensions[get_column_letter(index)]
    dim.min = dim.max = index
    return dim


@op("xlsx.hide_columns")
def hide_columns(wb: Workbook, sheet: str, columns: list[str]) -> None:
    """Hide whole columns given by letter, e.g. ["B", "E"] (widths are kept, only the hidden flag changes)."""
    ws = wb[sheet]
    for letter in columns:
        _own_dimension(ws, column_index_from_string(letter)).hidden = True


@op("xlsx.freeze_panes")
def freeze_panes(wb: Workbook, sheet: str, cell: str) -> None:
    """Freeze the rows above and the columns left of `cell` (e.g. "A2" freezes row 1, "B2" row 1 and column A)."""
    wb[sheet].freeze_panes = cell


@op("xlsx.set_autofilter")
def set_autofilter(wb: Workbook, sheet: str, ref: str) -> None:
    """Put an AutoFilter (drop-down buttons in the first row of `ref`) on the range `ref`, e.g. "A1:F13"."""
    wb[sheet].auto_filter.ref = ref
