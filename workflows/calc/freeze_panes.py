"""calc.freeze_panes: freeze the header row, the first column, or both, at a stated cell."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.calc import kit as cc

NAME = "calc.freeze_panes"
#: target -> (freeze cell, what stays in view, near-miss cells with why)
TARGETS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "header_row": ("A2", "the header row (row 1)",
                   (("A3", "freezes two rows instead of one"), ("B1", "freezes the first column instead"),
                    ("B2", "freezes the first column as well"))),
    "first_column": ("B1", "the first column (column A)",
                     (("C1", "freezes two columns instead of one"), ("A2", "freezes the header row instead"),
                      ("B2", "freezes the header row as well"))),
    "both": ("B2", "both the header row (row 1) and the first column (column A)",
             (("A2", "freezes only the header row"), ("B1", "freezes only the first column"),
              ("C3", "freezes one row and one column too many"))),
}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', freeze the panes at cell {cell} to keep {what} in view while "
    "scrolling. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', keep {what} visible when scrolling by freezing panes at "
    "cell {cell}. Don't change the data, and save it in the same format.",
    "Please freeze {what} on sheet '{sheet}' of {path} (the frozen panes should start at cell {cell}). "
    "Save the workbook as xlsx.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and set frozen panes at {cell}, keeping {what} "
    "on screen however far you scroll. Save the spreadsheet in place.",
    "On sheet '{sheet}' in {path}, freeze rows and columns at cell {cell}, which locks {what} on screen. "
    "Save the file, keeping the xlsx format.",
)


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    cell, what, _ = TARGETS[values["params"]["target"]]
    layout = cc.layout_from(values["table"], values["plan"])
    facts = {"path": layout.path, "sheet": layout.sheet, "cell": cell, "what": what}
    return {"layout": layout, "facts": facts, "target": cell}


@node("rubric", "rubric", ("params", "layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    cell: str = values["target"]
    _, what, _ = TARGETS[values["params"]["target"]]
    check = Check(
        id="frozen",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, panes are frozen at {cell}, keeping {what} in view.",
        primitive="xlsx.freeze_panes",
        args={"path": layout.path, "sheet": layout.sheet, "cell": cell},
    )
    return {"rubric": [check, cc.unchanged_check(layout, exact=True)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    cell: str = values["target"]
    _, _, misses = TARGETS[values["params"]["target"]]
    base = {"op": "xlsx.freeze_panes", "path": layout.path, "sheet": layout.sheet}
    solutions = [Solution("oracle", f"freeze panes at {cell}", [{**base, "cell": cell}])]
    solutions += [Solution(f"near-miss-{i}", f"freezes at {wrong}: {why}", [{**base, "cell": wrong}])
                  for i, (wrong, why) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Freeze panes so the header row, the first column, or both stay visible while scrolling.",
    knobs={"target": ("header_row", "first_column", "both")},
    nodes=(*cc.source_nodes(), goal, cc.prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
