"""writer.page_columns: lay a whole Writer document out in two or three columns (a newsletter or a handout), with
or without a separator line between them, through the page style (Format > Page Style > Columns).

The check reads every section's columns; the frame keeps the text, the page size, orientation and margins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.page_columns"
WORDS = {2: "two", 3: "three"}
LINE = {"no": "", "yes": " Put a separator line between the columns."}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and lay the whole document out in {n} columns ({count} columns on every "
    "page) through the page style (Format > Page Style > Columns).{line} Keep the page size, orientation and "
    "margins, change no text, and save the document in place as .docx.",
    "In the document {path}, set the page style to {count} columns so that all of the text flows in {n} "
    "columns.{line} Nothing else should change; save the file in Word format under the same name.",
    "Please turn {path} into a {count}-column layout: every page in {n} columns (Format > Page Style > "
    "Columns).{line} Keep the .docx format when saving.",
    "Edit {path}: the pages should have {count} columns instead of one.{line} Don't change the text, the margins or "
    "the orientation, and save it as .docx in place.",
    "Using LibreOffice Writer, give the page style of {path} {n} columns ({count}).{line} Save your changes to the "
    "same .docx file.",
)
NATURAL = (
    "Could you set {path.file} in {count} columns, like a newsletter?{line}",
    "I'd like the pages of {path.file} laid out in {count} columns.{line}",
    "Please make {path.file} a {count}-column document, all pages.{line}",
    "In {path.file}, switch the page layout to {count} columns.{line}",
    "Help me turn {path.file} into a {count}-column handout.{line}",
)


class Params(TypedDict):
    count: Literal["2", "3"]
    line: Literal["no", "yes"]


@dataclass(frozen=True)
class Target:
    count: int
    line: bool


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    count, line = int(params["count"]), params["line"] == "yes"
    layout = wc.compose(rng, document, plan)
    facts = {"path": layout.path, "count": str(count), "n": WORDS[count], "line": LINE[params["line"]]}
    return Goal(layout, facts, Target(count, line))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    line = " with a separator line between them" if target.line else " and no separator line"
    return [Check(id="columns", criterion=f"Every page of {layout.path} is laid out in {target.count} "
                                          f"columns{line}.",
                  primitive="docx.page_columns",
                  args={"path": layout.path, "count": target.count, "line": target.line})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.set_columns", "path": layout.path, "count": target.count, "line": target.line}
    other = 3 if target.count == 2 else 2
    return Attempts(
        Attempt(f"{target.count} columns on the page style", [base]),
        [Attempt(f"sets {other} columns instead", [{**base, "count": other}]),
         Attempt("adds the separator line" if not target.line else "leaves out the separator line",
                 [{**base, "line": not target.line}]),
         Attempt("also turns the pages to landscape", [{**base, "landscape": True}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Lay a whole Writer document out in two or three page columns, with or without a separator line, "
                "keeping its text and page setup.",
    knobs={"count": ("2", "3"), "line": ("no", "yes")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
