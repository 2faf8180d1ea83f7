"""writer.table_insert: insert a table with stated contents after a stated paragraph or at the document's end,
optionally with a bold header row."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.table_insert"
PHRASINGS = (
    "Open {path} in LibreOffice Writer and insert a table {where}. It has {ncols} columns and {nrows} rows: {rows}."
    "{bold} Save the document in place as .docx.",
    "In {path}, add a {ncols} x {nrows} table (columns x rows) {where}, filled in row by row as follows: {rows}."
    "{bold} Keep the Word format when you save.",
    "Please put a table {where} in the document {path}. Use {ncols} columns and {nrows} rows with this content, "
    "row by row: {rows}.{bold} Then save the file under the same name (.docx).",
    "Using Table > Insert Table in Writer, create a table {where} in {path} with {nrows} rows and {ncols} columns "
    "holding: {rows}.{bold} Save it as .docx in place.",
    "The document {path} needs a table {where}. Enter these {nrows} rows of {ncols} cells each: {rows}.{bold} "
    "Save your changes in Word format.",
)
NATURAL = (
    "Add a table {where} in {path.file}, {ncols} columns by {nrows} rows: {rows}.{bold}",
    "Help me put a table with {ncols} columns {where} in {path.file}, with these rows: {rows}.{bold}",
    "Could you insert a table {where} in my document {path.file}? It has {nrows} rows and {ncols} "
    "columns: {rows}.{bold}",
    "I need a table {where} in {path.file} ({ncols} columns, {nrows} rows) holding {rows}.{bold}",
    "Please create a table {where} in {path.file} with {ncols} columns and {nrows} rows: {rows}.{bold}",
)


class Params(TypedDict):
    placement: Literal["after_paragraph", "end"]
    header: Literal["plain", "bold"]


@dataclass(frozen=True)
class Target:
    rows: list[list[str]]  # the table to insert, header row first
    after: str | None  # locator of the paragraph the table follows; None: at the end of the document
    bold: bool  # whether the header row must be bold


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    at_end = params["placement"] == "end"
    layout = wc.compose(rng, document, plan, table="" if at_end else "lead")
    if at_end:
        layout = layout.with_blocks([b for b in layout.blocks if not (isinstance(b, wc.Para) and b.role == "closing")])
        after = None
        where = "at the very end of the document, below the last paragraph"
    else:
        lead = layout.texts("lead")[0]
        after = layout.locate(lead)
        where = f"directly below the paragraph {wc.quoted(lead)}"
    table = document["table"]
    rows = [list(table["header"])] + [list(r) for r in table["rows"][:4]]
    shown = "; ".join(" | ".join(r) for r in rows)
    bold = params["header"] == "bold"
    facts = {"path": layout.path, "where": where, "ncols": len(rows[0]), "nrows": len(rows),
             "rows": f"{shown} (cells separated by |, the first row is the header)",
             "bold": " Make the text of the header row bold." if bold else ""}
    return Goal(layout, facts, Target(rows, after, bold))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    where = (f"directly after the paragraph {wc.quoted(target.after)}" if target.after else
             "at the end of the document")
    args: dict[str, Any] = {"path": layout.path, "rows": target.rows, "count": 1, "bold_header": target.bold}
    if target.after:
        args["after"] = target.after
    bold = " with a bold header row." if target.bold else "."
    return [Check(id="table", criterion=f"{layout.path} has one table, {where}, holding exactly the stated "
                                        f"{len(target.rows)} rows{bold}",
                  primitive="docx.table_inserted", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    rows = target.rows
    base = {"op": "docx.insert_table", "path": layout.path, "bold_header": target.bold}
    here = {"after": target.after} if target.after else {}
    elsewhere = {} if target.after else {"after": layout.locate(layout.texts("body")[0])}
    swapped = [list(r) for r in rows]
    swapped[1][1], swapped[2][1] = rows[2][1], rows[1][1]
    if swapped == rows:
        swapped[1][1] = rows[1][1] + " " + rows[1][2]
    third = (Attempt("leaves the header row in normal weight", [{**base, "rows": rows, **here, "bold_header": False}])
             if target.bold else
             Attempt("mixes up two cells of the second column", [{**base, "rows": swapped, **here}]))
    return Attempts(
        Attempt("inserts the stated rows at the stated place", [{**base, "rows": rows, **here}]),
        [Attempt("leaves out the last row", [{**base, "rows": rows[:-1], **here}]),
         Attempt("inserts the table at the wrong place", [{**base, "rows": rows, **elsewhere}]),
         third],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Insert a table with stated rows after a stated paragraph or at the end, optionally bold header.",
    knobs={"placement": ("after_paragraph", "end"), "header": ("plain", "bold")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
