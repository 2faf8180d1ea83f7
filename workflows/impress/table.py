"""impress.table: insert a table of stated size on a title-only slide; fill its header row (and all rows)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.impress import kit as ic

NAME = "impress.table"
#: size -> (rows including the header row, columns)
SIZES = {"small": (3, 2), "medium": (4, 3), "large": (5, 4)}
PHRASINGS = (
    "Open {path} in LibreOffice Impress. On the slide '{slide}' (it has only a title), insert a table with "
    "{rows} rows and {cols} columns, counting the header row. {fill} " + ic.SAVE,
    "In the presentation {path}, the slide '{slide}' still needs its table: add one with {cols} columns and "
    "{rows} rows (the header row included). {fill} Do not change other slides. " + ic.SAVE,
    "Please insert a {rows} x {cols} table ({rows} rows, {cols} columns, header included) on the slide '{slide}' "
    "of {path}. {fill} Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}, go to the slide '{slide}' and use Insert > Table to add a table "
    "of {cols} columns and {rows} rows in total. {fill} " + ic.SAVE,
    "The slide '{slide}' in {path} should show a table with exactly {rows} rows (one header row plus data) and "
    "{cols} columns. {fill} Then save the presentation in place, keeping the pptx format.",
)


def _cells(row: list[str]) -> str:
    return ", ".join(f"'{c}'" for c in row)


@node("goal", "goal", ("params", "content", "plan"), ("deck", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    fill_kind = values["params"]["fill"]
    rows, cols = SIZES[values["params"]["size"]]
    table = values["content"]["table"]
    deck = ic.deck_from(values["content"], values["plan"])
    position = rng.randint(3, len(deck.slides) + 1)
    deck = deck.inserted(position, {"layout": "title_only", "title": table["title"]})
    header = list(table["header"][:cols])
    data = [list(r[:cols]) for r in table["rows"][:rows - 1]]
    fill = f"Type the header cells {_cells(header)} into the first row, from left to right."
    if fill_kind == "full":
        lines = "; ".join(f"row {i}: {_cells(r)}" for i, r in enumerate(data, start=2))
        fill += f" Fill the other rows, left to right, as follows: {lines}."
    else:
        fill += " Leave the other rows empty for now."
    facts = {"path": deck.path, "slide": table["title"], "rows": rows, "cols": cols, "fill": fill}
    target = {"slide": table["title"], "rows": rows, "cols": cols, "header": header, "data": data,
              "full": fill_kind == "full"}
    return {"deck": deck, "facts": facts, "target": target}


@node("rubric", "rubric", ("deck", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    args: dict[str, Any] = {"path": deck.path, "slide": t["slide"], "rows": t["rows"], "cols": t["cols"],
                            "header": t["header"]}
    if t["full"]:
        args["data"] = t["data"]
    filled = " and the stated data rows" if t["full"] else ""
    checks = [Check("table", f"'{t['slide']}' has a {t['rows']}x{t['cols']} table with header {t['header']}"
                                      f"{filled}.", "pptx.table", args)]
    return {"rubric": [*checks, ic.kept_check(deck, values["assets"], edited=[t["slide"]])]}


@node("solve", "solve", ("deck", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    header, data = t["header"], t["data"]
    body = data if t["full"] else [[""] * t["cols"] for _ in data]
    base = {"op": "pptx.add_table", "path": deck.path, "title": t["slide"]}
    titles = deck.titles
    i = titles.index(t["slide"])
    neighbour = titles[i - 1] if i > 1 else titles[i + 1]
    swapped = [header[1], header[0], *header[2:]]
    return {"solutions": [
        Solution("oracle", f"insert the {t['rows']}x{t['cols']} table", [{**base, "rows": [header, *body]}]),
        Solution("near-miss-1", "does not count the header row: one row too few", [{**base, "rows": [header,
                                                                                                      *body[:-1]]}]),
        Solution("near-miss-2", "types the first two header cells in swapped order",
                 [{**base, "rows": [swapped, *body]}]),
        Solution("near-miss-3", f"puts the table on the slide '{neighbour}'", [{**base, "title": neighbour,
                                                                               "rows": [header, *body]}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(ic.APP,),
    description="Insert a table of a stated size on a title-only slide and fill its header row (or every row).",
    knobs={"fill": ("header", "full"), "size": ("small", "medium", "large")},
    nodes=(*ic.source_nodes(), goal, ic.prepare, ic.instruction(NAME, PHRASINGS), rubric, solve),
)
