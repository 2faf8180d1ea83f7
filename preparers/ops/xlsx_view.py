"""xlsx op for a sheet's view options saved in the file (calc.view_settings): the row and column headers shown or
hidden, zero values shown or hidden (the sheetView's showRowColHeaders and showZeros, which a LibreOffice re-save
keeps; its zoom and grid lines it does not)."""

from __future__ import annotations

from openpyxl import Workbook

from preparers.ops import op


@op("xlsx.sheet_view")
def sheet_view(wb: Workbook, sheet: str, headers: bool | None = None, zeros: bool | None = None,
               gridlines: bool | None = None) -> None:
    """Show (True) or hide (False) the row and column headers, the zero values and the grid lines of `sheet`; None
    leaves one as it is."""
    view = wb[sheet].sheet_view
    if headers is not None:
        view.showRowColHeaders = headers
    if zeros is not None:
        view.showZeros = zeros
    if gridlines is not None:  # a near-miss's slip: the grid lines (which a LibreOffice re-save does not keep)
        view.showGridLines = gridlines
