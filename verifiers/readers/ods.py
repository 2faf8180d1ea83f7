"""The OpenDocument spreadsheet reader: an .ods file's declared type, its sheets in order and each sheet's non-empty
cells as typed values, read bounded (calc.save_ods).

The zip and its parts are read as verifiers/readers/odf.py reads them (member count, sizes and ratio judged before a
byte is inflated, `content.xml` up to `MAX_XML` bytes, lxml without entities or network). Repeated rows and columns
(`table:number-rows-repeated`, LibreOffice writes a million empty rows as one) are counted, never expanded, when
empty; a repeated non-empty cell is expanded only up to `MAX_CELLS` stored cells in all, past which the file is
refused (a check turns that into a failed check).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from kit import bounded
from verifiers.readers import Source
from verifiers.readers.odf import OFFICE, TABLE, TEXT, _text, content_root

ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
MAX_CELLS = 200_000
MAX_INDEX = 1 << 20  # rows and columns past this (Calc's own limits) are not addressed


@dataclass(frozen=True)
class OdsBook:
    """The declared type and the sheets in order: (name, {(row, column) 0-based: value}) with values a float (a
    number, percentage or currency), a date or datetime, a bool, or the cell's text."""

    mimetype: str
    sheets: tuple[tuple[str, dict[tuple[int, int], Any]], ...]

    def names(self) -> list[str]:
        return [name for name, _ in self.sheets]


def _value(cell: etree._Element) -> Any:
    kind = cell.get(f"{{{OFFICE}}}value-type")
    if kind in ("float", "percentage", "currency"):
        return float(cell.get(f"{{{OFFICE}}}value", "nan"))
    if kind == "date":
        text = cell.get(f"{{{OFFICE}}}date-value", "")
        return dt.datetime.fromisoformat(text) if "T" in text else dt.date.fromisoformat(text)
    if kind == "boolean":
        return cell.get(f"{{{OFFICE}}}boolean-value", "") == "true"
    if kind is None:
        return None
    if cell.get(f"{{{OFFICE}}}string-value") is not None:
        return cell.get(f"{{{OFFICE}}}string-value")
    return "\n".join(_text(p) for p in cell.iter(f"{{{TEXT}}}p"))


def _count(node: etree._Element, attribute: str) -> int:
    return max(1, min(int(node.get(f"{{{TABLE}}}{attribute}", "1") or 1), MAX_INDEX))


def _sheet(table: etree._Element, budget: list[int]) -> dict[tuple[int, int], Any]:
    cells: dict[tuple[int, int], Any] = {}
    row = 0
    rows = [r for r in table.iter(f"{{{TABLE}}}table-row")]
    for node in rows:
        repeat = _count(node, "number-rows-repeated")
        col = 0
        values: list[tuple[int, Any]] = []
        for cell in node:
            tag = cell.tag if isinstance(cell.tag, str) else ""
            if tag not in (f"{{{TABLE}}}table-cell", f"{{{TABLE}}}covered-table-cell"):
                continue
            span = _count(cell, "number-columns-repeated")
            value = _value(cell) if tag == f"{{{TABLE}}}table-cell" else None
            if value is not None and value != "":
                values += [(c, value) for c in range(col, min(col + span, MAX_INDEX))]
            col += span
        if values:
            for r in range(row, min(row + repeat, MAX_INDEX)):
                budget[0] -= len(values)
                if budget[0] < 0:
                    raise bounded.LimitExceeded(f"the spreadsheet holds more than {MAX_CELLS} non-empty cells")
                cells.update({(r, c): v for c, v in values})
        row += repeat
    return cells


def load_ods(host: Path) -> OdsBook:
    mimetype, root = content_root(host)
    budget = [MAX_CELLS]
    sheets = [(t.get(f"{{{TABLE}}}name", ""), _sheet(t, budget))
              for t in root.iter(f"{{{TABLE}}}table")]
    return OdsBook(mimetype, tuple(sheets))


def load(state: Source, path: str) -> OdsBook:
    return state.read(path, load_ods, "OpenDocument spreadsheet")
