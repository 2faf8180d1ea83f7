"""writer.table_edit: edit an existing table: fill an empty cell, add a row at the end, insert a row below a
stated row, delete a stated row, or add a column at the right. The check compares the whole table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
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
NATURAL = (
    "In the table of {path.file}, {task}.",
    "Table in {path.file}: please {task}.",
    "Update {path.file}'s table: {task}.",
    "Please {task} in {path.file}'s table.",
    "For the table in {path.file}, {task}.",
)


def _row_text(row: list[str]) -> str:
    return " | ".join(row)


class Params(TypedDict):
    action: Literal["fill_cell", "add_row", "insert_row", "delete_row", "add_column"]


@dataclass(frozen=True)
class Target:
    action: str
    initial: list[list[str]]  # the table as the document has it (header row first)
    expected: list[list[str]]  # the table after the edit
    row: int = 0  # the row to fill (fill_cell) or delete (delete_row), 0 = the header
    col: int = 0  # the column to fill (fill_cell)
    value: str = ""  # the text to enter (fill_cell)
    cells: list[str] = field(default_factory=list)  # the new row's or column's cells (add_row, insert_row, add_column)
    position: int = 0  # where the new row goes (insert_row)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    action = params["action"]
    header = list(document["table"]["header"])
    rows = [list(r) for r in dict((r[0], r) for r in document["table"]["rows"]).values()]
    full = [header, *rows]
    initial, expected = [list(r) for r in full], [list(r) for r in full]
    if action == "fill_cell":
        r, c = rng.randint(1, len(rows)), rng.randint(1, 2)
        initial[r][c] = ""
        target = Target(action, initial, expected, row=r, col=c, value=full[r][c])
        task = (f"the \"{header[c]}\" cell of the row \"{full[r][0]}\" is empty; enter \"{full[r][c]}\" in it")
    elif action == "add_row":
        initial = full[:-1]
        target = Target(action, initial, expected, cells=full[-1])
        task = f"add a new row at the bottom with the cells {_row_text(full[-1])} (separated by |)"
    elif action == "insert_row":
        k = rng.randint(2, len(rows) - 1)
        initial = full[:k] + full[k + 1:]
        target = Target(action, initial, expected, cells=full[k], position=k)
        task = (f"insert a new row directly below the row \"{full[k - 1][0]}\" with the cells {_row_text(full[k])} "
                "(separated by |)")
    elif action == "delete_row":
        k = rng.randint(1, len(rows))
        expected = full[:k] + full[k + 1:]
        target = Target(action, initial, expected, row=k)
        task = f"delete the whole row \"{full[k][0]}\" (the row itself, not just its text)"
    else:
        title = rng.choice(("Contact", "Lead", "Reviewer"))
        names = [f"{f} {s}" for f, s in zip(rng.sample(FIRST, len(rows)), rng.sample(LAST, len(rows)), strict=True)]
        expected = [[*row, value] for row, value in zip(full, [title, *names], strict=True)]
        target = Target(action, initial, expected, cells=[title, *names])
        task = (f"add a column at the right end with the header \"{title}\" and fill its cells below the header, "
                f"from top to bottom, with: {', '.join(names)}")
    layout = wc.compose(rng, document, plan, table="grid")
    blocks = [wc.Grid(tuple(tuple(r) for r in initial)) if isinstance(b, wc.Grid) else b for b in layout.blocks]
    layout = layout.with_blocks(blocks)
    facts = {"path": layout.path, "task": task, "lead": wc.quoted(layout.texts("lead")[0])}
    return Goal(layout, facts, target)


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check(id="table", criterion=f"The only table in {layout.path} holds exactly the expected "
                                        f"{len(target.expected)} rows after the edit "
                                        f"({target.action.replace('_', ' ')}); all other cells unchanged.",
                  primitive="docx.table_equals", args={"path": layout.path, "expected": target.expected, "count": 1})]


def _attempts(path: str, target: Target) -> tuple[list[dict[str, Any]], list[Attempt]]:
    """The oracle's ops and the near-misses for the target's action."""
    n = len(target.initial)
    if target.action == "fill_cell":
        cell = {"op": "docx.set_cell", "path": path, "text": target.value}
        r, c = target.row, target.col
        wrong_row = r + 1 if r + 1 < n else r - 1
        return [{**cell, "row": r, "column": c}], [
            Attempt("fills the cell of the neighbouring row", [{**cell, "row": wrong_row, "column": c}]),
            Attempt("fills the wrong column of the row", [{**cell, "row": r, "column": 3 - c}]),
            Attempt("adds a new row instead of filling the cell",
                    [{"op": "docx.add_row", "path": path, "values": [target.initial[r][0], target.value, ""]}])]
    if target.action in ("add_row", "insert_row"):
        add = {"op": "docx.add_row", "path": path, "values": target.cells}
        oracle = [{**add, "position": target.position}] if target.action == "insert_row" else [add]
        misses = [Attempt("adds the row directly below the header", [{**add, "position": 1}]),
                  Attempt("leaves the last cell of the new row empty",
                          [{**oracle[0], "values": [*target.cells[:-1], ""]}])]
        if target.action == "insert_row":
            misses.append(Attempt("inserts the row above the stated row instead of below",
                                  [{**add, "position": target.position - 1}]))
            misses.append(Attempt("adds the row at the bottom", [add]))
        return oracle, misses
    if target.action == "delete_row":
        k = target.row
        delete = {"op": "docx.delete_row", "path": path}
        return [{**delete, "row": k}], [
            Attempt("deletes the neighbouring row", [{**delete, "row": k + 1 if k + 1 < n else k - 1}]),
            Attempt("clears the row's text but keeps the empty row",
                    [{"op": "docx.set_cell", "path": path, "row": k, "column": c, "text": ""} for c in range(3)])]
    cells = target.cells
    oracle = [{"op": "docx.add_column", "path": path, "values": cells}]
    return oracle, [
        Attempt("enters the names one row off", [{**oracle[0], "values": [cells[0], *cells[2:], cells[1]]}]),
        Attempt("forgets the column header", [{**oracle[0], "values": ["", *cells[1:]]}])]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    oracle, misses = _attempts(layout.path, target)
    return Attempts(Attempt(f"{target.action.replace('_', ' ')} as stated", oracle), misses)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Edit a Writer table: fill a cell, add or insert a row, delete a row, or add a column.",
    knobs={"action": ("fill_cell", "add_row", "insert_row", "delete_row", "add_column")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
