"""Helpers shared by the xlsx primitives: cell normalization and range reading."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from openpyxl.styles.numbers import is_date_format, is_timedelta_format
from openpyxl.utils import range_boundaries
from openpyxl.utils.datetime import from_excel

from verifiers.checks import StateError

#: text a spreadsheet would read as a number if typed: stored as text, it is a different cell (Calc shows it as
#: '12 in the input line, and sums, sorts and comparisons treat it as text)
_NUMERIC_TEXT = re.compile(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*")


def cell_text(value: Any) -> str:
    """A canonical text for comparing cell values across writers (openpyxl, LibreOffice). A number stored as text
    keeps Calc's apostrophe ("'12"), so it never reads the same as the number 12."""
    if value is None:
        return ""
    if isinstance(value, str) and _NUMERIC_TEXT.fullmatch(value):
        return "'" + value
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(round(value, 9))
    return str(value)


def bounds(ref: str) -> tuple[int, int, int, int]:
    """(min_col, min_row, max_col, max_row) of a bounded range like "$A$2:E9"; a bad ref is a failed check."""
    try:
        found = range_boundaries(ref.replace("$", "").upper())
    except (ValueError, TypeError):
        raise StateError(f"{ref!r} is not a cell range") from None
    if None in found:
        raise StateError(f"{ref!r} is not a bounded cell range")
    return found  # type: ignore[return-value]


def cell_lookup(wb: Any, sheet: str) -> Callable[[str | None, str], Any]:
    """The value lookup `verifiers.formula` evaluates with: (sheet name, None for `sheet`; "A1") -> the cell's value.
    Each worksheet is looked up once (a perturbed evaluation reads hundreds of cells); a missing sheet raises
    KeyError as `wb[name]` does."""
    found: dict[str, Any] = {}

    def lookup(name: str | None, ref: str) -> Any:
        name = name or sheet
        if name not in found:
            found[name] = wb[name]
        return found[name][ref].value

    return lookup


def read_rows(ws: Any, ref: str) -> list[list[Any]]:
    """Cell values of `ref` (e.g. "A2:E21") as a list of rows."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    return [[ws.cell(r, c).value for c in range(min_col, max_col + 1)] for r in range(min_row, max_row + 1)]


def numeric(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", ""))
        except ValueError:
            return None
    return None


def same_value(actual: Any, expected: Any, tolerance: float = 0.0) -> bool:
    """Numbers within `tolerance`; dates by day; text exact after trimming whitespace. A number expected is not
    met by the same digits stored as text."""
    exp_num, act_num = numeric(expected), numeric(actual)
    if isinstance(expected, int | float) and not isinstance(expected, bool) and act_num is not None \
            and not isinstance(actual, str):
        return abs(act_num - float(expected)) <= tolerance + 1e-9
    if exp_num is not None and isinstance(expected, str) and act_num is not None and not isinstance(actual, str):
        return abs(act_num - exp_num) <= tolerance + 1e-9
    return cell_text(actual).strip() == cell_text(expected).strip()


_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
       "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
       "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}


def cached_formula_values(host: Path) -> dict[str, dict[str, Any]]:
    """{sheet: {cell: cached value}} of the formula cells an app saved a result for, read straight from the XML.

    openpyxl's `data_only` load parses the whole workbook (styles included) for the same answer; this
    reads only the workbook, its relationships, shared strings and the `<c><f/><v/></c>` cells."""
    with zipfile.ZipFile(host) as zf:
        names = set(zf.namelist())
        book = ElementTree.fromstring(zf.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
        targets = {r.get("Id"): r.get("Target", "") for r in rels.findall("rel:Relationship", _NS)}
        shared: list[str] = []
        if "xl/sharedStrings.xml" in names:
            for si in ElementTree.fromstring(zf.read("xl/sharedStrings.xml")).findall("m:si", _NS):
                shared.append("".join(t.text or "" for t in si.iter(f"{{{_NS['m']}}}t")))
        values: dict[str, dict[str, Any]] = {}
        for sheet in book.iterfind("m:sheets/m:sheet", _NS):
            target = targets.get(sheet.get(f"{{{_NS['r']}}}id"), "").lstrip("/")
            part = target if target.startswith("xl/") else f"xl/{target}"
            if part not in names:
                continue
            cells: dict[str, Any] = {}
            for c in ElementTree.fromstring(zf.read(part)).iter(f"{{{_NS['m']}}}c"):
                v = c.find("m:v", _NS)
                if c.find("m:f", _NS) is None or v is None or v.text is None:
                    continue
                kind = c.get("t", "n")
                text = v.text
                if kind == "n":
                    number = float(text)
                    cells[c.get("r", "")] = int(number) if number.is_integer() else number
                elif kind == "s":
                    cells[c.get("r", "")] = shared[int(text)]
                elif kind == "b":
                    cells[c.get("r", "")] = text == "1"
                else:  # str, e (errors such as #DIV/0!), inlineStr
                    cells[c.get("r", "")] = text
            values[sheet.get("name", "")] = cells
    return values


def saved_value(cell: Any, cached: dict[str, Any], epoch: dt.datetime) -> Any:
    """What an app's saved file shows in `cell` (of a workbook read with its formulas), as openpyxl's `data_only`
    load reads it: a formula cell's cached value (`cached`: `cached_formula_values` of its sheet), a date where
    its number format is one, None where no value was saved (openpyxl saves none); any other cell's own value.
    The formulas workbook and the cached values replace a second, `data_only` parse of the whole file, and an
    edited workbook held in memory is checked as it is (`verifiers.gate.controls`)."""
    if cell.data_type != "f":
        return cell.value
    value = cached.get(cell.coordinate)
    if isinstance(value, int | float) and not isinstance(value, bool) and is_date_format(cell.number_format):
        try:
            return from_excel(value, epoch, timedelta=is_timedelta_format(cell.number_format))
        except (OverflowError, ValueError):
            return "#VALUE!"  # as openpyxl reads a date serial out of range
    return value
