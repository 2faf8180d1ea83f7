"""xlsx primitives about values: cells, sorted ranges, formulas."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from openpyxl.utils import column_index_from_string, range_boundaries

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import cell_text, read_rows, same_value
from verifiers.formula import FormulaError, evaluate, function_names, referenced_ranges


@primitive("xlsx.cell_value", grounded=("path", "sheet", "cell", "expected"))
def cell_value(state: State, path: str, sheet: str, cell: str, expected: Any, tolerance: float = 0.0) -> Result:
    """The cell holds `expected` (numbers within `tolerance`)."""
    actual = state.sheet(path, sheet)[cell].value
    if isinstance(actual, str) and actual.startswith("="):
        actual = _formula_result(state, path, sheet, cell)
    if same_value(actual, expected, tolerance):
        return ok(f"{sheet}!{cell} = {cell_text(actual)!r}")
    return fail(f"{sheet}!{cell} = {cell_text(actual)!r}, expected {cell_text(expected)!r}")


def _sort_key(value: Any) -> tuple[int, Any]:
    if isinstance(value, dt.datetime):
        return (0, value.timestamp())
    if isinstance(value, dt.date):
        return (0, float(value.toordinal()))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, float(value))
    return (1, cell_text(value).casefold())


@primitive("xlsx.range_sorted", grounded=("path", "sheet", "header"))
def range_sorted(state: State, path: str, sheet: str, ref: str, key_column: str, header: str,
                 descending: bool, rows: list[list[str]]) -> Result:
    """Rows of `ref` are ordered by `key_column` and are exactly the original `rows` (kept intact)."""
    ws = state.sheet(path, sheet)
    min_col, _, _, _ = range_boundaries(ref)
    key = column_index_from_string(key_column) - min_col
    actual = read_rows(ws, ref)
    got = Counter(tuple(cell_text(v) for v in row) for row in actual)
    want = Counter(tuple(row) for row in rows)
    if got != want:
        missing = sum((want - got).values())
        return fail(f"{ref}: {missing} of {len(rows)} original rows are missing or were broken apart")
    keys = [_sort_key(row[key]) for row in actual]
    pairs = zip(keys, keys[1:], strict=False)
    bad = next((i for i, (a, b) in enumerate(pairs) if (a < b if descending else a > b)), None)
    order = "descending" if descending else "ascending"
    if bad is not None:
        first = range_boundaries(ref)[1] + bad
        return fail(f"{ref}: {header} not {order} at rows {first}-{first + 1} "
                    f"({cell_text(actual[bad][key])!r} then {cell_text(actual[bad + 1][key])!r})")
    return ok(f"{ref}: {len(actual)} rows intact and {order} by {header} ({key_column})")


def _formula_result(state: State, path: str, sheet: str, cell: str) -> Any:
    """A formula cell's value: the cached one an app saved, else computed by `verifiers.formula`."""
    cached = state.sheet(path, sheet, values=True)[cell].value
    if cached is not None:
        return cached
    wb = state.workbook(path)

    def lookup(sheet_name: str | None, ref: str) -> Any:
        return wb[sheet_name or sheet][ref].value

    return evaluate(str(wb[sheet][cell].value), lookup)


def _norm_ref(ref: str) -> str:
    return ref.replace("$", "").upper()


@primitive("xlsx.formula_value", grounded=("path", "sheet", "cell", "function"), secret=("expected",))
def formula_value(state: State, path: str, sheet: str, cell: str, function: str, ref: str,
                  expected: float, tolerance: float = 0.005) -> Result:
    """The cell holds a formula calling `function` over `ref`, and its value is `expected`."""
    formula = state.sheet(path, sheet)[cell].value
    if not (isinstance(formula, str) and formula.startswith("=")):
        return fail(f"{sheet}!{cell} holds {cell_text(formula)!r}, not a formula")
    try:
        names = function_names(formula)
        refs = [_norm_ref(r) for s, r in referenced_ranges(formula) if s in (None, sheet)]
        value = _formula_result(state, path, sheet, cell)
    except FormulaError as exc:
        return fail(f"{sheet}!{cell}: {exc}")
    if function.upper() not in names:
        return fail(f"{sheet}!{cell} = {formula!r} does not call {function}")
    if _norm_ref(ref) not in refs:
        return fail(f"{sheet}!{cell} = {formula!r} does not reference {ref}")
    if not same_value(value, expected, tolerance):
        return fail(f"{sheet}!{cell} = {formula!r} evaluates to {cell_text(value)!r}, expected {expected!r}")
    return ok(f"{sheet}!{cell} = {formula!r} -> {cell_text(value)}")
