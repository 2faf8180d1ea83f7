"""calc.number_format: apply a number format (currency, percent, fixed decimals, a date style) to a column."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import xlsx
from workflows.calc import kit as cc

NAME = "calc.number_format"
FORMATS = ("currency", "percent", "two_decimals", "date_iso", "date_long")
#: the initial (different) format of the target column's data cells
INITIAL = {"percent": "0.0000", "date_iso": "mm/dd/yyyy", "date_long": "mm/dd/yyyy"}
#: LibreOffice-flavored codes, so the oracle exercises the same parsing a Calc-saved file needs
ORACLE = {"currency": "[$$-409]#,##0.00;[RED]-[$$-409]#,##0.00", "two_decimals": "#,##0.00",
          "date_iso": "yyyy\\-mm\\-dd", "date_long": "[$-409]mmmm d\\, yyyy;@"}
#: plausible wrong formats: (description, code)
WRONG = {
    "currency": (("a plain number format without the currency symbol", "#,##0.00"),
                 ("currency with no decimals", '"$"#,##0')),
    "two_decimals": (("2 decimals but no thousands separator", "0.00"),
                     ("one decimal instead of two", "#,##0.0")),
    "date_iso": (("day-month-year order instead of ISO", "dd-mm-yyyy"), ("a two-digit year", "yy-mm-dd")),
    "date_long": (("the abbreviated month name", "mmm d, yyyy"), ("the day before the month", "d mmmm yyyy")),
}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', give the '{header}' cells {ref} {format_desc}. Change only the "
    "number format, not the values, and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', format the data of the '{header}' column ({ref}) with "
    "{format_desc}. Keep the cell values as they are and save it in the same format.",
    "Please change the number format of {ref} ('{header}') on sheet '{sheet}' of {path} to {format_desc}. "
    "Don't retype the values; save the workbook as xlsx.",
    "The '{header}' values in {ref} on sheet '{sheet}' of {path} are hard to read. Apply {format_desc} to "
    "those cells, then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, select {ref} on sheet '{sheet}' (the '{header}' column) and apply "
    "{format_desc}. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Show '{header}' in {path.file} as {format_desc}.",
    "Format '{header}' of {path.file} with {format_desc}.",
    "{path.file}: display '{header}' with {format_desc}.",
    "Make '{header}' in {path.file} use {format_desc}.",
    "Please format {path.file}'s '{header}' with {format_desc}.",
)


def _plural(n: int) -> str:
    return f"{n} decimal place{'' if n == 1 else 's'}"


def _add_share_column(layout: cc.Layout) -> tuple[cc.Layout, int]:
    """Append '<X> Share' = each row's X over the column total (fractions 0-1, 4 decimals)."""
    base = (layout.columns_of("money", "int") or layout.columns_of(*cc.NUMERIC_KINDS))[0]
    total = sum(float(v) for v in layout.column(base))
    rows = [[*row, round(float(row[base]) / total, 4)] for row in layout.rows]
    header = f"{layout.header[base]} Share"
    return replace(layout, header=[*layout.header, header], kinds=[*layout.kinds, "ratio"], rows=rows), base


class Params(TypedDict):
    format: Literal["currency", "percent", "two_decimals", "date_iso", "date_long"]


@dataclass(frozen=True)
class Target:
    column: int  # the column to format
    ref: str  # its data cells
    shows: dict[str, Any]  # what the check expects the format to show (kind, decimals, symbol, an example date)
    code: str  # the number-format code the oracle applies
    initial: dict[str, str]  # column letter -> the format its data cells start with (a different one)
    source_ref: str | None  # percent: the column the share column is computed from (a near-miss formats it)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    fmt = params["format"]
    layout = cc.layout_from(table, plan)
    initial: dict[str, str] = {}
    shows: dict[str, Any] = {}
    source_column = None
    if fmt == "currency":
        column = rng.choice(layout.columns_of("money") or layout.columns_of(*cc.NUMERIC_KINDS))
        shows = {"kind": "currency", "symbol": "$", "decimals": 2}
        code = ORACLE[fmt]
        desc = "a US dollar currency format with the $ sign and 2 decimal places (for example $1,234.50)"
    elif fmt == "two_decimals":
        plain = layout.columns_of("int", "number")
        column = rng.choice(plain or layout.columns_of("money"))
        if not plain:
            initial[layout.letter(column)] = "General"
        shows = {"kind": "number", "decimals": 2, "thousands": True}
        code = ORACLE[fmt]
        desc = "a number format with 2 decimal places and a thousands separator (for example 1,234.50)"
    elif fmt == "percent":
        layout, source_column = _add_share_column(layout)
        column = layout.width - 1
        decimals = rng.choice((0, 1, 2))
        shows = {"kind": "percent", "decimals": decimals}
        code = ("0." + "0" * decimals if decimals else "0") + "%"
        desc = (f"a percentage format with {_plural(decimals)} (the cells hold fractions, so 0.1234 should "
                f"show as {12.34:.{decimals}f}%)")
    else:
        column = layout.columns_of("date")[0]
        first: dt.date = layout.column(column)[0]
        # May is the one month whose full and short names agree; it could not tell 'mmmm' from 'mmm'.
        example = dt.date(first.year, first.month if first.month != 5 else 6, 5)
        shown = example.isoformat() if fmt == "date_iso" else f"{example:%B} {example.day}, {example.year}"
        shows = {"kind": "date", "example_date": example.isoformat(), "shows": shown}
        code = ORACLE[fmt]
        now = f"{example:%m/%d/%Y}"
        desc = (f"the ISO date format YYYY-MM-DD (a date now shown as {now} should show as {shown})"
                if fmt == "date_iso" else
                f"a long date format with the full month name, the day without a leading zero and a four-digit "
                f"year (a date now shown as {now} should show as {shown})")
    if fmt in INITIAL:
        initial[layout.letter(column)] = INITIAL[fmt]
    ref = layout.col_ref(column)
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": ref, "header": layout.header[column],
             "format_desc": desc}
    source_ref = layout.col_ref(source_column) if source_column is not None else None
    return Goal(layout, cc.refer(facts, plan, layout, column), Target(column, ref, shows, code, initial, source_ref))


def prepare(layout: cc.Layout, target: Target) -> Mapping[str, Any]:
    """The table with the target column's data cells in their initial (different) number format."""
    wb = xlsx.build_workbook(cc.workbook_spec(layout))
    ws = wb[layout.sheet]
    for letter, code in target.initial.items():
        for row in range(2, layout.last_row + 1):
            ws[f"{letter}{row}"].number_format = code
    return cc.workbook_outputs(layout, xlsx.to_bytes(wb))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    check = Check(
        id="number_format",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {target.ref} keeps its value and "
                  f"shows it with the asked {params['format'].replace('_', ' ')} number format.",
        primitive="xlsx.number_format",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target.ref, **target.shows},
    )
    return [check]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    fmt = params["format"]
    base = {"op": "xlsx.set_number_format", "path": layout.path, "sheet": layout.sheet, "ref": target.ref,
            "number_format": target.code}
    misses = [Attempt("formats every cell but the last one", [{**base, "ref": cc.one_row_short(target.ref)}])]
    if fmt == "percent":
        decimals = target.shows["decimals"]
        other = decimals + 1 if decimals < 2 else 1
        misses += [
            Attempt(f"a percentage with {other} decimals instead of {decimals}",
                    [{**base, "number_format": "0." + "0" * other + "%"}]),
            Attempt("formats the source column instead of the share column", [{**base, "ref": target.source_ref}]),
        ]
    else:
        misses += [Attempt(description, [{**base, "number_format": code}]) for description, code in WRONG[fmt]]
    return Attempts(Attempt("the asked number format on every data cell of the column", [base]), misses)


#: A currency format goes on a column of money: the table is redrawn until it has one (Response Minutes in dollars
#: is not a task anyone has).
content = cc.redrawn_content(lambda layout, params: params["format"] != "currency" or bool(layout.columns_of("money")))

WORKFLOW = family(
    NAME, cc.CALC,
    source=(cc.sample, content),
    description="Apply a number format (currency, percent, fixed decimals or a date style) to a column's data.",
    knobs={"format": FORMATS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
    axes=cc.INDIRECTION,
)
