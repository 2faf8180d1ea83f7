"""The canonical model of a workbook, and its frame: what may change, and what must stay as it was.

Facts (key -> canonical text):
- `#sheets`: the sheets in order; `#names`: defined names (LibreOffice's own `_xlnm.` names left out);
- `S!A1`: a filled cell, typed: `f:` formula (canonical text), `n:` number, `d:` date, `s:` text, `b:` boolean,
  `e:` error; `S!A1#fmt`: its number format when not General and the cell is not text (a format shows nothing
  on text); `S!A1#style`: bold/italic/strike/underline and non-default font and fill colours;
- `S#merged`, `S#validations` (per range: type, operator, formulas, blanks allowed, and whether the error alert
  rejects other values), `S#cf` (per range, each rule's type, operator and formulas), `S#hidden_rows`,
  `S#hidden_cols`, `S#autofilter`, `S#charts` (their types in order).
View state (frozen panes, selection, zoom, column widths) is not a fact: a headless re-save drops or rewrites it.

A frame (`derive`) keeps, per *group* of facts the task does not change (a sheet row's cells; any other fact on
its own), a digest of the initial values, and per allowed fact the kind of value the oracle left there. `judge`
recomputes the groups on an end state: a group whose digest differs or a group that was not there is a change
out of scope; an allowed cell holding a value of another kind than the oracle's is an asked change done wrong.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import hashlib
import io
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import openpyxl
from openpyxl.utils import get_column_letter

from kit import bounded
from verifiers.frame.kinds import FrameKind, register
from verifiers.readers.xlsx import as_read

if TYPE_CHECKING:
    from verifiers.checks import State

#: The kinds of value an end state may hold where the oracle left each kind: a formula's place takes a computed
#: value too (whether a formula is required is the goal check's question), never text; a number's or a date's
#: place takes a formula; an emptied cell stays empty ('-': absent).
COMPATIBLE = {"f": "fndbe", "n": "nf", "d": "dfn", "s": "sf", "b": "bf", "e": "ef", "-": "-"}
KIND_NAMES = {"f": "a formula", "n": "a number", "d": "a date", "s": "text", "b": "a boolean", "e": "an error",
              "-": "nothing"}
_CELL = re.compile(r"^(?P<sheet>.*)!(?P<col>[A-Z]{1,3})(?P<row>\d+)$")
_DIGEST_CHARS = 12


def _number(value: float) -> str:
    return repr(round(float(value), 9)).removesuffix(".0")


def formula_text(text: str) -> str:
    """A formula as its meaning reads: no `=`, `$`, `_xlfn.`/`_xlws.` prefixes or spaces, upper case."""
    return re.sub(r"_xl(?:fn|ws)\.|\$|\s+", "", text.lstrip("=")).upper()


def cell_fact(value: Any, data_type: str | None = None) -> str:
    """A cell's typed canonical value (see the module doc)."""
    if isinstance(value, bool):
        return f"b:{int(value)}"
    if isinstance(value, int | float):
        return f"n:{_number(value)}"
    if isinstance(value, dt.datetime):
        return f"d:{value.date().isoformat() if value.time() == dt.time() else value.isoformat()}"
    if isinstance(value, dt.date | dt.time):
        return f"d:{value.isoformat()}"
    if isinstance(value, dt.timedelta):
        return f"d:{value.total_seconds()}s"
    text = str(value)
    if data_type == "f" or (not isinstance(value, str) and hasattr(value, "text")):  # ArrayFormula / DataTable
        return f"f:{formula_text(getattr(value, 'text', None) or text)}"
    if data_type == "e":
        return f"e:{text}"
    return f"s:{text}"


def number_format(fmt: str | None) -> str:
    """A number format as its meaning reads (LibreOffice writes `YYYY\\-MM\\-DD` for `yyyy-mm-dd`)."""
    text = (fmt or "General").replace("\\", "").replace('"', "").lower()
    return "" if text in ("general", "@general") else text


def _rgb(color: Any) -> str:
    """A colour's six hex digits; '' for none, theme and indexed colours, and black (the default text colour)."""
    rgb = getattr(color, "rgb", None)
    if not isinstance(rgb, str) or getattr(color, "type", "rgb") != "rgb":
        return ""
    rgb = rgb[-6:].upper()
    return "" if rgb == "000000" else rgb


def _style(cell: Any) -> str:
    font, fill = cell.font, cell.fill
    parts = [name for name, on in (("bold", font.b), ("italic", font.i), ("strike", font.strike),
                                   ("underline", font.u not in (None, "none"))) if on]
    if color := _rgb(font.color):
        parts.append(f"color={color}")
    if getattr(fill, "patternType", None) == "solid" and (shade := _rgb(fill.fgColor)) not in ("", "FFFFFF"):
        parts.append(f"fill={shade}")
    return ",".join(parts)


def _ranges(sqref: Any) -> str:
    return " ".join(sorted(str(sqref).replace("$", "").split()))


def _validation(dv: Any) -> str:
    formulas = [formula_text(str(f)).replace('"', "") for f in (dv.formula1, dv.formula2) if f is not None]
    rejects = bool(dv.showErrorMessage) and (dv.errorStyle in (None, "stop"))
    return json.dumps([dv.type or "any", dv.operator or "", formulas, bool(dv.allow_blank), rejects])


def _rules(rules: Iterable[Any]) -> str:
    return json.dumps(sorted([r.type or "", r.operator or "", [formula_text(str(f)) for f in (r.formula or ())]]
                             for r in rules))


def _hidden_cols(ws: Any) -> list[int]:
    hidden: set[int] = set()
    for dim in list(ws.column_dimensions.values()):
        if dim.hidden and dim.min and dim.max:
            hidden.update(range(dim.min, min(dim.max, 16384) + 1))
    return sorted(hidden)


def workbook_facts(wb: Any) -> dict[str, str]:
    """The canonical model of an openpyxl workbook loaded with formulas as text. Reads only what is there: no cell
    lookups (openpyxl would create the cells looked up, and the workbook may be shared by other checks)."""
    facts: dict[str, str] = {"#sheets": json.dumps(wb.sheetnames)}
    names = sorted(f"{name}={formula_text(str(dn.attr_text))}" for name, dn in wb.defined_names.items()
                   if not name.startswith("_xlnm."))
    if names:
        facts["#names"] = json.dumps(names)
    for ws in wb.worksheets:
        sheet = ws.title
        for (row, col), cell in list(ws._cells.items()):
            if cell.value is None or cell.value == "":
                continue
            key = f"{sheet}!{get_column_letter(col)}{row}"
            facts[key] = cell_fact(cell.value, cell.data_type)
            if not facts[key].startswith("s:") and (fmt := number_format(cell.number_format)):
                facts[f"{key}#fmt"] = fmt
            if style := _style(cell):
                facts[f"{key}#style"] = style
        if ws.merged_cells.ranges:
            facts[f"{sheet}#merged"] = _ranges(" ".join(str(r) for r in ws.merged_cells.ranges))
        # one fact per sheet: where a task adds a rule, its range is the goal check's question ("the X column" may
        # be the column's cells or the whole column), not the frame's
        if validations := sorted(f"{_ranges(dv.sqref)}={_validation(dv)}" for dv in ws.data_validations.dataValidation):
            facts[f"{sheet}#validations"] = json.dumps(validations)
        if formats := sorted(f"{_ranges(rng.sqref)}={_rules(rules)}"
                             for rng, rules in ws.conditional_formatting._cf_rules.items()):
            facts[f"{sheet}#cf"] = json.dumps(formats)
        rows = sorted(r for r, dim in list(ws.row_dimensions.items()) if dim.hidden)
        if rows:
            facts[f"{sheet}#hidden_rows"] = json.dumps(rows)
        if cols := _hidden_cols(ws):
            facts[f"{sheet}#hidden_cols"] = json.dumps(cols)
        if ws.auto_filter.ref:
            facts[f"{sheet}#autofilter"] = _ranges(ws.auto_filter.ref)
        if ws._charts:
            facts[f"{sheet}#charts"] = json.dumps([type(c).__name__ for c in ws._charts])
    return facts


def kind_of(fact: str | None) -> str:
    """The kind of a cell fact ('f', 'n', 'd', 's', 'b', 'e'), '-' for none."""
    return "-" if fact is None else fact[0]


def group_of(key: str) -> str:
    """Cells (and their formats and styles) group by sheet row; any other fact is its own group."""
    match = _CELL.match(key.split("#", 1)[0])
    return f"{match['sheet']}!row {match['row']}" if match else key


def _is_free(key: str, free: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(key, region) for region in free)


def _digests(facts: Mapping[str, str], allowed: Mapping[str, str], free: Iterable[str] = ()) -> dict[str, str]:
    groups: dict[str, list[tuple[str, str]]] = {}
    free = tuple(free)
    for key, value in facts.items():
        if key not in allowed and not _is_free(key, free):
            groups.setdefault(group_of(key), []).append((key, value))
    return {group: hashlib.sha256(json.dumps(sorted(items)).encode()).hexdigest()[:_DIGEST_CHARS]
            for group, items in groups.items()}


def _allowed_kind(key: str, oracle: str | None) -> str:
    """What an end state may hold for a fact the task changes: a cell the kind of value the oracle left; the sheet
    list as many sheets as the oracle's (names are the goal checks' question; an empty sheet left over is not);
    any other fact anything ('*': the goal checks judge it)."""
    if _CELL.match(key):
        return kind_of(oracle)
    if key == "#sheets" and oracle is not None:
        return f"sheets={len(json.loads(oracle))}"
    return "*"


def derive(initial: Mapping[str, str], oracle: Mapping[str, str],
           free: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The frame of a task from the canonical models of its initial and oracle workbooks: the facts that differ
    (with the kind of value the oracle left in a cell; '*' for any other fact), the digests of every group of facts
    that must stay as they were, and the family's freedoms (`free`: region pattern -> reason), where any change
    is allowed."""
    free = dict(free or {})
    allowed = {key: _allowed_kind(key, oracle.get(key)) for key in sorted(set(initial) | set(oracle))
               if initial.get(key) != oracle.get(key) and not _is_free(key, free)}
    return {"allowed": allowed, "kept": _digests(initial, allowed, free), "free": free}


def judge(frame: Mapping[str, Any], end: Mapping[str, str]) -> list[str]:
    """Every change of `end` out of the frame, one phrase each (empty: the end state lies inside it)."""
    allowed: Mapping[str, str] = frame["allowed"]
    kept: Mapping[str, str] = frame["kept"]
    free = tuple(frame.get("free") or ())
    problems = []
    for key, kind in allowed.items():
        if kind == "*":
            continue
        if kind.startswith("sheets="):
            count = len(json.loads(end.get(key, "[]")))
            if count != int(kind.removeprefix("sheets=")):
                problems.append(f"the workbook has {count} sheet(s) ({end.get(key, '[]')[:80]}) where the task "
                                f"leaves {kind.removeprefix('sheets=')}")
            continue
        got = kind_of(end.get(key))
        if got not in COMPATIBLE.get(kind, kind):
            shown = end[key][2:][:40] if key in end else ""
            problems.append(f"{key} holds {KIND_NAMES.get(got, got)}{f' ({shown!r})' if shown else ''} where the "
                            f"task leaves {KIND_NAMES.get(kind, kind)}")
    for key, value in end.items():  # a formula typed as text is never an asked change
        if key in allowed and value.startswith("s:="):
            problems.append(f"{key} holds the text {value[2:][:40]!r}, a formula typed as text")
    now = _digests(end, allowed, free)
    for group in sorted(set(kept) | set(now)):
        if kept.get(group) == now.get(group):
            continue
        if group not in kept:
            problems.append(f"{_show_group(group, end, allowed)} was added")
        elif group not in now:
            problems.append(f"{group} was removed or emptied")
        else:
            problems.append(f"{_show_group(group, end, allowed)} changed")
    return list(dict.fromkeys(problems))


def _show_group(group: str, end: Mapping[str, str], allowed: Mapping[str, str]) -> str:
    """A group as the evidence shows it: a row's cells out of scope with their values, or the fact itself."""
    if "!row " not in group:
        return f"{group} ({end.get(group, '')[:60]})" if group in end else group
    cells = [f"{key}={value[2:][:20]!r}" for key, value in sorted(end.items())
             if "#" not in key and key not in allowed and group_of(key) == group][:4]
    return f"{group} ({', '.join(cells)})" if cells else group


def read(path: Path) -> dict[str, str]:
    """The canonical model of the workbook file at `path` (bounded read)."""
    data = bounded.read_file(path, bounded.MAX_FILE_BYTES)
    return workbook_facts(openpyxl.load_workbook(io.BytesIO(data), rich_text=False))


def _state_facts(state: State, path: str) -> dict[str, str]:
    return workbook_facts(state.workbook(path))  # the workbook the other checks of the state read too


KIND = register(FrameKind(
    name="xlsx", noun="workbook", matches=lambda dest: dest.endswith(".xlsx"), read=read,
    edited=lambda wb: workbook_facts(as_read(wb)),  # as it reads back once saved (a serial under a date format)
    derive=derive, judge=judge, state_facts=_state_facts,
    new_file={"*#fmt": "a new workbook's number formats are its writing app's",
              "*#style": "a new workbook's styles are its writing app's"},
    kept_criterion="Nothing else in {dest} changed: every cell, sheet, format, merged range, validation, conditional "
                   "format, hidden row or column and chart the task does not ask to change is as it was, and the "
                   "cells it changes hold the kind of value asked for.",
    made_criterion="{dest} holds nothing beyond what the task asks: no other sheet, cell, merged range, validation, "
                   "conditional format, hidden row or column or chart."))
