"""The titled-chart op as openpyxl lines (preparers/ops/xlsx_chart_titles.py): a BarChart of columns, its series
named by their headers, its title and axis titles set, added to the data's sheet or to a new one."""

from __future__ import annotations

from openpyxl.utils import range_boundaries

from preparers.teach import snippet


@snippet("xlsx.titled_chart")
def titled_chart(wb: str, path: str, sheet: str, values: list[str], categories: str, title: str | None,
                 x_title: str | None = None, y_title: str | None = None, chart_sheet: str | None = None,
                 anchor: str = "H2", named: bool = True) -> str:
    lines = [f"ws = {wb}[{sheet!r}]", "from openpyxl.chart import BarChart, Reference",
             "chart = BarChart()", "chart.type = 'col'  # vertical columns"]
    for ref in values:
        min_col, min_row, _, max_row = range_boundaries(ref)
        first = min_row - 1 if named else min_row
        lines.append(f"chart.add_data(Reference(ws, min_col={min_col}, min_row={first}, max_row={max_row}), "
                     f"titles_from_data={named})")
    min_col, min_row, _, max_row = range_boundaries(categories)
    lines.append(f"chart.set_categories(Reference(ws, min_col={min_col}, min_row={min_row}, max_row={max_row}))")
    for attr, text in (("chart.title", title), ("chart.x_axis.title", x_title), ("chart.y_axis.title", y_title)):
        if text is not None:
            lines.append(f"{attr} = {text!r}")
    if chart_sheet:
        lines.append(f"target = {wb}[{chart_sheet!r}] if {chart_sheet!r} in {wb}.sheetnames else "
                     f"{wb}.create_sheet({chart_sheet!r})")
    else:
        lines.append("target = ws")
    lines.append(f"target.add_chart(chart, {anchor!r})")
    return "\n".join(lines)
