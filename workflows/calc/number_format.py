"""calc.number_format: apply a number format (currency, percent, fixed decimals, a date style) to a column."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from preparers import xlsx
from workflows.calc import kit as cc
from workflows.calc.conditional_format import one_row_short

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


def _plural(n: int) -> str:
    return f"{n} decimal place{'' if n == 1 else 's'}"


def _add_share_column(layout: cc.Layout) -> tuple[cc.Layout, int]:
    """Append '<X> Share' = each row's X over the column total (fractions 0-1, 4 decimals)."""
    base = (layout.columns_of("money", "int") or layout.columns_of(*cc.NUMERIC_KINDS))[0]
    total = sum(float(v) for v in layout.column(base))
    rows = [[*row, round(float(row[base]) / total, 4)] for row in layout.rows]
    header = f"{layout.header[base]} Share"
    return replace(layout, header=[*layout.header, header], kinds=[*layout.kinds, "ratio"], rows=rows), base


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    fmt = values["params"]["format"]
    layout = cc.layout_from(values["table"], values["plan"])
    initial: dict[str, str] = {}
    check: dict[str, Any] = {}
    wrong_column = None
    if fmt == "currency":
        column = rng.choice(layout.columns_of("money") or layout.columns_of(*cc.NUMERIC_KINDS))
        check = {"kind": "currency", "symbol": "$", "decimals": 2}
        oracle = ORACLE[fmt]
        desc = "a US dollar currency format with the $ sign and 2 decimal places (for example $1,234.50)"
    elif fmt == "two_decimals":
        plain = layout.columns_of("int", "number")
        column = rng.choice(plain or layout.columns_of("money"))
        if not plain:
            initial[layout.letter(column)] = "General"
        check = {"kind": "number", "decimals": 2, "thousands": True}
        oracle = ORACLE[fmt]
        desc = "a number format with 2 decimal places and a thousands separator (for example 1,234.50)"
    elif fmt == "percent":
        layout, wrong_column = _add_share_column(layout)
        column = layout.width - 1
        decimals = rng.choice((0, 1, 2))
        check = {"kind": "percent", "decimals": decimals}
        oracle = ("0." + "0" * decimals if decimals else "0") + "%"
        desc = (f"a percentage format with {_plural(decimals)} (the cells hold fractions, so 0.1234 should "
                f"show as {12.34:.{decimals}f}%)")
    else:
        column = layout.columns_of("date")[0]
        first: dt.date = layout.column(column)[0]
        # May is the one month whose full and short names agree; it could not tell 'mmmm' from 'mmm'.
        example = dt.date(first.year, first.month if first.month != 5 else 6, 5)
        shown = example.isoformat() if fmt == "date_iso" else f"{example:%B} {example.day}, {example.year}"
        check = {"kind": "date", "example_date": example.isoformat(), "shows": shown}
        oracle = ORACLE[fmt]
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
    target = {"column": column, "ref": ref, "check": check, "oracle": oracle, "initial": initial,
              "wrong_ref": layout.col_ref(wrong_column) if wrong_column is not None else None}
    return {"layout": layout, "facts": facts, "target": target}


@node("prepare", "prepare", ("layout", "target"), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    wb = xlsx.build_workbook(cc.workbook_spec(layout))
    ws = wb[layout.sheet]
    for letter, code in values["target"]["initial"].items():
        for row in range(2, layout.last_row + 1):
            ws[f"{letter}{row}"].number_format = code
    return cc.workbook_outputs(layout, xlsx.to_bytes(wb))


@node("rubric", "rubric", ("params", "layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    check = Check(
        id="number_format",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell of {target['ref']} keeps its value and "
                  f"shows it with the asked {values['params']['format'].replace('_', ' ')} number format.",
        primitive="xlsx.number_format",
        args={"path": layout.path, "sheet": layout.sheet, "ref": target["ref"], **target["check"]},
    )
    return {"rubric": [check, cc.unchanged_check(layout, exact=True)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    target = values["target"]
    fmt = values["params"]["format"]
    base = {"op": "xlsx.set_number_format", "path": layout.path, "sheet": layout.sheet, "ref": target["ref"],
            "number_format": target["oracle"]}
    solutions = [
        Solution("oracle", "the asked number format on every data cell of the column", [base]),
        Solution("near-miss-1", "formats every cell but the last one", [{**base, "ref": one_row_short(target["ref"])}]),
    ]
    if fmt == "percent":
        decimals = target["check"]["decimals"]
        other = decimals + 1 if decimals < 2 else 1
        solutions += [
            Solution("near-miss-2", f"a percentage with {other} decimals instead of {decimals}",
                     [{**base, "number_format": "0." + "0" * other + "%"}]),
            Solution("near-miss-3", "formats the source column instead of the share column",
                     [{**base, "ref": target["wrong_ref"]}]),
        ]
    else:
        solutions += [Solution(f"near-miss-{i}", description, [{**base, "number_format": code}])
                      for i, (description, code) in enumerate(WRONG[fmt], start=2)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Apply a number format (currency, percent, fixed decimals or a date style) to a column's data.",
    knobs={"format": FORMATS},
    nodes=(*cc.source_nodes(), goal, prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
