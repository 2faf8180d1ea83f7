"""xlsx op that fills the empty cells of a column, as "fill the missing values" tasks ask (calc.fill_blanks).

The op computes the fill from the workbook it edits, not from values the family hands it, so an oracle built on
it is a second, independent computation of what the family's check expects.
"""

from __future__ import annotations

import statistics
from typing import Any

from openpyxl import Workbook
from openpyxl.utils import range_boundaries

from preparers.ops import OpError, op

#: The rules an empty cell's value can be found by (the family's three, and the slips its near-misses make).
FILLS = ("average", "median", "previous", "next", "zero")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@op("xlsx.fill_blanks")
def fill_blanks(wb: Workbook, sheet: str, ref: str, fill: str, decimals: int = 2, skip: int = 0,
                spill: bool = False) -> None:
    """Fill every empty cell of the one-column range `ref` (e.g. "D2:D13"): `average` / `median` of the column's
    numbers (rounded to `decimals`), `previous` / `next` (the nearest filled value above / below), or `zero`.

    Two classic mistakes, for near-misses: `skip` leaves the last `skip` empty cells empty; `spill` also writes
    the first fill value into the cell below the first empty one (a fill dragged one row too far)."""
    if fill not in FILLS:
        raise OpError(f"xlsx.fill_blanks: fill={fill!r}, but must be one of {list(FILLS)}")
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    if min_col != max_col:
        raise OpError(f"xlsx.fill_blanks: ref={ref!r} is not one column")
    ws = wb[sheet]
    cells = [ws.cell(row, min_col) for row in range(min_row, max_row + 1)]
    numbers = [c.value for c in cells if _number(c.value)]
    if not numbers:
        raise OpError(f"xlsx.fill_blanks: {sheet}!{ref} holds no number to fill from")
    blanks = [i for i, c in enumerate(cells) if c.value is None]
    filled: dict[int, Any] = {}
    for i in blanks:
        if fill in ("average", "median"):
            stat = statistics.fmean(numbers) if fill == "average" else statistics.median(numbers)
            filled[i] = round(stat, decimals)
        elif fill == "zero":
            filled[i] = 0
        else:
            near = range(i - 1, -1, -1) if fill == "previous" else range(i + 1, len(cells))
            filled[i] = next((cells[j].value for j in near if cells[j].value is not None), None)
    for i in blanks[:len(blanks) - skip]:
        cells[i].value = filled[i]
    if spill and blanks and blanks[0] + 1 < len(cells):
        cells[blanks[0] + 1].value = filled[blanks[0]]
