"""The delimited-text reader: a CSV (or semicolon- or tab-separated) file's rows, read bounded (issue 38).

An end state's file is untrusted: at most `MAX_BYTES` through `kit.bounded.read_file`, UTF-8 (a byte-order mark is
allowed), no NUL byte (an xlsx saved under a .csv name is a zip, refused with that evidence), at most `MAX_ROWS` rows
and Python's csv module's field-size limit.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path

from kit import bounded
from verifiers.readers import Source

MAX_BYTES = 16 << 20
MAX_ROWS = 100_000


def rows_with(delimiter: str) -> Callable[[Path], list[list[str]]]:
    """The parser of a file with field delimiter `delimiter` (one per delimiter, so a state caches each)."""
    return _PARSERS[delimiter]


def _rows(host: Path, delimiter: str) -> list[list[str]]:
    data = bounded.read_file(host, MAX_BYTES)
    if bounded.is_zip(data[:4]):
        raise ValueError(f"{host.name} is a zip archive (a workbook or document under a text name), not text")
    if b"\0" in data:
        raise ValueError(f"{host.name} holds NUL bytes: binary, not delimited text")
    text = data.decode("utf-8-sig")
    rows: list[list[str]] = []
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
        if len(rows) >= MAX_ROWS:
            raise bounded.LimitExceeded(f"{host.name} has more than {MAX_ROWS} rows")
        rows.append(row)
    while rows and not any(cell.strip() for cell in rows[-1]):
        rows.pop()  # a trailing empty line
    return rows


_PARSERS: dict[str, Callable[[Path], list[list[str]]]] = {
    ",": lambda host: _rows(host, ","),
    ";": lambda host: _rows(host, ";"),
    "\t": lambda host: _rows(host, "\t"),
}


def load(state: Source, path: str, delimiter: str) -> list[list[str]]:
    if delimiter not in _PARSERS:
        raise ValueError(f"no reader for the delimiter {delimiter!r}")
    return state.read(path, rows_with(delimiter), "delimited text file")
