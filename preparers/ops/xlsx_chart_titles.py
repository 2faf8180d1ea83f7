"""xlsx op for a column chart with a title and axis titles, of one or several series, on the data's sheet or on a
sheet of its own (calc.chart_titles).
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.utils import range_boundaries

from preparers.ops import OpError, op


@op("xlsx.titled_chart")
def titled_chart(wb: Workbook, sheet: str, values: list[str], categories: str, title: str | None,
                 x_title: str | None = None, y_title: str | None = None, chart_sheet: str | None = None,
                 anchor: str = "H2", named: bool = True) -> None:
    """A column chart of the one-column ranges `values` of `sheet` (each named by the header cell right above it,
    unless `named` is False) over the labels `categories`, titled `title` with the axis titles `x_title` (the
    categories) and `y_title` (the values), placed at `anchor` on `chart_sheet` (a new sheet after the last one
    when the workbook has none of that name; default: `sheet`). None leaves a title out (near-misses)."""
    ws = wb[sheet]
    chart = BarChart()
    chart.type = "col"
    for ref in values:
        min_col, min_row, max_col, max_row = range_boundaries(ref)
        if min_col != max_col or min_row < 2:
            raise OpError(f"xlsx.titled_chart: {ref!r} is not one column of data below a header")
        chart.add_data(Reference(ws, min_col=min_col, min_row=min_row - 1 if named else min_row, max_row=max_row),
                       titles_from_data=named)
    min_col, min_row, _, max_row = range_boundaries(categories)
    chart.set_categories(Reference(ws, min_col=min_col, min_row=min_row, max_row=max_row))
    if title is not None:
        chart.title = title
    if x_title is not None:
        chart.x_axis.title = x_title
    if y_title is not None:
        chart.y_axis.title = y_title
    target = wb[chart_sheet] if chart_sheet in wb.sheetnames else (
        wb.create_sheet(chart_sheet) if chart_sheet else ws)
    target.add_chart(chart, anchor)
