"""writer.table_insert: insert a table with stated contents after a stated paragraph or at the document's end,
optionally with a bold header row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params = values["params"]
    document = values["document"]
    at_end = params["placement"] == "end"
    layout = wc.compose(rng, document, values["plan"], table="" if at_end else "lead")
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
    return {"layout": layout, "facts": facts, "target": {"rows": rows, "after": after, "bold": bold}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    where = f"directly after the paragraph {wc.quoted(t['after'])}" if t["after"] else "at the end of the document"
    args: dict[str, Any] = {"path": layout.path, "rows": t["rows"], "count": 1, "bold_header": t["bold"]}
    if t["after"]:
        args["after"] = t["after"]
    return {"rubric": [Check(
        id="table", criterion=f"{layout.path} has one table, {where}, holding exactly the stated {len(t['rows'])} "
                              "rows" + (" with a bold header row." if t["bold"] else "."),
        primitive="docx.table_inserted", args=args), wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    rows: list[list[str]] = t["rows"]
    base = {"op": "docx.insert_table", "path": layout.path, "bold_header": t["bold"]}
    here = {"after": t["after"]} if t["after"] else {}
    elsewhere = {} if t["after"] else {"after": layout.locate(layout.texts("body")[0])}
    swapped = [list(r) for r in rows]
    swapped[1][1], swapped[2][1] = rows[2][1], rows[1][1]
    if swapped == rows:
        swapped[1][1] = rows[1][1] + " " + rows[1][2]
    third = (Solution("near-miss-3", "leaves the header row in normal weight",
                      [{**base, "rows": rows, **here, "bold_header": False}]) if t["bold"] else
             Solution("near-miss-3", "mixes up two cells of the second column", [{**base, "rows": swapped, **here}]))
    return {"solutions": [
        Solution("oracle", "inserts the stated rows at the stated place", [{**base, "rows": rows, **here}]),
        Solution("near-miss-1", "leaves out the last row", [{**base, "rows": rows[:-1], **here}]),
        Solution("near-miss-2", "inserts the table at the wrong place", [{**base, "rows": rows, **elsewhere}]),
        third,
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Insert a table with stated rows after a stated paragraph or at the end, optionally bold header.",
    knobs={"placement": ("after_paragraph", "end"), "header": ("plain", "bold")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
