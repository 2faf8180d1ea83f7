"""writer.bookmark: mark a stated heading with a bookmark of a stated name (Insert > Bookmark), so that links and
cross-references can jump to it.

The check reads the body's bookmarks (a writer's own, named with a leading "_", aside): exactly one, of that name,
on that heading. Bookmarks add no text, so the frame keeps the document.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.bookmark"
PHRASINGS = (
    "Open {path} in LibreOffice Writer and insert a bookmark named {name} on the heading {heading} (Insert > "
    "Bookmark). Do not change the text, and save the document in place as .docx.",
    "In the document {path}, add a bookmark called {name} to the heading {heading}. Keep the text as it is and "
    "save the file in Word format under the same name.",
    "Please bookmark the heading {heading} in {path} with the name {name}. Leave everything else untouched and keep "
    "the .docx format when saving.",
    "Using LibreOffice Writer, select the heading {heading} in {path} and insert a bookmark with the name {name}. "
    "Save your changes to the same .docx file.",
    "Other documents will link to the section {heading} of {path}: give its heading a bookmark named {name}. "
    "Don't edit any text; save it as .docx in place.",
)
NATURAL = (
    "Could you add a bookmark called {name} on the heading {heading} in {path.file}?",
    "Please bookmark the heading {heading} of {path.file} as {name}.",
    "In {path.file}, put a bookmark named {name} on the {heading} heading.",
    "I need a bookmark {name} at the heading {heading} in my document {path.file}.",
    "Help me insert a bookmark named {name} on the heading {heading} in {path.file}.",
)


class Params(TypedDict):
    pass


@dataclass(frozen=True)
class Target:
    heading: str  # locator of the heading
    name: str
    other: str  # locator of another heading (near-miss)


def _name(heading: str) -> str:
    words = [w for w in re.findall(r"[A-Za-z0-9]+", heading)
             if len(w) > 2 and w.lower() not in ("and", "the", "for", "with", "from", "our", "next", "this")][:2]
    words = words or ["section"]
    return "sec_" + "_".join(w.lower() for w in words)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    headings = wc.targets(layout, "heading")
    i = rng.randrange(len(headings))
    heading = headings[i][1]
    other = headings[i + 1][1] if i + 1 < len(headings) else headings[i - 1][1]
    name = _name(headings[i][0].text)
    facts = {"path": layout.path, "heading": wc.quoted(heading), "name": name}
    return Goal(layout, facts, Target(heading, name, other))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check("bookmark", f"{layout.path} has one bookmark, named {target.name}, on the heading "
                              f"{wc.quoted(target.heading)}.",
                  "docx.bookmark", {"path": layout.path, "paragraph": target.heading, "name": target.name})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.add_bookmark", "path": layout.path, "paragraph_start": target.heading, "name": target.name}
    return Attempts(
        Attempt(f"bookmark {target.name} on the heading", [base]),
        [Attempt("bookmarks the neighbouring heading", [{**base, "paragraph_start": target.other}]),
         Attempt("names the bookmark after the heading's words instead", [{**base, "name": target.name[4:]}]),
         Attempt("puts the bookmark on both headings", [base, {**base, "paragraph_start": target.other,
                                                                 "name": target.name + "_2"}]),
         Attempt("types the name after the heading instead of a bookmark",
                 [{"op": "docx.replace_text", "path": layout.path, "old": target.heading,
                   "new": f"{target.heading} [{target.name}]"}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Insert a bookmark of a stated name on a stated heading of a Writer document, changing no text.",
    knobs={},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
