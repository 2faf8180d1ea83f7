"""The paste-values op as openpyxl lines (preparers/ops/xlsx_paste.py): work out what each formula of the column
shows (its cell references replaced by their numbers, the arithmetic then done) and write that number."""

from __future__ import annotations

from openpyxl.utils import get_column_letter, range_boundaries

from preparers.teach import snippet


@snippet("xlsx.paste_values")
def paste_values(wb: str, path: str, sheet: str, ref: str, dest: str | None = None, header: str | None = None,
                 digits: int | None = None, text: bool = False, skip: int = 0, link: bool = False) -> str:
    min_col, min_row, _, max_row = range_boundaries(ref)
    letter = get_column_letter(min_col)
    lines = ["import re", "from copy import copy", f"ws = {wb}[{sheet!r}]",
             "def shown(coord):",
             "    v = ws[coord].value",
             "    if isinstance(v, str) and v.startswith('='):",
             "        expr = re.sub(r'\\$?([A-Z]+)\\$?(\\d+)', lambda m: repr(float(shown(m[1] + m[2]))), v[1:])",
             "        assert re.fullmatch(r'[0-9.eE+\\-*/() ]+', expr), v",
             "        return eval(expr)",
             "    return v"]
    if dest is None:
        to_letter, offset = letter, 0
    else:
        to_col, to_row = range_boundaries(f"{dest}:{dest}")[:2]
        to_letter, offset = get_column_letter(to_col), to_row - min_row
        if header is not None:
            lines += [f"ws['{to_letter}{to_row - 1}'] = {header!r}",
                      f"ws['{to_letter}{to_row - 1}'].font = copy(ws['{letter}{min_row - 1}'].font)"]
    value = "shown(f'" + letter + "{row}')"
    if link:
        value = "f'=" + letter + "{row}'"
    elif digits is not None:
        value = f"round({value}, {digits})" if digits > 0 else f"int(round({value}, {digits}))"
    if text and not link:
        value = f"str({value})"
    lines += [f"values = {{row: {value} for row in range({min_row}, {max_row + 1 - skip})}}",
              "for row, value in values.items():",
              f"    ws[f'{to_letter}{{row + {offset}}}'] = value"]
    if dest is not None:
        lines += [f"    ws[f'{to_letter}{{row + {offset}}}'].number_format = ws[f'{letter}{{row}}'].number_format"]
    return "\n".join(lines)
