"""writer.table_edit: edit an existing table: fill an empty cell, add a row at the end, insert a row below a
stated row, delete a stated row, or add a column at the right. The check compares the whole table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.writer import kit as wc
from workflows.writer.content import FIRST, LAST

NAME = "writer.table_edit"
PHRASINGS = (
    "Open {path} in LibreOffice Writer. In the table, {task}. Leave the other cells as they are and save the "
    "document in place as .docx.",
    "The table in {path} needs one change: {task}. Please make it in Writer and save the file in Word format "
    "under the same name.",
    "Edit the table in the document {path}: {task}. Keep everything else unchanged and save as .docx.",
    "In {path} (open it in Writer), {task} in the table below the line {lead}. Save the document, keeping the "
    ".docx format.",
    "Please update {path}. In its table, {task}. When done, save the file in place as a Word document.",
)


def _row_text(row: list[str]) -> str:
    return " | ".join(row)


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    action = values["params"]["action"]
    document = values["document"]
    header = list(document["table"]["header"])
    rows = [list(r) for r in dict((r[0], r) for r in document["table"]["rows"]).values()]
    full = [header, *rows]
    initial, expected = [list(r) for r in full], [list(r) for r in full]
    t: dict[str, Any] = {}
    if action == "fill_cell":
        r, c = rng.randint(1, len(rows)), rng.randint(1, 2)
        initial[r][c] = ""
        t = {"row": r, "col": c, "value": full[r][c]}
        task = (f"the \"{header[c]}\" cell of the row \"{full[r][0]}\" is empty; enter \"{full[r][c]}\" in it")
    elif action == "add_row":
        initial = full[:-1]
        t = {"values": full[-1]}
        task = f"add a new row at the bottom with the cells {_row_text(full[-1])} (separated by |)"
    elif action == "insert_row":
        k = rng.randint(2, len(rows) - 1)
        initial = full[:k] + full[k + 1:]
        t = {"values": full[k], "position": k, "anchor": full[k - 1][0]}
        task = (f"insert a new row directly below the row \"{full[k - 1][0]}\" with the cells {_row_text(full[k])} "
                "(separated by |)")
    elif action == "delete_row":
        k = rng.randint(1, len(rows))
        expected = full[:k] + full[k + 1:]
        t = {"row": k}
        task = f"delete the whole row \"{full[k][0]}\" (the row itself, not just its text)"
    else:
        title = rng.choice(("Contact", "Lead", "Reviewer"))
        names = [f"{f} {s}" for f, s in zip(rng.sample(FIRST, len(rows)), rng.sample(LAST, len(rows)), strict=True)]
        expected = [[*row, value] for row, value in zip(full, [title, *names], strict=True)]
        t = {"values": [title, *names]}
        task = (f"add a column at the right end with the header \"{title}\" and fill its cells below the header, "
                f"from top to bottom, with: {', '.join(names)}")
    layout = wc.compose(rng, document, values["plan"], table="grid")
    blocks = [wc.Grid(tuple(tuple(r) for r in initial)) if isinstance(b, wc.Grid) else b for b in layout.blocks]
    layout = layout.with_blocks(blocks)
    facts = {"path": layout.path, "task": task, "lead": wc.quoted(layout.texts("lead")[0])}
    return {"layout": layout, "facts": facts,
            "target": {**t, "action": action, "initial": initial, "expected": expected}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    return {"rubric": [Check(
        id="table", criterion=f"The only table in {layout.path} holds exactly the expected {len(t['expected'])} rows "
                              f"after the edit ({t['action'].replace('_', ' ')}); all other cells unchanged.",
        primitive="docx.table_equals", args={"path": layout.path, "expected": t["expected"], "count": 1}),
        wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    path = layout.path
    n = len(t["initial"])
    action = t["action"]
    if action == "fill_cell":
        cell = {"op": "docx.set_cell", "path": path, "text": t["value"]}
        r, c = t["row"], t["col"]
        wrong_row = r + 1 if r + 1 < n else r - 1
        misses = [("fills the cell of the neighbouring row", [{**cell, "row": wrong_row, "column": c}]),
                  ("fills the wrong column of the row", [{**cell, "row": r, "column": 3 - c}]),
                  ("adds a new row instead of filling the cell",
                   [{"op": "docx.add_row", "path": path, "values": [t["initial"][r][0], t["value"], ""]}])]
        oracle = [{**cell, "row": r, "column": c}]
    elif action in ("add_row", "insert_row"):
        add = {"op": "docx.add_row", "path": path, "values": t["values"]}
        oracle = [{**add, "position": t["position"]}] if action == "insert_row" else [add]
        misses = [("adds the row directly below the header", [{**add, "position": 1}]),
                  ("leaves the last cell of the new row empty", [{**oracle[0], "values": [*t["values"][:-1], ""]}])]
        if action == "insert_row":
            misses.append(("inserts the row above the stated row instead of below",
                           [{**add, "position": t["position"] - 1}]))
            misses.append(("adds the row at the bottom", [add]))
    elif action == "delete_row":
        k = t["row"]
        delete = {"op": "docx.delete_row", "path": path}
        oracle = [{**delete, "row": k}]
        misses = [("deletes the neighbouring row", [{**delete, "row": k + 1 if k + 1 < n else k - 1}]),
                  ("clears the row's text but keeps the empty row",
                   [{"op": "docx.set_cell", "path": path, "row": k, "column": c, "text": ""} for c in range(3)])]
    else:
        values_ = t["values"]
        oracle = [{"op": "docx.add_column", "path": path, "values": values_}]
        misses = [("enters the names one row off", [{**oracle[0], "values": [values_[0], *values_[2:], values_[1]]}]),
                  ("forgets the column header", [{**oracle[0], "values": ["", *values_[1:]]}])]
    return {"solutions": [Solution("oracle", f"{action.replace('_', ' ')} as stated", oracle)] + [
        Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Edit a Writer table: fill a cell, add or insert a row, delete a row, or add a column.",
    knobs={"action": ("fill_cell", "add_row", "insert_row", "delete_row", "add_column")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
