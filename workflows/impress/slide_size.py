"""impress.slide_size: change a presentation's slide size to a stated format (16:9, 4:3, 16:10, A4) in a stated
orientation (Slide > Slide Properties > Slide).

The formats are judged by their shape (any 16:9 size will do: Impress's 28 x 15.75 cm as well as PowerPoint's
33.867 x 19.05 cm), A4 by its size too. The deck starts landscape in another format (or, for a portrait task, maybe
the same one). Impress lays its placeholders out again on a new slide size, so their positions and sizes are free;
their text, and everything else, is kept.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from pptx.util import Emu

from kit.axes import look_alike_paths
from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Asset, Check, Freedom
from preparers import pptx
from workflows.impress import kit as ic

NAME = "impress.slide_size"
#: format -> its landscape size in cm, as the oracle sets it
SIZES = {"16:9": (33.867, 19.05), "4:3": (25.4, 19.05), "16:10": (30.48, 19.05), "A4": (29.7, 21.0)}
WORDS = {"16:9": "16:9 (widescreen)", "4:3": "4:3 (standard)", "16:10": "16:10", "A4": "A4 (29.7 x 21 cm)"}
#: format -> the two formats a slip picks instead: the nearest shapes (A4: US Letter)
SLIPS = {"16:9": ("16:10", "4:3"), "4:3": ("A4", "16:10"), "16:10": ("16:9", "A4"), "A4": ("Letter", "4:3")}
LETTER = (27.94, 21.59)
PHRASINGS = (
    "Open {path} in LibreOffice Impress and change the slide size to {format} in {orientation} orientation. Keep "
    "the content of every slide. " + ic.SAVE,
    "In the presentation {path}, set the slide format to {format}, {orientation} (Slide > Slide Properties > "
    "Slide). Do not change any slide's text. " + ic.SAVE,
    "Please resize the slides of {path} to the {format} format, {orientation} orientation. Then save the file in "
    "place as pptx.",
    "Using LibreOffice Impress, open {path} and make its slides {format} in {orientation} orientation. Leave the "
    "slides' content as it is. " + ic.SAVE,
    "The slides of {path} should have the {format} size in {orientation} orientation. Then save the presentation "
    "in place, keeping the pptx format.",
)
NATURAL = (
    "Switch the slides of {path.file} to {format}, {orientation}.",
    "Help me change the slide size of my presentation {path.file} to {format} in {orientation} orientation.",
    "Could you make {path.file} use {format} slides in {orientation} orientation?",
    "I need the slides in {path.file} to be {format} and {orientation}.",
    "Please set the slide format of {path.file} to {format}, {orientation}.",
)

Size = Literal["16:9", "4:3", "16:10", "A4"]
Orientation = Literal["landscape", "portrait"]


class Params(TypedDict):
    size: Size
    orientation: Orientation


@dataclass(frozen=True)
class Target:
    size: str
    orientation: str
    initial: tuple[float, float]  # the deck's landscape size in cm before the task


def _oriented(size: tuple[float, float], orientation: str) -> tuple[float, float]:
    return size if orientation == "landscape" else (size[1], size[0])


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    size, orientation = params["size"], params["orientation"]
    start = rng.choice([f for f in SIZES if f != size or orientation == "portrait"])
    facts = {"path": deck.path, "format": WORDS[size], "orientation": orientation}
    return Goal(deck, facts, Target(size, orientation, SIZES[start]))


def prepare(deck: ic.Deck, target: Target) -> Mapping[str, Any]:
    """The deck at its initial landscape size."""
    prs = pptx.build_presentation(deck.spec())
    prs.slide_width, prs.slide_height = (Emu(round(cm * pptx.EMU_PER_CM)) for cm in target.initial)
    data = pptx.to_bytes(prs)
    copies = [Asset(path, data, app="impress") for path in look_alike_paths(deck.path, deck.lookalikes)]
    return {"assets": [Asset(deck.path, data, app="impress"), *copies],
            "launch": ["libreoffice", "--impress", deck.path]}


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    return [Check("size", f"The slides of {deck.path} are {WORDS[target.size]} in {target.orientation} "
                             "orientation.",
                     "pptx.slide_size", {"path": deck.path, "size": target.size, "orientation": target.orientation})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    def sized(size: tuple[float, float]) -> dict[str, Any]:
        return {"op": "pptx.slide_size", "path": deck.path, "width_cm": size[0], "height_cm": size[1]}

    want = _oriented(SIZES[target.size], target.orientation)
    other = "landscape" if target.orientation == "portrait" else "portrait"
    misses = [Attempt(f"picks {slip} instead of {target.size}",
                      [sized(_oriented(LETTER if slip == "Letter" else SIZES[slip], target.orientation))])
              for slip in SLIPS[target.size]]
    misses.append(Attempt(f"sets {target.size} in {other} orientation", [sized(_oriented(SIZES[target.size], other))]))
    return Attempts(Attempt(f"set the slides to {target.size} {target.orientation}", [sized(want)]), misses)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Change a presentation's slide size to a stated format (16:9, 4:3, 16:10, A4) in a stated "
                "orientation.",
    knobs={"size": ("16:9", "4:3", "16:10", "A4"), "orientation": ("landscape", "portrait")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
    freedoms=[Freedom(region, "Impress lays the placeholders out again on the new slide size")
              for region in ("*/title", "*/subtitle", "*/body ?")],
)
