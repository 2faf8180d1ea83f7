"""calc.chart_titles: a column chart with a stated title, of a table's values per row: with both axis titles, with
two series named by their headers (a legend), or placed on a sheet of its own."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.chart_titles"
#: Names a person gives a sheet that holds only a chart.
CHART_SHEETS = ("Chart", "Chart View", "Graph", "Dashboard", "Visual")
PHRASINGS = (
    "Open {path} and, from the table on sheet '{sheet}', insert a column chart of {series} for each '{key}', "
    "{where}. Give the chart the title '{title}'{axes}. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', make a column chart that plots {series} per '{key}' (the '{key}' "
    "values as the labels), {where}. Its title must read '{title}'{axes}. Save it in the same format.",
    "Please chart the data on sheet '{sheet}' of {path}: a column chart of {series} by '{key}', {where}, titled "
    "'{title}'{axes}. Save the workbook as xlsx.",
    "The table on sheet '{sheet}' of {path} needs a column chart showing {series} for every '{key}'. Put it "
    "{where} and title it '{title}'{axes}. Save the spreadsheet in place.",
    "Using LibreOffice Calc (Insert > Chart), open {path}, go to sheet '{sheet}' and create a column chart of "
    "{series} with the '{key}' values as categories, {where}; chart title '{title}'{axes}. Save the file (keep the "
    "xlsx format).",
)
NATURAL = (
    "Make a column chart of {series} per '{key}' in {path.file}, {where}, titled '{title}'{axes}.",
    "Could you chart {series} for each '{key}' in {path.file} as a column chart {where}? Title: '{title}'{axes}.",
    "I need a column chart in {path.file} showing {series} by '{key}', {where}, with the title '{title}'{axes}.",
    "Help me add a column chart to {path.file}: {series} per '{key}', {where}, titled '{title}'{axes}.",
    "Please plot {series} by '{key}' from {path.file} in a column chart {where}, with the title '{title}'{axes}.",
)


class Params(TypedDict):
    extra: Literal["axis_titles", "two_series", "new_sheet"]


@dataclass(frozen=True)
class Target:
    values: tuple[int, ...]  # the plotted columns
    title: str
    x_title: str | None
    y_title: str | None
    chart_sheet: str  # where the chart sits (the table's sheet, or a new one)
    anchor: str


def _pair(layout: cc.Layout) -> list[int]:
    """Two columns of amounts a chart can compare side by side (same kind, money first), or none."""
    for kind in ("money", "int", "number"):
        columns = layout.columns_of(kind)
        if len(columns) >= 2:
            return columns[:2]
    return []


content = cc.redrawn_content(lambda layout, params: params["extra"] != "two_series" or bool(_pair(layout)))


def _y_title(layout: cc.Layout, column: int) -> str:
    return f"{layout.header[column]} ($)" if layout.kinds[column] == "money" else layout.header[column]


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    key = layout.header[0]
    extra = params["extra"]
    anchor = f"{layout.letter(layout.width + 1)}2"
    pair = _pair(layout)
    if extra == "two_series" and pair:
        values: tuple[int, ...] = tuple(pair)
        series = f"the '{layout.header[pair[0]]}' and '{layout.header[pair[1]]}' columns side by side"
        title = f"{layout.header[pair[0]]} vs {layout.header[pair[1]]} by {key}"
    else:
        values = (rng.choice(layout.columns_of(*cc.NUMERIC_KINDS)),)
        series = f"the '{layout.header[values[0]]}' values"
        title = f"{layout.header[values[0]]} by {key}"
    x_title = y_title = None
    axes = ""
    if extra == "axis_titles":
        x_title, y_title = key, _y_title(layout, values[0])
        axes = f", x axis title '{x_title}' and y axis title '{y_title}'"
    if extra == "two_series":
        axes = ", each series named by its header in the legend"
    if extra == "new_sheet":
        chart_sheet = rng.choice([n for n in CHART_SHEETS if n != layout.sheet])
        where, anchor = f"on a new sheet named '{chart_sheet}' added after '{layout.sheet}'", "A1"
    else:
        chart_sheet = layout.sheet
        where = f"right of the table (top-left corner at {anchor})"
    facts = {"path": layout.path, "sheet": layout.sheet, "key": key, "series": series, "where": where,
             "title": title, "axes": axes}
    return Goal(layout, facts, Target(values, title, x_title, y_title, chart_sheet, anchor))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    names = [layout.header[c] for c in target.values]
    kind = Check(
        id="type",
        criterion=f"The sheet '{target.chart_sheet}' of {layout.path} holds one chart, a column chart.",
        primitive="xlsx.chart_type",
        args={"path": layout.path, "sheet": target.chart_sheet, "chart_type": "column"},
    )
    data = Check(
        id="data",
        criterion=f"The chart plots {', '.join(repr(n) for n in names)} from '{layout.sheet}' (each series named by "
                  f"its header) over the '{layout.header[0]}' labels.",
        primitive="xlsx.chart_data",
        args={"path": layout.path, "sheet": target.chart_sheet, "data_sheet": layout.sheet,
              "values": [layout.col_ref(c) for c in target.values], "names": names,
              "categories": layout.col_ref(0)},
    )
    args: dict[str, Any] = {"path": layout.path, "sheet": target.chart_sheet, "title": target.title}
    if target.x_title is not None:
        args |= {"x_title": target.x_title, "y_title": target.y_title}
    titles = Check(
        id="titles",
        criterion=f"The chart's title reads '{target.title}'"
                  + (f", its x axis title '{target.x_title}' and its y axis title '{target.y_title}'."
                     if target.x_title is not None else "."),
        primitive="xlsx.chart_titles", args=args,
    )
    checks = [kind, data, titles]
    if params["extra"] == "new_sheet":  # the frame counts the sheets; their names and order are a goal check's
        checks.append(Check(
            id="sheets", criterion=f"{layout.path} has the sheets '{layout.sheet}' and '{target.chart_sheet}', in "
                                   f"that order.",
            primitive="xlsx.sheet_names", args={"path": layout.path, "expected": [layout.sheet, target.chart_sheet]}))
    return checks


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    extra = params["extra"]
    base: dict[str, Any] = {"op": "xlsx.titled_chart", "path": layout.path, "sheet": layout.sheet,
                            "values": [layout.col_ref(c) for c in target.values], "categories": layout.col_ref(0),
                            "title": target.title, "x_title": target.x_title, "y_title": target.y_title,
                            "anchor": target.anchor}
    if extra == "new_sheet":
        base["chart_sheet"] = target.chart_sheet
    misses = [Attempt("leaves the chart without a title", [{**base, "title": None}])]
    others = [c for c in layout.columns_of(*cc.NUMERIC_KINDS) if c not in target.values]
    if extra == "axis_titles":
        misses += [Attempt("swaps the two axis titles", [{**base, "x_title": target.y_title,
                                                            "y_title": target.x_title}]),
                   Attempt("gives the chart its title but no axis titles", [{**base, "x_title": None,
                                                                             "y_title": None}])]
    if extra == "two_series":
        misses += [Attempt("plots only the first column", [{**base, "values": base["values"][:1]}]),
                   Attempt("leaves the series unnamed (Series1, Series2 in the legend)", [{**base, "named": False}])]
    if extra == "new_sheet":
        misses.append(Attempt("puts the chart on the table's sheet instead of a new one",
                              [{**base, "chart_sheet": None, "anchor": f"{layout.letter(layout.width + 1)}2"}]))
    if others and extra != "two_series":
        misses.append(Attempt("charts another numeric column", [{**base, "values": [layout.col_ref(others[0])]}]))
    return Attempts(Attempt("insert the titled column chart as asked", [base]), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Insert a titled column chart of a table's values per row: with both axis titles, with two named "
                "series, or on a new sheet of its own.",
    knobs={"extra": ("axis_titles", "two_series", "new_sheet")},
    source=(cc.sample, content),
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
