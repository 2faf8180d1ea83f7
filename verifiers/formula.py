"""Safe evaluator for spreadsheet formulas as stored in xlsx cells by openpyxl/LibreOffice.

openpyxl never computes formulas, so a workbook written by a script has no cached
values; rubric checks use :func:`evaluate` to compute a formula cell's value, and
:func:`referenced_ranges` / :func:`function_names` to inspect what a formula uses.

Scope is deliberately small: number/string/boolean literals, A1-style cell and range
references (optionally ``$``-anchored and sheet-qualified, e.g. ``'My Sheet'!A1:B3``),
the operators ``^ * / + - & = <> < <= > >=`` and postfix ``%`` with Excel precedence
(unary minus binds tighter than ``^``, so ``-2^2 = 4``), and the functions in
``_ARITY``. Whole-column ranges (``Codes!A:B``) are read down to row ``_WHOLE_ROWS``. Defined names, error
literals and array formulas raise :class:`FormulaError` rather than being guessed at. Nothing is passed to
eval/exec: text goes tokenizer -> recursive-descent parser (frozen dataclass AST) ->
tree-walking evaluator. Referenced cells holding formulas are evaluated recursively
(memoised, with cycle and depth protection).

Semantics follow Excel: a blank cell is 0 in arithmetic and "" in ``&``; a formula
whose result is a blank cell yields 0.0; dates/datetimes are serial numbers (days
since 1899-12-30); aggregates skip text, booleans and blanks found in references but
count literal arguments; ROUND rounds half away from zero on the float's shortest
decimal repr (ROUND(1.005, 2) = 1.01). Numbers are always returned as float.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import operator
import re
import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, localcontext
from typing import Any

Lookup = Callable[[str | None, str], Any]
Scalar = float | str | bool | None


class FormulaError(ValueError):
    """Raised for syntax errors, unsupported functions, bad refs; message names the formula and problem."""


class _Problem(Exception):
    """Internal error carrying just the problem; public functions wrap it into FormulaError."""


# --------------------------------------------------------------------------- tokenizer

_CELL = r"\$?[A-Za-z]{1,3}\$?[0-9]+"
_PREFIX = re.compile(r"^(?:_xlfn\.|_xlws\.|of:)+", re.IGNORECASE)
_TOKEN_RE = re.compile(
    "|".join(
        [
            r"(?P<ws>\s+)",
            r'(?P<str>"(?:[^"]|"")*")',
            r"(?P<cols>(?:(?P<csheet>'(?:[^']|'')+'|[A-Za-z0-9_][\w.]*)!)?\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3})(?![\w.(!])",
            rf"(?P<ref>(?:(?P<sheet>'(?:[^']|'')+'|[A-Za-z0-9_][\w.]*)!)?{_CELL}(?::{_CELL})?)(?![\w.(!])",
            r"(?P<num>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)",
            r"(?P<func>(?:_xlfn\.|_xlws\.|of:)*[A-Za-z_][\w.]*)(?=\s*\()",
            r"(?P<name>[A-Za-z_][\w.]*)",
            r"(?P<op><=|>=|<>|[-+*/^&=<>%(),;])",
        ]
    )
)
_NUMBER_TEXT = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")
_MAX_ROW, _MAX_COL, _MAX_CELLS = 1_048_576, 16_384, 100_000
#: How far down a whole-column reference (`Codes!A:B`, as a lookup's table often is) is read: the tables a check
#: meets are far shorter, and reading a million rows per evaluation would make the checks a denial of service.
_WHOLE_ROWS = 10_000
#: How many whole columns one range of a checked formula may span (`$B:$E`); a check's per-range cell limit does
#: not apply to these.
_WHOLE_COLUMNS = 4


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    pos: int
    sheet: str | None = None


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise _Problem(f"unexpected character {text[pos]!r} at position {pos}")
        kind = "ref" if m["ref"] else "cols" if m["cols"] else m.lastgroup or ""
        if kind == "cols":  # a whole-column range: rows 1.._WHOLE_ROWS
            sheet = m["csheet"]
            if sheet and sheet.startswith("'"):
                sheet = sheet[1:-1].replace("''", "'")
            first, last = m["cols"].rpartition("!")[2].replace("$", "").split(":")
            tokens.append(_Token("ref", f"{first}1:{last}{_WHOLE_ROWS}", pos, sheet))
        elif kind == "ref":  # split off the sheet name, unquoting 'It''s'
            sheet = m["sheet"]
            if sheet and sheet.startswith("'"):
                sheet = sheet[1:-1].replace("''", "'")
            tokens.append(_Token(kind, m["ref"].rpartition("!")[2], pos, sheet))
        elif kind != "ws":
            tokens.append(_Token(kind, m[0], pos))
        pos = m.end()
    return tokens


# --------------------------------------------------------------------------- AST + parser


@dataclass(frozen=True)
class Literal:
    value: Scalar


@dataclass(frozen=True)
class Ref:
    sheet: str | None
    start: str  # normalised: upper-case, no "$"
    end: str | None = None

    @property
    def text(self) -> str:
        return f"{self.start}:{self.end}" if self.end else self.start


@dataclass(frozen=True)
class Unary:
    op: str  # "+", "-" or "%"
    operand: Node


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Call:
    name: str  # upper-case, namespace prefix stripped
    args: tuple[Node, ...]


Node = Literal | Ref | Unary | Binary | Call

# Binary operator levels, loosest first; all left-associative (Excel: 2^3^2 = 64).
_LEVELS = (("=", "<>", "<", "<=", ">", ">="), ("&",), ("+", "-"), ("*", "/"), ("^",))


@functools.lru_cache(maxsize=4096)
def _split_cell(coord: str) -> tuple[int, int]:
    """'B7' -> (row 7, column 2); validates against Excel's sheet limits. Cached: every evaluation of a task's
    formulas (each control, each mutant, each perturbed input) splits the same few references."""
    m = re.fullmatch(r"([A-Z]{1,3})([0-9]+)", coord)
    if m is None:
        raise _Problem(f"bad cell reference {coord!r}")
    col = 0
    for ch in m[1]:
        col = col * 26 + ord(ch) - 64
    row = int(m[2])
    if not (1 <= row <= _MAX_ROW and col <= _MAX_COL):
        raise _Problem(f"cell reference {coord!r} is outside the sheet")
    return row, col


def _col_letters(col: int) -> str:
    letters = ""
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def parse(self) -> Node:
        node = self.binary(0)
        if self.i < len(self.tokens):
            tok = self.tokens[self.i]
            raise _Problem(f"unexpected {tok.text!r} at position {tok.pos}")
        return node

    def peek_op(self, *ops: str) -> bool:
        tok = self.tokens[self.i] if self.i < len(self.tokens) else None
        return tok is not None and tok.kind == "op" and tok.text in ops

    def take_op(self, *ops: str) -> str | None:
        if not self.peek_op(*ops):
            return None
        self.i += 1
        return self.tokens[self.i - 1].text

    def expect(self, op: str) -> None:
        if self.take_op(op) is None:
            found = repr(self.tokens[self.i].text) if self.i < len(self.tokens) else "end of formula"
            raise _Problem(f"expected {op!r} but found {found}")

    def binary(self, level: int) -> Node:
        if level == len(_LEVELS):
            return self.unary()
        node = self.binary(level + 1)
        while (op := self.take_op(*_LEVELS[level])) is not None:
            node = Binary(op, node, self.binary(level + 1))
        return node

    def unary(self) -> Node:
        if (op := self.take_op("+", "-")) is not None:
            return Unary(op, self.unary())
        node = self.primary()
        while self.take_op("%"):
            node = Unary("%", node)
        return node

    def primary(self) -> Node:
        if self.i >= len(self.tokens):
            raise _Problem("unexpected end of formula")
        tok = self.tokens[self.i]
        self.i += 1
        if tok.kind == "num":
            return Literal(float(tok.text))
        if tok.kind == "str":
            return Literal(tok.text[1:-1].replace('""', '"'))
        if tok.kind == "name" and tok.text.upper() in ("TRUE", "FALSE"):
            return Literal(tok.text.upper() == "TRUE")
        if tok.kind == "name":
            raise _Problem(f"unknown name {tok.text!r}")
        if tok.kind == "ref":
            start, _, end = tok.text.replace("$", "").upper().partition(":")
            for coord in (start, end or start):
                _split_cell(coord)
            return Ref(tok.sheet, start, end or None)
        if tok.kind == "func":
            self.expect("(")
            args: list[Node] = []
            if not self.take_op(")"):
                while True:  # an empty argument (e.g. IF(x,,1)) is a blank
                    blank = self.peek_op(",", ";", ")")
                    args.append(Literal(None) if blank else self.binary(0))
                    if self.take_op(")"):
                        break
                    if not self.take_op(",", ";"):
                        self.expect(")")
            return Call(_PREFIX.sub("", tok.text).upper(), tuple(args))
        if tok.text == "(":
            node = self.binary(0)
            self.expect(")")
            return node
        raise _Problem(f"unexpected {tok.text!r} at position {tok.pos}")


@functools.lru_cache(maxsize=4096)
def _parse(formula: str) -> Node:
    """The AST of `formula` (cached: the same formulas are parsed for every control, mutant and test input;
    the tree is immutable, so sharing it is safe)."""
    text = formula.strip()
    text = text[1:] if text.startswith("=") else text
    if not text.strip():
        raise _Problem("empty formula")
    return _Parser(_tokenize(text)).parse()


# --------------------------------------------------------------------------- value helpers

_EPOCH = dt.datetime(1899, 12, 30)
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "<>": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def _parse_number(text: str) -> float | None:
    return float(text) if _NUMBER_TEXT.fullmatch(text) else None


def _cell_value(raw: Any) -> Scalar:
    """Normalise a looked-up (non-formula) cell value; dates become Excel serials."""
    if raw is None or isinstance(raw, (bool, str)):
        return raw
    if isinstance(raw, dt.datetime):
        return (raw.replace(tzinfo=None) - _EPOCH).total_seconds() / 86400
    if isinstance(raw, dt.date):
        return float((raw - _EPOCH.date()).days)
    if isinstance(raw, dt.time):
        return (raw.hour * 3600 + raw.minute * 60 + raw.second + raw.microsecond / 1e6) / 86400
    if isinstance(raw, dt.timedelta):
        return raw.total_seconds() / 86400
    if isinstance(raw, (int, float, Decimal)):
        return float(raw)
    raise _Problem(f"unsupported cell value {raw!r}")


def _to_number(v: Scalar) -> float:
    if v is None or isinstance(v, bool):
        return float(bool(v))
    if isinstance(v, float):
        return v
    number = _parse_number(v)
    if number is None:
        raise _Problem(f"text {v!r} used as a number")
    return number


def _to_text(v: Scalar) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else format(v, ".15g").upper()
    return v


def _to_bool(v: Scalar) -> bool:
    if isinstance(v, str):
        if v.upper() not in ("TRUE", "FALSE"):
            raise _Problem(f"text {v!r} used as a logical value")
        return v.upper() == "TRUE"
    return bool(v)


def _compare(op: str, a: Scalar, b: Scalar) -> bool:
    """Excel ordering: numbers < text < booleans; text case-insensitive; blank adopts the other type."""
    blank: dict[type, Scalar] = {bool: False, str: ""}
    a = blank.get(type(b), 0.0) if a is None else a
    b = blank.get(type(a), 0.0) if b is None else b
    rank_a, rank_b = (2 if isinstance(x, bool) else 1 if isinstance(x, str) else 0 for x in (a, b))
    if rank_a != rank_b:
        return _COMPARE[op](rank_a, rank_b)
    if isinstance(a, str) and isinstance(b, str):
        return _COMPARE[op](a.casefold(), b.casefold())
    return _COMPARE[op](a, b)


def _wildcard(text: str) -> re.Pattern[str]:
    """Excel text pattern: * any run, ? one character, ~ escapes the next character."""
    special = {"*": ".*", "?": "."}
    parts = [re.escape(m[1]) if m[1] is not None else special.get(m[0], re.escape(m[0]))
             for m in re.finditer(r"~(.)|[*?]|[^~*?]+|~", text, re.DOTALL)]
    return re.compile("".join(parts), re.IGNORECASE | re.DOTALL)


def _criterion(crit: Scalar) -> Callable[[Scalar], bool]:
    """COUNTIF-style criterion: 5, ">50", "<>East", "East", "Ea*", "" (blank)."""
    if isinstance(crit, (bool, float)):
        return lambda v: type(v) is type(crit) and v == crit
    text = crit or ""
    op = next((o for o in ("<=", ">=", "<>", "<", ">", "=") if text.startswith(o)), "")
    operand = text[len(op):]
    cmp = _COMPARE[op or "="]
    number = _parse_number(operand)
    if number is None and re.fullmatch(r"\d{4}-\d{2}-\d{2}", operand):  # ISO date criterion
        number = float((dt.date.fromisoformat(operand) - _EPOCH.date()).days)
    if number is not None:
        return lambda v: cmp(v, number) if type(v) is float else op == "<>"
    if operand.upper() in ("TRUE", "FALSE"):
        flag = operand.upper() == "TRUE"
        return lambda v: cmp(v, flag) if isinstance(v, bool) else op == "<>"
    if op in ("", "=", "<>"):
        if operand == "":
            return lambda v: (v is None or v == "") != (op == "<>")
        pattern = _wildcard(operand)
        return lambda v: (isinstance(v, str) and pattern.fullmatch(v) is not None) != (op == "<>")
    folded = operand.casefold()
    return lambda v: isinstance(v, str) and cmp(v.casefold(), folded)


def _round(x: float, digits: float, mode: str) -> float:
    places = max(-330, min(330, int(digits)))  # Excel truncates the digits argument
    with localcontext() as ctx:
        ctx.prec = 700
        return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=mode))


def _proper(text: str) -> str:
    """PROPER: a letter after a non-letter (or at the start) upper-case, every other letter lower-case
    ("o'neil-SMITH" -> "O'Neil-Smith")."""
    out, after_letter = [], False
    for ch in text:
        out.append((ch.lower() if after_letter else ch.upper()) if ch.isalpha() else ch)
        after_letter = ch.isalpha()
    return "".join(out)


def _count_arg(values: list[Scalar], index: int, name: str, least: int = 0) -> int:
    """LEFT / RIGHT / MID's character counts and positions: 1 when left out, truncated, at least `least`."""
    number = int(_to_number(values[index])) if index < len(values) else 1
    if number < least:
        raise _Problem(f"{name} got {number}, but its argument {index + 1} must be at least {least}")
    return number


def _right(text: str, count: int) -> str:
    return text[len(text) - count:] if count else ""


def _mid(text: str, start: int, count: int) -> str:
    return text[start:start + count]


def _joined(name: str, args: list[Value]) -> str:
    """CONCAT(text, ...) and TEXTJOIN(delimiter, ignore_empty, text, ...): ranges give their cells row by row."""
    def texts(items: list[Value]) -> list[str]:
        return [_to_text(v) for item in items for v in (item.values if isinstance(item, _Range) else (item,))]
    if name == "CONCAT":
        joined = "".join(texts(args))
    else:
        delimiter = "".join(texts([args[0]]))
        parts = texts(args[2:])
        if _to_bool(_single(args[1], name)):
            parts = [p for p in parts if p != ""]
        joined = delimiter.join(parts)
    if len(joined) > 32767:  # Excel's cell limit; also bounds what a hostile workbook can make us build
        raise _Problem(f"{name} result is longer than 32767 characters")
    return joined


def _range(v: Value, name: str, which: str) -> _Range:
    if not isinstance(v, _Range):
        raise _Problem(f"{name} needs a cell range as its {which}")
    return v


def _position(name: str, value: Scalar, keys: tuple[Scalar, ...], exact: bool) -> int:
    """The 0-based position of `value` among `keys`: the first equal one (text ignoring case), or with `exact` off
    the last key not above it, which is only defined on ascending keys (an unsorted list is refused, not guessed)."""
    if value is None or value == "":
        raise _Problem(f"{name} looks up an empty value")
    if exact:
        for i, key in enumerate(keys):
            if key is not None and type(key) is type(value) and _compare("=", key, value):
                return i
        raise _Problem(f"{name} finds no {_to_text(value)!r}")
    present = [k for k in keys if k is not None]
    if any(_compare(">", a, b) for a, b in zip(present, present[1:], strict=False)):
        raise _Problem(f"{name} with an approximate match on unsorted keys (pass FALSE or 0 for an exact match)")
    found = -1
    for i, key in enumerate(keys):
        if key is not None and _compare("<=", key, value):
            found = i
    if found < 0:
        raise _Problem(f"{name} finds nothing up to {_to_text(value)!r}")
    return found


def _looked_up(name: str, args: list[Value]) -> Scalar:
    """VLOOKUP(value, table, column, [approximate]), MATCH(value, range, [type 1 / 0]), INDEX(range, row, [column])
    and XLOOKUP(value, keys, results, [if not found]): exact matches compare text ignoring case, as Calc does."""
    if name == "INDEX":
        table = _range(args[0], name, "first argument")
        row = int(_to_number(_single(args[1], name)))
        col = int(_to_number(_single(args[2], name))) if len(args) > 2 and args[2] is not None else 1
        if table.rows == 1 and len(args) == 2:  # INDEX(row range, n) counts along the row
            row, col = 1, row
        if not (1 <= row <= table.rows and 1 <= col <= table.cols):
            raise _Problem(f"INDEX position ({row}, {col}) is outside its {table.rows}x{table.cols} range")
        return table.values[(row - 1) * table.cols + col - 1]
    value = _single(args[0], name)
    if name == "XLOOKUP":
        keys, results = _range(args[1], name, "second argument"), _range(args[2], name, "third argument")
        if len(keys.values) != len(results.values) or 1 not in (keys.rows, keys.cols):
            raise _Problem("XLOOKUP needs a key row or column and a result range of the same size")
        try:
            return results.values[_position(name, value, keys.values, exact=True)]
        except _Problem:
            if len(args) > 3:
                return _single(args[3], name)
            raise
    if name == "MATCH":
        keys = _range(args[1], name, "second argument")
        kind = _to_number(_single(args[2], name)) if len(args) > 2 and args[2] is not None else 1.0
        if kind not in (0.0, 1.0):
            raise _Problem(f"MATCH type {_to_text(kind)} is not supported (use 0 or 1)")
        if 1 not in (keys.rows, keys.cols):
            raise _Problem("MATCH needs one row or one column")
        return float(_position(name, value, keys.values, exact=kind == 0.0) + 1)
    table = _range(args[1], name, "second argument")
    col = int(_to_number(_single(args[2], name)))
    if not 1 <= col <= table.cols:
        raise _Problem(f"VLOOKUP column {col} is outside its {table.cols}-column table")
    approximate = _to_bool(_single(args[3], name)) if len(args) > 3 and args[3] is not None else True
    firsts = table.values[::table.cols]
    row = _position(name, value, firsts, exact=not approximate)
    return table.values[row * table.cols + col - 1]


_MIN_SERIAL, _MAX_SERIAL = 1.0, 2958465.0  # 1900-01-01 .. 9999-12-31


def _serial_date(v: Scalar) -> dt.date:
    """The date of serial `v` (its day; the time of day is dropped)."""
    serial = _to_number(v)
    if not _MIN_SERIAL <= serial <= _MAX_SERIAL:
        raise _Problem(f"{_to_text(v)} is not a date serial")
    return _EPOCH.date() + dt.timedelta(days=math.floor(serial))


def _serial(day: dt.date) -> float:
    return float((day - _EPOCH.date()).days)


def _date_serial(year: Scalar, month: Scalar, day: Scalar) -> float:
    """DATE(year, month, day): months and days out of range roll over, as in Excel."""
    y, m, d = int(_to_number(year)), int(_to_number(month)), int(_to_number(day))
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        raise _Problem(f"DATE year {y} is outside 1900..9999")
    serial = _serial(dt.date(y, m, 1)) + d - 1
    if not _MIN_SERIAL <= serial <= _MAX_SERIAL:
        raise _Problem("DATE result is outside the calendar")
    return serial


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    if not 1900 <= year <= 9999:
        raise _Problem(f"EDATE result year {year} is outside 1900..9999")
    last = (dt.date(year + (month == 11), (month + 1) % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month + 1, min(day.day, last))


def _edate(start: Scalar, months: Scalar) -> float:
    """EDATE(start, months): the same day `months` later (the month's last day when it is shorter)."""
    return _serial(_add_months(_serial_date(start), int(_to_number(months))))


def _datedif(start: Scalar, end: Scalar, unit: Scalar) -> float:
    """DATEDIF(start, end, "D" | "M" | "Y"): whole days, months or years from start to end (start <= end)."""
    first, last = _serial_date(start), _serial_date(end)
    if first > last:
        raise _Problem("DATEDIF start date is after its end date")
    kind = _to_text(unit).upper()
    if kind == "D":
        return float((last - first).days)
    months = (last.year - first.year) * 12 + last.month - first.month - (last.day < first.day)
    if kind == "M":
        return float(months)
    if kind == "Y":
        return float(months // 12)
    raise _Problem(f"DATEDIF unit {_to_text(unit)!r} is not supported (use \"D\", \"M\" or \"Y\")")


def _rank(name: str, args: list[Value]) -> float:
    """RANK(number, ref, [order]) and RANK.EQ: 1 + how many numbers of `ref` are larger (order 0 or left out) or
    smaller (any other order) than `number`; tied numbers share a rank. #N/A when `number` is not in `ref`."""
    number = _to_number(_single(args[0], name))
    if not isinstance(args[1], _Range):
        raise _Problem(f"{name} needs a cell range as its second argument")
    ascending = len(args) > 2 and args[2] is not None and _to_number(_single(args[2], name)) != 0
    numbers = [v for v in args[1].values if type(v) is float]
    if number not in numbers:
        raise _Problem(f"{name}: {_to_text(number)} is not among the ranked numbers (#N/A)")
    return float(1 + sum(1 for v in numbers if (v < number if ascending else v > number)))


def _networkdays(args: list[Value]) -> float:
    """NETWORKDAYS(start, end, [holidays]): the Monday-to-Friday days from start to end, both counted, less the
    holidays among them; negative when end is before start."""
    first, last = (_serial_date(_single(a, "NETWORKDAYS")) for a in args[:2])
    sign = 1.0
    if last < first:
        first, last, sign = last, first, -1.0
    holidays: set[dt.date] = set()
    if len(args) > 2 and args[2] is not None:
        values = args[2].values if isinstance(args[2], _Range) else (args[2],)
        holidays = {_serial_date(v) for v in values if v is not None and v != ""}
    span = (last - first).days + 1
    if span > 200_000:
        raise _Problem("NETWORKDAYS spans too many days")
    weeks, rest = divmod(span, 7)
    count = weeks * 5 + sum(1 for i in range(rest) if (first + dt.timedelta(days=weeks * 7 + i)).weekday() < 5)
    count -= sum(1 for h in holidays if first <= h <= last and h.weekday() < 5)
    return sign * count


# --------------------------------------------------------------------------- evaluator

_ARITY: dict[str, tuple[int, int | None]] = {
    **dict.fromkeys(("SUM", "AVERAGE", "MIN", "MAX", "COUNT", "COUNTA", "MEDIAN", "PRODUCT"), (1, None)),
    **dict.fromkeys(("AND", "OR", "CONCATENATE"), (1, None)),
    **dict.fromkeys(("ABS", "INT", "NOT", "LEN", "UPPER", "LOWER", "PROPER", "TRIM"), (1, 1)),
    **dict.fromkeys(("YEAR", "MONTH", "DAY"), (1, 1)),
    "CONCAT": (1, None), "TEXTJOIN": (3, None), "LEFT": (1, 2), "RIGHT": (1, 2), "MID": (3, 3),
    "EDATE": (2, 2), "DATEDIF": (3, 3), "DATE": (3, 3),
    "VLOOKUP": (3, 4), "MATCH": (2, 3), "INDEX": (2, 3), "XLOOKUP": (3, 4),
    **dict.fromkeys(("ROUND", "ROUNDUP", "ROUNDDOWN"), (1, 2)),
    **dict.fromkeys(("SUMIF", "AVERAGEIF"), (2, 3)),
    "COUNTIF": (2, 2), "IF": (1, 3), "TRUE": (0, 0), "FALSE": (0, 0),
    **dict.fromkeys(("RANK", "RANK.EQ"), (2, 3)), "NETWORKDAYS": (2, 3),
}
_ARITHMETIC: dict[str, Callable[[float, float], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "^": operator.pow,
}
_ROUNDING = {"ROUND": ROUND_HALF_UP, "ROUNDUP": ROUND_UP, "ROUNDDOWN": ROUND_DOWN}


@dataclass(frozen=True)
class _Range:
    """Values of a reference (row-major) plus its position, for SUMIF's sum_range resizing."""

    sheet: str | None
    top: int
    left: int
    rows: int
    cols: int
    values: tuple[Scalar, ...]


Value = Scalar | _Range


def _single(v: Value, name: str) -> Scalar:
    if not isinstance(v, _Range):
        return v
    if len(v.values) != 1:
        raise _Problem(f"{name} got a {v.rows}x{v.cols} range where a single value is expected")
    return v.values[0]


def _numbers(args: list[Value]) -> list[float]:
    """Numbers for aggregates: references contribute only numeric cells, literals are coerced."""
    out: list[float] = []
    for arg in args:
        if isinstance(arg, _Range):
            out.extend(v for v in arg.values if type(v) is float)
        elif arg is not None:
            out.append(_to_number(arg))
    return out


def _count(args: list[Value], non_empty: bool) -> float:
    total = 0
    for arg in args:
        values = arg.values if isinstance(arg, _Range) else (arg,)
        for v in values:
            if non_empty:
                total += v is not None
            elif isinstance(arg, _Range):
                total += type(v) is float
            else:
                total += isinstance(v, (float, bool)) or (isinstance(v, str) and _parse_number(v) is not None)
    return float(total)


def _logicals(args: list[Value], name: str) -> list[bool]:
    out: list[bool] = []
    for arg in args:
        if isinstance(arg, _Range):
            out.extend(bool(v) for v in arg.values if isinstance(v, (bool, float)))
        elif arg is not None:
            out.append(_to_bool(arg))
    if not out:
        raise _Problem(f"{name} got no logical values")
    return out


class _Evaluator:
    def __init__(self, lookup: Lookup, max_depth: int) -> None:
        self.lookup = lookup
        self.max_depth = max_depth
        self.active: list[tuple[str | None, str]] = []  # formula cells being evaluated
        self.cache: dict[tuple[str | None, str], Scalar] = {}

    def cell(self, sheet: str | None, coord: str) -> Scalar:
        key = (sheet.casefold() if sheet else None, coord)
        if key in self.cache:
            return self.cache[key]
        name = f"{sheet}!{coord}" if sheet else coord
        try:
            raw = self.lookup(sheet, coord)
        except (LookupError, ValueError) as exc:
            raise _Problem(f"cannot look up {name}: {exc!r}") from None
        if isinstance(raw, str) and raw.startswith("="):
            if key in self.active:
                raise _Problem(f"circular reference through {name}")
            if len(self.active) >= self.max_depth:
                raise _Problem(f"formulas nested deeper than {self.max_depth} at {name}")
            self.active.append(key)
            try:
                value = self.scalar(_parse(raw), sheet)
            except _Problem as exc:
                raise _Problem(f"{exc} (in {name}: {raw!r})") from None
            finally:
                self.active.pop()
            value = 0.0 if value is None else value  # a formula showing a blank cell shows 0
        else:
            value = _cell_value(raw)
        self.cache[key] = value
        return value

    def fetch(self, sheet: str | None, top: int, left: int, rows: int, cols: int) -> _Range:
        if rows * cols > _MAX_CELLS:
            raise _Problem(f"range of {rows * cols} cells is too large")
        values = tuple(self.cell(sheet, f"{_col_letters(c)}{r}")
                       for r in range(top, top + rows) for c in range(left, left + cols))
        return _Range(sheet, top, left, rows, cols, values)

    def scalar(self, node: Node, sheet: str | None) -> Scalar:
        return _single(self.node_value(node, sheet), "formula")

    def node_value(self, node: Node, sheet: str | None) -> Value:
        if isinstance(node, Literal):
            return node.value
        if isinstance(node, Ref):
            (r1, c1), (r2, c2) = _split_cell(node.start), _split_cell(node.end or node.start)
            top, left = min(r1, r2), min(c1, c2)
            return self.fetch(node.sheet or sheet, top, left, abs(r2 - r1) + 1, abs(c2 - c1) + 1)
        if isinstance(node, Unary):
            value = self.scalar(node.operand, sheet)
            if node.op == "+":
                return value
            return -_to_number(value) if node.op == "-" else _to_number(value) / 100
        if isinstance(node, Binary):
            return self.binary(node.op, self.scalar(node.left, sheet), self.scalar(node.right, sheet))
        return self.call(node, sheet)

    def binary(self, op: str, a: Scalar, b: Scalar) -> Scalar:
        if op in _COMPARE:
            return _compare(op, a, b)
        if op == "&":
            return _to_text(a) + _to_text(b)
        x, y = _to_number(a), _to_number(b)
        if (op == "/" and y == 0) or (op == "^" and x == 0 and y < 0):
            raise _Problem("division by zero")
        try:
            result: float | complex = _ARITHMETIC[op](x, y)
        except OverflowError:
            raise _Problem(f"numeric overflow in {op!r}") from None
        if isinstance(result, complex) or not math.isfinite(result):
            raise _Problem(f"invalid numeric result for {_to_text(x)}{op}{_to_text(y)}")
        return result

    def call(self, node: Call, sheet: str | None) -> Value:
        name, n = node.name, len(node.args)
        if name not in _ARITY:
            raise _Problem(f"unknown function {name!r}")
        low, high = _ARITY[name]
        if n < low or (high is not None and n > high):
            raise _Problem(f"{name} takes {low}..{high if high is not None else 'n'} arguments, got {n}")
        if name == "IF":  # lazy: only the chosen branch is evaluated
            if _to_bool(self.scalar(node.args[0], sheet)):
                return self.scalar(node.args[1], sheet) if n > 1 else True
            return self.scalar(node.args[2], sheet) if n > 2 else False
        args = [self.node_value(arg, sheet) for arg in node.args]
        if name in ("COUNTIF", "SUMIF", "AVERAGEIF"):
            return self.conditional(name, args)
        if name in ("COUNT", "COUNTA"):
            return _count(args, non_empty=name == "COUNTA")
        if name in ("CONCAT", "TEXTJOIN"):
            return _joined(name, args)
        if name in ("VLOOKUP", "MATCH", "INDEX", "XLOOKUP"):
            return _looked_up(name, args)
        if name in ("RANK", "RANK.EQ"):
            return _rank(name, args)
        if name == "NETWORKDAYS":
            return _networkdays(args)
        if name in ("AND", "OR"):
            return (all if name == "AND" else any)(_logicals(args, name))
        if name in ("SUM", "AVERAGE", "MIN", "MAX", "MEDIAN", "PRODUCT"):
            nums = _numbers(args)
            if name == "SUM":
                return math.fsum(nums)
            if name == "PRODUCT":
                return math.prod(nums) if nums else 0.0
            if name in ("MIN", "MAX"):
                return (min if name == "MIN" else max)(nums, default=0.0)
            if not nums:
                raise _Problem(f"division by zero: {name} of no numbers")
            return math.fsum(nums) / len(nums) if name == "AVERAGE" else float(statistics.median(nums))
        values = [_single(arg, name) for arg in args]
        if name in _ROUNDING:
            digits = _to_number(values[1]) if n > 1 else 0.0
            return _round(_to_number(values[0]), digits, _ROUNDING[name])
        simple: dict[str, Callable[[], Scalar]] = {
            "ABS": lambda: abs(_to_number(values[0])),
            "INT": lambda: float(math.floor(_to_number(values[0]))),
            "NOT": lambda: not _to_bool(values[0]),
            "LEN": lambda: float(len(_to_text(values[0]))),
            "UPPER": lambda: _to_text(values[0]).upper(),
            "LOWER": lambda: _to_text(values[0]).lower(),
            "CONCATENATE": lambda: "".join(_to_text(v) for v in values),
            "PROPER": lambda: _proper(_to_text(values[0])),
            "LEFT": lambda: _to_text(values[0])[:_count_arg(values, 1, name)],
            "RIGHT": lambda: _right(_to_text(values[0]), _count_arg(values, 1, name)),
            "MID": lambda: _mid(_to_text(values[0]), _count_arg(values, 1, name, 1) - 1,
                                _count_arg(values, 2, name)),
            "TRIM": lambda: re.sub(" +", " ", _to_text(values[0]).strip(" ")),
            "YEAR": lambda: float(_serial_date(values[0]).year),
            "MONTH": lambda: float(_serial_date(values[0]).month),
            "DAY": lambda: float(_serial_date(values[0]).day),
            "DATE": lambda: _date_serial(values[0], values[1], values[2]),
            "EDATE": lambda: _edate(values[0], values[1]),
            "DATEDIF": lambda: _datedif(values[0], values[1], values[2]),
            "TRUE": lambda: True,
            "FALSE": lambda: False,
        }
        return simple[name]()

    def conditional(self, name: str, args: list[Value]) -> float:
        rng = args[0]
        if not isinstance(rng, _Range):
            raise _Problem(f"{name} needs a cell range as its first argument")
        test = _criterion(_single(args[1], name))
        target = rng
        if len(args) == 3 and args[2] is not None:
            if not isinstance(args[2], _Range):
                raise _Problem(f"{name} needs a cell range as its third argument")
            target = args[2]
            if (target.rows, target.cols) != (rng.rows, rng.cols):  # Excel resizes from the top-left
                target = self.fetch(target.sheet, target.top, target.left, rng.rows, rng.cols)
        picked = [t for v, t in zip(rng.values, target.values, strict=True) if test(v)]
        if name == "COUNTIF":
            return float(len(picked))
        nums = [v for v in picked if type(v) is float]
        if name == "SUMIF":
            return math.fsum(nums)
        if not nums:
            raise _Problem("division by zero: AVERAGEIF matched no numbers")
        return math.fsum(nums) / len(nums)


# --------------------------------------------------------------------------- public API


def _walk(node: Node) -> Iterator[Node]:
    """Pre-order, left to right: source order for references and function names."""
    yield node
    if isinstance(node, Unary):
        yield from _walk(node.operand)
    elif isinstance(node, Binary):
        yield from _walk(node.left)
        yield from _walk(node.right)
    elif isinstance(node, Call):
        for arg in node.args:
            yield from _walk(arg)


def _parse_or_fail(formula: str) -> Node:
    try:
        return _parse(formula)
    except _Problem as exc:
        raise FormulaError(f"cannot parse {formula!r}: {exc}") from None
    except RecursionError:
        raise FormulaError(f"cannot parse {formula!r}: nested too deeply") from None


def evaluate(formula: str, lookup: Lookup, *, max_depth: int = 50) -> float | str | bool | None:
    """Evaluate `formula` (with or without leading '='). Referenced cells whose value is itself a formula
    string are evaluated recursively through the same lookup (depth-limited: raise FormulaError on
    cycles/too deep)."""
    node = _parse_or_fail(formula)
    try:
        value = _Evaluator(lookup, max_depth).scalar(node, None)
    except _Problem as exc:
        raise FormulaError(f"cannot evaluate {formula!r}: {exc}") from None
    except RecursionError:
        raise FormulaError(f"cannot evaluate {formula!r}: nested too deeply") from None
    return 0.0 if value is None else value


def referenced_ranges(formula: str) -> list[tuple[str | None, str]]:
    """The (sheet, "A2:A9" or "B3") references appearing in the formula, in order ("$" removed)."""
    return [(n.sheet, n.text) for n in _walk(_parse_or_fail(formula)) if isinstance(n, Ref)]


def function_names(formula: str) -> list[str]:
    """Upper-case function names called in the formula, in order of appearance (e.g. ['ROUND', 'SUM'])."""
    return [n.name for n in _walk(_parse_or_fail(formula)) if isinstance(n, Call)]


def _inputs(formulas: tuple[str, ...], lookup: Lookup, limit: int,
            holds: Callable[[Any], bool]) -> list[tuple[str | None, str]]:
    """The cells referenced by any of `formulas` whose value `holds` accepts, in reference order."""
    found: dict[tuple[str | None, str], None] = {}
    for formula in formulas:
        for sheet, ref in referenced_ranges(formula):
            top, left = _split_cell(ref.split(":")[0])
            bottom, right = _split_cell(ref.split(":")[-1])
            cells = (bottom - top + 1) * (right - left + 1)
            # a whole-column range (`$D:$D`, as a person selects a column) reads down to _WHOLE_ROWS: as many as
            # _WHOLE_COLUMNS of those are fine whatever `limit`, a wider one is not
            whole = top == 1 and bottom == _WHOLE_ROWS and right - left < _WHOLE_COLUMNS
            if cells > limit and not whole:
                raise FormulaError(f"{ref} spans more than {limit} cells")
            for row in range(top, bottom + 1):
                for col in range(left, right + 1):
                    found[(sheet, f"{_col_letters(col)}{row}")] = None
    accepted = []
    for sheet, coord in found:
        try:
            raw = lookup(sheet, coord)
        except (LookupError, ValueError):
            continue
        if holds(raw):
            accepted.append((sheet, coord))
    return accepted


def _numeric_inputs(formulas: tuple[str, ...], lookup: Lookup, limit: int) -> list[tuple[str | None, str]]:
    """The cells referenced by any of `formulas` that hold a plain number (not a formula), in sheet order."""
    numeric = _inputs(formulas, lookup, limit, lambda raw: isinstance(raw, int | float) and not isinstance(raw, bool))
    return sorted(numeric, key=lambda k: (k[0] or "", _split_cell(k[1])))


def _probed(lookup: Lookup, inputs: dict[tuple[str | None, str], Any]) -> Lookup:
    """`lookup` with the cells of `inputs` (keys: sheet name folded, or None; coordinate) holding probe values."""
    def probed(sheet: str | None, coord: str) -> Any:
        key = (sheet.casefold() if sheet else None, coord)
        return inputs[key] if key in inputs else lookup(sheet, coord)
    return probed


def _differ(formula: str, reference: str, probes: Iterable[tuple[str, Lookup]], tolerance: float,
            answer: str = "the right formula") -> str | None:
    """Where `formula` and `reference` first disagree when evaluated over each (label, lookup) of `probes`, or None.
    A probe the reference itself is undefined on (a division by zero) is no evidence either way."""
    for label, probed in probes:
        try:
            want = evaluate(reference, probed)
        except FormulaError:
            continue
        try:
            got = evaluate(formula, probed)
        except FormulaError as exc:
            return f"with {label} it fails ({exc}) where {answer} gives {want!r}"
        if isinstance(want, float) and isinstance(got, float):
            if abs(got - want) <= tolerance * max(1.0, abs(want)):
                continue
        elif got == want:
            continue
        return f"with {label} it gives {got!r} where {answer} gives {want!r}"
    return None


def disagreement(formula: str, reference: str, lookup: Lookup, *, tolerance: float = 1e-6,
                 limit: int = 5000) -> str | None:
    """None when `formula` computes what `reference` computes, else a short description of where they differ.

    Both are evaluated with the plain numbers they reference replaced by three sets of test inputs (rising,
    falling, and the real inputs scaled and shifted), so a constant dressed as a formula (`=0*D2+3577.8`), a
    typed result, or the right numbers from the wrong cells cannot agree by coincidence, while any
    equivalent formula (`=-F2+D2` for `=D2-F2`, absolute references, SUM for +) does. Formula cells in between
    are evaluated again through the same inputs."""
    cells = _numeric_inputs((formula, reference), lookup, limit)
    n = len(cells)
    originals = [float(lookup(s, c)) for s, c in cells]
    points = [
        ("rising", [3.25 + 7.5 * i for i in range(n)]),
        ("falling", [41.75 + 6.5 * (n - i) for i in range(n)]),
        ("scaled", [v * 1.5 + 2.125 * (i + 1) for i, v in enumerate(originals)]),
    ]
    return _differ(formula, reference, [
        (f"{label} test inputs", _probed(lookup, {(s.casefold() if s else None, c): v
                                                  for (s, c), v in zip(cells, values, strict=True)}))
        for label, values in points], tolerance)


#: Texts put in place of a formula's text inputs by `text_disagreement`: mixed case, stray and doubled spaces, an
#: apostrophe and a hyphen, so that case, trimming, word starts and joins all show.
_TEXT_PROBES = ("  mARy-ann  o'BRIEN ", "ZED   quist", " north  WING  ", "x")


def _text_inputs(formulas: tuple[str, ...], lookup: Lookup, limit: int,
                 holds: Callable[[Any], bool] | None = None) -> list[tuple[str | None, str]]:
    """The cells referenced by any of `formulas` that hold plain text (not a formula), in order; with `holds`, the
    cells whose value it accepts instead."""
    return _inputs(formulas, lookup, limit, holds or (lambda raw: isinstance(raw, str) and not raw.startswith("=")))


def text_disagreement(formula: str, reference: str, lookup: Lookup, *, limit: int = 5000) -> str | None:
    """None when `formula` computes the same text as `reference`, else where they differ.

    The text cells both reference are replaced by probe texts (`_TEXT_PROBES`, rotated over the cells), so a typed
    result dressed as a formula (`=IF(A2="","","JANE DOE")`), the wrong function (UPPER for PROPER) or the wrong
    cell cannot agree by coincidence, while an equivalent formula (CONCAT for &, TEXTJOIN with the same separator,
    absolute references) does. The numbers they reference are left alone (`disagreement` varies those)."""
    cells = _text_inputs((formula, reference), lookup, limit)
    return _differ(formula, reference, [
        ("probe texts", _probed(lookup, {(s.casefold() if s else None, c): _TEXT_PROBES[(i + shift) % len(_TEXT_PROBES)]
                                         for i, (s, c) in enumerate(cells)}))
        for shift in range(len(_TEXT_PROBES))], tolerance=0.0)


#: Dates put in place of a formula's date inputs by `date_disagreement`: month ends of long and short months, a
#: leap day, a year end, so that EDATE's clamping, YEAR, MONTH and day counts all show.
_DATE_PROBES = (dt.date(2019, 1, 31), dt.date(2020, 2, 29), dt.date(2023, 8, 15), dt.date(2021, 12, 31))


def date_disagreement(formula: str, reference: str, lookup: Lookup, *, tolerance: float = 1e-6,
                      limit: int = 5000) -> str | None:
    """None when `formula` computes what `reference` computes from the dates they reference, else where they differ.

    The date cells both reference are replaced by probe dates (`_DATE_PROBES`, rotated over the cells), so a typed
    result dressed as a formula (`=0*C2+45383`), the wrong function (MONTH for YEAR) or 30 days for a month cannot
    agree by coincidence, while an equivalent formula (DATEDIF(C2,X,"D") for X-C2) does."""
    cells = _text_inputs((formula, reference), lookup, limit, lambda raw: isinstance(raw, dt.date))
    return _differ(formula, reference, [
        ("probe dates", _probed(lookup, {(s.casefold() if s else None, c): _DATE_PROBES[(i + shift) % len(_DATE_PROBES)]
                                         for i, (s, c) in enumerate(cells)}))
        for shift in range(len(_DATE_PROBES))], tolerance)


def lookup_disagreement(formula: str, reference: str, lookup: Lookup, sheet: str, column: int,
                        *, tolerance: float = 1e-6) -> str | None:
    """None when `formula` finds what `reference` finds, else where they differ.

    The values of the lookup table's result `column` (1-based) on `sheet` are replaced by probes (text
    "probe-<row>", or a number from the row), the keys left alone, so a typed result dressed as a formula, a lookup
    of another column or of another row's key cannot agree by coincidence, while any equivalent lookup (VLOOKUP
    with FALSE, INDEX/MATCH, XLOOKUP, absolute references) does."""
    folded = sheet.casefold()

    def probed(name: str | None, coord: str) -> Any:
        raw = lookup(name, coord)
        if name is None or name.casefold() != folded or _split_cell(coord)[1] != column or raw is None:
            return raw
        row = _split_cell(coord)[0]
        return 3.5 + 11.25 * row if isinstance(raw, int | float) and not isinstance(raw, bool) else f"probe-{row}"

    return _differ(formula, reference, [("probe values in the table", probed)], tolerance, "the right lookup")
