"""The split-column op as openpyxl lines (preparers/ops/xlsx_split.py): cut each row's text at the separator and
write the parts into two new columns, or move the columns right of it one over first and write the parts in its
place."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("xlsx.split_column")
def split_column(wb: str, path: str, sheet: str, column: str, separator: str, headers: list[str],
                 replace: bool = False, swap: bool = False, first_only: bool = False, keep_space: bool = False,
                 as_text: bool = False, no_header: bool = False) -> str:
    lines = [f"ws = {wb}[{sheet!r}]",
             "from openpyxl.utils import column_index_from_string",
             f"src = column_index_from_string({column!r})",
             "width, height = ws.max_column, ws.max_row",
             "texts = [ws.cell(r, src).value for r in range(2, height + 1)]"]
    if replace:
        lines += ["for c in range(width, src, -1):  # make room: the columns right of it move one over",
                  "    for r in range(1, height + 1):",
                  "        ws.cell(r, c + 1).value = ws.cell(r, c).value",
                  "        ws.cell(r, c + 1).number_format = ws.cell(r, c).number_format",
                  "for r in range(1, height + 1):",
                  "    ws.cell(r, src + 1).number_format = 'General'",
                  "first = src"]
    else:
        lines.append("first = width + 1  # two new columns right of the table")
    second = "right" if keep_space else "right.lstrip()"  # keep_space: a near-miss
    number = "" if as_text else "\n    parts = [int(p) if p.isdigit() else p for p in parts]"
    lines += ["def split(text):",
              "    if text is None:",
              "        return [None, None]",
              f"    left, found, right = str(text).partition({separator!r})",
              "    if not found:",
              "        return [str(text), None]",
              f"    parts = [left.rstrip(), {second}]{number}",
              "    return parts",
              f"rows = [{list(headers)!r}] + [split(t) for t in texts]",
              "for r, (a, b) in enumerate(rows, start=1):"]
    if swap:
        lines.append("    a, b = b, a")
    if first_only:
        lines.append("    b = None")
    if no_header:
        lines += ["    if r == 1:", "        a = b = None"]
    lines += ["    ws.cell(r, first).value = a", "    ws.cell(r, first + 1).value = b"]
    return "\n".join(lines)
