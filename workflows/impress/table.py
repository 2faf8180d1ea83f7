"""impress.table: insert a table of stated size on a title-only slide; fill its header row (and all rows)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
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
NATURAL = (
    "Add a table with {cols} columns and {rows} rows to slide '{slide}' of {path.file}. {fill}",
    "Slide '{slide}' in {path.file} needs a table, {cols} columns by {rows} rows. {fill}",
    "Put a table of {rows} rows and {cols} columns on slide '{slide}', {path.file}. {fill}",
    "On slide '{slide}' of {path.file}, insert a table with {cols} columns and {rows} rows. {fill}",
    "Please add a table, {cols} columns and {rows} rows, to slide '{slide}' in {path.file}. {fill}",
)


class Params(TypedDict):
    fill: Literal["header", "full"]
    size: Literal["small", "medium", "large"]


@dataclass(frozen=True)
class Target:
    slide: str  # title of the title-only slide that gets the table
    rows: int  # rows, the header row included
    cols: int
    header: list[str]
    data: list[list[str]]  # the data rows' cells (typed only when `full`)
    full: bool  # every row is filled, not only the header


def _cells(row: list[str]) -> str:
    return ", ".join(f"'{c}'" for c in row)


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    fill_kind = params["fill"]
    rows, cols = SIZES[params["size"]]
    table = content["table"]
    deck = ic.deck_from(content, plan)
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
    return Goal(deck, facts, Target(table["title"], rows, cols, header, data, fill_kind == "full"))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": deck.path, "slide": target.slide, "rows": target.rows, "cols": target.cols,
                            "header": target.header}
    if target.full:
        args["data"] = target.data
    filled = " and the stated data rows" if target.full else ""
    checks = [Check("table", f"'{target.slide}' has a {target.rows}x{target.cols} table with header {target.header}"
                             f"{filled}.", "pptx.table", args)]
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    header, data = target.header, target.data
    body = data if target.full else [[""] * target.cols for _ in data]
    base = {"op": "pptx.add_table", "path": deck.path, "title": target.slide}
    titles = deck.titles
    i = titles.index(target.slide)
    neighbour = titles[i - 1] if i > 1 else titles[i + 1]
    swapped = [header[1], header[0], *header[2:]]
    return Attempts(
        Attempt(f"insert the {target.rows}x{target.cols} table", [{**base, "rows": [header, *body]}]),
        [Attempt("does not count the header row: one row too few", [{**base, "rows": [header, *body[:-1]]}]),
         Attempt("types the first two header cells in swapped order", [{**base, "rows": [swapped, *body]}]),
         Attempt(f"puts the table on the slide '{neighbour}'", [{**base, "title": neighbour,
                                                                 "rows": [header, *body]}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Insert a table of a stated size on a title-only slide and fill its header row (or every row).",
    knobs={"fill": ("header", "full"), "size": ("small", "medium", "large")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
