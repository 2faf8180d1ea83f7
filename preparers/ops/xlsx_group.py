"""xlsx op for a group-by summary on a sheet of its own (calc.group_summary): one row per category of a table with
the total, average, count, highest or lowest of each category's values, as a pivot table or SUMIF formulas give.

The op reads the groups and their values from the workbook it edits, so an oracle built on it is a second
computation, independent of the family's goal.
"""

from __future__ import annotations

import statistics
from typing import Any

from openpyxl import Workbook
from openpyxl.utils import column_index_from_string, coordinate_to_tuple

from preparers.ops import OpError, op

FUNCTIONS = ("SUM", "AVERAGE", "COUNT", "MAX", "MIN")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def aggregate(function: str, values: list[float]) -> float:
    """`function` over `values` (an average rounded to 2 decimals, as a summary shows it)."""
    if function == "SUM":
        return round(sum(values), 9)
    if function == "AVERAGE":
        return round(statistics.fmean(values), 2)
    if function == "COUNT":
        return len(values)
    return max(values) if function == "MAX" else min(values)


@op("xlsx.group_summary")
def group_summary(wb: Workbook, sheet: str, group: str, value: str | None, function: str, dest_sheet: str,
                  headers: list[str], anchor: str = "A1", order: str = "sorted", drop_last: bool = False,
                  header_row: bool = True) -> None:
    """Write a summary of `sheet`'s table (header in row 1) on `dest_sheet` (added after the last sheet when there is
    none of that name) from `anchor`: the `headers` row, then one row per distinct value of column `group` (a
    letter) with the `function` of that group's numbers in column `value` (COUNT counts the group's rows; `value`
    may be None).

    Slips, for near-misses: `order="first"` lists the groups in the order they first appear instead of A to Z;
    `drop_last` leaves the last group out; `header_row=False` writes the groups from `anchor` with no header row."""
    if function not in FUNCTIONS:
        raise OpError(f"xlsx.group_summary: function={function!r}, but must be one of {list(FUNCTIONS)}")
    if function != "COUNT" and value is None:
        raise OpError(f"xlsx.group_summary: {function} needs a value column")
    ws = wb[sheet]
    g = column_index_from_string(group)
    v = column_index_from_string(value) if value else None
    found: dict[str, list[float]] = {}
    for row in range(2, ws.max_row + 1):
        name = ws.cell(row, g).value
        if name is None or str(name).strip() == "":
            continue
        number = ws.cell(row, v).value if v else 1
        found.setdefault(str(name), [])
        if _number(number):
            found[str(name)].append(float(number))
    names = sorted(found) if order == "sorted" else list(found)
    if drop_last:
        names = names[:-1]
    dest = wb[dest_sheet] if dest_sheet in wb.sheetnames else wb.create_sheet(dest_sheet)
    row0, col0 = coordinate_to_tuple(anchor)
    lines: list[list[Any]] = [list(headers)] if header_row else []
    empty = [name for name in names if not found[name] and function in ("AVERAGE", "MAX", "MIN")]
    if empty:
        raise OpError(f"xlsx.group_summary: the group {empty[0]!r} has no number in column {value} to take the "
                      f"{function} of")
    lines += [[name, aggregate(function, found[name])] for name in names]
    for i, line in enumerate(lines):
        for j, item in enumerate(line):
            dest.cell(row0 + i, col0 + j).value = item
