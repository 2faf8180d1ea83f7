"""xlsx ops: charts and whole-sheet operations (add, copy, rename, move, delete, clear)."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import AreaChart, BarChart, LineChart, PieChart, Reference, Series
from openpyxl.chart.data_source import StrRef
from openpyxl.chart.series import SeriesLabel
from openpyxl.utils import absolute_coordinate, quote_sheetname, range_boundaries

from preparers.ops import op

#: chart_type -> (openpyxl class, bar direction or None)
CHART_TYPES = {
    "bar": (BarChart, "bar"),
    "column": (BarChart, "col"),
    "line": (LineChart, None),
    "pie": (PieChart, None),
    "area": (AreaChart, None),
}


def _reference(ws, ref: str) -> Reference:
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    return Reference(ws, min_col=min_col, min_row=min_row, max_col=max_col, max_row=max_row)


@op("xlsx.add_chart")
def add_chart(wb: Workbook, sheet: str, chart_type: str, values: str, categories: str | None = None,
              name_cell: str | None = None, anchor: str = "H2") -> None:
    """Insert a one-series chart of `chart_type` (bar, column, line, pie, area) on `sheet` at `anchor`.

    `values` (e.g. "D2:D13") is the series' data, `categories` (e.g. "A2:A13") its labels, `name_cell`
    (e.g. "D1") the cell naming the series; None leaves categories or the name out (near-miss states).
    """
    if chart_type not in CHART_TYPES:
        raise ValueError(f"unknown chart_type {chart_type!r}; known: {sorted(CHART_TYPES)}")
    ws = wb[sheet]
    cls, direction = CHART_TYPES[chart_type]
    chart = cls()
    if direction is not None:
        chart.type = direction
    series = Series(_reference(ws, values), title_from_data=False)
    if name_cell is not None:
        series.tx = SeriesLabel(strRef=StrRef(f"{quote_sheetname(sheet)}!{absolute_coordinate(name_cell)}"))
    chart.series.append(series)
    if categories is not None:
        chart.set_categories(_reference(ws, categories))
    ws.add_chart(chart, anchor)


def _keep_active_in_range(wb: Workbook) -> None:
    if wb._active_sheet_index >= len(wb.worksheets):
        wb.active = len(wb.worksheets) - 1


@op("xlsx.add_sheet")
def add_sheet(wb: Workbook, name: str, index: int) -> None:
    """Insert a new empty sheet `name` so that it becomes the `index`-th sheet (0-based)."""
    wb.create_sheet(name, index)


@op("xlsx.copy_sheet")
def copy_sheet(wb: Workbook, sheet: str, name: str, index: int) -> None:
    """Insert a copy of `sheet` (cell values and formats) named `name` as the `index`-th sheet (0-based)."""
    copy = wb.copy_worksheet(wb[sheet])
    copy.title = name
    wb.move_sheet(copy, offset=index - wb.index(copy))


@op("xlsx.rename_sheet")
def rename_sheet(wb: Workbook, sheet: str, new_name: str) -> None:
    """Rename `sheet` to `new_name`, keeping its contents and position."""
    if new_name in wb.sheetnames and new_name != sheet:
        raise ValueError(f"a sheet named {new_name!r} already exists")
    wb[sheet].title = new_name


@op("xlsx.move_sheet")
def move_sheet(wb: Workbook, sheet: str, index: int) -> None:
    """Move `sheet` so that it becomes the `index`-th sheet (0-based); the others keep their relative order."""
    ws = wb[sheet]
    if not 0 <= index < len(wb.sheetnames):
        raise ValueError(f"index {index} out of range for {len(wb.sheetnames)} sheets")
    wb.move_sheet(ws, offset=index - wb.index(ws))


@op("xlsx.delete_sheet")
def delete_sheet(wb: Workbook, sheet: str) -> None:
    """Delete `sheet` and everything on it; the other sheets keep their order."""
    wb.remove(wb[sheet])
    _keep_active_in_range(wb)


@op("xlsx.clear_sheet")
def clear_sheet(wb: Workbook, sheet: str) -> None:
    """Erase every cell of `sheet` but keep the (now empty) sheet itself."""
    ws = wb[sheet]
    ws.delete_rows(1, ws.max_row)
