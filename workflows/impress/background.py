"""impress.background: give one stated slide, or every slide, a solid background colour (stated by name and hex).

Impress sets a background on one slide (Slide > Slide Properties > Background) and asks whether to apply it to all
slides (then it sets the master's); the check reads what each slide shows, its own background else its master's,
so either way of colouring every slide passes, and a one-slide task fails when another slide shows the colour too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.background"
#: hex -> name; no white (LibreOffice writes every master's background as white) and no two alike
COLOURS = {"DEEBF7": "light blue", "FFF2CC": "pale yellow", "E2F0D9": "light green", "FBE5D6": "light orange",
           "1F4E79": "dark blue", "EDEDED": "light grey", "002060": "navy blue", "3B3838": "charcoal grey"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and give {where} a solid {colour} background (hex {hex}). {rest} "
    + ic.SAVE,
    "In the presentation {path}, set the background of {where} to the solid colour {colour}, hex {hex} (Slide > "
    "Slide Properties > Background). {rest} " + ic.SAVE,
    "Please change the background of {where} in {path} to a plain {colour} fill (hex {hex}). {rest} Then save "
    "the file in place as pptx.",
    "Using LibreOffice Impress, open {path} and fill the background of {where} with the colour {hex} "
    "({colour}). {rest} " + ic.SAVE,
    "The background of {where} in {path} should be solid {colour} (hex {hex}). {rest} Then save the "
    "presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Make the background of {where} in {path.file} {colour} (hex {hex}).",
    "Help me colour the background of {where} in my presentation {path.file}: solid {colour}, {hex}.",
    "Could you give {where} of {path.file} a {colour} background ({hex})?",
    "I'd like {where} in {path.file} to have a plain {colour} background, hex {hex}.",
    "Please set a solid {colour} background ({hex}) on {where} of {path.file}.",
)

Scope = Literal["one", "all"]


class Params(TypedDict):
    scope: Scope


@dataclass(frozen=True)
class Target:
    slide: str | None  # the slide to colour; None: every slide
    color: str  # hex, upper case
    other: str  # a colour of the palette a slip picks instead
    neighbour: str  # the slide next to `slide` (or the first content slide)
    cover: str  # the title of the cover slide


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    color, other = rng.sample(sorted(COLOURS), 2)
    titles = deck.titles
    if params["scope"] == "one":
        chosen = rng.choice(deck.content_titles)
        i = titles.index(chosen)
        neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
        slide: str | None = chosen
        where, rest = f"the slide '{chosen}'", "Do not change the other slides."
    else:
        slide, neighbour = None, deck.content_titles[0]
        where, rest = "every slide", "Every slide, the title slide too, gets it; change nothing else."
    facts = {"path": deck.path, "where": where, "colour": COLOURS[color], "hex": color, "rest": rest}
    return Goal(deck, facts, Target(slide, color, other, neighbour, titles[0]))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": deck.path, "color": target.color}
    if target.slide is None:
        args["every"] = True
        criterion = f"Every slide of {deck.path} shows a solid {COLOURS[target.color]} ({target.color}) background."
    else:
        args["slide"] = target.slide
        criterion = (f"The slide '{target.slide}' shows a solid {COLOURS[target.color]} ({target.color}) background, "
                     "and no other slide does.")
    return [Check("background", criterion, "pptx.background", args)]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base = {"op": "pptx.set_background", "path": deck.path, "color": target.color}
    wrong = f"uses {COLOURS[target.other]} ({target.other}) instead of {COLOURS[target.color]}"
    if target.slide is not None:
        one = {**base, "title": target.slide}
        return Attempts(
            Attempt(f"colour the background of '{target.slide}' {target.color}", [one]),
            [Attempt(wrong, [{**one, "color": target.other}]),
             Attempt(f"colours the neighbouring slide '{target.neighbour}' instead",
                     [{**base, "title": target.neighbour}]),
             Attempt("applies the background to all slides (the master)", [{**base, "master": True}]),
             Attempt("colours every slide one by one", [base])],
        )
    return Attempts(
        Attempt(f"colour the background of every slide {target.color}", [base]),
        [Attempt(wrong, [{**base, "color": target.other}]),
         Attempt("colours every slide but the title slide", [{**base, "skip": [target.cover]}]),
         Attempt(f"colours only the slide '{target.neighbour}'", [{**base, "title": target.neighbour}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Give one stated slide, or every slide, a solid background colour stated by name and hex.",
    knobs={"scope": ("one", "all")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
