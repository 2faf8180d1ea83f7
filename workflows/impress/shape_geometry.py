"""impress.shape_geometry: move a slide's picture to a stated position, resize it to a stated width (proportions
kept), or both, with values in cm as Impress's Position and Size dialog (F4) takes them.

Another picture sits on another slide, so changing the wrong one is a real mistake; the picture is recognised by
its pixels. Positions are the top-left corner from the slide's top-left corner.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from PIL import Image
from pptx.util import Emu

from kit.axes import look_alike_paths
from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Asset, Check
from preparers import pptx
from verifiers.readers.pptx import pixel_digest
from workflows.impress import kit as ic
from workflows.impress.image import draw_png

NAME = "impress.shape_geometry"
SLIDE_W_CM, SLIDE_H_CM = 25.4, 19.05  # python-pptx's default 4:3 slide
PHRASINGS = (
    "Open {path} in LibreOffice Impress and, on the slide '{slide}', {task}. Nothing else changes. " + ic.SAVE,
    "In the presentation {path}, the picture on the slide '{slide}' needs adjusting: {task} (Format > Position and "
    "Size). Leave everything else as it is. " + ic.SAVE,
    "Please edit the picture on the slide '{slide}' of {path}: {task}. Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}, select the picture on the slide '{slide}' and {task}, using the "
    "Position and Size dialog (F4). " + ic.SAVE,
    "On the slide '{slide}' of {path}, {task}. Do not touch the other slides. Then save the presentation in place, "
    "keeping the pptx format.",
)
NATURAL = (
    "On the '{slide}' slide of {path.file}, {task}.",
    "Help me tidy the picture on '{slide}' in {path.file}: {task}.",
    "Could you {task} on the '{slide}' slide of my presentation {path.file}?",
    "The picture on the '{slide}' slide of {path.file} is off. Please {task}.",
    "In {path.file}, go to the '{slide}' slide and {task}.",
)

Change = Literal["move", "resize", "move_resize"]


class Params(TypedDict):
    change: Change


@dataclass(frozen=True)
class Target:
    slide: str  # the slide whose picture changes
    other: str  # the slide with the other picture
    pictures: tuple[bytes, bytes]  # PNG bytes: the asked slide's picture, the other slide's
    start: tuple[float, float, float]  # the picture's initial left, top and width in cm
    left: float | None
    top: float | None
    width: float | None
    ratio: float  # height / width of the picture


def _ratio(data: bytes) -> float:
    with Image.open(io.BytesIO(data)) as img:
        return img.height / img.width


def _half(rng: random.Random, low: float, high: float) -> float:
    """A value on a half-centimetre step in [low, high]."""
    return rng.randint(round(low * 2), round(high * 2)) / 2


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    change = params["change"]
    deck = ic.deck_from(content, plan)
    titles = deck.content_titles
    slide = rng.choice(titles)
    other = rng.choice([t for t in titles if t != slide])
    stems = content["images"]
    pictures = (draw_png(stems[0], rng), draw_png(stems[1], rng))
    ratio = _ratio(pictures[0])
    start_w = float(rng.choice((6, 7, 8, 9)))
    start = (_half(rng, 1, SLIDE_W_CM - start_w - 1), _half(rng, 5, SLIDE_H_CM - start_w * ratio - 1), start_w)
    width = float(rng.choice([w for w in (4, 5, 10, 11, 12) if abs(w - start_w) >= 2])) if change != "move" else None
    size_w = width if width is not None else start_w
    left = top = None
    parts = []
    if change != "move":
        parts.append(f"resize the picture to {width:g} cm wide, keeping its proportions")
    if change != "resize":
        while True:  # a spot clearly away from where it is, with left and top far apart (a swap is a slip)
            left = _half(rng, 0.5, SLIDE_W_CM - size_w - 0.5)
            top = _half(rng, 0.5, SLIDE_H_CM - size_w * ratio - 0.5)
            if abs(left - top) >= 1.5 and abs(left - start[0]) + abs(top - start[1]) >= 2:
                break
        parts.append(f"move the picture so its top-left corner is {left:g} cm from the left edge and {top:g} cm "
                     "from the top edge of the slide")
    facts = {"path": deck.path, "slide": slide, "task": " and ".join(parts) if change != "move_resize"
             else f"{parts[0]}, then {parts[1]}"}
    return Goal(deck, facts, Target(slide, other, pictures, start, left, top, width, ratio))


def picture_assets(deck: ic.Deck, slide: str, other: str, pictures: tuple[bytes, bytes],
                   start: tuple[float, float, float]) -> Mapping[str, Any]:
    """The prepare node's outputs: the deck with `pictures[0]` on `slide` at `start` (left, top, width in cm) and
    `pictures[1]` as wide on `other`, in its lower right."""
    prs = pptx.build_presentation(deck.spec())
    left, top, width = start
    for title, data, spot in ((slide, pictures[0], (left, top)),
                              (other, pictures[1], (SLIDE_W_CM - width - 1.5, SLIDE_H_CM - 6.5))):
        page = pptx.slides_titled(prs, title)[0]
        page.shapes.add_picture(io.BytesIO(data), Emu(round(spot[0] * pptx.EMU_PER_CM)),
                                Emu(round(spot[1] * pptx.EMU_PER_CM)), width=Emu(round(width * pptx.EMU_PER_CM)))
    data = pptx.to_bytes(prs)
    copies = [Asset(path, data, app="impress") for path in look_alike_paths(deck.path, deck.lookalikes)]
    return {"assets": [Asset(deck.path, data, app="impress"), *copies],
            "launch": ["libreoffice", "--impress", deck.path]}


def prepare(deck: ic.Deck, target: Target) -> Mapping[str, Any]:
    """The deck with its two pictures placed."""
    return picture_assets(deck, target.slide, target.other, target.pictures, target.start)


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": deck.path, "slide": target.slide, "pixels": pixel_digest(target.pictures[0])}
    said = []
    if target.left is not None:
        args |= {"left_cm": target.left, "top_cm": target.top}
        said.append(f"its top-left corner at {target.left:g} cm from the left and {target.top:g} cm from the top")
    if target.width is not None:
        args |= {"width_cm": target.width, "ratio": round(target.ratio, 4)}
        said.append(f"{target.width:g} cm wide with its proportions kept")
    return [Check("geometry", f"The picture on the slide '{target.slide}' has {' and '.join(said)}.",
                  "pptx.picture_geometry", args)]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base: dict[str, Any] = {"op": "pptx.place_picture", "path": deck.path, "title": target.slide}
    moved = {"left_cm": target.left, "top_cm": target.top} if target.left is not None else {}
    sized = ({"width_cm": target.width, "height_cm": round(target.width * target.ratio, 3)}
             if target.width is not None else {})
    oracle = {**base, **moved, **sized}
    misses = [Attempt(f"changes the picture on '{target.other}' instead", [{**oracle, "title": target.other}])]
    if moved:
        misses.append(Attempt("swaps the two coordinates", [{**oracle, "left_cm": target.top, "top_cm": target.left}]))
    if sized and target.width is not None:
        misses.append(Attempt("changes the width only, stretching the picture",
                              [{**base, **moved, "width_cm": target.width}]))
    if moved and sized:
        misses.append(Attempt("moves the picture but does not resize it", [{**base, **moved}]))
        misses.append(Attempt("resizes the picture but does not move it", [{**base, **sized}]))
    elif moved:
        left, top, width = target.start
        assert target.left is not None and target.top is not None
        centre = (target.left - width / 2, target.top - width * target.ratio / 2)
        misses.append(Attempt("puts the picture's centre, not its corner, at the stated spot",
                              [{**base, "left_cm": round(centre[0], 3), "top_cm": round(centre[1], 3)}]))
    elif target.width is not None and abs(target.ratio - 1) > 0.1:
        misses.append(Attempt("gives the picture the stated size as its height",
                              [{**base, "height_cm": target.width,
                                "width_cm": round(target.width / target.ratio, 3)}]))
    elif target.width is not None:  # a square picture: its height is its width
        misses.append(Attempt("sizes the picture by eye, 1 cm too wide",
                              [{**base, "width_cm": target.width + 1,
                                "height_cm": round((target.width + 1) * target.ratio, 3)}]))
    return Attempts(Attempt(f"set the picture on '{target.slide}' to the stated geometry", [oracle]), misses)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Move a slide's picture to a stated position, resize it to a stated width with its proportions "
                "kept, or both (cm, as in Position and Size).",
    knobs={"change": ("move", "resize", "move_resize")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
