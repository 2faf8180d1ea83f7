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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from openpyxl.utils import coordinate_to_tuple, get_column_letter

from kit.axes import LOOKALIKES, look_alike_paths, pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.family import AppKit
from kit.model import HOME, Asset
from preparers import xlsx
from verifiers.formula import evaluate
from verifiers.grounding import leaks
from verifiers.readers.xlsx import cell_text
from workflows.calc.content import CONTENT_SCHEMA, SCENARIOS, check_table, fits, generate_table, scenarios_for
from workflows.common import instruction, spoken
from workflows.frame import tree_frame_node
from workflows.teacher import teacher_node

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
    date_format: str = ""  # axis `date_format`: the date column's display format ('' = the default ISO)
    lookalikes: int = 0  # axis `lookalikes`: older copies of the workbook beside it

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
        date_format=DATE_FORMATS.get(plan.get("date_format", ""), ""),
        lookalikes=int(plan.get("lookalikes", 0)),
    )


def workbook_spec(layout: Layout) -> dict[str, Any]:
    formats = {layout.letter(i): NUMBER_FORMATS[k] for i, k in enumerate(layout.kinds) if k in NUMBER_FORMATS}
    if layout.date_format:
        formats.update({layout.letter(i): layout.date_format for i in layout.columns_of("date")})
    sheets = [{"name": layout.sheet, "rows": [layout.header, *layout.rows], "number_formats": formats}]
    sheets += [{"name": name, "rows": rows} for name, rows in layout.extra_sheets]
    return {"sheets": sheets}


# --- numbers as an instruction writes them, ranges a near-miss shortens --------------------------------

def tidy(value: float) -> int | float:
    """A threshold as it is written: an int when whole, else rounded to 2 decimals."""
    value = round(float(value), 2)
    return int(value) if value.is_integer() else value


def show_number(value: float) -> str:
    """A number as an instruction writes it: 1,200 / 12.5 / 1,234.56."""
    return f"{tidy(value):,}"


def one_row_short(ref: str) -> str:
    """`D2:D13` -> `D2:D12`."""
    start, end = ref.split(":")
    letters = end.rstrip("0123456789")
    return f"{start}:{letters}{int(end[len(letters):]) - 1}"


# --- formula values over a layout, and answers that must not leak into the instruction -----------------

def layout_lookup(layout: Layout, extra: Mapping[str, Any] | None = None) -> Callable[[str | None, str], Any]:
    """A `verifiers.formula` lookup over the layout's sheet (header in row 1), plus `extra` cells (e.g. formulas)."""
    cells = dict(extra or {})

    def lookup(sheet: str | None, coord: str) -> Any:
        if sheet not in (None, layout.sheet):
            raise LookupError(f"no sheet {sheet!r}")
        if coord in cells:
            return cells[coord]
        row, col = coordinate_to_tuple(coord)
        if col > layout.width:
            return None
        if row == 1:
            return layout.header[col - 1]
        if 2 <= row <= layout.last_row:
            return layout.rows[row - 2][col - 1]
        return None

    return lookup


def evaluate_on(layout: Layout, formula: str, extra: Mapping[str, Any] | None = None) -> float:
    """The value `formula` would show on the layout's sheet (a float, rounded to 9 decimals)."""
    value = evaluate(formula, layout_lookup(layout, extra))
    if not isinstance(value, float):
        raise ValueError(f"{formula!r} gives {value!r}, not a number")
    return round(value, 9)


#: The smallest step and the decimals of a value of each numeric kind (moving a cell keeps its kind).
UNITS = {"int": 1, "money": 0.01, "number": 0.1}
DECIMALS = {"int": 0, "money": 2, "number": 1}


def leaky(value: Any, facts: Mapping[str, Any], phrasings: Sequence[str]) -> bool:
    """True when `value` would appear in any phrasing filled with `facts` (e.g. a count of 2 next to 'A2')."""
    return any(leaks(p.format(**spoken(facts)), value) for p in phrasings)


def unleak(rows: list[list[Any]], column: int, kind: str, row: int, value_of: Callable[[list[list[Any]]], Any],
           is_leaky: Callable[[Any], bool]) -> list[list[Any]]:
    """`rows` with rows[row][column] moved by a few units (kept distinct in the column, non-negative) so that
    `value_of(rows)` no longer leaks; deterministic. Raises ValueError when nothing nearby works."""
    unit, places = UNITS[kind], DECIMALS[kind]
    start = rows[row][column]
    used = {r[column] for r in rows}
    for step in [*range(1, 200), *range(-1, -200, -1)]:
        candidate = round(start + step * unit, places) if places else start + step
        if candidate in used or candidate < 0:
            continue
        trial = [list(r) for r in rows]
        trial[row][column] = candidate
        if not is_leaky(value_of(trial)):
            return trial
    raise ValueError(f"cannot move column {column} row {row} away from a leaking answer")


def deciding_row(values: list[float], function: str) -> int:
    """The row whose value changes the aggregate when moved: the extreme or the (upper) median, else the largest."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    if function == "MIN":
        return order[0]
    if function == "MEDIAN":
        return order[len(order) // 2]
    return order[-1]


# --- axis `indirection`: a column named by what it holds instead of by its header -------------------------

#: How a column is named by its content, for a kind the table holds once (a table has one key, one category and
#: one date column; a numeric kind only when no other column shares it). verifiers.grounding.by_property reads these.
PROPERTY = {"key": "the column that names each row", "category": "the category column", "date": "the date column",
            "money": "the column of amounts", "int": "the column of whole numbers",
            "number": "the column of one-decimal numbers"}


def by_property(layout: Layout, column: int) -> str:
    """How the instruction names `column` by what it holds: its kind's phrase when no other column has that kind,
    else its place ("the third column, C") — never its header."""
    kind = layout.kinds[column]
    if kind in PROPERTY and layout.kinds.count(kind) == 1:  # a kind a family adds (a 'ratio' column) goes by place
        return PROPERTY[kind]
    return f"the {ORDINALS[column]} column ({layout.letter(column)})"


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def refer(facts: dict[str, Any], plan: Mapping[str, Any], layout: Layout, column: int) -> dict[str, Any]:
    """`facts` for a task whose target is `column`: at `indirection` = property they carry `refer` (the header and
    the phrase that replaces it), which the kit's instruction node applies; at the default, unchanged."""
    if plan.get("indirection", "name") != "property":
        return facts
    return {**facts, "refer": [layout.header[column], by_property(layout, column)]}


def indirect(text: str, facts: Mapping[str, Any]) -> str:
    """The instruction with the quoted header of the target column replaced by its property phrase (`refer`)."""
    if "refer" not in facts:
        return text
    header, phrase = facts["refer"]
    for said, instead in ((f"the '{header}' column", phrase), (f"'{header}' column", phrase),
                          (f"column '{header}'", phrase), (f"'{header}' cells", f"cells of {phrase}"),
                          (f"'{header}' values", f"values of {phrase}"), (f"'{header}'", phrase)):
        text = text.replace(said, instead)
    return text.replace(f"the {phrase}", phrase).replace(f"The {phrase}", phrase[0].upper() + phrase[1:])


def calc_instruction(family: str, phrasings: Sequence[str], natural: Sequence[str] = ()) -> Node:
    """`workflows.common.instruction`, with the target column named by its property when the facts ask for it
    (axis `indirection`); the same node, and the same text, at the default level."""
    base = instruction(family, phrasings, natural)

    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        out = base.fn(ctx, values)
        if out and "refer" in values["facts"] and isinstance(out.get("instruction"), str):
            return {**out, "instruction": indirect(out["instruction"], values["facts"])}
        return out

    return replace(base, fn=run)


# --- shared nodes -----------------------------------------------------------------------------------

# --- difficulty axes (issue 15): the first level of each is today's behaviour, drawn with the same rng calls ---
AXES: dict[str, tuple[Any, ...]] = {
    # Up to 40 rows every scenario fits; the bigger levels draw from the scenarios that can hold that many distinct
    # keys, dates and numbers (content.scenarios_for), so the default and the seed levels keep their draws.
    "rows": ("8-16", "20-28", "32-40", "40-60", "120-200"),
    "location": ("near", "deep", "deeper"),
    "date_format": ("iso", "day_first", "month_first"),
    "lookalikes": LOOKALIKES,  # older copies of the workbook beside it
}
#: Axis `indirection` (declared by the families whose target is one column and whose phrasings say "the '{header}'
#: column": `family(..., axes=cc.INDIRECTION)`): the instruction names that column by its header, or by what it
#: holds ("the date column"; see `refer`).
INDIRECTION: dict[str, tuple[Any, ...]] = {"indirection": ("name", "property")}
#: Where the workbook lives per `location` level (same count as FOLDERS, so the draw is alike).
LOCATIONS = {"near": FOLDERS,
             "deep": ("Documents/archive/2024/reports", "work/clients/north/data", "Documents/finance/q3/ledgers",
                      "projects/ops/exports/sheets", "Desktop/inbox/to_file/sheets", "Documents/shared/team/tables"),
             "deeper": ("Documents/archive/2024/q3/reports/final/v2", "work/clients/north/2024/data/raw/xlsx",
                        "projects/ops/exports/monthly/sheets/old/keep", "Documents/shared/team/finance/q3/tables/in",
                        "Desktop/inbox/to_file/later/sheets/misc/x", "Documents/finance/ledgers/2024/h2/nov/work")}
DATE_FORMATS = {"day_first": "DD.MM.YYYY", "month_first": "MM/DD/YYYY"}


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    params = values["params"]
    low, high = span(pick(params, "rows", AXES))
    plan = {"scenario": rng.choice(scenarios_for(high)), "n_rows": rng.randint(low, high),
            "folder": rng.choice(LOCATIONS[pick(params, "location", AXES)])}
    for axis, levels in (*AXES.items(), *INDIRECTION.items()):  # only when moved: the default plan stays as it was
        if axis in ("date_format", "lookalikes", "indirection") and params.get(axis, levels[0]) != levels[0]:
            plan[axis] = params[axis]
    return {"plan": plan}


def _offline_table(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    plan = values["plan"]
    return generate_table(rng, n_rows=plan["n_rows"], scenario=plan["scenario"])


content = llm_node("content", kind="llm", inputs=("plan",), output="table", prompt="calc_content.txt",
                   schema=CONTENT_SCHEMA, offline=_offline_table, check=check_table)

#: Redraws of the offline table before one a family can use is found (each is one `generate_table` call).
REDRAWS = 40


def redrawn_content(usable: Callable[[Layout, Mapping[str, Any]], bool]) -> Node:
    """The content node of a family that needs something of its table (columns that mean something together, a
    money column): offline, the table is redrawn from the same RNG until `usable(layout, params)` (the plan's
    scenario first, then the other scenarios that fit the rows); the first draw is kept when it already fits. A
    model writes the table once (the family's goal falls back when it lacks what was wanted)."""

    def offline(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
        plan, params = values["plan"], values["params"]
        scenarios = [plan["scenario"]] + [name for name in SCENARIOS
                                          if name != plan["scenario"] and fits(name, plan["n_rows"])]
        table = generate_table(rng, n_rows=plan["n_rows"], scenario=plan["scenario"])
        for attempt in range(REDRAWS):
            if usable(layout_from(table, plan), params):
                return table
            scenario = scenarios[0] if attempt < REDRAWS // 4 else rng.choice(scenarios)
            table = generate_table(rng, n_rows=plan["n_rows"], scenario=scenario)
        return table

    return llm_node("content", kind="llm", inputs=("plan", "params"), output="table", prompt="calc_content.txt",
                    schema=CONTENT_SCHEMA, offline=offline, check=check_table)


def workbook_outputs(layout: Layout, data: bytes) -> dict[str, Any]:
    """The prepare node's outputs for one workbook: the asset at the layout's path, opened in Calc."""
    copies = [Asset(path, data, app="calc") for path in look_alike_paths(layout.path, layout.lookalikes)]
    return {"assets": [Asset(layout.path, data, app="calc"), *copies], "launch": ["libreoffice", "--calc", layout.path]}


@node("prepare", "prepare", ("layout",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: Layout = values["layout"]
    return workbook_outputs(layout, xlsx.build(workbook_spec(layout)))


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every Calc family."""
    return (sample, content)


#: The Calc app kit: families built with `kit.family.family(NAME, CALC, ...)`.
CALC = AppKit(apps=(APP,), source=source_nodes, state="layout", prepare=prepare, instruction=calc_instruction,
              axes=AXES, frame=tree_frame_node, teacher=teacher_node)
