"""multi.totals_report: work out a figure from a Calc table (sum, average, maximum or row count; over all rows or
one category) and write it into a report — a Writer document or a text file — in place of "TBD" on a stated
line (Calc -> Writer / files).

The figure is the answer, so it is secret: the instruction names the column, the rows and the statistic, and
the check reads the number written after the stated label (any display format).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, LOOKALIKES
from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Asset, Check
from preparers.tree import FileSpec
from verifiers.readers.tree import text_lines
from workflows.calc import kit as cc
from workflows.multi import kit as mc

NAME = "multi.totals_report"
STATS = {"sum": ("Total {col}", "the total (sum) of the '{col}' column"),
         "average": ("Average {col}", "the average of the '{col}' column"),
         "max": ("Highest {col}", "the largest value in the '{col}' column"),
         "count": ("Number of entries", "the number of data rows")}
#: Difficulty axes (issue 15), honoured by the Calc kit's sample node: the workbook's rows, how deep it sits, and
#: older copies of it beside it.
AXES = {"rows": mc.ROWS, "location": LOCATION, "lookalikes": LOOKALIKES}
PHRASINGS = (
    "Using the workbook {workbook} (sheet '{sheet}'), work out {what}{rows}. Then open {report} and replace TBD in "
    "the line starting '{label}' with that number. Save {report} in place{keep}.",
    "The report {report} still has TBD after '{label}'. Fill it in with {what}{rows}, taken from sheet '{sheet}' "
    "of {workbook}, and save the report{keep}.",
    "Please compute {what}{rows} on sheet '{sheet}' of {workbook} and write the result into {report}, replacing "
    "the TBD that follows '{label}'. Save the report{keep}.",
    "Open {workbook} in LibreOffice Calc, find {what}{rows} (sheet '{sheet}'), and put that figure in {report} in "
    "place of TBD on the line '{label} TBD'. Save it{keep}.",
    "In {report}, the line '{label} TBD' needs its figure: {what}{rows}, from the sheet '{sheet}' of {workbook}. "
    "Replace TBD with the number and save the file{keep}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "My report {report} still says TBD after '{label}'. Using {workbook.file}, put {what}{rows} there and save "
    "it{keep}.",
    "Could you use {workbook.file} to work out {what}{rows}, and put it in {report} where '{label}' says TBD? Save "
    "it{keep}.",
    "In {report}, replace the TBD after '{label}' with {what} in {workbook.file}{rows}; save the report{keep}.",
    "Please put {what} in {workbook.file}{rows} into {report}, in place of TBD on the '{label}' line. Save it{keep}.",
    "Please finish {report}: put {what} in {workbook.file}{rows} on the '{label}' line instead of TBD. Save "
    "it{keep}.",
)


class Params(TypedDict):
    target: Literal["docx", "txt"]
    stat: Literal["sum", "average", "max", "count"]
    scope: Literal["all", "category"]


@dataclass(frozen=True)
class Target:
    report: str  # the docx or text file with the TBD line
    label: str  # the line's label, before TBD
    answer: float
    kind: str  # the kind of the computed column (money is written with two decimals)
    col: int  # the computed column
    category: str | None  # the category value the rows are limited to (None: all rows)
    cat: int  # the category column
    layout: cc.Layout


def _value(layout: cc.Layout, stat: str, col: int, category: str | None, cat: int) -> float:
    values = [r[col] for r in layout.rows if category is None or r[cat] == category]
    if stat == "sum":
        return round(sum(values), 2)
    if stat == "average":
        return round(sum(values) / len(values), 2)
    if stat == "max":
        return float(max(values))
    return float(len(values))


def _written(value: float, kind: str) -> str:
    return f"{value:,.2f}" if kind == "money" or value != int(value) else f"{int(value)}"


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    layout = cc.layout_from(content["table"], plan["table"])
    stat, cat = params["stat"], layout.columns_of("category")[0]
    first, last = mc.person(rng)
    stem = content["table"]["file_stem"]
    report = (f"{HOME}/{rng.choice(mc.REPORT_FOLDERS)}/{stem}_report.docx" if params["target"] == "docx"
              else f"{HOME}/{rng.choice(('Documents', 'Desktop', 'Documents/notes'))}/{stem}_summary.txt")
    values_seen = layout.column(cat)
    options = [(c, g) for c in layout.columns_of(*cc.NUMERIC_KINDS)
               for g in (sorted({v for v in values_seen if values_seen.count(v) >= 2})
                         if params["scope"] == "category" else [None])]
    rng.shuffle(options)
    for col, category in options:
        label = STATS[stat][0].format(col=layout.header[col]) + (f" for {category}" if category else "") + ":"
        what = STATS[stat][1].format(col=layout.header[col])
        rows = f" over the rows whose {layout.header[cat]} is '{category}'" if category else " over all rows"
        rows += ", rounded to two decimals" if stat == "average" else ""
        facts = {"workbook": layout.path, "sheet": layout.sheet, "what": what, "rows": rows, "report": report,
                 "label": label, "keep": " as docx" if params["target"] == "docx" else ""}
        answer = _value(layout, stat, col, category, cat)
        if mc.clean_of(facts, answer):
            break
    if params["target"] == "docx":
        doc = mc.report(rng, report, layout.title, layout.filename, f"{first} {last}", [f"{label} TBD"])
        piece: tuple[str, Any] = ("writer", doc)
    else:
        text = f"{layout.title}\nPrepared by {first} {last}\n\n{label} TBD\nStatus: draft\n"
        piece = ("tree", [FileSpec(report, "text", text)])
    target = Target(report, label, answer, layout.kinds[col], col, category, cat, layout)
    return Goal(mc.Setup((("calc", layout), piece)), facts, target)


def rubric(params: Params, target: Target, assets: list[Asset]) -> list[Check]:
    t = target
    tolerance = 0.011 if params["stat"] == "average" else 0.005
    # the report's other lines, read from the initial file the checks' way: filling in TBD changes nothing else
    lines = text_lines(t.report, next(a.data for a in assets if a.dest == t.report))
    label = " ".join(t.label.split())
    others = [line for line in lines if not line.startswith(label)]
    figure = Check("figure", f"In {t.report}, the line starting '{t.label}' states the right figure "
                             "(and only it); the rest of the report is unchanged.",
                   "multi.number_in_text", {"path": t.report, "label": t.label, "value": t.answer,
                                            "tolerance": tolerance, "others": others})
    return [figure]  # a Writer report keeps the look of its other lines: the frame's question


def solve(params: Params, target: Target) -> Attempts:
    t, p, layout = target, params, target.layout

    def fill(value: float) -> list[dict[str, Any]]:
        text = _written(value, t.kind if p["stat"] in ("sum", "average", "max") else "int")
        if p["target"] == "docx":
            return [mc.op("docx.replace_text", t.report, old="TBD", new=text)]
        return [mc.op("fs.replace_in_file", t.report, old="TBD", new=text)]

    def value(stat: str = p["stat"], col: int = t.col, category: str | None = t.category) -> float:
        return _value(layout, stat, col, category, t.cat)

    other_col = next(c for c in layout.columns_of(*cc.NUMERIC_KINDS) if c != t.col)
    wrong_stat = {"sum": "average", "average": "sum", "max": "sum", "count": "count"}[p["stat"]]
    slips: list[tuple[str, float]] = [
        ("uses the neighbouring numeric column", value(col=other_col)),
        (f"computes the {wrong_stat} instead" if wrong_stat != p["stat"] else "counts the header row too",
         value(stat=wrong_stat) if wrong_stat != p["stat"] else value() + 1),
    ]
    if t.category is not None:
        slips.append(("takes every row, not only the stated category", value(category=None)))
    misses = [Attempt("computes the figure in the workbook but leaves TBD in the report",
                      [mc.op("xlsx.set_cells", layout.path, sheet=layout.sheet,
                             cells={f"A{layout.last_row + 2}": t.answer})])]
    misses += [Attempt(why, fill(v)) for why, v in slips if abs(v - t.answer) > 0.02]
    return Attempts(Attempt("compute the figure and write it after the label", fill(t.answer)), misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.CALC, mc.WRITER, mc.OS), table=mc.passing(*AXES)),
    description="Compute a figure (sum, average, maximum, row count) from a Calc table, for all rows or one "
                "category, and write it into a Writer report or a text file in place of TBD.",
    knobs={"target": ("docx", "txt"), "stat": tuple(STATS), "scope": ("all", "category")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
