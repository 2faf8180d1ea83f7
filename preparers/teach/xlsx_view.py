"""The sheet-view op as openpyxl lines (preparers/ops/xlsx_view.py): set the sheet's view flags."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("xlsx.sheet_view")
def sheet_view(wb: str, path: str, sheet: str, headers: bool | None = None, zeros: bool | None = None,
               gridlines: bool | None = None) -> str:
    lines = [f"view = {wb}[{sheet!r}].sheet_view"]
    if headers is not None:
        lines.append(f"view.showRowColHeaders = {headers!r}  # the row numbers and column letters")
    if zeros is not None:
        lines.append(f"view.showZeros = {zeros!r}  # cells holding 0")
    if gridlines is not None:
        lines.append(f"view.showGridLines = {gridlines!r}")
    return "\n".join(lines)
