"""writer.text_to_table: a small table was typed as lines of text under a lead paragraph, its cells split by tabs or
semicolons; convert those lines into a real table in their place (Table > Convert > Text to Table), optionally with
a bold header row.

The check reads the block after the lead paragraph: a table with a row per line and a column per cell, no cell still
holding the separator, no line left as a paragraph. The frame keeps the rest of the document.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.text_to_table"
MARK = {"tab": "\t", "semicolon": "; "}
SAID = {"tab": "tabs", "semicolon": "semicolons"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer. The {n} lines right after the paragraph {lead} are a table typed as text, "
    "with the cells separated by {sep}. Convert them into a real table in the same place: one row per line, one "
    "column per cell.{bold} Change nothing else and save the document in place as .docx.",
    "In the document {path}, turn the {n} lines below {lead} (cells separated by {sep}) into a table with Table > "
    "Convert > Text to Table, so each line becomes a row and each cell a column.{bold} Save the file in Word format "
    "under the same name.",
    "Please convert the text under the paragraph {lead} in {path} into a table: {n} lines whose cells are "
    "separated by {sep}, one table row per line.{bold} Keep everything else as it is and save it as .docx.",
    "Edit {path}: the {n} lines after {lead} should be a table, not text. Convert them (their cells are separated by "
    "{sep}) so that the table sits where the lines were.{bold} Save your changes to the same .docx file.",
    "Using LibreOffice Writer, make a table out of the {n} lines that follow the paragraph {lead} in {path}; their "
    "cells are separated by {sep}. Each line is one row.{bold} Keep the .docx format when saving.",
)
NATURAL = (
    "In {path.file}, the lines under {lead} were typed with {sep} between the cells. Please turn them into a proper "
    "table.{bold}",
    "Could you convert the lines after {lead} in {path.file}, whose cells are separated by {sep}, into a real "
    "table?{bold}",
    "The rows below {lead} in {path.file} are just text split by {sep}. Please make them a table, one row per "
    "line.{bold}",
    "I typed a table as text in {path.file}, under {lead}, with {sep} between cells. Please convert it into an "
    "actual table.{bold}",
    "Please make the {n} lines after {lead} in my document {path.file} a table; the cells are separated by "
    "{sep}.{bold}",
)


class Params(TypedDict):
    separator: Literal["tab", "semicolon"]
    header: Literal["plain", "bold"]


@dataclass(frozen=True)
class Target:
    separator: str
    after: str  # the locator of the lead paragraph the lines follow
    rows: list[list[str]]  # the table the lines hold, header first
    bold: bool


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    separator, bold = params["separator"], params["header"] == "bold"
    layout = wc.compose(rng, document, plan, table="lead")
    table = document["table"]
    rows = [list(table["header"])] + [list(r) for r in table["rows"][:rng.randint(3, 5)]]
    blocks = list(layout.blocks)
    at = next(i for i, b in enumerate(blocks) if isinstance(b, wc.Para) and b.role == "lead") + 1
    lines = [wc.Para(MARK[separator].join(row), "line") for row in rows]
    layout = layout.with_blocks(blocks[:at] + lines + blocks[at:])
    lead = blocks[at - 1]
    assert isinstance(lead, wc.Para)
    after = layout.locate(lead.text)
    assert after is not None
    facts = {"path": layout.path, "lead": wc.quoted(after), "n": str(len(rows)), "sep": SAID[separator],
             "bold": " Make the first row, the header, bold." if bold else ""}
    return Goal(layout, facts, Target(separator, after, rows, bold))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    bold = ", with only its first row bold" if target.bold else ""
    return [Check(id="table", criterion=f"In {layout.path}, the {len(target.rows)} lines after the paragraph "
                                        f"{wc.quoted(target.after)} are one table in their place, a row per line "
                                        f"and a column per cell{bold}; none of them is left as text.",
                  primitive="docx.text_table",
                  args={"path": layout.path, "after": target.after, "rows": target.rows,
                        "separator": target.separator, "bold_header": target.bold})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.text_to_table", "path": layout.path, "after": target.after, "count": len(target.rows),
            "separator": target.separator, "bold_header": target.bold}
    near = [Attempt("converts at the wrong separator: each line lands in one cell", [{**base, "split": False}]),
            Attempt("leaves the header line out of the table, as text above it", [{**base, "first": 1}]),
            Attempt("builds the table but keeps the typed lines below it", [{**base, "keep_text": True}])]
    if target.bold:
        near.append(Attempt("leaves the header row in normal weight", [{**base, "bold_header": False}]))
    else:
        near.append(Attempt("misses the last line, which stays text below the table",
                            [{**base, "last": len(target.rows) - 1}]))
    return Attempts(Attempt("convert the lines into a table in their place", [base]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Convert lines of tab- or semicolon-separated text under a stated paragraph into a real table in "
                "their place, optionally with a bold header row.",
    knobs={"separator": ("tab", "semicolon"), "header": ("plain", "bold")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
