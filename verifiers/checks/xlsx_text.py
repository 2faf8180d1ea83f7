"""xlsx primitives for "add a column computed with text or date functions" tasks (calc.text_formula,
calc.date_formula): every data row of the new column holds a formula over its own row whose value is the expected
one, and which computes the asked operation (UPPER, LOWER, PROPER, TRIM, a join with a separator; EDATE, YEAR,
MONTH, days until a date; a lookup in a table on another sheet, calc.lookup) for other inputs too.

`xlsx.formula_column` asks the same of numeric formulas; a text column differs in what a value is (text compared
exactly: case and spaces are the whole point) and in what a typed answer dressed as a formula varies
(`verifiers.formula.text_disagreement` swaps the text inputs where `disagreement` varies the numbers)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from openpyxl.utils import get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.checks.xlsx_values import _formula_result, _outside_row
from verifiers.formula import (
    FormulaError,
    date_disagreement,
    lookup_disagreement,
    referenced_ranges,
    text_disagreement,
)
from verifiers.meaning import Meaning, Prose
from verifiers.readers import StateError
from verifiers.readers.xlsx import bounds, cell_lookup, cell_text

#: operation -> the words that ask for it (case-insensitive, at a word start)
OPERATION_WORDS = {
    "upper": r"UPPER\b|upper[- ]?case|capital letters|all caps",
    "lower": r"LOWER\b|lower[- ]?case|small letters",
    "proper": r"PROPER\b|proper case|title case",
    "trim": r"TRIM\b|(?:extra|stray|leading|trailing|surplus|doubled?) spaces",
    "join": r"join|combin|concatenat|CONCAT|TEXTJOIN",
}
#: the case operations exclude each other: an instruction asking for two of them contradicts itself
CASES = ("upper", "lower", "proper")


def operations_said(text: str) -> list[str]:
    """The operations of `OPERATION_WORDS` that `text` asks for, in table order."""
    return [op for op, words in OPERATION_WORDS.items() if re.search(rf"\b(?:{words})", text, re.IGNORECASE)]


def _says_operation(text: str, args: Mapping[str, Any]) -> str | None:
    operation = str(args.get("operation"))
    said = operations_said(text)
    if operation not in said:
        return f"operation={operation!r} is checked but the instruction does not ask for it (it reads as {said})"
    rivals = [op for op in said if op != operation and op in CASES and operation in CASES]
    if rivals:
        return f"operation={operation!r} is checked but the instruction also asks for {rivals[0]!r}"
    return None


@primitive("xlsx.text_column",
           grounded=("path", "sheet", "header_cell", "header", "ref", "operation", "sources", "separator"),
           secret=("expected", "formulas"),
           meaning=Meaning(action=r"formula|function|" + "|".join(OPERATION_WORDS.values()),
                           args={"operation": Prose(_says_operation)}))
def text_column(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str, operation: str,
                sources: list[str], expected: list[str], formulas: list[str], separator: str = "") -> Result:
    """`header_cell` holds `header` and each cell of the one-column `ref` holds a formula over cells of its own row
    whose text is exactly the matching item of `expected` (case and spaces count) and which computes what the
    matching item of `formulas` computes when its text inputs change (any equivalent formula is accepted: & or
    CONCAT or TEXTJOIN, absolute references). `operation` (upper, lower, proper, trim, join), the `sources`
    headers and the join's `separator` say what is asked, for grounding and the evidence."""
    return _row_formulas(state, path, sheet, header_cell, header, ref, operation, expected, formulas,
                         lambda value, want: isinstance(value, str) and value == want, text_disagreement)


#: date operation -> the words that ask for it (case-insensitive, at a word start)
DATE_WORDS = {
    "edate": r"EDATE\b|months? (?:after|later|from)",
    "year": r"YEAR\b",
    "month": r"MONTH\b|month number",
    "days_until": r"DATEDIF\b|days? (?:from|until|between|left|remaining|to go)",
    # calc.date_diff: whole years / whole months between a row's date and a stated date, working days between them
    "years_between": r"(?:whole|complete|full) years",
    "months_between": r"(?:whole|complete|full) months",
    "workdays": r"NETWORKDAYS\b|working days|business days|workdays",
}


def _says_date_operation(text: str, args: Mapping[str, Any]) -> str | None:
    operation = str(args.get("operation"))
    words = DATE_WORDS.get(operation)
    if words is None or not re.search(rf"\b(?:{words})", text, re.IGNORECASE):
        return f"operation={operation!r} is checked but the instruction does not ask for it"
    return None


@primitive("xlsx.date_column",
           grounded=("path", "sheet", "header_cell", "header", "ref", "operation", "source", "months", "until"),
           secret=("formulas",),  # as xlsx.formula_column: a day count or a month may equal a number the task states
           meaning=Meaning(action=r"formula|function|" + "|".join(DATE_WORDS.values()),
                           args={"operation": Prose(_says_date_operation)}))
def date_column(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str, operation: str,
                source: str, expected: list[float], formulas: list[str], months: int | None = None,
                until: str | None = None) -> Result:
    """`header_cell` holds `header` and each cell of the one-column `ref` holds a formula over cells of its own row
    whose value is the matching number of `expected` (a date serial for EDATE, however the cell is formatted; a year,
    month or day count) and which computes what the matching item of `formulas` computes when its dates change
    (`verifiers.formula.date_disagreement`: EDATE is not 30 days a month, a typed serial dressed as a formula is
    not EDATE). `operation` (edate, year, month, days_until), the `source` date column's header, the EDATE
    `months` and the days' end date `until` say what is asked, for grounding and the evidence."""
    return _row_formulas(state, path, sheet, header_cell, header, ref, operation, expected, formulas,
                         lambda value, want: same_value(value, want, 1e-6) and not isinstance(value, str),
                         date_disagreement)


def _row_formulas(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str, operation: str,
                  expected: list[Any], formulas: list[str], same: Callable[[Any, Any], bool],
                  disagree: Callable[[str, str, Any], str | None], elsewhere: str | None = None) -> Result:
    """The header, then each cell of `ref`: a formula over its own row (and, with `elsewhere`, over any cells of that
    sheet: a lookup table), showing its `expected` value (`same`), that `disagree` finds computing what its
    reference formula computes."""
    ws = state.sheet(path, sheet)
    min_col, min_row, max_col, max_row = bounds(ref)
    if min_col != max_col or max_row - min_row + 1 != len(expected) or len(formulas) != len(expected):
        raise StateError(f"check misconfigured: {ref} is not one column of {len(expected)} cells with "
                         f"{len(formulas)} formulas")
    shown = cell_text(ws[header_cell].value).strip()
    if shown.casefold() != header.strip().casefold():
        return fail(f"{sheet}!{header_cell} holds {shown!r}, expected the header {header!r}")
    lookup = cell_lookup(state.workbook(path), sheet)
    letter = get_column_letter(min_col)
    problems: list[str] = []
    example = ""
    for row, want, reference in zip(range(min_row, max_row + 1), expected, formulas, strict=True):
        coord = f"{letter}{row}"
        formula = ws[coord].value
        if not (isinstance(formula, str) and formula.startswith("=")):
            problems.append(f"{coord} holds {cell_text(formula)!r}, not a formula")
            continue
        try:
            outside = [r for r in _outside_row(formula, sheet, row)
                       if elsewhere is None or not r.casefold().startswith(f"{elsewhere.casefold()}!")]
            value = None if outside else _formula_result(state, path, sheet, coord)
            refs = referenced_ranges(formula)
        except FormulaError as exc:
            problems.append(f"{coord}: {exc}")
            continue
        if not refs:
            problems.append(f"{coord} = {formula!r} refers to no cell")
        elif elsewhere is not None and not _in_row(refs, sheet, row):
            problems.append(f"{coord} = {formula!r} looks up no cell of row {row} (a typed key is no lookup)")
        elif outside:
            problems.append(f"{coord} = {formula!r} refers to {', '.join(outside)}, outside row {row}")
        elif not same(value, want):
            problems.append(f"{coord} = {formula!r} shows {cell_text(value)!r}, expected {want!r}")
        elif differs := _differs(disagree, formula, reference, lookup):
            problems.append(f"{coord} = {formula!r} is not the asked {operation}: {differs}")
        elif not example:
            example = f"{coord} = {formula!r} -> {value!r}"
    if problems:
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        return fail(f"{len(problems)} of {len(expected)} cells of {sheet}!{ref} are wrong: "
                    f"{'; '.join(problems[:3])}{more}")
    return ok(f"{sheet}!{header_cell} = {shown!r}; all {len(expected)} cells of {ref} are {operation} formulas over "
              f"their own row, e.g. {example}")


def _in_row(refs: list[tuple[str | None, str]], sheet: str, row: int) -> bool:
    """Whether one of `refs` is a cell of `row` on `sheet`."""
    rows = {f"{row}"}
    return any((name is None or name.casefold() == sheet.casefold()) and ":" not in ref
               and ref.lstrip("$ABCDEFGHIJKLMNOPQRSTUVWXYZ").replace("$", "") in rows for name, ref in refs)


def _differs(disagree: Callable[[str, str, Any], str | None], formula: str, reference: str, lookup: Any) -> str | None:
    try:
        return disagree(formula, reference, lookup)
    except FormulaError as exc:
        return str(exc)


#: lookup function -> the words that ask for it
LOOKUP_WORDS = {"VLOOKUP": r"VLOOKUP\b", "INDEX_MATCH": r"INDEX\b.{0,40}\bMATCH\b"}


def _says_lookup(text: str, args: Mapping[str, Any]) -> str | None:
    function = str(args.get("function"))
    words = LOOKUP_WORDS.get(function)
    if words is None or not re.search(rf"\b(?:{words})", text, re.IGNORECASE | re.DOTALL):
        return f"function={function!r} is checked but the instruction does not name it"
    return None


@primitive("xlsx.lookup_column",
           grounded=("path", "sheet", "header_cell", "header", "ref", "key", "table_sheet", "table", "function"),
           secret=("formulas",),
           meaning=Meaning(action=r"VLOOKUP|INDEX|MATCH|XLOOKUP|look(?:ed|ing|s)? ?(?:it |them )?up|lookup",
                           args={"function": Prose(_says_lookup)}))
def lookup_column(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str, key: str,
                  table_sheet: str, table: str, function: str, expected: list[Any], formulas: list[str],
                  result_column: int = 2) -> Result:
    """`header_cell` holds `header` and each cell of the one-column `ref` holds a formula that looks up its own row's
    `key` cell in the table `table` of sheet `table_sheet` and shows the matching item of `expected` (text exactly,
    numbers within 1e-6); it must find what the matching item of `formulas` finds when the table's result column
    (`result_column`, 1-based on `table_sheet`) holds other values (`verifiers.formula.lookup_disagreement`), so a
    typed answer dressed as a formula fails and VLOOKUP, INDEX/MATCH and XLOOKUP are all accepted. `function` is
    the one the instruction names, for grounding and the evidence."""
    def disagree(formula: str, reference: str, lookup: Any) -> str | None:
        return lookup_disagreement(formula, reference, lookup, table_sheet, result_column)

    def same(value: Any, want: Any) -> bool:
        if isinstance(want, str):
            return isinstance(value, str) and value == want
        return same_value(value, want, 1e-6) and not isinstance(value, str)

    return _row_formulas(state, path, sheet, header_cell, header, ref, function, expected, formulas, same, disagree,
                         elsewhere=table_sheet)
