"""xlsx primitives about formatting: conditional formats, number formats, data validation, cell styles.

Everything is read with openpyxl (number format codes and colors by `verifiers.readers.xlsx_format`) and
compared the way a person looking at the sheet would, not as raw XML: ranges as cell sets (LibreOffice may split
or merge them), numbers numerically, colors as 6-digit RGB (case and the alpha byte ignored), number format codes
by what they display (locale tags such as `[$-409]`, quoting and escaping, `[RED]` sections do not matter), data
validation lists as item sets.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from openpyxl.utils import get_column_letter, range_boundaries

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError, evaluate
from verifiers.meaning import Meaning, ReadBack, Said, when
from verifiers.readers.xlsx import cell_text, numeric
from verifiers.readers.xlsx_format import FormatInfo, fill_color, parse_format, render_date, rgb_of

Cell = tuple[int, int]  # (row, column)


# --- ranges and colors -------------------------------------------------------------------------------

def cells_of(ref: str) -> set[Cell]:
    """The cells of a space-separated range list such as "D2:D13 F2" (anchors and sheet names ignored)."""
    cells: set[Cell] = set()
    for part in str(ref).replace(",", " ").split():
        part = part.rsplit("!", 1)[-1].replace("$", "")
        min_col, min_row, max_col, max_row = range_boundaries(part)
        if None in (min_col, min_row, max_col, max_row):
            raise ValueError(f"{part!r} is not a bounded range")
        cells |= {(r, c) for r in range(min_row, max_row + 1) for c in range(min_col, max_col + 1)}
    return cells


def describe_cells(cells: Iterable[Cell], limit: int = 6) -> str:
    names = [f"{get_column_letter(c)}{r}" for r, c in sorted(cells, key=lambda rc: (rc[1], rc[0]))]
    more = f" (+{len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def norm_color(text: str) -> str:
    text = str(text).strip().lstrip("#").upper()
    return text[-6:]


def _numbers_equal(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _fmt_num(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else repr(round(value, 9))


def _value_of(state: State, path: str, sheet: str, text: Any) -> float | None:
    """A rule/validation operand as a number: a literal, or a formula/reference evaluated on the workbook."""
    if text is None:
        return None
    direct = numeric(text)
    if direct is not None:
        return direct
    formula = str(text).strip()
    wb = state.workbook(path)

    def lookup(sheet_name: str | None, ref: str) -> Any:
        name = sheet_name or sheet
        return wb[name][ref].value if name in wb.sheetnames else None

    try:
        value = evaluate("=" + formula.lstrip("="), lookup)
    except FormulaError:
        return None
    return numeric(value)


# --- conditional formatting -------------------------------------------------------------------------

#: operators of a "highlight cells" rule, as xlsx cellIs operators (+ top/bottom for top10 rules)
CF_OPERATORS = ("greaterThan", "lessThan", "between", "notBetween", "equal", "notEqual",
                "greaterThanOrEqual", "lessThanOrEqual", "top", "bottom")
_SYMBOL_OPS = {">": "greaterThan", "<": "lessThan", ">=": "greaterThanOrEqual", "<=": "lessThanOrEqual",
               "=": "equal", "<>": "notEqual"}
_FLIPPED = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "<>": "<>"}
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def _atom(text: str, cell: str) -> tuple[str, float] | None:
    """'D2>500' or '500<D2' (the rule's top-left cell against a number) -> ('>', 500.0)."""
    m = re.fullmatch(rf"{cell}(>=|<=|<>|>|<|=)({_NUM})", text)
    if m:
        return m.group(1), float(m.group(2))
    m = re.fullmatch(rf"({_NUM})(>=|<=|<>|>|<|=){cell}", text)
    if m:
        return _FLIPPED[m.group(2)], float(m.group(1))
    return None


def expression_meaning(formula: str, top_left: str) -> tuple[str, list[float]] | None:
    """A formula rule's meaning in cellIs terms, when it is a plain comparison of its top-left cell."""
    text = re.sub(r"\s+", "", formula).replace("$", "").upper().lstrip("=")
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    cell = re.escape(top_left.upper())
    single = _atom(text, cell)
    if single is not None:
        return _SYMBOL_OPS[single[0]], [single[1]]
    m = re.fullmatch(r"(AND|OR)\(([^,;()]+)[,;]([^,;()]+)\)", text)
    if not m:
        return None
    atoms = [_atom(part, cell) for part in (m.group(2), m.group(3))]
    if None in atoms:
        return None
    ops = {op: value for op, value in atoms}  # type: ignore[misc]
    if m.group(1) == "AND" and set(ops) == {">=", "<="}:
        return "between", [ops[">="], ops["<="]]
    if m.group(1) == "OR" and set(ops) == {"<", ">"}:
        return "notBetween", [ops["<"], ops[">"]]
    return None


@dataclass
class _SeenRule:
    cells: set[Cell]
    operator: str | None
    values: list[float | None]
    fills: set[str] = field(default_factory=set)
    text: str = ""


def _rule_fills(rule: Any) -> set[str]:
    fill = getattr(getattr(rule, "dxf", None), "fill", None)
    if fill is None:
        return set()
    colors = [getattr(fill, "fgColor", None), getattr(fill, "bgColor", None)]
    # openpyxl's unset color reads as transparent black "00000000": not a chosen fill
    return {rgb for c in colors if (rgb := rgb_of(c)) and str(getattr(c, "rgb", "")).upper() != "00000000"}


def _seen_rules(state: State, path: str, sheet: str) -> list[_SeenRule]:
    ws = state.sheet(path, sheet)
    seen = []
    for cf in ws.conditional_formatting:
        for part in str(cf.sqref).split():
            try:
                cells = cells_of(part)
            except ValueError:
                continue
            top_left = part.replace("$", "").split(":")[0]
            for rule in cf.rules:
                operator, values = None, []
                if rule.type == "cellIs":
                    operator = rule.operator
                    values = [_value_of(state, path, sheet, f) for f in (rule.formula or [])]
                elif rule.type == "top10":
                    operator = ("bottom" if rule.bottom else "top") + ("Percent" if rule.percent else "")
                    values = [float(rule.rank) if rule.rank is not None else None]
                elif rule.type == "expression" and rule.formula:
                    meaning = expression_meaning(str(rule.formula[0]), top_left)
                    if meaning is not None:
                        operator, values = meaning[0], list(meaning[1])
                fills = _rule_fills(rule)
                desc = (f"{part}: {rule.type} {operator or '(' + ', '.join(map(str, rule.formula or [])) + ')'} "
                        f"{' '.join(_fmt_num(v) for v in values)} fill {'/'.join(sorted(fills)) or 'none'}")
                seen.append(_SeenRule(cells, operator, values, fills, re.sub(r"\s+", " ", desc).strip()))
    return seen


def _same_values(operator: str, got: list[float | None], want: list[float]) -> bool:
    if len(got) != len(want) or None in got:
        return False
    if operator in ("between", "notBetween"):
        got, want = sorted(got), sorted(want)  # type: ignore[type-var]
    return all(_numbers_equal(g, w) for g, w in zip(got, want, strict=True))


def _beyond(extra: set[Cell], want: set[Cell], column: bool) -> set[Cell]:
    """The cells of `extra` a rule on `want` may not cover: all of them, or with `column` those outside `want`'s
    columns (the user named a column: a rule over the whole of it is what they asked for)."""
    if not column:
        return extra
    columns = {c for _, c in want}
    return {cell for cell in extra if cell[1] not in columns}


@primitive("xlsx.conditional_format", grounded=("path", "sheet", "ref", "operator", "values", "fill"),
           meaning=Meaning(action=r"conditional|highlight",
                           args={"operator": Said("compare"),
                                 "values": ReadBack("the operand after the operator's phrase ('greater than 1,200')")}))
def conditional_format(state: State, path: str, sheet: str, ref: str, operator: str, values: list[float],
                       fill: str, column: bool = False) -> Result:
    """A conditional format rule `operator` `values` with a `fill` background covers exactly the cells of `ref`
    (with `column`, when the instruction named the column and not the range: the rule may also cover the rest of
    `ref`'s columns, header and empty rows included, as a whole-column selection does; never another column).

    `operator` is an xlsx cellIs operator (greaterThan, lessThan, between, equal, ...) or top/bottom (a
    top10 rule whose rank is values[0]). A formula rule that compares the range's top-left cell with a number
    (e.g. `D2>500`, `AND(D2>=1,D2<=9)`) counts as the matching cellIs rule. The fill color is compared as RGB
    on either the pattern's foreground or background color. Rules split over several ranges are united."""
    want = cells_of(ref)
    target = norm_color(fill)
    seen = _seen_rules(state, path, sheet)
    if not seen:
        return fail(f"{sheet} has no conditional formatting rules")
    matching = [r for r in seen if r.operator == operator and _same_values(operator, r.values, values)]
    good = [r for r in matching if target in r.fills]
    covered = set().union(*(r.cells for r in good)) if good else set()
    wanted = f"{operator} {' and '.join(_fmt_num(v) for v in values)} with fill {target} on {ref}"
    others = [r for r in seen if r not in good]
    fits = not (want - covered) and not _beyond(covered - want, want, column)
    if fits and others:  # the sheet had no rules: any other one formats cells nobody asked for
        return fail(f"{sheet}: rule {wanted} found, but also other rule(s): {'; '.join(r.text for r in others[:4])}")
    if fits:
        return ok(f"{sheet}: rule {wanted} found ({'; '.join(r.text for r in good)})")
    listing = "; ".join(r.text for r in seen[:6])
    if not matching:
        return fail(f"{sheet}: no rule {operator} {' and '.join(_fmt_num(v) for v in values)}; rules seen: {listing}")
    if not good:
        return fail(f"{sheet}: rule {operator} found but its fill is not {target}; rules seen: {listing}")
    missing, extra = want - covered, covered - want
    problems = ([f"misses {describe_cells(missing)}"] if missing else []) + (
        [f"also covers {describe_cells(extra)}"] if extra else [])
    return fail(f"{sheet}: rule {wanted}: the rule {' and '.join(problems)}; rules seen: {listing}")


# --- number formats ----------------------------------------------------------------------------------

def _format_problem(info: FormatInfo, code: str, kind: str, decimals: int | None, thousands: bool | None,
                    symbol: str | None, example_date: str | None, shows: str | None) -> str | None:
    if kind == "date":
        if info.kind != "date" or example_date is None or shows is None:
            return f"format {code!r} is not a date format" if info.kind != "date" else None
        got = render_date(code, dt.date.fromisoformat(example_date))
        want = re.sub(r"\s+", " ", shows).strip()
        return None if got == want else f"format {code!r} shows {example_date} as {got!r}, not {want!r}"
    if info.kind != kind:
        return f"format {code!r} is {info.kind}, not {kind}"
    if kind == "currency" and symbol and symbol not in info.symbols:
        return f"format {code!r} shows currency {info.symbols!r}, not {symbol!r}"
    if decimals is not None and info.decimals != decimals:
        return f"format {code!r} has {info.decimals} decimals, not {decimals}"
    if thousands is not None and info.thousands != thousands:
        return f"format {code!r} {'lacks' if thousands else 'has'} a thousands separator"
    return None


@primitive("xlsx.number_format", grounded=("path", "sheet", "ref", "kind", "decimals", "symbol",
                                            "shows"),
           meaning=Meaning(action=r"format|display|show",
                           args={"kind": Said("number_format"),
                                 "decimals": ReadBack("'2 decimal places', 'no decimals'")}))
def number_format(state: State, path: str, sheet: str, ref: str, kind: str, decimals: int | None = None,
                  thousands: bool | None = None, symbol: str | None = None, example_date: str | None = None,
                  shows: str | None = None) -> Result:
    """Every cell of `ref` keeps a number/date value (for the numeric kinds, a formula showing a number counts)
    and has a number format of `kind` with the given traits.

    `kind` is currency (with `symbol`), percent, number (plain) or date; `decimals` and `thousands` (a
    thousands separator) apply to the numeric kinds. A date format must show `example_date` (ISO) as the
    text `shows`. Codes are compared by what they display, so `[$$-409]#,##0.00` and `"$"#,##0.00` agree."""
    ws = state.sheet(path, sheet)
    bad: list[str] = []
    codes: set[str] = set()
    for r, c in sorted(cells_of(ref), key=lambda rc: (rc[1], rc[0])):
        cell = ws.cell(r, c)
        value, code = cell.value, cell.number_format
        codes.add(code)
        name = f"{cell.column_letter}{r}"
        if cell.data_type == "f" and kind != "date":  # a formula's number shows in the cell's format too
            try:
                value = _formula_result(state, path, sheet, name)
            except FormulaError as exc:
                bad.append(f"{name}: {exc}")
                continue
        is_number = isinstance(value, int | float | dt.date) and not isinstance(value, bool)
        if kind != "date" and isinstance(value, dt.date):
            is_number = False
        if not is_number:
            bad.append(f"{name} holds {cell_text(value)!r} (not a {'date' if kind == 'date' else 'number'})")
            continue
        problem = _format_problem(parse_format(code), code, kind, decimals, thousands, symbol, example_date, shows)
        if problem:
            bad.append(f"{name}: {problem}")
    total = len(cells_of(ref))
    if bad:
        return fail(f"{sheet}!{ref}: {len(bad)} of {total} cells wrong: {'; '.join(bad[:3])}")
    return ok(f"{sheet}!{ref}: all {total} cells formatted as {kind} ({', '.join(sorted(codes))})")


# --- data validation ---------------------------------------------------------------------------------

_A1 = r"\$?[A-Za-z]{1,3}\$?\d+"
_REF_FORMULA = re.compile(rf"^(?:(?:'((?:[^']|'')+)'|([A-Za-z0-9_.]+))!)?({_A1}(?::{_A1})?)$")


def list_items(state: State, path: str, sheet: str, formula: str | None) -> list[str] | None:
    """The allowed values of a list validation: a quoted "a,b,c" literal or a cell range's non-empty values."""
    if formula is None:
        return None
    text = str(formula).strip().lstrip("=")
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        return [item.strip() for item in text[1:-1].replace('""', '"').split(",") if item.strip()]
    m = _REF_FORMULA.match(text)
    if m:
        name = (m.group(1) or "").replace("''", "'") or m.group(2) or sheet
        wb = state.workbook(path)
        if name not in wb.sheetnames:
            return None
        ws = wb[name]
        items = []
        for r, c in sorted(cells_of(m.group(3)), key=lambda rc: (rc[1], rc[0])):
            value = cell_text(ws.cell(r, c).value).strip()
            if value:
                items.append(value)
        return items
    return None


def rejects_others(dv: Any) -> bool:
    """Does typing a value outside the rule get refused? Only with the error alert on and of style stop (the
    default style); with it off or set to warning/information, Calc and Excel keep what was typed."""
    return bool(dv.showErrorMessage) and (dv.errorStyle or "stop") == "stop"


def _validation_text(dv: Any) -> str:
    parts = [f"{dv.sqref}: {dv.type or 'any'}"]
    if dv.type in ("whole", "decimal", "date", "textLength", "time"):
        parts.append(dv.operator or "between")
    parts += [str(f) for f in (dv.formula1, dv.formula2) if f is not None]
    return " ".join(parts)


@primitive("xlsx.data_validation", grounded=("path", "sheet", "ref", "kind", "operator", "items", "minimum", "maximum"),
           meaning=Meaning(action=r"validat|validity|restrict|allow|limit",
                           args={"kind": Said("validation"), "operator": Said("compare")}))
def data_validation(state: State, path: str, sheet: str, ref: str, kind: str, operator: str | None = None,
                    items: list[str] | None = None, minimum: float | None = None,
                    maximum: float | None = None, column: bool = False) -> Result:
    """Every cell of `ref` is covered by a data validation of type `kind` with the asked items or bounds, which
    refuses any other value (`rejects_others`: its error alert on, style stop); with `column` (the instruction
    named the column, not the range) the validation may also cover the rest of `ref`'s columns.

    `kind` list: the allowed values equal `items` as a set (a quoted literal list or a cell range source).
    `kind` whole/decimal: `operator` (between, greaterThan, ...) with `minimum`/`maximum` as its operands,
    compared numerically (an absent operator means between, as in the xlsx spec)."""
    ws = state.sheet(path, sheet)
    want = cells_of(ref)
    validations = list(ws.data_validations.dataValidation) if ws.data_validations else []
    if not validations:
        return fail(f"{sheet} has no data validation")
    covered: set[Cell] = set()
    notes: list[str] = []
    strays: list[str] = []  # validations that are not the asked one: the sheet had none, so each is an addition
    for dv in validations:
        if dv.type != kind:
            strays.append(_validation_text(dv))
            continue
        if kind == "list":
            got = list_items(state, path, sheet, dv.formula1)
            if got is None or sorted(set(got)) != sorted(set(items or [])):
                missing = sorted(set(items or []) - set(got or []))
                extra = sorted(set(got or []) - set(items or []))
                notes.append(f"{dv.sqref} lists {got!r} (missing {missing}, extra {extra})")
                strays.append(_validation_text(dv))
                continue
        else:
            op = dv.operator or "between"
            bounds = [b for b in (minimum, maximum) if b is not None]
            got_vals = [_value_of(state, path, sheet, f) for f in (dv.formula1, dv.formula2)][:len(bounds)]
            if op != (operator or "between") or not all(
                    _numbers_equal(g, float(b)) for g, b in zip(got_vals, bounds, strict=True)):
                notes.append(f"{dv.sqref}: {op} {' '.join(_fmt_num(v) for v in got_vals)}")
                strays.append(_validation_text(dv))
                continue
        if not rejects_others(dv):  # effects, not configuration: a rule whose alert is off refuses nothing
            notes.append(f"{dv.sqref} accepts any value: its error alert is off or only warns")
            strays.append(_validation_text(dv))
            continue
        try:
            covered |= cells_of(str(dv.sqref))
        except ValueError:
            continue
    seen = "; ".join(_validation_text(dv) for dv in validations[:5])
    if not covered:
        why = f" ({'; '.join(notes[:3])})" if notes else ""
        return fail(f"{sheet}: no {kind} validation with the asked {'items' if kind == 'list' else 'bounds'}"
                    f"{why}; validations seen: {seen}")
    uncovered = want - covered
    if uncovered:
        return fail(f"{sheet}: the matching {kind} validation does not cover {describe_cells(uncovered)}; "
                    f"validations seen: {seen}")
    beyond = _beyond(covered - want, want, column)
    if beyond or strays:
        extra = ([f"the rule also covers {describe_cells(beyond)}"] if beyond else []) + strays[:3]
        return fail(f"{sheet}: every cell of {ref} has the {kind} validation, but also: {'; '.join(extra)}")
    return ok(f"{sheet}: every cell of {ref} has the {kind} validation ({seen})")


# --- cell styles -------------------------------------------------------------------------------------

@primitive("xlsx.cell_style", grounded=("path", "sheet", "ref", "bold", "fill", "size"),
           meaning=Meaning(action=r"bold|fill|font|size|colou?r|background|format|style",
                           args={"bold": Said("emphasis", when("bold"))}))
def cell_style(state: State, path: str, sheet: str, ref: str, bold: bool | None = None, fill: str | None = None,
               size: float | None = None, bold_before: str | None = None) -> Result:
    """Every cell of `ref` is bold (`bold`), has a solid `fill` background (RGB) and/or a font of `size` pt.

    With `bold_before` (the range that was bold initially, "" for none) the asked bold or fill must also stay
    inside `ref`: every other cell of the sheet keeps its initial boldness and has no fill, so styling more
    than the target (a neighbor column, the whole sheet) fails."""
    ws = state.sheet(path, sheet)
    bad: list[str] = []
    cells = sorted(cells_of(ref), key=lambda rc: (rc[0], rc[1]))
    if bold_before is not None:
        inside, was_bold = set(cells), cells_of(bold_before) if bold_before else set()
        for row in ws.iter_rows():
            for cell in row:
                at = (cell.row, cell.column)
                if at in inside:
                    continue
                if bold is not None and bool(cell.font.b) != (at in was_bold):
                    bad.append(f"{cell.coordinate} outside {ref} is {'not ' if at in was_bold else ''}bold")
                if fill is not None and fill_color(cell) is not None:
                    bad.append(f"{cell.coordinate} outside {ref} has fill {fill_color(cell)}")
    for r, c in cells:
        cell = ws.cell(r, c)
        name = f"{get_column_letter(c)}{r}"
        if bold is not None and bool(cell.font.b) != bold:
            bad.append(f"{name} is {'not ' if bold else ''}bold")
        if fill is not None:
            got = fill_color(cell)
            if got != norm_color(fill):
                bad.append(f"{name} fill is {got or 'none'}")
        if size is not None:
            got_size = numeric(cell.font.sz)
            if got_size is None or abs(got_size - float(size)) > 0.01:
                bad.append(f"{name} font size is {_fmt_num(got_size)}")
    wanted = ", ".join(w for w in (("bold" if bold else "not bold") if bold is not None else "",
                                    f"fill {norm_color(fill)}" if fill is not None else "",
                                    f"{_fmt_num(size)} pt" if size is not None else "") if w)
    if bad:
        return fail(f"{sheet}!{ref}: {len(bad)} problems for {wanted}: {'; '.join(bad[:4])}")
    return ok(f"{sheet}!{ref}: all {len(cells)} cells {wanted}")
