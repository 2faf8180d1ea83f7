"""impress.paragraph_align: align every paragraph of a stated slide's content box centred, right or justified
(Format > Align Text), its title and the other slides as they were.

The pptx frame reads the alignments of content and text box paragraphs, so aligning another slide's content, or
only some paragraphs, fails.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.paragraph_align"
HOW = {"center": "centred", "right": "right-aligned", "justify": "justified"}
SLIP = {"center": "right", "right": "center", "justify": "center"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and make every paragraph of the content box on the slide '{slide}' "
    "{how}. The title and the other slides keep their alignment. " + ic.SAVE,
    "In the presentation {path}, the bullet points on the slide '{slide}' should all be {how} (Format > Align "
    "Text). Do not change any other slide. " + ic.SAVE,
    "Please set the text alignment of all the bullet points on the slide '{slide}' of {path} so they are {how}. "
    "Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}, select the content box on the slide '{slide}' and make its text "
    "{how}. Leave the title as it is. " + ic.SAVE,
    "The bullet points on the slide '{slide}' of {path} must be {how}; nothing else changes. Then save the "
    "presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Make the bullet points on the '{slide}' slide of {path.file} {how}.",
    "Help me tidy the '{slide}' slide in {path.file}: its bullet text should be {how}.",
    "Could you get all the bullets on the '{slide}' slide of my presentation {path.file} {how}?",
    "I'd like the text in the content box of '{slide}' in {path.file} {how}.",
    "Please change the bullet points on '{slide}' in {path.file} to be {how}.",
)

Align = Literal["center", "right", "justify"]


class Params(TypedDict):
    align: Align


@dataclass(frozen=True)
class Target:
    slide: str
    neighbour: str
    align: Align


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    listed = deck.content_titles
    slide = rng.choice([t for t in listed if len(deck.slide(t)["bullets"]) >= 2])
    i = listed.index(slide)
    neighbour = listed[i + 1] if i + 1 < len(listed) else listed[i - 1]  # a content slide, never the cover
    facts = {"path": deck.path, "slide": slide, "how": HOW[params["align"]]}
    return Goal(deck, facts, Target(slide, neighbour, params["align"]))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    return [Check("aligned", f"Every paragraph of the content box on the slide '{target.slide}' is "
                             f"{HOW[target.align]}.", "pptx.paragraph_align",
                  {"path": deck.path, "slide": target.slide, "align": target.align})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base = {"op": "pptx.align_paragraphs", "path": deck.path, "title": target.slide, "align": target.align}
    slip = SLIP[target.align]
    misses = [Attempt(f"makes them {HOW[slip]} instead", [{**base, "align": slip}]),
              Attempt("aligns only the first paragraph", [{**base, "first": 1}]),
              Attempt(f"aligns the content of '{target.neighbour}' too", [base, {**base, "title": target.neighbour}]),
              Attempt(f"aligns the content of '{target.neighbour}' instead", [{**base, "title": target.neighbour}])]
    return Attempts(Attempt(f"align the content of '{target.slide}' {target.align}", [base]), misses)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Align every paragraph of a stated slide's content box centred, right or justified.",
    knobs={"align": ("center", "right", "justify")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
