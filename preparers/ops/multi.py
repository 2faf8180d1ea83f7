"""multi ops: the hand-offs between apps that no single-app op covers, written immediately.

Ops of one solution are applied in order, but most document kinds save when the whole list is done, and a
path keeps the kind of the first op that names it. A hand-off ("open the saved CSV in Calc and save it as
xlsx", "export the scaled picture, then insert it into a slide") needs the produced file on disk *before*
the next app's op reads it, so these ops write their output at once. The document kind "multi" is a handle
on the op's `path` (the file read); the file written is `dest`, or `path` itself for `multi.write_xlsx`.

Example: `{"op": "multi.csv_to_xlsx", "path": "/home/user/Documents/q3.csv",
"dest": "/home/user/Documents/q3.xlsx"}` converts the CSV the way Calc's import would type it.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from preparers import xlsx
from preparers.image import decoded, encode, format_for
from preparers.ops import document_kind, op, resolve
from preparers.ops.image import PNG_LEVEL

_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Handle:
    """The state `root` (standing for /home/user) and the host path of the op's `path`."""

    root: Path
    host: Path

    def target(self, dest: str) -> Path:
        out = resolve(self.root, dest)
        out.parent.mkdir(parents=True, exist_ok=True)
        return out


def _load(host: Path, root: Path) -> Handle:
    return Handle(root, host)


def _save(handle: Handle, host: Path) -> None:
    """Nothing to write back: every multi op wrote its output already."""


document_kind("multi", load=_load, save=_save)


def typed(text: str) -> Any:
    """A CSV field as Calc's import types it: integers, decimals and ISO dates become values, the rest text."""
    value = text.strip()
    if _NUMBER.fullmatch(value):
        return float(value) if "." in value else int(value)
    if _DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return text
    return text


def _date_value(value: Any) -> Any:
    return dt.date.fromisoformat(value) if isinstance(value, str) and _DATE.fullmatch(value) else value


@op("multi.csv_to_xlsx")
def csv_to_xlsx(h: Handle, dest: str, sheet: str | None = None, skip_header: bool = False) -> None:
    """Open the CSV (TSV for a .tsv name) at `path` as Calc does and save it as the workbook `dest`; the sheet
    is named `sheet` or, like Calc, after the CSV's file stem. `skip_header` drops the first line (a mistake)."""
    text = h.host.read_bytes().decode("utf-8-sig")
    delimiter = "\t" if h.host.suffix.lower() == ".tsv" else ","
    rows = [[typed(cell) for cell in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter) if row]
    if skip_header:
        rows = rows[1:]
    name = sheet or h.host.name.rsplit(".", 1)[0][:31]
    key = ("csv_to_xlsx", hashlib.sha256(text.encode()).digest(), delimiter, name, skip_header)
    h.target(dest).write_bytes(_remembered(key, lambda: xlsx.build({"sheets": [{"name": name, "rows": rows}]})))


@op("multi.write_xlsx")
def write_xlsx(h: Handle, sheet: str, rows: list[list[Any]]) -> None:
    """Write a new workbook at `path` whose sheet `sheet` holds `rows` from A1 (ISO date strings become dates)."""
    data = _remembered(("write_xlsx", json.dumps([sheet, rows])), lambda: xlsx.build(
        {"sheets": [{"name": sheet, "rows": [[_date_value(v) for v in row] for row in rows]}]}))
    h.host.parent.mkdir(parents=True, exist_ok=True)
    h.host.write_bytes(data)


@op("multi.export_image")
def export_image(h: Handle, dest: str, width: int, height: int) -> None:
    """Scale the picture at `path` to `width` x `height` and export it to `dest` in the format its extension
    names (GIMP: Scale Image, then Export As); the source file stays as it is."""
    fmt = format_for(dest)
    if fmt is None:
        raise ValueError(f"{dest=}: no known image format for this extension")
    if width < 1 or height < 1:
        raise ValueError(f"{width=}, {height=}, but both must be at least 1")
    source = h.host.read_bytes()
    h.target(dest).write_bytes(_remembered(("export_image", hashlib.sha256(source).digest(), width, height, fmt),
                                           lambda: _exported(source, width, height, fmt)))


def _exported(source: bytes, width: int, height: int, fmt: str) -> bytes:
    """The file `multi.export_image` writes: the picture in `source` scaled to `width` x `height`, as `fmt`."""
    scaled = decoded(source).convert("RGB").resize((width, height), Image.Resampling.BICUBIC)
    return encode(scaled, fmt, png_level=PNG_LEVEL)  # an end state: see PNG_LEVEL


#: The files these ops wrote last, {(op, what the file is made from): the file}: a task's oracle and its near-misses
#: write the same file again and again (its no-op and mutants too, when a check needs a state written out): a
#: workbook built and saved by openpyxl (~15 ms), a picture resized and encoded (~25 ms).
_WRITTEN: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
WRITTEN_KEPT = 8
_written_lock = threading.Lock()


def _remembered(key: tuple[Any, ...], make: Callable[[], bytes]) -> bytes:
    """`make()`, the file made from exactly what `key` says, kept for the next op that makes the same file."""
    with _written_lock:
        data = _WRITTEN.get(key)
        if data is not None:
            _WRITTEN.move_to_end(key)
            return data
    data = make()
    with _written_lock:
        _WRITTEN[key] = data
        while len(_WRITTEN) > WRITTEN_KEPT:
            _WRITTEN.popitem(last=False)
    return data
