"""xlsx primitives for a chart's titles and its series (calc.chart_titles): the single chart on a sheet has a stated
title and axis titles; it plots stated series (one or several, from its own sheet or another one) over stated
categories, each named by its header.

Titles are read from the chart part (openpyxl `Title.tx.rich`, as Calc and Excel save them); what else may change
is the frame's question.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils import range_boundaries

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_chart import _only_chart
from verifiers.meaning import Meaning
from verifiers.readers.xlsx import data_ref, name_of_series, plots, split_ref


def title_text(title: Any) -> str | None:
    """The text of a chart or axis title (its rich text runs joined), None when there is none."""
    tx = getattr(title, "tx", None)
    rich = getattr(tx, "rich", None)
    if rich is None:
        return None
    text = "\n".join("".join(str(getattr(r, "t", "") or "") for r in (getattr(p, "r", None) or []))
                     for p in (getattr(rich, "p", None) or []))
    return text.strip() or None


def _axis(chart: Any, which: str) -> Any:
    axis = getattr(chart, which, None)
    if axis is None:
        for plot in plots(chart):
            axis = getattr(plot, which, None)
            if axis is not None:
                break
    return axis


@primitive("xlsx.chart_titles", grounded=("path", "sheet", "title", "x_title", "y_title"),
           meaning=Meaning(action=r"title|caption|label|heading"))
def chart_titles(state: State, path: str, sheet: str, title: str, x_title: str | None = None,
                 y_title: str | None = None) -> Result:
    """The single chart on `sheet` has the title `title` and, when given, the category (x) axis title `x_title`
    and the value (y) axis title `y_title` (texts compared exactly after trimming)."""
    chart = _only_chart(state, path, sheet)
    got = {"title": title_text(getattr(chart, "title", None)),
           "x axis title": title_text(getattr(_axis(chart, "x_axis"), "title", None)),
           "y axis title": title_text(getattr(_axis(chart, "y_axis"), "title", None))}
    want = {"title": title, "x axis title": x_title, "y axis title": y_title}
    problems = [f"the {k} is {got[k]!r}, expected {v!r}" for k, v in want.items() if v is not None and got[k] != v]
    seen = ", ".join(f"{k} {got[k]!r}" for k, v in want.items() if v is not None)
    if problems:
        return fail(f"the chart on {sheet}: {'; '.join(problems)}")
    return ok(f"the chart on {sheet} has the {seen}")


def _same_range(formula: str | None, sheet: str, ref: str) -> bool:
    parsed = split_ref(formula, sheet)
    return parsed is not None and parsed[0] == sheet and parsed[1] == range_boundaries(ref)


@primitive("xlsx.chart_data", grounded=("path", "sheet", "data_sheet", "names"),
           meaning=Meaning(action=r"chart|graph|plot|series"))
def chart_data(state: State, path: str, sheet: str, data_sheet: str, values: list[str], names: list[str],
               categories: str) -> Result:
    """The single chart on `sheet` plots exactly the series `values` (ranges on `data_sheet`, in this order), each
    named `names[i]` (from its header cell or typed), over the labels `categories` (a range on `data_sheet`)."""
    if not values or len(values) != len(names):
        return fail("check misconfigured: one name per series")
    chart = _only_chart(state, path, sheet)
    series = [s for plot in plots(chart) for s in plot.series]
    seen = [data_ref(s.val) or data_ref(getattr(s, "yVal", None)) for s in series]
    if len(series) != len(values):
        return fail(f"the chart on {sheet} has {len(series)} series ({seen}), expected {len(values)}: "
                    f"{', '.join(f'{data_sheet}!{v}' for v in values)}")
    problems = []
    for i, (ser, ref, name) in enumerate(zip(series, values, names, strict=True)):
        if not _same_range(seen[i], data_sheet, ref):
            problems.append(f"series {i + 1} plots {seen[i]!r}, expected {data_sheet}!{ref}")
        cat = data_ref(ser.cat) or data_ref(getattr(ser, "xVal", None))
        if not _same_range(cat, data_sheet, categories):
            problems.append(f"series {i + 1} has the labels {cat!r}, expected {data_sheet}!{categories}")
        named, how = name_of_series(state, path, data_sheet, ser)
        if named is None or named.strip() != name:
            problems.append(f"series {i + 1} is named {named!r} ({how}), expected {name!r}")
    if problems:
        return fail(f"the chart on {sheet}: {'; '.join(problems[:4])}")
    return ok(f"the chart on {sheet} plots {', '.join(names)} from {data_sheet} over {categories}")
