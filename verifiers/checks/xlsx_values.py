"""xlsx primitives about values: cells, sorted ranges, formulas, replaced values, whole tables.

Values are compared as `cell_text` (so a date read back as a datetime, or 12.0 read back as 12, still
match), and formula values come from the cached result an app saved or, for a file written by a script,
from `verifiers.formula`."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from openpyxl.utils import column_index_from_string, coordinate_to_tuple, get_column_letter, range_boundaries

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.formula import FormulaError, disagreement, evaluate, function_names, referenced_ranges
from verifiers.grounding import text_cells
from verifiers.meaning import ByProperty, Meaning, Said, Stated, Visible, choice, upper
from verifiers.readers import StateError
from verifiers.readers.xlsx import bounds, cached_formula_values, cell_lookup, cell_text, read_rows

#: the words that ask for a computed value (a formula check's action)
CALC = r"formula|function|SUM|AVERAGE|MIN|MAX|COUNT|MEDIAN|ROUND|PRODUCT|total|average|minus|multipl"


@primitive("xlsx.cell_value", grounded=("path", "sheet", "cell", "expected"),
           meaning=Meaning(action=r"type|write|enter|put|label|read|fill|add|heading|header|title"))
def cell_value(state: State, path: str, sheet: str, cell: str, expected: Any, tolerance: float = 0.0) -> Result:
    """The cell holds `expected` (numbers within `tolerance`)."""
    actual = state.sheet(path, sheet)[cell].value
    if isinstance(actual, str) and actual.startswith("="):
        try:
            actual = _formula_result(state, path, sheet, cell)
        except FormulaError as exc:
            return fail(f"{sheet}!{cell}: {exc}")
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


@primitive("xlsx.range_sorted", grounded=("path", "sheet", "header", "descending"),
           meaning=Meaning(action=r"sort|order|reorder|arrange|rearrange|rank",
                           args={"header": ByProperty("key_column"),
                                 "descending": Said("order", choice({True: "desc", False: "asc"}))}))
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
    cached = state.read(path, cached_formula_values, "xlsx workbook").get(sheet, {}).get(cell.replace("$", ""))
    if cached is not None:
        return cached
    wb = state.workbook(path)
    return evaluate(str(wb[sheet][cell].value), cell_lookup(wb, sheet))


def _norm_ref(ref: str) -> str:
    return ref.replace("$", "").upper()


def _cells(ref: str) -> set[tuple[int, int]]:
    """The cells of a bounded range of at most 10,000 cells (empty for a whole column or a bad ref)."""
    try:
        min_col, min_row, max_col, max_row = range_boundaries(ref)
    except (ValueError, TypeError):
        return set()
    if None in (min_col, min_row, max_col, max_row) or (max_col - min_col + 1) * (max_row - min_row + 1) > 10_000:
        return set()
    return {(r, c) for r in range(min_row, max_row + 1) for c in range(min_col, max_col + 1)}


def _covers(refs: list[str], ref: str) -> bool:
    """Whether the ranges `refs` together cover `ref` (`AVERAGE(D2:D6,D7:D11)` covers D2:D11); the value and
    perturbation checks then decide whether the formula computes the asked thing."""
    want = _cells(ref)
    return bool(want) and want <= set().union(*(_cells(r) for r in refs))


@primitive("xlsx.formula_value", grounded=("path", "sheet", "cell", "function"), secret=("expected", "formula"),
           meaning=Meaning(action=CALC, args={"function": Said("aggregate", upper)}))
def formula_value(state: State, path: str, sheet: str, cell: str, function: str, ref: str,
                  expected: float, tolerance: float = 0.005, formula: str | None = None) -> Result:
    """The cell holds a formula calling `function` over `ref`, and its value is `expected`; with `formula` (the
    right one), it also computes what that one computes when the inputs change (`SUM(C2:C9)*0+412` does not)."""
    reference, formula = formula, state.sheet(path, sheet)[cell].value
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
    if _norm_ref(ref) not in refs and not _covers(refs, _norm_ref(ref)):
        return fail(f"{sheet}!{cell} = {formula!r} does not reference {ref}")
    if not same_value(value, expected, tolerance):
        return fail(f"{sheet}!{cell} = {formula!r} evaluates to {cell_text(value)!r}, expected {expected!r}")
    if reference is not None:
        wb = state.workbook(path)
        differs = _differs(formula, reference, lambda name, coord: wb[name or sheet][coord].value, tolerance)
        if differs:
            return fail(f"{sheet}!{cell} = {formula!r} is not the asked computation: {differs}")
    return ok(f"{sheet}!{cell} = {formula!r} -> {cell_text(value)}")


def _outside_row(formula: str, sheet: str, row: int) -> list[str]:
    """References of `formula` that are not cells of `row` on `sheet` (raises FormulaError)."""
    outside = []
    for ref_sheet, ref in referenced_ranges(formula):
        same_sheet = ref_sheet is None or ref_sheet.casefold() == sheet.casefold()
        _, top, _, bottom = range_boundaries(ref)
        if not same_sheet or top != row or bottom != row:
            outside.append(f"{ref_sheet}!{ref}" if ref_sheet else ref)
    return outside


@primitive("xlsx.formula_column", grounded=("path", "sheet", "header_cell", "header", "ref"),
           secret=("formulas",), meaning=Meaning(action=CALC, implied="aggregate"))
def formula_column(state: State, path: str, sheet: str, header_cell: str, header: str, ref: str,
                   expected: list[float], tolerance: float = 0.001, formulas: list[str] | None = None) -> Result:
    """`header_cell` holds `header` and each cell of the one-column `ref` holds a formula over cells of its own
    row whose value is the matching item of `expected` (any equivalent formula is accepted).

    With `formulas` (the right formula of each row), each formula must also compute what the right one
    computes when its inputs change (`verifiers.formula.disagreement`): a constant dressed as a formula
    (`=0*D2+3577.8`) shows the right value today but is not the asked computation."""
    ws = state.sheet(path, sheet)
    min_col, min_row, max_col, max_row = bounds(ref)
    if min_col != max_col or max_row - min_row + 1 != len(expected):
        raise StateError(f"check misconfigured: {ref} is not one column of {len(expected)} cells")
    if formulas is not None and len(formulas) != len(expected):
        raise StateError(f"check misconfigured: {len(formulas)} formulas for {len(expected)} cells")
    lookup = cell_lookup(state.workbook(path), sheet)
    shown = cell_text(ws[header_cell].value).strip()
    if shown.casefold() != header.strip().casefold():
        return fail(f"{sheet}!{header_cell} holds {shown!r}, expected the header {header!r}")
    letter = get_column_letter(min_col)
    problems: list[str] = []
    example = ""
    for row, want in zip(range(min_row, max_row + 1), expected, strict=True):
        coord = f"{letter}{row}"
        formula = ws[coord].value
        if not (isinstance(formula, str) and formula.startswith("=")):
            problems.append(f"{coord} holds {cell_text(formula)!r}, not a formula")
            continue
        try:
            outside = _outside_row(formula, sheet, row)
            value = None if outside else _formula_result(state, path, sheet, coord)
        except FormulaError as exc:
            problems.append(f"{coord}: {exc}")
            continue
        if not referenced_ranges(formula):
            problems.append(f"{coord} = {formula!r} refers to no cell")
        elif outside:
            problems.append(f"{coord} = {formula!r} refers to {', '.join(outside)}, outside row {row}")
        elif not same_value(value, want, tolerance):
            problems.append(f"{coord} = {formula!r} evaluates to {cell_text(value)!r}, expected {want!r}")
        elif formulas is not None and (differs := _differs(formula, formulas[row - min_row], lookup, tolerance)):
            problems.append(f"{coord} = {formula!r} is not the asked computation: {differs}")
        elif not example:
            example = f"{coord} = {formula!r} -> {cell_text(value)}"
    if problems:
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        return fail(f"{len(problems)} of {len(expected)} cells of {sheet}!{ref} are wrong: "
                    f"{'; '.join(problems[:3])}{more}")
    return ok(f"{sheet}!{header_cell} = {shown!r}; all {len(expected)} cells of {ref} are row formulas, e.g. {example}")


def _differs(formula: str, reference: str, lookup: Any, tolerance: float) -> str | None:
    """How `formula` computes something else than `reference` (the check's tolerance, relative), or None."""
    try:
        return disagreement(formula, reference, lookup, tolerance=tolerance)
    except FormulaError as exc:
        return str(exc)


def _cells_in(ws: Any, scope: str) -> list[Any]:
    if scope == "sheet":
        return [cell for row in ws.iter_rows() for cell in row]
    min_col, min_row, max_col, max_row = bounds(scope)
    return [ws.cell(r, c) for r in range(min_row, max_row + 1) for c in range(min_col, max_col + 1)]


def _in_scope(coord: str, scope: str) -> bool:
    if scope == "sheet":
        return True
    min_col, min_row, max_col, max_row = bounds(scope)
    row, col = coordinate_to_tuple(coord)
    return min_col <= col <= max_col and min_row <= row <= max_row


@primitive("xlsx.values_replaced", grounded=("path", "sheet", "old", "new"),
           meaning=Meaning(action=r"replace|rename|change|correct|substitut"))
def values_replaced(state: State, path: str, sheet: str, old: str, new: str, scope: str,
                    cells: dict[str, str]) -> Result:
    """Within `scope` (a range, or "sheet") no cell holds `old` and every cell that held it now holds `new`
    exactly; every other originally filled cell (`cells`: coordinate -> original text) is unchanged."""
    ws = state.sheet(path, sheet)
    where = f"{sheet}!{scope}" if scope != "sheet" else f"sheet {sheet!r}"
    left = [c.coordinate for c in _cells_in(ws, scope) if cell_text(c.value).strip() == old]
    if left:
        return fail(f"{len(left)} cells of {where} still hold {old!r}: {', '.join(left[:5])}")
    targets = [coord for coord, text in cells.items() if text.strip() == old and _in_scope(coord, scope)]
    if not targets:
        raise StateError(f"check misconfigured: no cell of {where} held {old!r}")
    wrong = [f"{coord}={cell_text(ws[coord].value)!r}" for coord in targets
             if cell_text(ws[coord].value).strip() != new]
    if wrong:
        return fail(f"{len(wrong)} of the {len(targets)} cells that held {old!r} do not hold {new!r}: "
                    f"{', '.join(wrong[:5])}")
    changed = [f"{coord}: {text!r} -> {cell_text(ws[coord].value)!r}" for coord, text in cells.items()
               if coord not in targets and cell_text(ws[coord].value).strip() != text.strip()]
    if changed:
        return fail(f"{len(changed)} cells that should stay unchanged were changed: {'; '.join(changed[:4])}")
    return ok(f"all {len(targets)} cells of {where} that held {old!r} now hold {new!r}; "
              f"the other {len(cells) - len(targets)} filled cells are unchanged")


@primitive("xlsx.table_rows", grounded=("path", "sheet", "rows", "key"),
           meaning=Meaning(action=r"duplicat|dedup|de-dup|twice|repeated|double entr|more than once",
                           args={"rows": Visible(text_cells), "key": Stated()}))
def table_rows(state: State, path: str, sheet: str, header: list[str], rows: list[list[str]],
               key: str | None = None) -> Result:
    """Row 1 is `header` and the rows below it are exactly `rows` (as text, in order) over the header's columns,
    with no blank row inside and nothing after them. `key`, when given, is the header of the column whose repeated
    values make rows duplicates: the goal the instruction must state (its rows are already in `rows`)."""
    if key is not None and key not in header:
        return fail(f"check misconfigured: the key column {key!r} is not in the header {header}")
    ws = state.sheet(path, sheet)
    width = len(header)
    got_header = [cell_text(ws.cell(1, c).value).strip() for c in range(1, width + 1)]
    if got_header != [h.strip() for h in header]:
        return fail(f"row 1 is {got_header}, expected the header {header}")
    last = min(max(ws.max_row, len(rows) + 1), len(rows) + 500)  # a stray far-away cell is not worth 1M rows
    actual = [[cell_text(ws.cell(r, c).value).strip() for c in range(1, width + 1)] for r in range(2, last + 1)]
    while actual and not any(actual[-1]):
        actual.pop()
    want = [[text.strip() for text in row] for row in rows]
    for i, (got, exp) in enumerate(zip(actual, want, strict=False)):
        if got != exp:
            what = "is blank" if not any(got) else f"is {got}"
            return fail(f"row {i + 2} {what}, expected {exp}")
    if len(actual) != len(want):
        return fail(f"the table has {len(actual)} data rows, expected {len(want)}"
                    + (f"; row {len(want) + 2} is {actual[len(want)]}" if len(actual) > len(want) else ""))
    ref = f"A2:{get_column_letter(width)}{len(want) + 1}"
    return ok(f"header and {len(want)} data rows ({ref}) match exactly, nothing below")
