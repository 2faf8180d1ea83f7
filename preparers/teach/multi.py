"""The hand-offs between apps (`multi.*`) as a person does them at a terminal: a CSV opened as Calc would type it
and saved as a workbook, a table written into a new workbook, a picture scaled and exported with Pillow.

These ops write their output at once (a later op of the task reads it: the workbook a CSV became is then sorted),
so each is its own `python3` heredoc, run before the next heredoc opens that file: the kind's snippets are shell
lines (`Language(shell=True)`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from preparers.image import format_for
from preparers.ops.multi import _DATE
from preparers.teach import HOME, Language, NotTeachable, language, q, snippet

#: What a person looks at first: the CSV's text, or the picture's format and size.
_PEEK = """from pathlib import Path
from PIL import Image
source = Path(PATH)
if source.suffix.lower() in ('.csv', '.tsv'):
    print(source.read_text(encoding='utf-8-sig')[:3000])
else:
    with Image.open(source) as im:
        print(source.name, im.format, im.size, im.mode)"""

language(Language("multi", shell=True, peek=_PEEK))


def _mkparent(path: str, beside: str = HOME) -> str:
    """`mkdir -p` of the folder `path` goes into, unless it is home or the folder of `beside` (which exists)."""
    parent = path.rsplit("/", 1)[0]
    return "" if parent in (HOME, beside.rsplit("/", 1)[0]) else f"mkdir -p {q(parent)} && "


def _python(lines: list[str]) -> str:
    return "python3 - <<'PY'\n" + "\n".join(lines) + "\nPY"


#: Calc's CSV import as Python: integers, decimals and ISO dates become values, the rest stays text.
_TYPED = r'''def typed(text):
    """A CSV field as Calc's import types it: integers, decimals and ISO dates become values."""
    value = text.strip()
    if re.fullmatch(r'-?\d+(\.\d+)?', value):
        return float(value) if '.' in value else int(value)
    if re.fullmatch(r'\d{4}-\d{2}-\d{2}', value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return text
    return text'''


@snippet("multi.csv_to_xlsx")
def csv_to_xlsx(path: str, dest: str, sheet: str | None = None, skip_header: bool = False) -> str:
    delimiter = "\\t" if path.lower().endswith(".tsv") else ","
    name = sheet or path.rsplit("/", 1)[-1].rsplit(".", 1)[0][:31]  # Calc names the sheet after the file
    lines = ["import csv", "import datetime as dt", "import re", "from openpyxl import Workbook", "", _TYPED, "",
             f"with open({path!r}, encoding='utf-8-sig', newline='') as f:",
             f"    rows = [[typed(cell) for cell in row] for row in csv.reader(f, delimiter='{delimiter}') if row]"]
    if skip_header:  # a near-miss: the header line dropped
        lines.append("rows = rows[1:]")
    lines += ["wb = Workbook()", "ws = wb.active", f"ws.title = {name!r}", "for row in rows:", "    ws.append(row)",
              f"wb.save({dest!r})"]
    return _mkparent(dest, path) + _python(lines)


def _cell(value: Any) -> Any:
    """An ISO date string as the date it means (the op writes dates)."""
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return value
    return value


@snippet("multi.write_xlsx")
def write_xlsx(path: str, sheet: str, rows: list[list[Any]]) -> str:
    table = [[_cell(v) for v in row] for row in rows]
    dates = any(isinstance(v, dt.date) for row in table for v in row)
    body = ",\n".join(f"    {row!r}" for row in table)
    lines = [*(["import datetime"] if dates else []), "from openpyxl import Workbook",
             f"rows = [\n{body},\n]" if table else "rows = []",
             "wb = Workbook()", "ws = wb.active", f"ws.title = {sheet!r}", "for row in rows:", "    ws.append(row)",
             f"wb.save({path!r})"]
    return _mkparent(path) + _python(lines)


@snippet("multi.export_image")
def export_image(path: str, dest: str, width: int, height: int) -> str:
    fmt = format_for(dest)
    if fmt is None:
        raise NotTeachable(f"multi.export_image: no image format for {dest!r}")
    quality = ", quality=90" if fmt in ("JPEG", "WEBP") else ""
    lines = ["from PIL import Image", f"with Image.open({path!r}) as im:",
             f"    im.convert('RGB').resize(({width}, {height}), Image.Resampling.BICUBIC).save({dest!r}{quality})"]
    return _mkparent(dest, path) + _python(lines)

