"""impress.text_box: add a text box with a stated text to a stated slide (Insert > Text Box), anywhere, at the
bottom of the slide (a source line) or in its top-right corner (a label).

The text belongs in a box of its own: typed as one more bullet of the content placeholder it fails, as does the
box on another slide, a shortened text or a box in the wrong place.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.text_box"
SLIDE_W_CM, SLIDE_H_CM = 25.4, 19.05  # python-pptx's default 4:3 slide
#: what a person adds in a box of its own, by where it goes ("any": either kind)
TEXTS = {
    "bottom": ("Source: internal figures, {year}", "Figures are preliminary and may change", "All amounts in EUR "
               "thousands", "Based on the {year} staff survey", "See the appendix for the full breakdown"),
    "top_right": ("DRAFT", "Confidential", "For internal use only", "Updated for {year}", "Work in progress"),
}
WHERE = {"any": "", "bottom": " at the bottom", "top_right": " in the top-right corner"}
#: (left, top, width) in cm of the box the oracle draws, by where it goes
SPOTS = {"any": (3.0, 8.5, 12.0), "bottom": (2.0, 17.0, 16.0), "top_right": (17.4, 0.6, 7.0)}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and, on the slide '{slide}', add a text box reading \"{text}\"{where}. "
    "Keep the slide's title and content as they are. " + ic.SAVE,
    "In the presentation {path}, insert a new text box{where} on the slide '{slide}' (Insert > Text Box) with the "
    "text \"{text}\". Do not change the other text. " + ic.SAVE,
    "Please put a text box with the words \"{text}\" on the slide '{slide}' of {path}{where}. Then save the file "
    "in place as pptx.",
    "Using LibreOffice Impress, open {path}, go to the slide '{slide}' and add a text box{where} that says "
    "\"{text}\". Leave everything else untouched. " + ic.SAVE,
    "The slide '{slide}' of {path} needs a text box{where} reading \"{text}\". Then save the presentation in place, "
    "keeping the pptx format.",
)
NATURAL = (
    "Add a text box saying \"{text}\" to the '{slide}' slide of {path.file}{where}.",
    "Help me label the '{slide}' slide in {path.file}: a text box reading \"{text}\"{where}.",
    "Could you put a small text box with \"{text}\" on the '{slide}' slide of {path.file}{where}?",
    "I'd like a text box reading \"{text}\" on '{slide}' in my presentation {path.file}{where}.",
    "Please insert a text box{where} on the '{slide}' slide in {path.file} that says \"{text}\".",
)

Where = Literal["any", "bottom", "top_right"]


class Params(TypedDict):
    where: Where


@dataclass(frozen=True)
class Target:
    slide: str
    neighbour: str
    text: str
    where: Where
    bullets: tuple[str, ...]  # the slide's bullets (a slip types the text as one more)


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    where = params["where"]
    deck = ic.deck_from(content, plan)
    titles = deck.titles
    slide = rng.choice(deck.content_titles)
    i = titles.index(slide)
    neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
    kind = where if where != "any" else rng.choice(sorted(TEXTS))
    text = rng.choice(TEXTS[kind]).format(year=rng.choice((2024, 2025, 2026)))
    facts = {"path": deck.path, "slide": slide, "text": text, "where": WHERE[where]}
    return Goal(deck, facts, Target(slide, neighbour, text, where, tuple(deck.slide(slide)["bullets"])))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": deck.path, "slide": target.slide, "text": target.text}
    if target.where != "any":
        args["region"] = target.where
    return [Check("text_box", f"The slide '{target.slide}' has a text box of its own reading \"{target.text}\""
                              f"{WHERE[target.where]}.", "pptx.text_box", args)]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    left, top, width = SPOTS[target.where]
    box = {"op": "pptx.add_text_box", "path": deck.path, "title": target.slide, "text": target.text,
           "left_cm": left, "top_cm": top, "width_cm": width}
    words = target.text.split()
    misses = [
        Attempt("types the text as one more bullet of the content placeholder",
                [{"op": "pptx.set_bullets", "path": deck.path, "title": target.slide,
                  "bullets": [*target.bullets, target.text]}]),
        Attempt(f"adds the text box to the neighbouring slide '{target.neighbour}'",
                [{**box, "title": target.neighbour}]),
    ]
    if len(words) > 1:
        misses.append(Attempt("leaves out the last word", [{**box, "text": " ".join(words[:-1])}]))
    else:
        misses.append(Attempt("types the word in lower case", [{**box, "text": target.text.lower()}]))
    if target.where == "bottom":
        misses.append(Attempt("puts the box at the top of the slide", [{**box, "top_cm": 0.6}]))
    elif target.where == "top_right":
        misses.append(Attempt("puts the box in the top-left corner", [{**box, "left_cm": 1.0}]))
    return Attempts(Attempt(f"add a text box reading {target.text!r} to '{target.slide}'", [box]), misses)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Add a text box with a stated text to a stated slide: anywhere, at the bottom (a source line) or in "
                "the top-right corner (a label).",
    knobs={"where": ("any", "bottom", "top_right")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
