"""xlsx op for cleaning a text column in place (calc.clean_text): TRIM (spaces at the ends dropped, runs inside
made one), PROPER or UPPER applied to each data cell's text, typed over it.
"""

from __future__ import annotations

import re

from openpyxl import Workbook
from openpyxl.utils import range_boundaries

from preparers.ops import OpError, op


def proper(text: str) -> str:
    """Calc's PROPER: a letter after a non-letter (or first) upper-case, every other letter lower-case."""
    out, after_letter = [], False
    for ch in text:
        out.append((ch.lower() if after_letter else ch.upper()) if ch.isalpha() else ch)
        after_letter = ch.isalpha()
    return "".join(out)


CLEAN = {"trim": lambda t: re.sub(r" {2,}", " ", t.strip(" ")), "proper": proper, "upper": str.upper,
         "lower": str.lower, "strip": lambda t: t.strip(" ")}


@op("xlsx.clean_text")
def clean_text(wb: Workbook, sheet: str, ref: str, operation: str, skip_last: bool = False,
               header: bool = False) -> None:
    """Replace the text of each cell of the one-column `ref` (e.g. "A2:A13") by `operation` of it: trim, proper,
    upper (and, for near-misses, lower, or strip: the ends only, inner runs of spaces kept).

    Slips, for near-misses: `skip_last` leaves the last cell as it was; `header` cleans the header cell above the
    range too."""
    if operation not in CLEAN:
        raise OpError(f"xlsx.clean_text: operation={operation!r}, but must be one of {list(CLEAN)}")
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    if min_col != max_col or None in (min_col, min_row, max_row):
        raise OpError(f"xlsx.clean_text: ref={ref!r} is not one column")
    ws = wb[sheet]
    rows = list(range(min_row - (1 if header else 0), max_row + (0 if skip_last else 1)))
    for r in rows:
        cell = ws.cell(r, min_col)
        if isinstance(cell.value, str):
            cell.value = CLEAN[operation](cell.value)
