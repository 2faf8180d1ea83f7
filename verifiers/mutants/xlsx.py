"""xlsx mutators: damage a workbook the oracle wrote in ways no Calc instruction allows, or rewrite it harmlessly.

The task's *targets* are the cells whose value the oracle changed (from the initial state to the oracle's end
state); a damaging mutant never touches a target's value legitimately: it changes a cell outside the targets,
deletes a data row, drops or renames a sheet, retypes a number the oracle wrote as text (the same digits in a
string cell), or replaces the target formulas by something that shows the
same numbers without computing them (the values typed in, `=0*D2+v`, `=v+0`) or by the same formula over the
wrong column, or leaves a wrong state that looks done (a formula or a date typed as text, a stray label, an
empty sheet, reordered sheets, a validation that refuses nothing). Neutral mutants are what a correct solution may
produce too: the workbook re-saved by a spreadsheet writer, equivalent formulas (absolute references, commuted
operands), a new file mtime.

Only workbooks the oracle created or changed are mutated: an input the task only reads is not its output.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import coordinate_to_tuple, range_boundaries
from openpyxl.workbook.workbook import Workbook

from kit import parsecache
from kit.model import HOME
from verifiers.formula import FormulaError, evaluate, referenced_ranges
from verifiers.mutants import Kind, Mutant, MutationContext
from verifiers.mutants.tree import byte_fixed
from verifiers.readers.xlsx import (
    _load_formulas,  # the State cache key of a parsed workbook
    cached_formula_values,
    lookups_undone,
)

#: A fixed, deterministic mtime for the "touched" neutral mutant (2023-11-14).
MTIME = 1_700_000_000
# A cell reference outside quotes: optional $, column letters, optional $, row digits; not a function name
# (LOG10) nor an unquoted sheet name (Q1!A1).
_REF = re.compile(r"(?<![A-Za-z0-9_.$])(\$?)([A-Z]{1,3})(\$?)([1-9][0-9]{0,6})(?![A-Za-z0-9_(!])")
_QUOTED = re.compile(r"('[^']*'|\"[^\"]*\")")


def _load(host: Path) -> Workbook:
    """The workbook with formulas as text (served from the parse cache when the bytes are the oracle's)."""
    return parsecache.parse(host, "xlsx", openpyxl.load_workbook)


def _cells(wb: Workbook | None, sheet: str) -> dict[str, Any]:
    """{coordinate: value} of the sheet's filled cells. Reads the worksheet's own cell table: iterating rows
    would create every empty cell of the used range (the stage's budget is a few milliseconds per task)."""
    if wb is None or sheet not in wb.sheetnames:
        return {}
    return {c.coordinate: c.value for c in wb[sheet]._cells.values() if c.value is not None}


def _outside_quotes(formula: str, fn: Callable[[re.Match[str]], str]) -> str:
    """Apply `fn` to every cell reference of `formula`, leaving quoted sheet names and strings alone."""
    parts = _QUOTED.split(formula)
    return "".join(p if i % 2 else _REF.sub(fn, p) for i, p in enumerate(parts))


def absolute(formula: str) -> str:
    """`=D2-F2` -> `=$D$2-$F$2`: the same computation a user gets by pressing F4."""
    return _outside_quotes(formula, lambda m: f"${m.group(2)}${m.group(4)}")


def commuted(formula: str) -> str:
    """`=A-B` -> `=-B+A`, `=A+B` -> `=B+A`, `=A*B` -> `=B*A` for a formula of two operands; else unchanged."""
    operand = r"(\$?[A-Z]{1,3}\$?[0-9]+|[0-9.]+)"
    found = re.fullmatch(rf"={operand}([-+*]){operand}", formula.replace(" ", ""))
    if found is None:
        return formula
    left, op, right = found.groups()
    return f"=-{right}+{left}" if op == "-" else f"={right}{op}{left}"


def shifted(formula: str, by: int) -> str:
    """Every column reference moved `by` columns (the right computation over the wrong column)."""
    def move(m: re.Match[str]) -> str:
        col = openpyxl.utils.column_index_from_string(m.group(2)) + by
        return m.group(0) if col < 1 else f"{m.group(1)}{openpyxl.utils.get_column_letter(col)}{m.group(3)}{m.group(4)}"
    return _outside_quotes(formula, move)


def _number(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(round(value, 9))


def altered(value: Any) -> Any:
    """A plainly different value of the same type (never equal after the checks' normalisation)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, float):
        return round(value * 1.5 + 7.25, 6)
    if isinstance(value, dt.datetime | dt.date):
        return value + dt.timedelta(days=3)
    return f"{value} (edited)"


class _Book:
    """One changed workbook: its initial and oracle cells, the task's main sheet, the target formulas."""

    def __init__(self, ctx: MutationContext, rel: str) -> None:
        self.rel = rel
        self.oracle = ctx.oracle
        self.path = f"{HOME}/{rel}"
        before = ctx.initial / rel
        self.before = _load(before) if before.is_file() else None
        self.shared = _Shared(ctx.oracle, rel)  # the copy this book's cell-value mutants take turns on
        self.after = self.shared.wb  # read before any of them edits it
        self.targets: dict[str, set[str]] = {}
        for name in self.after.sheetnames:
            old, new = _cells(self.before, name), _cells(self.after, name)
            self.targets[name] = {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)}
        named = [str(a["sheet"]) for a in _args_for(ctx, self.path) if a.get("sheet") in self.after.sheetnames]
        busiest = max(self.after.sheetnames, key=lambda n: len(self.targets[n]))
        self.main: str = named[0] if named else busiest
        # a sheet's name is part of the task when the workbook had it or the rubric names it; a workbook the
        # task creates may name its sheets freely (an imported CSV gets the file's name, say)
        self.named_sheets = set(named) | set(self.before.sheetnames if self.before is not None else ())
        self.formulas = self._target_formulas()

    def _target_formulas(self) -> dict[tuple[str, str], float]:
        """{(sheet, cell): value} of the target cells holding a formula with a numeric value we can compute."""
        found: dict[tuple[str, str], float] = {}
        for name in self.after.sheetnames:
            ws = self.after[name]
            for coord in sorted(self.targets[name], key=coordinate_to_tuple):
                formula = ws[coord].value
                if not (isinstance(formula, str) and formula.startswith("=")):
                    continue
                value = self.value(name, formula)
                if isinstance(value, float):
                    found[(name, coord)] = value
        return found

    def value(self, sheet: str, formula: str, extra: dict[tuple[str, str], str] | None = None) -> Any:
        """What `formula` shows on `sheet` of the oracle's workbook (None when it cannot be computed)."""
        def lookup(name: str | None, coord: str) -> Any:
            where = name or sheet
            if extra and (where, coord) in extra:
                return extra[(where, coord)]
            return self.after[where][coord].value

        try:
            return evaluate(formula, lookup)
        except (FormulaError, KeyError):
            return None


def _args_for(ctx: MutationContext, path: str) -> Iterator[dict[str, Any]]:
    for item in ctx.task.get("rubric", []):
        args = item.get("args", {})
        if isinstance(args, dict) and args.get("path") == path:
            yield args


def _apply(rel: str, change: Callable[[Workbook], None]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        host = root / rel
        wb = _load(host)
        change(wb)
        wb.save(host)
    return apply


def _mutant(name: str, kind: Kind, oracle: Path, rel: str, change: Callable[[Workbook], None],
            shared: _Shared | None = None) -> Mutant:
    """A mutant that edits one workbook; evaluated in memory (the checks' formula view of the edited workbook;
    a workbook saved by openpyxl keeps no cached formula values), written to disk only if a check needs it. A
    change of cell values (`_Values`) edits the book's `shared` copy when it can be taken back exactly."""
    def documents() -> dict[tuple[str, Any], Any]:
        if shared is not None and isinstance(change, _Values) and shared.takes(change):
            wb = shared.edited(change)
        else:
            wb = _load(oracle / rel)  # a fresh copy from the parse cache: the oracle's bytes are hot
            change(wb)
        return {(f"{HOME}/{rel}", _load_formulas): wb, (f"{HOME}/{rel}", cached_formula_values): {}}
    return Mutant(name, kind, _apply(rel, change), documents)


#: Cell values a shared copy takes back exactly: setting one changes a cell's value and type only (a date or a
#: time also gives the cell a number format, which the copy would not take back)
_PLAIN = (str, int, float, bool, type(None))


class _Shared:
    """One copy of the oracle's workbook that the mutators read (a book's `after`) and that its cell-value mutants
    then take turns on, instead of a fresh copy each (unpickling one took ~1 ms a mutant, several a Calc task).
    Before each edit the copy is put back as it was unpickled: the values the last edit set, and every cell and row
    or column entry that the edit, the mutators or the checks reading the copy created (openpyxl creates a cell, or
    a dimension entry, on a mere lookup; neither mutators nor checks set anything on it).
    tests/verifiers/test_mutants_office.py holds every edit against a fresh copy."""

    def __init__(self, oracle: Path, rel: str) -> None:
        self.wb = _load(oracle / rel)
        self._lookups_undone = lookups_undone(self.wb)
        self._set: list[tuple[Any, Any, str]] = []  # (cell, its value and type before the last edit)

    @staticmethod
    def takes(change: _Values) -> bool:
        return all(type(value) in _PLAIN for value in change.cells.values())

    def edited(self, change: _Values) -> Workbook:
        """The copy as unpickled, with `change` made."""
        self._restore()
        for (sheet, coord), value in change.cells.items():
            cell = self.wb[sheet][coord]
            self._set.append((cell, cell._value, cell.data_type))
            cell.value = value
        return self.wb

    def _restore(self) -> None:
        for cell, value, data_type in reversed(self._set):
            cell._value, cell.data_type = value, data_type
        self._set.clear()
        self._lookups_undone()


class _Values:
    """A change that sets cell values: {(sheet, cell): value}."""

    def __init__(self, cells: dict[tuple[str, str], Any]) -> None:
        self.cells = cells

    def __call__(self, wb: Workbook) -> None:
        for (sheet, coord), value in self.cells.items():
            wb[sheet][coord].value = value


def _out_of_scope(ctx: MutationContext, book: _Book) -> list[Mutant]:
    """One data cell and one header cell the oracle left alone, each given another value."""
    ws = book.after[book.main]
    out = []
    for rows in ((2, None), (1, 1)):
        cells = [c for row in ws.iter_rows(min_row=rows[0], max_row=rows[1]) for c in row
                 if c.value is not None and c.coordinate not in book.targets[book.main]
                 and not (isinstance(c.value, str) and c.value.startswith("="))]
        if cells:
            cell = ctx.rng.choice(cells)
            where = (book.main, cell.coordinate)
            out.append(_mutant(f"xlsx.value_out_of_scope:{book.main}!{cell.coordinate}", "damaging",
                              book.oracle, book.rel, _Values({where: altered(cell.value)}), book.shared))
    return out


def _row_deleted(ctx: MutationContext, book: _Book) -> list[Mutant]:
    ws = book.after[book.main]
    rows = sorted({c.row for c in ws._cells.values() if c.row >= 2 and c.value is not None})
    if len(rows) < 2:
        return []
    row = ctx.rng.choice(rows)
    return [_mutant(f"xlsx.row_deleted:{book.main}!{row}", "damaging",
                   book.oracle, book.rel, lambda wb: wb[book.main].delete_rows(row))]


def _number_as_text(ctx: MutationContext, book: _Book) -> list[Mutant]:
    """A number the oracle wrote retyped as text: the same digits in a string cell (a spreadsheet shows them the
    same, left-aligned, but sums, sorts and comparisons skip or misorder them). A typed target number is taken
    first, else the value of a target formula."""
    typed = [(name, coord, value) for name in book.after.sheetnames for coord in sorted(book.targets[name])
             if isinstance(value := book.after[name][coord].value, int | float) and not isinstance(value, bool)]
    computed = [(sheet, coord, value) for (sheet, coord), value in book.formulas.items()]
    pool = typed or computed
    if not pool:
        return []
    sheet, coord, value = pool[ctx.rng.randrange(len(pool))]
    return [_mutant(f"xlsx.number_as_text:{sheet}!{coord}", "damaging", book.oracle, book.rel,
                    _Values({(sheet, coord): _number(value)}), book.shared)]


def _first_cell(formula: str) -> str | None:
    try:
        refs = referenced_ranges(formula)
    except FormulaError:
        return None
    for sheet, ref in refs:
        if sheet is None:
            min_col, min_row, _, _ = range_boundaries(ref)
            return f"{openpyxl.utils.get_column_letter(min_col)}{min_row}"
    return None


def _formula_mutants(book: _Book) -> list[Mutant]:
    """The target formulas replaced by their values, by constants dressed as formulas, by the wrong column."""
    if not book.formulas:
        return []
    first = next(iter(book.formulas))
    where = f"{first[0]}!{first[1]}" + (f" (+{len(book.formulas) - 1})" if len(book.formulas) > 1 else "")
    values = {k: round(v, 9) for k, v in book.formulas.items()}
    out = [_mutant(f"xlsx.formula_to_value:{where}", "damaging", book.oracle, book.rel, _Values(values), book.shared),
           _mutant(f"xlsx.constant_formula:{where}", "damaging", book.oracle, book.rel,
                   _Values({k: f"={_number(v)}+0" for k, v in values.items()}), book.shared)]
    dressed = {}
    for (sheet, coord), v in values.items():
        ref = _first_cell(book.after[sheet][coord].value)
        if ref is not None:
            sign = "+" if v >= 0 else "-"
            dressed[(sheet, coord)] = f"=0*{ref}{sign}{_number(abs(v))}"
    if dressed:
        out.append(_mutant(f"xlsx.dressed_constant:{where}", "damaging", book.oracle, book.rel, _Values(dressed),
                           book.shared))
    for by in (1, -1, 2):
        wrong = {k: shifted(book.after[k[0]][k[1]].value, by) for k in values}
        moved = {k: f for k, f in wrong.items() if f != book.after[k[0]][k[1]].value}
        if len(moved) != len(wrong):
            continue
        shown = {k: book.value(k[0], f, extra=wrong) for k, f in wrong.items()}
        if any(not isinstance(s, float) or abs(s - values[k]) > 1e-6 for k, s in shown.items()):
            out.append(_mutant(f"xlsx.wrong_column:{where} (columns {by:+d})", "damaging",
                              book.oracle, book.rel, _Values(wrong), book.shared))
            break
    return out


def _sheet_mutants(ctx: MutationContext, book: _Book) -> list[Mutant]:
    names = book.after.sheetnames
    renamed = f"{book.main} 2"[:31]

    def rename(wb: Workbook) -> None:
        wb[book.main].title = renamed

    out = []
    if book.main in book.named_sheets:
        out.append(_mutant(f"xlsx.sheet_renamed:{book.main}->{renamed}", "damaging", book.oracle, book.rel, rename))
    others = [n for n in names if n != book.main]
    if others:
        gone = ctx.rng.choice(others)

        def drop(wb: Workbook) -> None:
            wb.remove(wb[gone])

        out.append(_mutant(f"xlsx.sheet_dropped:{gone}", "damaging", book.oracle, book.rel, drop))
    return out


def _looks_done(ctx: MutationContext, book: _Book) -> list[Mutant]:
    """Wrong end states that look done, of the kinds a closed-world frame must refuse (issue 37): a target formula
    typed as text (Calc shows the text, not a number), a date of the table re-entered as text, a stray label beside
    the table, an empty sheet left over, the sheets reordered, a validation whose error alert is off (it refuses
    nothing)."""
    ws = book.after[book.main]
    out = []
    if book.formulas:
        sheet, coord = next(iter(book.formulas))

        def as_text(wb: Workbook) -> None:
            cell = wb[sheet][coord]
            cell._value, cell.data_type = str(cell.value), "s"

        out.append(_mutant(f"xlsx.formula_as_text:{sheet}!{coord}", "damaging", book.oracle, book.rel, as_text))
    dates = sorted(c.coordinate for c in ws._cells.values() if isinstance(c.value, dt.datetime | dt.date))
    if dates:
        coord = ctx.rng.choice(dates)
        text = ws[coord].value.strftime("%Y-%m-%d")
        out.append(_mutant(f"xlsx.date_as_text:{book.main}!{coord}", "damaging", book.oracle, book.rel,
                           _Values({(book.main, coord): text}), book.shared))
    stray = f"{openpyxl.utils.get_column_letter(ws.max_column + 2)}1"
    out.append(_mutant(f"xlsx.stray_label:{book.main}!{stray}", "damaging", book.oracle, book.rel,
                       _Values({(book.main, stray): "checked"}), book.shared))
    spare = next(n for n in ("Sheet2", "Sheet3", "Scratch") if n not in book.after.sheetnames)
    out.append(_mutant(f"xlsx.empty_sheet:{spare}", "damaging", book.oracle, book.rel,
                       lambda wb: wb.create_sheet(spare)))
    if len(book.after.sheetnames) > 1:
        last = book.after.sheetnames[-1]
        out.append(_mutant(f"xlsx.sheets_reordered:{last} first", "damaging", book.oracle, book.rel,
                           lambda wb: wb.move_sheet(last, -(len(wb.sheetnames) - 1))))
    if any(dv.showErrorMessage for dv in ws.data_validations.dataValidation):
        def alert_off(wb: Workbook) -> None:
            for dv in wb[book.main].data_validations.dataValidation:
                dv.showErrorMessage = False

        out.append(_mutant(f"xlsx.validation_alert_off:{book.main}", "damaging", book.oracle, book.rel, alert_off))
    return out


def _neutral(book: _Book) -> list[Mutant]:
    # re-saved: in memory the oracle's own parse without cached values (what openpyxl's re-save holds); a check of
    # the file's bytes or of another view of it gets the file really re-saved
    out = [_mutant(f"xlsx.resaved:{book.rel}", "neutral", book.oracle, book.rel, _Values({}), book.shared),
           Mutant(f"xlsx.touched:{book.rel}", "neutral", lambda root: os.utime(root / book.rel, (MTIME, MTIME)),
                  touches=(book.rel,))]
    if book.formulas:
        rewritten = {k: commuted(absolute(book.after[k[0]][k[1]].value)) for k in book.formulas}
        out.append(_mutant(f"xlsx.equivalent_formula:{len(rewritten)} cells", "neutral",
                          book.oracle, book.rel, _Values(rewritten), book.shared))
    return out


def mutants(ctx: MutationContext) -> list[Mutant]:
    """The damaging and neutral mutants of every workbook the oracle created or changed."""
    out: list[Mutant] = []
    for rel in ctx.changed():
        if not rel.lower().endswith(".xlsx") or byte_fixed(ctx.task, rel):  # moved files keep their bytes
            continue
        book = _Book(ctx, rel)
        out += _out_of_scope(ctx, book)
        out += _row_deleted(ctx, book)
        out += _number_as_text(ctx, book)
        out += _formula_mutants(book)
        out += _sheet_mutants(ctx, book)
        out += _looks_done(ctx, book)
        out += _neutral(book)
    return out
