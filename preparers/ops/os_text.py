"""Text-processing ops (fs document kind): what grep, cut, sort and uniq write, computed from the input file.

Each reads the text (or CSV) file at `path` and writes its result to `out`, one item a line:
`fs.filter_field` the lines whose whitespace-separated field `field` (1-based, as awk's $N) equals `value`;
`fs.csv_column` the values of CSV column `column` (by header, quoted fields read as CSV), without the header;
`fs.csv_unique` those values once each, sorted; `fs.count_field` "<count> <value>" per distinct value of field
`field`, most frequent first (ties by value); `fs.regex_replace` rewrites the file at `path` with every match of
the regular expression `pattern` replaced by `repl` (Python `re.sub`).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter

from kit import bounded
from preparers.ops import op
from preparers.ops.fs import FsHandle, _need, _write


def _read(h: FsHandle) -> str:
    _need(h.host)
    return bounded.read_file(h.host).decode("utf-8")


def _put(h: FsHandle, out: str, lines: list[str]) -> None:
    target = h.locate(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    _write(target, "".join(f"{line}\n" for line in lines).encode("utf-8"))


def _column(text: str, column: str) -> list[str]:
    rows = list(csv.reader(io.StringIO(text)))
    at = rows[0].index(column)
    return [r[at] for r in rows[1:] if len(r) > at]


@op("fs.filter_field")
def filter_field(h: FsHandle, out: str, field: int, value: str) -> None:
    _put(h, out, [line for line in _read(h).splitlines()
                  if len(line.split()) >= field and line.split()[field - 1] == value])


@op("fs.csv_column")
def csv_column(h: FsHandle, out: str, column: str) -> None:
    _put(h, out, _column(_read(h), column))


@op("fs.csv_unique")
def csv_unique(h: FsHandle, out: str, column: str) -> None:
    _put(h, out, sorted(set(_column(_read(h), column))))


@op("fs.count_field")
def count_field(h: FsHandle, out: str, field: int) -> None:
    counts = Counter(line.split()[field - 1] for line in _read(h).splitlines() if len(line.split()) >= field)
    _put(h, out, [f"{n} {v}" for v, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))])


@op("fs.regex_replace")
def regex_replace(h: FsHandle, pattern: str, repl: str, count: int = 0) -> None:
    """Replace every match of `pattern` (the first `count` per line when set) in the text file at `path`."""
    lines = _read(h).split("\n")
    _write(h.host, "\n".join(re.sub(pattern, repl, line, count=count) for line in lines).encode("utf-8"))
