"""impress.slide_layout: switch a stated slide to another layout (Slide > Layout), keeping its title and bullets.

The check reads the layout the slide is linked to by the layout's type (LibreOffice renames layouts on save but keeps
their type), and that no other slide was switched to it; the pptx frame keeps the title, the bullets and every other
slide. "Title and Content" and "Blank" are no knob values: LibreOffice links a re-saved Title and Content slide to
its "Blank Slide" layout, so neither survives its save.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.slide_layout"
#: what each layout does to the slide, in the instruction's words
EFFECT = {"title_only": "keep its title and leave its bullet points where they are",
          "two_content": "its bullet points stay in the left content box and the right box stays empty for now"}
OTHER = {"title_only": "two_content", "two_content": "title_only"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and change the layout of the slide '{slide}' to \"{layout}\" (Slide > "
    "Layout); {effect}. Change no other slide. " + ic.SAVE,
    "In the presentation {path}, give the slide '{slide}' the \"{layout}\" layout; {effect}. Do not add or "
    "delete slides. " + ic.SAVE,
    "Please edit {path}: switch the slide '{slide}' to the \"{layout}\" slide layout. Its title and text stay as "
    "they are. Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path} and apply the layout \"{layout}\" to the slide '{slide}' only; "
    "{effect}. " + ic.SAVE,
    "For the presentation {path}: the slide '{slide}' should use the \"{layout}\" layout instead of its current "
    "one; {effect}. Then save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "In {path.file}, change the '{slide}' slide to the \"{layout}\" layout, keeping its title and text.",
    "Could you switch the slide '{slide}' in {path.file} to the \"{layout}\" layout? Keep what it says.",
    "Help me with {path.file}: the '{slide}' slide should use the \"{layout}\" layout, with its text kept.",
    "I want the '{slide}' slide in {path.file} to use the \"{layout}\" layout. Please change it without losing "
    "any text.",
    "Please give the '{slide}' slide of my presentation {path.file} the \"{layout}\" layout; don't lose its text.",
)

Layout = Literal["title_only", "two_content"]


class Params(TypedDict):
    layout: Layout


@dataclass(frozen=True)
class Target:
    slide: str
    layout: str
    neighbour: str  # the slide after it (or before the last one)
    others: tuple[str, ...]  # every other slide title


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    layout = params["layout"]
    slide = rng.choice(deck.content_titles)
    titles = deck.titles
    i = titles.index(slide)
    neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
    facts = {"path": deck.path, "slide": slide, "layout": ic.LAYOUT_NAMES[layout], "effect": EFFECT[layout]}
    return Goal(deck, facts, Target(slide, layout, neighbour, tuple(t for t in titles if t != slide)))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    return [Check("layout", f"The slide '{target.slide}' uses the \"{ic.LAYOUT_NAMES[target.layout]}\" layout and "
                  "no other slide was switched to it.", "pptx.layout_linked",
                  {"path": deck.path, "slide": target.slide, "layout": target.layout,
                   "others": list(target.others)})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    oracle = {"op": "pptx.set_layout", "path": deck.path, "title": target.slide, "layout": target.layout}
    other = {**oracle, "title": target.neighbour}
    bullets = deck.slide(target.slide).get("bullets") or []
    return Attempts(
        Attempt(f"switch '{target.slide}' to the {target.layout} layout", [oracle]),
        [Attempt(f"switches '{target.neighbour}' instead", [other]),
         Attempt(f"switches '{target.neighbour}' too", [oracle, other]),
         Attempt(f"uses the {OTHER[target.layout]} layout instead", [{**oracle, "layout": OTHER[target.layout]}]),
         Attempt("loses the title while switching", [oracle, {"op": "pptx.set_title", "path": deck.path,
                                                              "title": target.slide, "new": ""}]),
         Attempt("loses the bullet points while switching", [oracle, {"op": "pptx.set_bullets", "path": deck.path,
                                                                      "title": target.slide,
                                                                      "bullets": bullets[:1]}]),
         Attempt("adds a new slide with the layout instead",
                 [{"op": "pptx.add_slide", "path": deck.path, "layout": target.layout, "title": target.slide,
                   "position": deck.position(target.slide) + 1}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Switch a stated slide to another slide layout (Title Only, Title and 2 Content), keeping its text.",
    knobs={"layout": ("title_only", "two_content")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
