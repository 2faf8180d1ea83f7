"""writer.page_setup: set the paper size (A4, Letter, Legal, A5) and orientation (portrait or landscape).

The initial document has the other orientation, usually on another paper, so both settings matter.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.page_setup"
PAPERS = ("A4", "Letter", "Legal", "A5")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and change the page to {paper} paper in {orientation} orientation. Save the "
    "document in place as .docx.",
    "The document {path} should be printed on {paper} paper, {orientation}. Adjust the page format (paper size and "
    "orientation) accordingly and save the file in Word format under the same name.",
    "In Format > Page Style for {path}, set the paper format to {paper} and the orientation to {orientation}. Keep "
    "the .docx format when saving.",
    "Please switch {path} to {orientation} pages of size {paper}, then save it as .docx in place.",
    "Using LibreOffice Writer, make every page of {path} {paper}, {orientation}. Save your changes to the same .docx "
    "file.",
)
NATURAL = (
    "Switch {path.file} to {paper} paper in {orientation} orientation.",
    "Help me print {path.file} properly: it should be {paper} size, {orientation}.",
    "Could you set my document {path.file} to {orientation} pages on {paper} paper?",
    "I need {path.file} laid out on {paper} paper with {orientation} orientation. Please save the "
    "change.",
    "Please change the page of {path.file} to {paper}, {orientation}.",
)


class Params(TypedDict):
    paper: Literal["A4", "Letter", "Legal", "A5"]
    orientation: Literal["landscape", "portrait"]


@dataclass(frozen=True)
class Target:
    paper: str
    orientation: str
    start_paper: str  # the initial document's paper
    start: str  # the initial document's orientation


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    paper, orientation = params["paper"], params["orientation"]
    layout = wc.compose(rng, document, plan)
    start_paper = rng.choice([p for p in ("A4", "Letter") if p != paper])
    start = "portrait" if orientation == "landscape" else "landscape"
    layout = replace(layout, paper=start_paper, orientation=start)
    facts = {"path": layout.path, "paper": paper, "orientation": orientation}
    return Goal(layout, facts, Target(paper, orientation, start_paper, start))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check(id="page", criterion=f"Every page of {layout.path} is {target.paper} in {target.orientation} "
                                       "orientation.",
                  primitive="docx.page_size",
                  args={"path": layout.path, "paper": target.paper, "orientation": target.orientation})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.set_page", "path": layout.path}
    paper, orientation = target.paper, target.orientation
    other = next(p for p in PAPERS if p not in (paper, target.start_paper))
    third = (Attempt("flips the orientation flag but keeps portrait page dimensions",
                     [{**base, "paper": paper, "orientation": orientation, "swap": False}])
             if orientation == "landscape" else
             Attempt(f"picks {other} instead of {paper}", [{**base, "paper": other, "orientation": orientation}]))
    return Attempts(
        Attempt(f"{paper} {orientation}", [{**base, "paper": paper, "orientation": orientation}]),
        [Attempt(f"sets {paper} but keeps the {target.start} orientation",
                 [{**base, "paper": paper, "orientation": target.start}]),
         Attempt(f"turns the page {orientation} but keeps {target.start_paper} paper",
                 [{**base, "paper": target.start_paper, "orientation": orientation}]),
         third],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Set a document's paper size (A4, Letter, Legal, A5) and orientation (portrait or landscape).",
    knobs={"paper": PAPERS, "orientation": ("landscape", "portrait")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
