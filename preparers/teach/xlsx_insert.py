"""The insert-column op as openpyxl lines (preparers/ops/xlsx_insert.py): move the columns from the new one's letter
on one to the right, then write its header and fill its rows."""

from __future__ import annotations

from openpyxl.utils import column_index_from_string, get_column_letter

from preparers.teach import snippet


@snippet("xlsx.insert_column")
def insert_column(wb: str, path: str, sheet: str, at: str, header: str | None, text: str | None = None,
                  source: str | None = None, percent: float | None = None, overwrite: bool = False,
                  skip_last: bool = False) -> str:
    new = column_index_from_string(at)
    lines = [f"ws = {wb}[{sheet!r}]", "width, height = ws.max_column, ws.max_row"]
    if not overwrite:  # overwrite: a near-miss, typed over the column that was there
        lines += [f"for c in range(width, {new - 1}, -1):  # make room: column {at} on moves one to the right",
                  "    for r in range(1, height + 1):",
                  "        ws.cell(r, c + 1).value = ws.cell(r, c).value",
                  "        ws.cell(r, c + 1).number_format = ws.cell(r, c).number_format"]
    lines += ["for r in range(1, height + 1):",
              f"    ws.cell(r, {new}).value = None",
              f"    ws.cell(r, {new}).number_format = 'General'",
              f"ws.cell(1, {new}).value = {header!r}"]
    last = "height" if skip_last else "height + 1"
    if text is not None:
        lines += [f"for r in range(2, {last}):", f"    ws.cell(r, {new}).value = {text!r}"]
    elif source is not None:
        index = column_index_from_string(source)
        src = get_column_letter(index + 1 if index >= new and not overwrite else index)
        lines += [f"for r in range(2, {last}):  # '{source}' is column {src} now",
                  f"    ws.cell(r, {new}).value = f'=ROUND({src}{{r}}*{percent:g}/100,2)'"]
    return "\n".join(lines)
