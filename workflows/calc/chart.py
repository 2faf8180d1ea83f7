"""calc.chart: insert a one-series chart (bar, column, line, pie or area) over a table's key and numeric column."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import with_article
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.chart"
CHART_WORDS = {
    "bar": "bar chart (horizontal bars)",
    "column": "column chart (vertical bars)",
    "line": "line chart",
    "pie": "pie chart",
    "area": "area chart",
}
#: The chart type a hurried agent picks instead (a near-miss).
CONFUSED_WITH = {"bar": "column", "column": "bar", "line": "area", "pie": "column", "area": "line"}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', insert a single {chart} that plots the values in {values} "
    "against the labels in {categories} (the '{cat_header}' column). It must have exactly one data series, "
    "named after its header '{header}' (cell {name_cell}). Place the chart to the right of the table, with its "
    "top-left corner in column {column} or further right, and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', create one {chart} of the '{header}' column: data range {values}, "
    "category labels {categories} ('{cat_header}'), a single series whose name is the header '{header}' in "
    "{name_cell}. Put the chart beside the table so its top-left corner lies in column {column} or beyond, "
    "then save the workbook in the same xlsx format.",
    "Please add {chart.a} to the sheet '{sheet}' of {path}. Use {categories} ('{cat_header}') as the categories "
    "and {values} as the only series, with the header '{header}' ({name_cell}) as the series name. Position it "
    "so it does not cover the data: its top-left corner must be in column {column} or to the right of it. "
    "Save the spreadsheet in place (xlsx).",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and chart the '{header}' values ({values}) as "
    "{chart.a}, one series named '{header}' (from cell {name_cell}), labelled by {categories} from the "
    "'{cat_header}' column. Anchor the chart with its top-left corner in column {column} or further right. "
    "Keep the xlsx format when saving.",
    "The sheet '{sheet}' in {path} needs {chart.a}. Build it from one data series, {values}, named by its "
    "header '{header}' in {name_cell}, with {categories} ('{cat_header}') as category labels, and place it "
    "right of the table (top-left corner in column {column} or beyond). Save the file in place as xlsx.",
)
NATURAL = (
    "Make {chart.a} of '{header}' for each '{cat_header}' in {path.file}, placed to the right of the data from "
    "column {column} on.",
    "Help me chart the '{header}' values by '{cat_header}' on the '{sheet}' sheet of {path.file}: {chart.a}, "
    "kept clear of the table at column {column} or further right.",
    "I need {chart.a} in {path.file} showing '{header}' per '{cat_header}', placed beside the table (starting "
    "at column {column} or later). Save it afterwards.",
    "Could you add a chart of the '{header}' column against '{cat_header}' to {path.file}? Make it "
    "{chart.a}, placed away from the data at column {column} or beyond.",
    "Please visualize '{header}' by '{cat_header}' in {path.file} with {chart.a}, and put it right of the "
    "table, from column {column} onward."
)


class Params(TypedDict):
    chart_type: Literal["bar", "column", "line", "pie", "area"]


@dataclass(frozen=True)
class Target:
    chart_type: str
    column: int  # the charted numeric column
    key: int  # the label (key) column
    values: str  # the data cells of `column`, e.g. E2:E13
    categories: str  # the data cells of `key`
    name_cell: str  # the header cell that names the series
    min_column: str  # the leftmost column the chart's corner may sit in (one empty column after the table)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    column = rng.choice(layout.columns_of(*cc.NUMERIC_KINDS))
    key = layout.columns_of("key")[0]
    target = Target(chart_type=params["chart_type"], column=column, key=key, values=layout.col_ref(column),
                    categories=layout.col_ref(key), name_cell=f"{layout.letter(column)}1",
                    min_column=layout.letter(layout.width + 1))
    facts = {"path": layout.path, "sheet": layout.sheet, "chart": CHART_WORDS[params["chart_type"]],
             "values": target.values, "categories": target.categories, "header": layout.header[column],
             "cat_header": layout.header[key], "name_cell": target.name_cell, "column": target.min_column}
    return Goal(layout, facts, target)


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    t = target
    base = {"path": layout.path, "sheet": layout.sheet}
    header = layout.header[t.column]
    return [
        Check(id="chart-type",
              criterion=f"Sheet '{layout.sheet}' of {layout.path} holds exactly one chart, "
                        f"{with_article(t.chart_type)} chart.",
              primitive="xlsx.chart_type", args={**base, "chart_type": t.chart_type}),
        Check(id="chart-series",
              criterion=f"The chart's single series plots {t.values} with categories {t.categories} "
                        f"and is named '{header}'.",
              primitive="xlsx.chart_series",
              args={**base, "values": t.values, "categories": t.categories, "series_name": header}),
        Check(id="chart-position",
              criterion=f"The chart's top-left corner is in column {t.min_column} or further right "
                        "(it covers no data).",
              primitive="xlsx.chart_position", args={**base, "min_column": t.min_column}),
    ]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    t = target
    chart = {"op": "xlsx.add_chart", "path": layout.path, "sheet": layout.sheet, "chart_type": t.chart_type,
             "values": t.values, "categories": t.categories, "name_cell": t.name_cell, "anchor": f"{t.min_column}2"}
    other = next(c for c in layout.columns_of(*cc.NUMERIC_KINDS) if c != t.column)
    short = layout.last_row - 1
    val_letter, key_letter = layout.letter(t.column), layout.letter(t.key)
    wrong = CONFUSED_WITH[t.chart_type]
    return Attempts(
        Attempt("insert the asked chart type over the stated ranges, right of the table", [chart]),
        [Attempt(f"inserts {with_article(wrong)} chart instead of {with_article(t.chart_type)} chart",
                 [{**chart, "chart_type": wrong}]),
         Attempt("the ranges stop one row short, leaving out the last record",
                 [{**chart, "values": f"{val_letter}2:{val_letter}{short}",
                   "categories": f"{key_letter}2:{key_letter}{short}"}]),
         Attempt(f"charts the neighbouring numeric column '{layout.header[other]}' instead",
                 [{**chart, "values": layout.col_ref(other), "name_cell": f"{layout.letter(other)}1"}]),
         Attempt("only the value column was selected: the chart has no category labels",
                 [{**chart, "categories": None}]),
         Attempt("the header row is plotted as data and the series has no name",
                 [{**chart, "values": f"{val_letter}1:{val_letter}{layout.last_row}", "name_cell": None}]),
         Attempt("the chart is left over the table instead of to its right",
                 [{**chart, "anchor": f"{layout.letter(layout.width - 2)}3"}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Insert a one-series chart of a stated type over a table's label and value columns.",
    knobs={"chart_type": tuple(CHART_WORDS)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
