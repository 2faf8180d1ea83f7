"""calc.chart: insert a one-series chart (bar, column, line, pie or area) over a table's key and numeric column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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
    "Please add a {chart} to the sheet '{sheet}' of {path}. Use {categories} ('{cat_header}') as the categories "
    "and {values} as the only series, with the header '{header}' ({name_cell}) as the series name. Position it "
    "so it does not cover the data: its top-left corner must be in column {column} or to the right of it. "
    "Save the spreadsheet in place (xlsx).",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and chart the '{header}' values ({values}) as a "
    "{chart}, one series named '{header}' (from cell {name_cell}), labelled by {categories} from the "
    "'{cat_header}' column. Anchor the chart with its top-left corner in column {column} or further right. "
    "Keep the xlsx format when saving.",
    "The sheet '{sheet}' in {path} needs a {chart}. Build it from one data series, {values}, named by its "
    "header '{header}' in {name_cell}, with {categories} ('{cat_header}') as category labels, and place it "
    "right of the table (top-left corner in column {column} or beyond). Save the file in place as xlsx.",
)


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    params = values["params"]
    layout = cc.layout_from(values["table"], values["plan"])
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    column = ctx.rng("goal").choice(numeric)
    key = layout.columns_of("key")[0]
    target = {
        "chart_type": params["chart_type"],
        "column": column,
        "key": key,
        "values": layout.col_ref(column),
        "categories": layout.col_ref(key),
        "name_cell": f"{layout.letter(column)}1",
        # Leave one empty column between the table and the chart.
        "min_column": layout.letter(layout.width + 1),
    }
    facts = {"path": layout.path, "sheet": layout.sheet, "chart": CHART_WORDS[params["chart_type"]],
             "values": target["values"], "categories": target["categories"], "header": layout.header[column],
             "cat_header": layout.header[key], "name_cell": target["name_cell"], "column": target["min_column"]}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    t = values["target"]
    base = {"path": layout.path, "sheet": layout.sheet}
    header = layout.header[t["column"]]
    return {"rubric": [
        Check(id="chart-type",
              criterion=f"Sheet '{layout.sheet}' of {layout.path} holds exactly one chart, a {t['chart_type']} chart.",
              primitive="xlsx.chart_type", args={**base, "chart_type": t["chart_type"]}),
        Check(id="chart-series",
              criterion=f"The chart's single series plots {t['values']} with categories {t['categories']} "
                        f"and is named '{header}'.",
              primitive="xlsx.chart_series",
              args={**base, "values": t["values"], "categories": t["categories"], "series_name": header}),
        Check(id="chart-position",
              criterion=f"The chart's top-left corner is in column {t['min_column']} or further right "
                        "(it covers no data).",
              primitive="xlsx.chart_position", args={**base, "min_column": t["min_column"]}),
        cc.unchanged_check(layout),
    ]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    t = values["target"]
    anchor = f"{t['min_column']}2"
    chart = {"op": "xlsx.add_chart", "path": layout.path, "sheet": layout.sheet, "chart_type": t["chart_type"],
             "values": t["values"], "categories": t["categories"], "name_cell": t["name_cell"], "anchor": anchor}
    other = next(c for c in layout.columns_of(*cc.NUMERIC_KINDS) if c != t["column"])
    short = layout.last_row - 1
    val_letter, key_letter = layout.letter(t["column"]), layout.letter(t["key"])
    wrong = CONFUSED_WITH[t["chart_type"]]
    return {"solutions": [
        Solution("oracle", "insert the asked chart type over the stated ranges, right of the table", [chart]),
        Solution("near-miss-1", f"inserts a {wrong} chart instead of a {t['chart_type']} chart",
                 [{**chart, "chart_type": wrong}]),
        Solution("near-miss-2", "the ranges stop one row short, leaving out the last record",
                 [{**chart, "values": f"{val_letter}2:{val_letter}{short}",
                   "categories": f"{key_letter}2:{key_letter}{short}"}]),
        Solution("near-miss-3", f"charts the neighbouring numeric column '{layout.header[other]}' instead",
                 [{**chart, "values": layout.col_ref(other), "name_cell": f"{layout.letter(other)}1"}]),
        Solution("near-miss-4", "only the value column was selected: the chart has no category labels",
                 [{**chart, "categories": None}]),
        Solution("near-miss-5", "the header row is plotted as data and the series has no name",
                 [{**chart, "values": f"{val_letter}1:{val_letter}{layout.last_row}", "name_cell": None}]),
        Solution("near-miss-6", "the chart is left over the table instead of to its right",
                 [{**chart, "anchor": f"{layout.letter(layout.width - 2)}3"}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Insert a one-series chart of a stated type over a table's label and value columns.",
    knobs={"chart_type": tuple(CHART_WORDS)},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
