"""calc.hide_columns: hide one or two stated columns of a table (by letter and header), keep the rest visible."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.calc import kit as cc

NAME = "calc.hide_columns"
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', hide {columns}. Hide rather than delete, keep every other "
    "column of the table visible, and save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', hide {columns} without deleting any data, and leave the "
    "remaining columns visible. Save it in the same format.",
    "Please hide {columns} on sheet '{sheet}' of {path}. The data must stay in the file, only hidden, and "
    "all other columns should remain shown. Save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and hide {columns}. Don't hide any other "
    "column and don't delete data. Save the spreadsheet in place.",
    "On sheet '{sheet}' in {path}, hide {columns} from view while keeping the data; the other columns must "
    "stay visible. Save the file, keeping the xlsx format.",
)


def _describe(letters: list[str], headers: list[str]) -> str:
    parts = [f"{letter} ('{header}')" for letter, header in zip(letters, headers, strict=True)]
    return f"column {parts[0]}" if len(parts) == 1 else f"columns {' and '.join(parts)}"


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    count = values["params"]["count"]
    rng = ctx.rng("goal")
    layout = cc.layout_from(values["table"], values["plan"])
    candidates = list(range(1, layout.width))  # never the key column A
    if count == "one":
        chosen = [rng.choice(candidates)]
    else:
        pairs = [(a, b) for a in candidates for b in candidates if b - a >= 2]
        chosen = list(rng.choice(pairs))
    letters = [layout.letter(i) for i in chosen]
    headers = [layout.header[i] for i in chosen]
    facts = {"path": layout.path, "sheet": layout.sheet, "columns": _describe(letters, headers)}
    # a neighbour of the (last) target column that is not itself a target: the "adjacent column" mistake
    last = chosen[-1]
    neighbour = last + 1 if last + 1 < layout.width and last + 1 not in chosen else last - 1
    return {"layout": layout, "facts": facts, "target": {"columns": chosen, "neighbour": neighbour}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    chosen: list[int] = values["target"]["columns"]
    letters = [layout.letter(i) for i in chosen]
    headers = [layout.header[i] for i in chosen]
    visible = [layout.letter(i) for i in range(layout.width) if i not in chosen]
    check = Check(
        id="hidden",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {_describe(letters, headers)} "
                  f"{'are' if len(chosen) > 1 else 'is'} hidden (not deleted) and columns {', '.join(visible)} "
                  "stay visible.",
        primitive="xlsx.columns_hidden",
        args={"path": layout.path, "sheet": layout.sheet, "columns": letters, "headers": headers,
              "visible": visible},
    )
    return {"rubric": [check, cc.unchanged_check(layout)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    chosen: list[int] = values["target"]["columns"]
    neighbour: int = values["target"]["neighbour"]
    letters = [layout.letter(i) for i in chosen]
    base = {"op": "xlsx.hide_columns", "path": layout.path, "sheet": layout.sheet}
    solutions = [Solution("oracle", "hide exactly the stated columns", [{**base, "columns": letters}])]
    swapped = letters[:-1] + [layout.letter(neighbour)]
    if len(chosen) == 1:
        solutions += [
            Solution("near-miss-1", "hides the adjacent column instead", [{**base, "columns": swapped}]),
            Solution("near-miss-2", "hides the stated column together with its neighbour",
                     [{**base, "columns": letters + [layout.letter(neighbour)]}]),
        ]
    else:
        span = [layout.letter(i) for i in range(chosen[0], chosen[-1] + 1)]
        solutions += [
            Solution("near-miss-1", "hides only the first of the two columns", [{**base, "columns": letters[:1]}]),
            Solution("near-miss-2", "hides the adjacent column instead of the second one",
                     [{**base, "columns": swapped}]),
            Solution("near-miss-3", "hides the whole span between the two columns", [{**base, "columns": span}]),
        ]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Hide one or two stated columns of a table, leaving the other columns visible.",
    knobs={"count": ("one", "two")},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
