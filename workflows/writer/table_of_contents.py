"""writer.table_of_contents: put a table of contents at the top of a document, just before its first heading (after
the title and the lines under it), covering heading levels 1 to a stated one (Insert > Table of Contents and Index).

The check reads the TOC field, not its entries (the app generates them): exactly one, its outline levels as asked,
placed just before the first heading. The docx frame leaves a table of contents' paragraphs out and keeps the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.table_of_contents"
SCOPE = {1: "heading level 1 only", 2: "heading levels 1 to 2", 3: "heading levels 1 to 3"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and insert a table of contents (Insert > Table of Contents and Index) at "
    "the top of the document, right before the first heading {heading}, showing {scope}. Save it in place as .docx.",
    "In {path}, add a table of contents just above the heading {heading} (after the title), covering {scope}. "
    "Keep the text as it is and save the file in Word format under the same name.",
    "Please give {path} a table of contents, placed before its first heading {heading} and listing {scope}. "
    "Change nothing else and keep the .docx format.",
    "Using LibreOffice Writer, insert one automatic table of contents in {path} directly before the heading "
    "{heading}; evaluate {scope}. Save your changes to the same .docx file.",
    "Readers of {path} need an overview of its sections: insert a table of contents with {scope} at the start of "
    "the body, just before the heading {heading}. Don't edit any text; save it as .docx in place.",
)
NATURAL = (
    "Could you add a table of contents to {path.file} just before the first heading {heading}, with {scope}?",
    "Please put a table of contents at the top of {path.file}, right above {heading}, showing {scope}.",
    "I need an automatic table of contents in {path.file} before the heading {heading}, covering {scope}.",
    "Help me insert a table of contents into {path.file} ahead of the {heading} heading, listing {scope}.",
    "My report {path.file} needs a table of contents with {scope}, placed right before the heading {heading}.",
)


class Params(TypedDict):
    levels: Literal[1, 2, 3]


@dataclass(frozen=True)
class Target:
    heading: str  # locator of the first heading
    levels: int
    last: str  # locator of the document's last paragraph (near-miss)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    heading = wc.targets(layout, "heading")[0][1]
    levels = int(params["levels"])
    facts = {"path": layout.path, "heading": wc.quoted(heading), "scope": SCOPE[levels]}
    return Goal(layout, facts, Target(heading, levels, layout.texts()[-1]))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check("toc", f"{layout.path} has one table of contents covering {SCOPE[target.levels]}, placed just "
                         f"before the heading {wc.quoted(target.heading)}.",
                  "docx.toc", {"path": layout.path, "levels": target.levels, "heading": target.heading})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.insert_toc", "path": layout.path, "before": target.heading, "levels": target.levels}
    other = 2 if target.levels == 3 else target.levels + 1
    return Attempts(
        Attempt(f"a table of contents of levels 1-{target.levels} before the first heading", [base]),
        [Attempt(f"evaluates levels 1-{other} instead", [{**base, "levels": other}]),
         Attempt("puts the table of contents at the end of the document", [{**base, "at_end": True}]),
         Attempt("types the headings as a list instead of a table of contents", [{**base, "typed": True}]),
         Attempt("inserts a second table of contents", [base, base])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Insert a table of contents of heading levels 1 to N at the top of a Writer document, just before "
                "its first heading.",
    knobs={"levels": (1, 2, 3)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
