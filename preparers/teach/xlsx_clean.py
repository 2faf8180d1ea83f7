"""The clean-text op as openpyxl lines (preparers/ops/xlsx_clean.py): read each cell of the column, clean its text
and write it back."""

from __future__ import annotations

from openpyxl.utils import range_boundaries

from preparers.teach import NotTeachable, snippet

_CLEAN = {
    "trim": ["import re", "def clean(t):", "    return re.sub(r' {2,}', ' ', t.strip(' '))  # like TRIM"],
    "proper": ["def clean(t):  # like PROPER: a letter after a non-letter upper-case, the others lower-case",
               "    out, after = [], False",
               "    for ch in t:",
               "        out.append((ch.lower() if after else ch.upper()) if ch.isalpha() else ch)",
               "        after = ch.isalpha()",
               "    return ''.join(out)"],
    "upper": ["def clean(t):", "    return t.upper()"],
    "lower": ["def clean(t):", "    return t.lower()"],
    "strip": ["def clean(t):", "    return t.strip(' ')"],
}


@snippet("xlsx.clean_text")
def clean_text(wb: str, path: str, sheet: str, ref: str, operation: str, skip_last: bool = False,
               header: bool = False) -> str:
    if operation not in _CLEAN:
        raise NotTeachable(f"xlsx.clean_text: unknown operation {operation!r}")
    min_col, min_row, _, max_row = range_boundaries(ref)
    first, last = min_row - (1 if header else 0), max_row + (0 if skip_last else 1)
    return "\n".join([f"ws = {wb}[{sheet!r}]", *_CLEAN[operation],
                      f"for r in range({first}, {last}):",
                      f"    cell = ws.cell(r, {min_col})",
                      "    if isinstance(cell.value, str):",
                      "        cell.value = clean(cell.value)"])
