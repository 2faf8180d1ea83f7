"""The OpenDocument spreadsheet primitive (calc.save_ods): a workbook saved as .ods holds its sheets, in order, and
every cell value they show.

The .ods is read through the bounded reader (verifiers/readers/ods.py): a missing, corrupt, oversized or hostile
file, or an xlsx renamed to .ods (no `mimetype` part), fails the check with evidence, never raises. What else may
change is the tree frame's question (`tree.frame`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from openpyxl.utils.cell import column_index_from_string as column_index
from openpyxl.utils.cell import coordinate_from_string, get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import ods as ods_reader
from verifiers.readers.ods import ODS_MIMETYPE


def encode(value: Any) -> Any:
    """A workbook cell value as a check argument (JSON): a date as {"date": iso}, anything else as it is."""
    if isinstance(value, dt.datetime):
        return {"date": (value.date() if value.time() == dt.time() else value).isoformat()}
    if isinstance(value, dt.date):
        return {"date": value.isoformat()}
    return value


def _same(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        if not isinstance(got, dt.date):
            return False
        text = str(want.get("date", ""))
        if isinstance(got, dt.datetime):
            return got.isoformat().startswith(text) or (got.time() == dt.time() and got.date().isoformat() == text)
        return got.isoformat() == text
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got
    if isinstance(want, int | float):
        return isinstance(got, float) and abs(got - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
    return isinstance(got, str) and " ".join(got.split()) == " ".join(str(want).split())


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("date", ""))
    text = str(value)
    return text if len(text) <= 30 else text[:27] + "..."


@primitive("ods.workbook_values", grounded=("path", "source"),
           meaning=Meaning(action=r"save|convert|export|ODF|ODS|OpenDocument"))
def workbook_values(state: State, path: str, source: str, sheets: list[dict[str, Any]]) -> Result:
    """The file at `path` is an OpenDocument spreadsheet (its `mimetype` part) whose sheets are `sheets` (each
    {"name", "cells": {coordinate: value}}, the workbook `source`'s sheets) in order, each cell holding its value
    (a number as a number, a date as that day, text whitespace aside), and no other non-empty cell."""
    if not sheets:
        return fail("check misconfigured: no sheet to compare")
    book = ods_reader.load(state, path)
    if book.mimetype != ODS_MIMETYPE:
        return fail(f"{path} declares the type {book.mimetype!r}, not an OpenDocument spreadsheet")
    want_names = [str(s["name"]) for s in sheets]
    if book.names() != want_names:
        return fail(f"{path} has the sheets {book.names()}, but {source} has {want_names}")
    total = 0
    for spec, (name, cells) in zip(sheets, book.sheets, strict=True):
        wanted: dict[tuple[int, int], Any] = {}
        for coord, value in spec["cells"].items():
            letters, row = coordinate_from_string(coord)
            wanted[(row - 1, column_index(letters) - 1)] = value
        wrong = [f"{get_column_letter(c + 1)}{r + 1} holds {_shown(cells.get((r, c), ''))!r}, not {_shown(v)!r}"
                 for (r, c), v in sorted(wanted.items()) if not _same(v, cells.get((r, c)))]
        extra = [f"{get_column_letter(c + 1)}{r + 1}" for (r, c) in sorted(set(cells) - set(wanted))]
        if wrong or extra:
            problems = wrong[:3] + ([f"{len(extra)} cell(s) {source} leaves empty hold values: "
                                     f"{', '.join(extra[:4])}"] if extra else [])
            return fail(f"sheet '{name}' of {path} differs from {source} in {len(wrong) + len(extra)} cell(s): "
                        + "; ".join(problems))
        total += len(wanted)
    return ok(f"{path} is an OpenDocument spreadsheet with the {len(sheets)} sheet(s) of {source} in order and all "
              f"{total} cell values")
