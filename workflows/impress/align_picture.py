"""impress.align_picture: align a slide's picture with the slide, left, centred or right (Shape > Align Objects,
relative to the slide), keeping its size and its vertical position.

Another picture sits on another slide; the picture is recognised by its pixels.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from verifiers.readers.pptx import pixel_digest
from workflows.impress import kit as ic
from workflows.impress.image import draw_png
from workflows.impress.shape_geometry import SLIDE_H_CM, SLIDE_W_CM, _ratio, picture_assets

NAME = "impress.align_picture"
HOW = {"left": "left-aligned with the left edge of the slide", "center": "centred horizontally on the slide",
       "right": "right-aligned with the right edge of the slide"}
MIRROR = {"left": "right", "center": "left", "right": "left"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and, on the slide '{slide}', make the picture {how}. Keep its size and its "
    "vertical position. " + ic.SAVE,
    "In the presentation {path}, the picture on the slide '{slide}' should be {how} (Shape > Align Objects). Do not "
    "resize it or move it up or down. " + ic.SAVE,
    "Please make the picture on the slide '{slide}' of {path} {how}, at the same height and size as now. Then save "
    "the file in place as pptx.",
    "Using LibreOffice Impress, open {path}, select the picture on the slide '{slide}' and get it {how}. Its size "
    "and vertical position stay the same. " + ic.SAVE,
    "On the slide '{slide}' of {path}, the picture must end up {how}, neither resized nor moved vertically. Then "
    "save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "On the '{slide}' slide of {path.file}, the picture should be {how}; keep its size and height.",
    "Help me line up the picture on '{slide}' in {path.file}: it should be {how}, same size, same height.",
    "Could you get the picture on the '{slide}' slide of {path.file} {how}, without resizing it or moving it up "
    "or down?",
    "I'd like the picture on '{slide}' in {path.file} {how}; leave its size and vertical position alone.",
    "Please make the picture on the '{slide}' slide of {path.file} {how}, keeping its size and height.",
)

Align = Literal["left", "center", "right"]


class Params(TypedDict):
    align: Align


@dataclass(frozen=True)
class Target:
    slide: str
    other: str
    pictures: tuple[bytes, bytes]
    start: tuple[float, float, float]  # left, top, width in cm
    align: Align


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    align = params["align"]
    deck = ic.deck_from(content, plan)
    slide = rng.choice(deck.content_titles)
    other = rng.choice([t for t in deck.content_titles if t != slide])
    stems = content["images"]
    pictures = (draw_png(stems[0], rng), draw_png(stems[1], rng))
    width = float(rng.choice((6, 7, 8)))
    aligned = {"left": 0.0, "center": (SLIDE_W_CM - width) / 2, "right": SLIDE_W_CM - width}[align]
    while True:  # start clearly away from the asked place
        left = rng.randint(2, int(SLIDE_W_CM - width - 2) * 2) / 2
        if abs(left - aligned) >= 2:
            break
    middle = (SLIDE_H_CM - width * _ratio(pictures[0])) / 2
    top = rng.choice([t / 2 for t in range(2, int((SLIDE_H_CM - width * _ratio(pictures[0]) - 0.5) * 2))
                      if abs(t / 2 - middle) >= 1.5])
    facts = {"path": deck.path, "slide": slide, "how": HOW[align]}
    return Goal(deck, facts, Target(slide, other, pictures, (left, top, width), align))


def prepare(deck: ic.Deck, target: Target) -> Mapping[str, Any]:
    return picture_assets(deck, target.slide, target.other, target.pictures, target.start)


def _middle(target: Target) -> float:
    """The top, in cm, that centres the picture vertically."""
    return round((SLIDE_H_CM - target.start[2] * _ratio(target.pictures[0])) / 2, 3)


def _left(align: str, width: float) -> float:
    return round({"left": 0.0, "center": (SLIDE_W_CM - width) / 2, "right": SLIDE_W_CM - width}[align], 3)


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    left, top, width = target.start
    return [Check("aligned", f"The picture on the slide '{target.slide}' is {HOW[target.align]}, still {width:g} cm "
                             f"wide at {top:g} cm from the top.", "pptx.picture_aligned",
                  {"path": deck.path, "slide": target.slide, "pixels": pixel_digest(target.pictures[0]),
                   "align": target.align, "width_cm": width, "top_cm": top})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    width = target.start[2]
    base = {"op": "pptx.place_picture", "path": deck.path, "title": target.slide}
    oracle = {**base, "left_cm": _left(target.align, width)}
    mirror = MIRROR[target.align]
    return Attempts(
        Attempt(f"align the picture on '{target.slide}' {target.align}", [oracle]),
        [Attempt(f"aligns it {mirror} instead", [{**base, "left_cm": _left(mirror, width)}]),
         Attempt("also centres it vertically on the slide", [{**oracle, "top_cm": _middle(target)}]),
         Attempt(f"aligns the picture on '{target.other}' instead", [{**oracle, "title": target.other}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Align a slide's picture with the slide (left, centred or right), keeping its size and vertical "
                "position.",
    knobs={"align": ("left", "center", "right")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
