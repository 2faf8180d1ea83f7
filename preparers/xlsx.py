"""xlsx preparer: a workbook spec in, deterministic xlsx bytes out (openpyxl).

Spec (plain data, JSON-compatible except dates):
    {"sheets": [{"name": "Sales",
                 "rows": [["Rep", "Revenue"], ["Ana", 12.5], ...],   # first row = header
                 "number_formats": {"B": "#,##0.00"},                 # optional, per column letter
                 "widths": {"A": 18},                                 # optional
                 "bold_header": true}]}                              # optional, default true
Cells holding `datetime.date` get the `yyyy-mm-dd` format.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from preparers.office_zip import normalize

DATE_FORMAT = "yyyy-mm-dd"
EPOCH = dt.datetime(2024, 1, 1)


def build_workbook(spec: dict[str, Any]) -> Workbook:
    """The openpyxl workbook for `spec` (exposed for in-process benchmarks and tests)."""
    wb = Workbook()
    wb.remove(wb.active)
    for sheet in spec["sheets"]:
        ws = wb.create_sheet(sheet["name"])
        for row in sheet["rows"]:
            ws.append(list(row))
        formats = sheet.get("number_formats", {})
        for col in ws.iter_cols(min_row=2):
            for cell in col:
                if isinstance(cell.value, dt.date):  # a date column's own format when the spec gives one
                    cell.number_format = formats.get(cell.column_letter, DATE_FORMAT)
                elif cell.column_letter in formats and cell.value is not None:
                    cell.number_format = formats[cell.column_letter]
        if sheet.get("bold_header", True) and sheet["rows"]:
            for cell in ws[1]:
                cell.font = Font(bold=True)
        widths = sheet.get("widths") or _auto_widths(sheet["rows"])
        for letter, width in widths.items():
            ws.column_dimensions[letter].width = width
    wb.properties.creator = "forge"
    wb.properties.created = EPOCH
    return wb


def _auto_widths(rows: list[list[Any]]) -> dict[str, float]:
    widths: dict[str, float] = {}
    for row in rows:
        for i, value in enumerate(row, start=1):
            text = value.isoformat() if isinstance(value, dt.date) else str(value)
            letter = get_column_letter(i)
            widths[letter] = max(widths.get(letter, 8.0), min(len(text) + 2.0, 40.0))
    return widths


def to_bytes(wb: Workbook) -> bytes:
    """Serialize deterministically (openpyxl stamps `modified` with the clock; `normalize` fixes it)."""
    buf = io.BytesIO()
    wb.save(buf)
    return normalize(buf.getvalue())


def build(spec: dict[str, Any]) -> bytes:
    """spec -> xlsx bytes. Same spec, same bytes."""
    return to_bytes(build_workbook(spec))
