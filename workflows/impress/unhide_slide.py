"""impress.unhide_slide: show a stated hidden slide in the slide show again (Slide > Show Slide), the reverse of
impress.hide_slide.

The deck starts with one hidden slide (knob `hidden` = `one`) or two (`two`: the other stays hidden, and showing
it instead or as well fails). Deleting the hidden slide, or leaving it hidden and showing a copy of it, fails too
(the pptx frame reads every slide's visibility and count). The gate's real-app open probe reads only the shown
slides' text (forge/realapps/libreoffice.py `probes`: LibreOffice's export skips hidden slides).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.unhide_slide"
PHRASINGS = (
    "Open {path} in LibreOffice Impress. The slide '{slide}' is hidden: unhide it so it is shown in the slide show "
    "again. Change nothing else. " + ic.SAVE,
    "In the presentation {path}, unhide the slide '{slide}' (Slide > Show Slide) so the slide show includes it "
    "again. Do not change any other slide. " + ic.SAVE,
    "Please edit {path}: the slide '{slide}' should be visible again in the slide show, so unhide it. Every other "
    "slide stays as it is. Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path} and unhide the slide '{slide}', using Slide > Show Slide. " + ic.SAVE,
    "For the presentation {path}: the slide '{slide}' is currently left out of the slide show. Unhide it so it is "
    "back in the show. Then save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "In {path.file}, unhide the '{slide}' slide so it shows up in the slide show again.",
    "Help me with my presentation {path.file}: I hid the slide '{slide}' earlier, please unhide it.",
    "Could you open {path.file} and make the '{slide}' slide visible again in the show? Please unhide it.",
    "I need '{slide}' back in the show for my talk. Please unhide that slide in {path.file}.",
    "For {path.file}: the slide '{slide}' is hidden. Show it again in the slide show, nothing else.",
)
HIDDEN = ("one", "two")


@dataclass(frozen=True)
class Target:
    slide: str
    other: str | None  # the slide that stays hidden (hidden = two)
    neighbour: str  # a shown slide next to it


def goal(rng: random.Random, params: Mapping[str, Any], content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    titles = deck.content_titles[:-1]  # never the last slide (the gate's own control hides that one)
    count = 2 if params["hidden"] == "two" else 1
    hidden = rng.sample(titles, count)
    slide = hidden[0]
    other = hidden[1] if count == 2 else None
    for title in hidden:
        deck = deck.with_slide(title, hidden=True)
    neighbour = next(t for t in deck.content_titles if t not in hidden)
    return Goal(deck, {"path": deck.path, "slide": slide}, Target(slide, other, neighbour))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    return [Check("visibility", f"The slide '{target.slide}' is shown in the slide show again and still in the file.",
                  "pptx.slide_hidden", {"path": deck.path, "slide": target.slide, "hidden": False})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    oracle = {"op": "pptx.set_hidden", "path": deck.path, "title": target.slide, "hidden": False}
    slips = [
        Attempt("deletes the hidden slide instead", [{"op": "pptx.delete_slide", "path": deck.path,
                                                      "title": target.slide}]),
        Attempt("shows it but hides a neighbouring slide", [oracle, {"op": "pptx.set_hidden", "path": deck.path,
                                                                       "title": target.neighbour}]),
        Attempt("duplicates the hidden slide, leaving it hidden",
                [{"op": "pptx.duplicate_slide", "path": deck.path, "title": target.slide,
                  "position": deck.position(target.slide) + 1}]),
    ]
    if target.other is not None:
        other = {**oracle, "title": target.other}
        slips = [Attempt(f"shows '{target.other}' instead", [other]),
                 Attempt(f"shows '{target.other}' too", [oracle, other]), *slips]
    return Attempts(Attempt(f"show the slide '{target.slide}' again", [oracle]), slips)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Show a hidden slide in the slide show again (Slide > Show Slide), leaving any other hidden slide "
                "hidden.",
    knobs={"hidden": HIDDEN},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
