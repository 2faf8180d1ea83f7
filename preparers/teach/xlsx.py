"""Workbook ops as openpyxl lines (one heredoc opens each workbook once and saves it at the end).

Each snippet is what a person at a terminal types from the instruction: a loop over a range's cells rather than one
line per cell, a sort that reads the rows and writes them back, a fill computed from the column's own numbers, a
chart built with openpyxl.chart. The arguments a snippet takes are the op's (preparers/ops/xlsx_*.py); the end state
is the op's, which tests/preparers/test_teach_xlsx.py checks op by op.
"""

from __future__ import annotations

import re
from typing import Any

from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries

from preparers.ops.xlsx_chart import CHART_TYPES
from preparers.ops.xlsx_format import _CELL_IS
from preparers.teach import Language, NotTeachable, language, snippet

language(Language(
    "xlsx", imports="from openpyxl import load_workbook", open="VAR = load_workbook(PATH)", save="VAR.save(PATH)",
    var="wb", peek=("from openpyxl import load_workbook\n"
                    "for ws in load_workbook(PATH).worksheets:\n"
                    "    print('==', ws.title, ws.dimensions)\n"
                    "    for row in ws.iter_rows(max_row=40, values_only=True):\n"
                    "        print(row)")))

#: A cell reference in a formula whose row a fill-down changes: `D7`, `$D7` (not `D$7`, not a name like LOG10().
_RELATIVE_REF = re.compile(r"(?<![A-Za-z0-9_.$])(\$?[A-Z]{1,3})(\d+)(?![\d(A-Za-z_])")
#: Rows a formula must fill down before a loop reads better than one line per cell.
_LOOP_ROWS = 3


def _sheet(wb: str, sheet: str) -> str:
    return f"ws = {wb}[{sheet!r}]"


def _literal(value: float) -> str:
    """A bound as the op writes it into a rule (`5`, not `5.0`)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _argb(color: str) -> str:
    """An RGB hex colour as the opaque ARGB openpyxl stores (the op's `_solid`)."""
    return "FF" + color.strip().lstrip("#").upper()[-6:]


def _fill(color: str) -> str:
    rgb = _argb(color)
    return f"PatternFill(fill_type='solid', fgColor={rgb!r}, bgColor={rgb!r})"


def _template(formula: str, row: int) -> str | None:
    """`formula` with its relative references to `row` as `{r}` (braces of the text doubled), or None when it has
    none: the body of an f-string that gives the formula of any row of a filled-down column."""
    found = False

    def one(match: re.Match[str]) -> str:
        nonlocal found
        if int(match.group(2)) != row:
            return match.group(0)
        found = True
        return match.group(1) + "\0"

    marked = _RELATIVE_REF.sub(one, formula)
    if not found:
        return None
    return marked.replace("{", "{{").replace("}", "}}").replace("\0", "{r}")


def _fill_downs(cells: dict[str, Any]) -> tuple[list[tuple[str, int, int, str]], dict[str, Any]]:
    """The formula columns of `cells` written as one formula filled down rows a..b: [(column, a, b, template)], and
    the cells left to write one by one."""
    by_column: dict[str, list[tuple[int, str]]] = {}
    for ref, value in cells.items():
        match = re.fullmatch(r"([A-Z]{1,3})(\d+)", ref)
        if match and isinstance(value, str) and value.startswith("="):
            template = _template(value, int(match.group(2)))
            if template is not None:
                by_column.setdefault(match.group(1), []).append((int(match.group(2)), template))
    loops: list[tuple[str, int, int, str]] = []
    looped: set[str] = set()
    for column, entries in by_column.items():
        entries.sort()
        start = 0
        for i in range(1, len(entries) + 1):
            if i < len(entries) and entries[i] == (entries[i - 1][0] + 1, entries[start][1]):
                continue
            run = entries[start:i]
            if len(run) >= _LOOP_ROWS:
                loops.append((column, run[0][0], run[-1][0], run[0][1]))
                looped.update(f"{column}{r}" for r, _ in run)
            start = i
    return loops, {ref: value for ref, value in cells.items() if ref not in looped}


@snippet("xlsx.set_cells")
def set_cells(wb: str, path: str, sheet: str, cells: dict[str, Any]) -> str:
    loops, single = _fill_downs(cells)
    lines = [_sheet(wb, sheet)]
    lines += [f"ws[{ref!r}] = {value!r}" for ref, value in single.items()]
    for column, first, last, template in loops:
        lines += [f"for r in range({first}, {last + 1}):", f"    ws[f'{column}{{r}}'] = f{template!r}"]
    return "\n".join(lines)


@snippet("xlsx.sort_rows")
def sort_rows(wb: str, path: str, sheet: str, ref: str, key_column: str, descending: bool = False,
              key_only: bool = False) -> str:
    min_col, min_row, _, _ = range_boundaries(ref)
    key = column_index_from_string(key_column) - min_col
    lines = [_sheet(wb, sheet), "import datetime as dt", "",
             "def key(value):  # numbers and dates by value, text case-insensitively",
             "    return (0, value) if isinstance(value, (int, float, dt.date)) else (1, str(value).casefold())", "",
             f"rows = [[cell.value for cell in row] for row in ws[{ref!r}]]"]
    if key_only:  # the classic mistake (near-misses): the key column sorted alone
        lines += [f"column = sorted((row[{key}] for row in rows), key=key, reverse={descending})",
                  "for row, value in zip(rows, column):", f"    row[{key}] = value"]
    else:
        lines.append(f"rows.sort(key=lambda row: key(row[{key}]), reverse={descending})  # column {key_column}")
    lines += [f"for r, values in enumerate(rows, start={min_row}):",
              f"    for c, value in enumerate(values, start={min_col}):",
              "        ws.cell(r, c).value = value"]
    return "\n".join(lines)


@snippet("xlsx.delete_rows")
def delete_rows(wb: str, path: str, sheet: str, rows: list[int]) -> str:
    return "\n".join([_sheet(wb, sheet),
                      f"for r in {sorted(set(rows), reverse=True)!r}:  # bottom up: the rows above keep their numbers",
                      "    ws.delete_rows(r)"])


@snippet("xlsx.replace_values")
def replace_values(wb: str, path: str, sheet: str, old: str, new: str, ref: str | None = None,
                   first_only: bool = False) -> str:
    cells = "ws.iter_rows()" if ref is None else f"ws[{ref!r}]"
    lines = [_sheet(wb, sheet), f"for row in {cells}:", "    for cell in row:",
             f"        if isinstance(cell.value, str) and cell.value.strip() == {old!r}:",
             f"            cell.value = {new!r}"]
    if first_only:
        return "\n".join([*lines[:1], "done = False", f"for row in {cells}:", "    for cell in row:",
                          f"        if not done and isinstance(cell.value, str) and cell.value.strip() == {old!r}:",
                          f"            cell.value, done = {new!r}, True"])
    return "\n".join(lines)


def _each_cell(ref: str, body: list[str]) -> list[str]:
    return [f"for row in ws[{ref!r}]:", "    for cell in row:", *("        " + line for line in body)]


@snippet("xlsx.add_conditional_format")
def add_conditional_format(wb: str, path: str, sheet: str, ref: str, operator: str, values: list[float],
                           fill: str) -> str:
    lines = [_sheet(wb, sheet), "from openpyxl.styles import PatternFill"]
    if operator in _CELL_IS:
        lines += ["from openpyxl.formatting.rule import CellIsRule",
                  f"rule = CellIsRule(operator={operator!r}, formula={[_literal(v) for v in values]!r}, "
                  f"fill={_fill(fill)})"]
    elif operator in ("top", "bottom"):
        bottom = ", bottom=True" if operator == "bottom" else ""
        lines += ["from openpyxl.formatting.rule import Rule",
                  "from openpyxl.styles.differential import DifferentialStyle",
                  f"rule = Rule(type='top10', rank={int(values[0])}{bottom}, "
                  f"dxf=DifferentialStyle(fill={_fill(fill)}))"]
    else:
        raise NotTeachable(f"xlsx.add_conditional_format: unknown operator {operator!r}")
    lines.append(f"ws.conditional_formatting.add({ref!r}, rule)")
    return "\n".join(lines)


@snippet("xlsx.set_number_format")
def set_number_format(wb: str, path: str, sheet: str, ref: str, number_format: str) -> str:
    return "\n".join([_sheet(wb, sheet), *_each_cell(ref, [f"cell.number_format = {number_format!r}"])])


@snippet("xlsx.add_data_validation")
def add_data_validation(wb: str, path: str, sheet: str, ref: str, kind: str, items: list[str] | None = None,
                        operator: str = "between", minimum: float | None = None,
                        maximum: float | None = None) -> str:
    lines = [_sheet(wb, sheet), "from openpyxl.worksheet.datavalidation import DataValidation"]
    alert = "showErrorMessage=True, errorStyle='stop'"  # without the stop alert, any typed value is accepted
    if kind == "list":
        formula = '"' + ",".join(items or []) + '"'
        lines.append(f"dv = DataValidation(type='list', formula1={formula!r}, allow_blank=True, {alert})")
    elif kind in ("whole", "decimal"):
        bounds = [_literal(b) for b in (minimum, maximum) if b is not None]
        if not bounds:
            raise NotTeachable("xlsx.add_data_validation: a number validation without bounds")
        second = f", formula2={bounds[1]!r}" if len(bounds) > 1 else ""
        lines.append(f"dv = DataValidation(type={kind!r}, operator={operator!r}, formula1={bounds[0]!r}{second}, "
                     f"allow_blank=True, {alert})")
    else:
        raise NotTeachable(f"xlsx.add_data_validation: unknown kind {kind!r}")
    lines += [f"dv.add({ref!r})", "ws.add_data_validation(dv)"]
    return "\n".join(lines)


@snippet("xlsx.set_font")
def set_font(wb: str, path: str, sheet: str, ref: str, bold: bool | None = None, italic: bool | None = None,
             size: float | None = None) -> str:
    changes = [f"font.{name} = {value!r}" for name, value in (("bold", bold), ("italic", italic), ("size", size))
               if value is not None]
    return "\n".join([_sheet(wb, sheet), "from copy import copy",
                      *_each_cell(ref, ["font = copy(cell.font)", *changes, "cell.font = font"])])


@snippet("xlsx.set_fill")
def set_fill(wb: str, path: str, sheet: str, ref: str, color: str) -> str:
    return "\n".join([_sheet(wb, sheet), "from openpyxl.styles import PatternFill",
                      *_each_cell(ref, [f"cell.fill = {_fill(color)}"])])


@snippet("xlsx.merge_cells")
def merge_cells(wb: str, path: str, sheet: str, ref: str, horizontal: str | None = None) -> str:
    lines = [_sheet(wb, sheet), f"ws.merge_cells({ref!r})"]
    if horizontal is not None:
        min_col, min_row, _, _ = range_boundaries(ref)
        top_left = f"{get_column_letter(min_col)}{min_row}"
        lines += ["from copy import copy", f"alignment = copy(ws[{top_left!r}].alignment)",
                  f"alignment.horizontal = {horizontal!r}", f"ws[{top_left!r}].alignment = alignment"]
    return "\n".join(lines)


@snippet("xlsx.center_across_selection")
def center_across_selection(wb: str, path: str, sheet: str, ref: str) -> str:
    return "\n".join([_sheet(wb, sheet), "from copy import copy",
                      *_each_cell(ref, ["alignment = copy(cell.alignment)",
                                        "alignment.horizontal = 'centerContinuous'  # Center Across Selection",
                                        "cell.alignment = alignment"])])


@snippet("xlsx.hide_columns")
def hide_columns(wb: str, path: str, sheet: str, columns: list[str]) -> str:
    return "\n".join([_sheet(wb, sheet), f"for letter in {list(columns)!r}:",
                      "    ws.column_dimensions[letter].hidden = True"])


@snippet("xlsx.freeze_panes")
def freeze_panes(wb: str, path: str, sheet: str, cell: str) -> str:
    return f"{wb}[{sheet!r}].freeze_panes = {cell!r}"


@snippet("xlsx.set_autofilter")
def set_autofilter(wb: str, path: str, sheet: str, ref: str) -> str:
    return f"{wb}[{sheet!r}].auto_filter.ref = {ref!r}"


def _reference(ref: str) -> str:
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    cols = f"min_col={min_col}" + (f", max_col={max_col}" if max_col != min_col else "")
    return f"Reference(ws, {cols}, min_row={min_row}, max_row={max_row})"


@snippet("xlsx.add_chart")
def add_chart(wb: str, path: str, sheet: str, chart_type: str, values: str, categories: str | None = None,
              name_cell: str | None = None, anchor: str = "H2") -> str:
    if chart_type not in CHART_TYPES:
        raise NotTeachable(f"xlsx.add_chart: unknown chart_type {chart_type!r}")
    cls, direction = CHART_TYPES[chart_type]
    min_col, min_row, max_col, _ = range_boundaries(values)
    by_header = name_cell == f"{get_column_letter(min_col)}{min_row - 1}" and min_col == max_col
    names = f"{cls.__name__}, Reference" + ("" if by_header else ", Series")
    lines = [_sheet(wb, sheet), f"from openpyxl.chart import {names}",
             f"chart = {cls.__name__}()"]
    if direction is not None:
        lines.append(f"chart.type = {direction!r}  # {'horizontal bars' if direction == 'bar' else 'columns'}")
    if by_header:
        # the series named by its header cell, the data below it
        with_header = f"{name_cell}:{values.split(':')[-1]}"
        lines.append(f"chart.add_data({_reference(with_header)}, titles_from_data=True)")
    else:
        lines.append(f"series = Series({_reference(values)}, title_from_data=False)")
        if name_cell is not None:
            col, row = range_boundaries(name_cell)[:2]
            lines += ["from openpyxl.chart.series import SeriesLabel", "from openpyxl.chart.data_source import StrRef",
                      "from openpyxl.utils import quote_sheetname",
                      f"series.tx = SeriesLabel(strRef=StrRef(quote_sheetname(ws.title) + "
                      f"'!${get_column_letter(col)}${row}'))"]
        lines.append("chart.series.append(series)")
    if categories is not None:
        lines.append(f"chart.set_categories({_reference(categories)})")
    lines.append(f"ws.add_chart(chart, {anchor!r})")
    return "\n".join(lines)


@snippet("xlsx.add_sheet")
def add_sheet(wb: str, path: str, name: str, index: int) -> str:
    return f"{wb}.create_sheet({name!r}, {index})"


@snippet("xlsx.copy_sheet")
def copy_sheet(wb: str, path: str, sheet: str, name: str, index: int) -> str:
    return "\n".join([f"copied = {wb}.copy_worksheet({wb}[{sheet!r}])", f"copied.title = {name!r}",
                      f"{wb}.move_sheet(copied, offset={index} - {wb}.index(copied))"])


@snippet("xlsx.rename_sheet")
def rename_sheet(wb: str, path: str, sheet: str, new_name: str) -> str:
    return f"{wb}[{sheet!r}].title = {new_name!r}"


@snippet("xlsx.move_sheet")
def move_sheet(wb: str, path: str, sheet: str, index: int) -> str:
    return "\n".join([f"ws = {wb}[{sheet!r}]", f"{wb}.move_sheet(ws, offset={index} - {wb}.index(ws))"])


@snippet("xlsx.delete_sheet")
def delete_sheet(wb: str, path: str, sheet: str) -> str:
    return "\n".join([f"{wb}.remove({wb}[{sheet!r}])",
                      f"if {wb}.active is None:  # the deleted sheet was the last one and the active one",
                      f"    {wb}.active = len({wb}.worksheets) - 1"])


@snippet("xlsx.clear_sheet")
def clear_sheet(wb: str, path: str, sheet: str) -> str:
    return "\n".join([_sheet(wb, sheet), "ws.delete_rows(1, ws.max_row)"])


@snippet("xlsx.fill_blanks")
def fill_blanks(wb: str, path: str, sheet: str, ref: str, fill: str, decimals: int = 2, skip: int = 0,
                spill: bool = False) -> str:
    lines = [_sheet(wb, sheet), f"cells = [row[0] for row in ws[{ref!r}]]"]
    if fill in ("average", "median"):
        stat = "statistics.fmean(numbers)" if fill == "average" else "statistics.median(numbers)"
        lines += ["import statistics",
                  "numbers = [c.value for c in cells if isinstance(c.value, (int, float)) "
                  "and not isinstance(c.value, bool)]",
                  f"value = round({stat}, {decimals})",
                  "filled = {i: value for i, c in enumerate(cells) if c.value is None}"]
    elif fill == "zero":
        lines.append("filled = {i: 0 for i, c in enumerate(cells) if c.value is None}")
    elif fill in ("previous", "next"):
        near = "range(i - 1, -1, -1)" if fill == "previous" else "range(i + 1, len(cells))"
        side = "above" if fill == "previous" else "below"
        lines += [f"filled = {{}}  # each empty cell takes the nearest filled value {side}",
                  "for i, c in enumerate(cells):", "    if c.value is None:",
                  f"        filled[i] = next((cells[j].value for j in {near} if cells[j].value is not None), None)"]
    else:
        raise NotTeachable(f"xlsx.fill_blanks: unknown fill {fill!r}")
    if skip or spill:  # near-misses: the last empty cells left, or the fill dragged one row too far
        lines.append("blanks = sorted(filled)")
        if spill:
            lines.append("spilled = filled[blanks[0]] if blanks else None")
        if skip:
            lines.append(f"filled = {{i: filled[i] for i in blanks[:len(blanks) - {skip}]}}")
        if spill:
            lines += ["if blanks and blanks[0] + 1 < len(cells):", "    filled[blanks[0] + 1] = spilled"]
    lines += ["for i, value in filled.items():", "    cells[i].value = value"]
    return "\n".join(lines)
