"""Nodes and helpers shared by the LibreOffice Calc families.

Every Calc family starts with the same two nodes — `sample` (plan: scenario, size, folder) and the
`content` LLM node (a realistic table) — then its own `goal` node turns the table into a `Layout`
(the initial sheet) plus `facts` (the values the instruction states). The shared `prepare` node
builds the xlsx asset from the layout, and the shared `instruction` LLM node phrases the facts with
one of the family's phrasings (offline) or a model (online).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from openpyxl.utils import get_column_letter

from forge.dag import Node, NodeContext, llm_node, node
from forge.family import AppKit
from forge.model import HOME, Asset, Check
from preparers import xlsx
from verifiers.checks.xlsx_common import cell_text
from workflows.calc.content import CONTENT_SCHEMA, SCENARIOS, check_table, generate_table
from workflows.common import instruction

__all__ = ["instruction"]  # re-exported: families call cc.instruction(...)

APP = "libreoffice_calc"
FOLDERS = ("Documents", "Desktop", "Documents/reports", "work", "Documents/finance", "projects/data")
NUMBER_FORMATS = {"money": "#,##0.00", "number": "0.0"}
NUMERIC_KINDS = ("int", "money", "number")

@dataclass(frozen=True)
class Layout:
    """The initial sheet: where it lives, its header and rows (Python values), column kinds."""

    path: str
    sheet: str
    header: list[str]
    kinds: list[str]
    rows: list[list[Any]]
    title: str = ""
    extra_sheets: list[tuple[str, list[list[Any]]]] = field(default_factory=list)

    @property
    def width(self) -> int:
        return len(self.header)

    @property
    def last_row(self) -> int:
        return len(self.rows) + 1

    @property
    def last_letter(self) -> str:
        return get_column_letter(self.width)

    @property
    def data_ref(self) -> str:
        """The data rows without the header, e.g. A2:F13."""
        return f"A2:{self.last_letter}{self.last_row}"

    @property
    def table_ref(self) -> str:
        """Header and data, e.g. A1:F13."""
        return f"A1:{self.last_letter}{self.last_row}"

    def letter(self, index: int) -> str:
        return get_column_letter(index + 1)

    def columns_of(self, *kinds: str) -> list[int]:
        return [i for i, kind in enumerate(self.kinds) if kind in kinds]

    def column(self, index: int) -> list[Any]:
        return [row[index] for row in self.rows]

    def col_ref(self, index: int) -> str:
        """The data cells of one column, e.g. E2:E13."""
        letter = self.letter(index)
        return f"{letter}2:{letter}{self.last_row}"

    def with_rows(self, rows: list[list[Any]]) -> Layout:
        return replace(self, rows=rows)

    def text_rows(self) -> list[list[str]]:
        return [[cell_text(v) for v in row] for row in self.rows]

    @property
    def filename(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def layout_from(table: Mapping[str, Any], plan: Mapping[str, Any]) -> Layout:
    kinds = [c["kind"] for c in table["columns"]]
    rows = [[dt.date.fromisoformat(v) if kind == "date" else v for v, kind in zip(row, kinds, strict=True)]
            for row in table["rows"]]
    return Layout(
        path=f"{HOME}/{plan['folder']}/{table['file_stem']}.xlsx",
        sheet=table["sheet"],
        header=[c["name"] for c in table["columns"]],
        kinds=kinds,
        rows=rows,
        title=table["title"],
    )


def workbook_spec(layout: Layout) -> dict[str, Any]:
    formats = {layout.letter(i): NUMBER_FORMATS[k] for i, k in enumerate(layout.kinds) if k in NUMBER_FORMATS}
    sheets = [{"name": layout.sheet, "rows": [layout.header, *layout.rows], "number_formats": formats}]
    sheets += [{"name": name, "rows": rows} for name, rows in layout.extra_sheets]
    return {"sheets": sheets}


def unchanged_check(layout: Layout, *, skip: Callable[[str, str], bool] | None = None,
                    workbook: Any = None, check_id: str = "rest_unchanged", exact: bool = False) -> Check:
    """The check that every filled cell of the initial workbook outside the task's scope keeps its value.

    `skip(sheet, coord)` names the cells the task may change (none by default: a format, a chart or a new
    column changes no existing value). Catches an edited value, a deleted row, a dropped or renamed sheet.
    The initial cells come from `layout`, or from the openpyxl `workbook` when the family's prepare node
    adds more than the layout holds (a title row, labels). Numbers are kept as numbers, so the same digits
    retyped as text fail. `exact` (for tasks that add no cell, sheet or hidden row) also rejects any addition:
    a new sheet, a filled cell outside the initial ones, a hidden row or column."""
    if workbook is not None:
        sheets = [(ws.title, [[c.value for c in row] for row in ws.iter_rows()]) for ws in workbook.worksheets]
    else:
        sheets = [(layout.sheet, [layout.header, *layout.rows]), *layout.extra_sheets]
    cells: dict[str, Any] = {}
    for name, rows in sheets:
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                coord = f"{get_column_letter(c)}{r}"
                if value is not None and cell_text(value) != "" and not (skip and skip(name, coord)):
                    number = isinstance(value, int | float) and not isinstance(value, bool)
                    cells[f"{name}!{coord}"] = value if number else cell_text(value)
    args: dict[str, Any] = {"path": layout.path, "cells": cells}
    if exact:
        args.update(sheets=[name for name, _ in sheets], exact=True)
    return Check(id=check_id, criterion=f"Everything else in {layout.path} is unchanged: every other cell keeps "
                                        "its value, no row or sheet is removed or renamed.",
                 primitive="xlsx.unchanged", args=args)


def show(value: Any) -> str:
    """How a value is written in an instruction (dates ISO, money with 2 decimals)."""
    if isinstance(value, float):
        return f"{value:.2f}" if round(value, 2) != round(value, 1) else f"{value:g}"
    return cell_text(value)


# --- shared nodes -----------------------------------------------------------------------------------

@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    return {"plan": {"scenario": rng.choice(SCENARIOS), "n_rows": rng.randint(8, 16), "folder": rng.choice(FOLDERS)}}


def _offline_table(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    plan = values["plan"]
    return generate_table(rng, n_rows=plan["n_rows"], scenario=plan["scenario"])


content = llm_node("content", kind="llm", inputs=("plan",), output="table", prompt="calc_content.txt",
                   schema=CONTENT_SCHEMA, offline=_offline_table, check=check_table)


def workbook_outputs(layout: Layout, data: bytes) -> dict[str, Any]:
    """The prepare node's outputs for one workbook: the asset at the layout's path, opened in Calc."""
    return {"assets": [Asset(layout.path, data, app="calc")], "launch": ["libreoffice", "--calc", layout.path]}


@node("prepare", "prepare", ("layout",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: Layout = values["layout"]
    return workbook_outputs(layout, xlsx.build(workbook_spec(layout)))


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every Calc family."""
    return (sample, content)


#: The Calc app kit: families built with `forge.family.family(NAME, CALC, ...)`.
CALC = AppKit(apps=(APP,), source=source_nodes, state="layout", prepare=prepare, instruction=instruction)
