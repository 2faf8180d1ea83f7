"""impress.slide_number: show slide numbers on every slide, or on every slide but the title slide (Insert > Slide
Number, i.e. Header and Footer with Slide number ticked; "Do not show on first slide"), kept as each slide's
slide-number placeholder holding a slide-number field.

A number typed as plain text, a slide left without its number, or a number on the title slide when it should have
none fails (`pptx.slide_numbers`); the pptx frame refuses anything else added, a footer or date included.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.slide_number"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and show slide numbers on {where} (Insert > Header and Footer, Slide "
    "number). Change nothing else. " + ic.SAVE,
    "In the presentation {path}, turn on slide numbers for {where}. Add no footer text or date. " + ic.SAVE,
    "Please edit {path}: {where} should show its slide number. Keep the slides' content as it is. Then save the "
    "file in place as pptx.",
    "Using LibreOffice Impress, open {path} and add slide numbers to {where}, using the slide number field of "
    "Header and Footer. " + ic.SAVE,
    "For the presentation {path}: show the slide number field on {where}. Then save the presentation in place, "
    "keeping the pptx format.",
)
NATURAL = (
    "Add slide numbers to {where} in {path.file}.",
    "Help me with {path.file}: I want slide numbers on {where}.",
    "Could you put page numbers on {where} of my presentation {path.file}?",
    "People keep asking which slide I'm on. Please show slide numbers on {where} in {path.file}.",
    "I'd like {where} of {path.file} to show its slide number.",
)
WHERE = {"all": "every slide including the title slide", "not_title": "every slide except the title slide"}


class Params(TypedDict):
    slides: Literal["all", "not_title"]


@dataclass(frozen=True)
class Target:
    title_slide: bool  # the title slide shows its number too
    cover: str  # the title slide's title
    first: str  # the first content slide's title
    last: str  # the last slide's title


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    title_slide = params["slides"] == "all"
    facts = {"path": deck.path, "where": WHERE[params["slides"]]}
    return Goal(deck, facts, Target(title_slide, deck.titles[0], deck.content_titles[0], deck.titles[-1]))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    where = "Every slide" if target.title_slide else "Every slide but the title slide (which shows none)"
    return [Check("numbers", f"{where} of {deck.path} shows its slide number (a slide-number field).",
                  "pptx.slide_numbers", {"path": deck.path, "title_slide": target.title_slide})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    skip = None if target.title_slide else [target.cover]
    oracle = {"op": "pptx.set_slide_numbers", "path": deck.path, "skip": skip}
    flipped = "leaves the title slide without its number" if target.title_slide else "numbers the title slide too"
    rest = [t for t in deck.titles if t != target.last and (target.title_slide or t != target.cover)]
    return Attempts(
        Attempt(f"show slide numbers on {WHERE['all' if target.title_slide else 'not_title']}", [oracle]),
        [Attempt(flipped, [{**oracle, "skip": [target.cover] if target.title_slide else None}]),
         Attempt("types each number as plain text instead of the slide-number field", [{**oracle, "typed": True}]),
         Attempt(f"misses the last slide '{target.last}'", [{**oracle, "skip": None, "only": rest}]),
         Attempt("adds a footer instead of slide numbers",
                 [{"op": "pptx.set_footer", "path": deck.path, "text": "Slide number", "skip": skip}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Show slide numbers on every slide, or on every slide but the title slide (Insert > Header and "
                "Footer, Slide number).",
    knobs={"slides": ("all", "not_title")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
