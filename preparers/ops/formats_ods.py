"""Save a workbook as OpenDocument Spreadsheet (.ods): Calc's File > Save As, ODF Spreadsheet (calc.save_ods).

The op reads the xlsx's sheets with openpyxl and writes a minimal .ods (mimetype stored first, manifest, content.xml
with one `table:table` per sheet and each cell typed: float, date, boolean or string), read back by the bounded
OpenDocument spreadsheet reader (verifiers/readers/ods.py) as LibreOffice's own .ods reads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from openpyxl import load_workbook

from preparers.ops import op
from preparers.ops.formats import Handle, odf_package

ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"')


def _cell(value: Any) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        flag = "true" if value else "false"
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{flag}">'
                f"<text:p>{flag.upper()}</text:p></table:table-cell>")
    if isinstance(value, int | float):
        return (f'<table:table-cell office:value-type="float" office:value="{value!r}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    if isinstance(value, dt.datetime | dt.date):
        iso = value.date().isoformat() if isinstance(value, dt.datetime) and value.time() == dt.time() \
            else value.isoformat()
        return (f'<table:table-cell office:value-type="date" office:date-value="{iso}">'
                f"<text:p>{iso}</text:p></table:table-cell>")
    return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'


def ods_bytes(sheets: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> bytes:
    """A minimal OpenDocument spreadsheet of `sheets` (name, rows of Python values). Deterministic."""
    tables = []
    for name, rows in sheets:
        body = "".join(f"<table:table-row>{''.join(_cell(v) for v in row)}</table:table-row>" for row in rows)
        tables.append(f"<table:table table:name={quoteattr(name)}>{body}</table:table>")
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_NS} office:version="1.2">'
               f'<office:body><office:spreadsheet>{"".join(tables)}</office:spreadsheet></office:body>'
               '</office:document-content>')
    return odf_package(ODS_MIMETYPE, content)


@op("fmt.save_ods")
def save_ods(h: Handle, dest: str, as_copy: bool = False, moved: bool = False, drop_sheet: bool = False,
             drop_row: bool = False) -> None:
    """Save the workbook at `path` (xlsx) as OpenDocument Spreadsheet at `dest` (Calc: File > Save As, ODF
    Spreadsheet), the xlsx unchanged. Slips, for near-misses: `as_copy` copies the xlsx bytes under the .ods name,
    `moved` deletes the xlsx afterwards, `drop_sheet` leaves the last sheet out, `drop_row` the first sheet's last
    row."""
    out = h.target(dest)
    if as_copy:
        out.write_bytes(h.host.read_bytes())
    else:
        wb = load_workbook(h.host)
        sheets = [(ws.title, [list(r) for r in ws.iter_rows(values_only=True)]) for ws in wb.worksheets]
        if drop_sheet:
            sheets = sheets[:-1]
        if drop_row:
            sheets[0] = (sheets[0][0], sheets[0][1][:-1])
        out.write_bytes(ods_bytes(sheets))
    if moved:
        h.host.unlink()
