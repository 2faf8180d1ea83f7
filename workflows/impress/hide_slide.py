"""impress.hide_slide: hide a stated slide in the slide show (Slide > Hide Slide), keeping it in the file.

Deleting the slide fails, as does hiding another slide too (the pptx frame reads every slide's visibility). The
hidden slide is never the deck's last one (the gate's own control hides that one). Showing a hidden slide again is
impress.unhide_slide.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.hide_slide"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and hide the slide '{slide}' so it is skipped in the slide show. Keep the "
    "slide in the file and change nothing else. " + ic.SAVE,
    "In the presentation {path}, hide the slide '{slide}' (Slide > Hide Slide). Do not delete any slide. " + ic.SAVE,
    "Please edit {path}: hide the slide '{slide}' in the slide show. Every other slide stays as it is. Then save "
    "the file in place as pptx.",
    "Using LibreOffice Impress, open {path} and hide the slide '{slide}', using Slide > Hide Slide. " + ic.SAVE,
    "For the presentation {path}: the slide '{slide}' should be skipped in the slide show, so hide it (it stays in "
    "the file). Then save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "In {path.file}, hide the '{slide}' slide so the show skips it.",
    "Help me with my presentation {path.file}: hide the slide '{slide}', but keep it in the file.",
    "Could you open {path.file} and hide the '{slide}' slide?",
    "I'm presenting {path.file} tomorrow and want to skip '{slide}'. Please hide that slide.",
    "For {path.file}: hide the slide '{slide}' in the slide show, but don't delete it.",
)


@dataclass(frozen=True)
class Target:
    slide: str
    neighbour: str  # the slide after it


def goal(rng: random.Random, params: Mapping[str, Any], content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    slide = rng.choice(deck.content_titles[:-1])  # never the last slide
    neighbour = deck.titles[deck.position(slide)]  # the slide after it
    return Goal(deck, {"path": deck.path, "slide": slide}, Target(slide, neighbour))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    return [Check("visibility", f"The slide '{target.slide}' is hidden in the slide show and still in the file.",
                  "pptx.slide_hidden", {"path": deck.path, "slide": target.slide, "hidden": True})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    oracle = {"op": "pptx.set_hidden", "path": deck.path, "title": target.slide}
    other = {**oracle, "title": target.neighbour}
    return Attempts(
        Attempt(f"hide the slide '{target.slide}'", [oracle]),
        [Attempt(f"hides '{target.neighbour}' instead", [other]),
         Attempt(f"hides '{target.neighbour}' too", [oracle, other]),
         Attempt("deletes the slide instead", [{"op": "pptx.delete_slide", "path": deck.path,
                                                "title": target.slide}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Hide a stated slide in the slide show (Slide > Hide Slide), keeping it in the file.",
    knobs={},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
