"""impress.image: insert a stated picture file on a stated slide, optionally in a corner and at a stated width.

Two pictures wait in ~/Pictures (the asked one and a similar one), so inserting the wrong file is a real mistake
the rubric can see. The picture is recognised by its pixels, whatever way the app stores the file.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from PIL import Image, ImageDraw

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import HOME, Asset, Check
from verifiers.readers.pptx import pixel_digest
from workflows.impress import kit as ic

NAME = "impress.image"
SLIDE_W_CM, SLIDE_H_CM = 25.4, 19.05  # python-pptx's default 4:3 slide
MARGIN_CM = 0.8
CORNER_WORDS = {"top_left": "top-left", "top_right": "top-right", "bottom_left": "bottom-left",
                "bottom_right": "bottom-right"}
MIRROR = {"top_left": "top_right", "top_right": "top_left", "bottom_left": "bottom_right",
          "bottom_right": "bottom_left"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and insert the picture {image} on the slide '{slide}'{placement}. "
    "Do not change the other slides. " + ic.SAVE,
    "In the presentation {path}, the slide '{slide}' needs an illustration: add the image file {image} to "
    "it{placement}. Keep the rest of the deck as it is. " + ic.SAVE,
    "Please put the picture {image} onto the slide '{slide}' of {path}{placement}. Then save the file in place "
    "as pptx.",
    "Using LibreOffice Impress, open {path}, go to the slide '{slide}' and use Insert > Image to add "
    "{image}{placement}. Leave everything else untouched. " + ic.SAVE,
    "The slide '{slide}' in {path} should show the image {image}{placement}. Then save the presentation in "
    "place, keeping the pptx format.",
)
NATURAL = (
    "Put the picture {image} on the '{slide}' slide of {path.file}{placement}.",
    "Help me add {image.file} to the '{slide}' slide in my presentation {path.file}{placement}.",
    "Could you insert the image {image} into the '{slide}' slide of {path.file}{placement}?",
    "I'd like {image.file} shown on the '{slide}' slide of {path.file}{placement}.",
    "Please place the image {image} on the slide '{slide}' in {path.file}{placement}.",
)

Corner = Literal["any", "top_left", "top_right", "bottom_left", "bottom_right"]


class Params(TypedDict):
    corner: Corner
    width: Literal["free", "stated"]


@dataclass(frozen=True)
class Target:
    slide: str  # title of the slide that gets the picture
    pictures: tuple[tuple[str, bytes], ...]  # (path, PNG bytes) of the asked picture, then of the similar one
    corner: Corner
    width: float | None  # the stated width in cm, None when the instruction states none


#: the colours a drawn picture picks two of
PALETTE = ((31, 78, 121), (192, 0, 0), (0, 112, 192), (0, 150, 90), (112, 48, 160), (230, 145, 30))


def draw_png(stem: str, rng: random.Random) -> bytes:
    """A small picture: a bar chart when `stem` names a chart, else a simple logo. Same rng, same bytes."""
    width, height = rng.choice(((240, 160), (300, 200), (200, 200), (320, 180)))
    img = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    color, accent = rng.sample(PALETTE, 2)
    if "chart" in stem:
        bars = rng.randint(4, 7)
        slot = (width - 20) // bars
        for i in range(bars):
            top = rng.randint(20, height - 30)
            draw.rectangle((12 + i * slot, top, 12 + i * slot + slot * 2 // 3, height - 12),
                           fill=accent if i == bars - 1 else color)
        draw.line((8, height - 10, width - 8, height - 10), fill=(60, 60, 60), width=2)
    else:
        r = min(width, height) // 3
        cx, cy = width // 2, height // 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
        draw.rectangle((cx - r // 2, cy - r // 2, cx + r // 2, cy + r // 2), fill=accent)
        draw.polygon(((cx, cy - r // 3), (cx + r // 3, cy + r // 4), (cx - r // 3, cy + r // 4)), fill=(255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()



def _natural_width_cm(data: bytes) -> float:
    """The width python-pptx gives an inserted picture (its pixels at the file's dpi, 72 by default)."""
    with Image.open(io.BytesIO(data)) as img:
        dpi = img.info.get("dpi", (72, 72))[0] or 72
        return img.width / dpi * 2.54


def _ratio(data: bytes) -> float:
    with Image.open(io.BytesIO(data)) as img:
        return img.height / img.width


def _spot(corner: str, width: float, height: float) -> tuple[float, float]:
    """(left, top) in cm that puts a picture of this size in `corner` ("any": lower middle of the slide)."""
    if corner == "any":
        return (SLIDE_W_CM - width) / 2, SLIDE_H_CM - height - 2 * MARGIN_CM
    left = MARGIN_CM if corner.endswith("left") else SLIDE_W_CM - width - MARGIN_CM
    top = MARGIN_CM if corner.startswith("top") else SLIDE_H_CM - height - MARGIN_CM
    return round(left, 2), round(top, 2)


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    corner, sized = params["corner"], params["width"]
    deck = ic.deck_from(content, plan)
    stems = content["images"]
    pictures = tuple((f"{HOME}/Pictures/{stem}.png", draw_png(stem, rng)) for stem in stems)
    slide = rng.choice(deck.content_titles)
    width = float(rng.choice((4, 5, 6, 7, 8))) if sized == "stated" else None
    parts = []
    if corner != "any":
        parts.append(f"in the {CORNER_WORDS[corner]} corner of the slide")
    if width is not None:
        parts.append(f"resized to {width:g} cm wide with its proportions kept")
    placement = (", " + " and ".join(parts)) if parts else ""
    facts = {"path": deck.path, "image": pictures[0][0], "slide": slide, "placement": placement}
    return Goal(deck, facts, Target(slide, pictures, corner, width))


def prepare(deck: ic.Deck, target: Target) -> Mapping[str, Any]:
    """The deck, and both pictures waiting in ~/Pictures."""
    return ic.deck_outputs(deck, tuple(Asset(dest, data) for dest, data in target.pictures))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    image, data = target.pictures[0]
    args: dict[str, Any] = {"path": deck.path, "slide": target.slide, "image": image, "pixels": pixel_digest(data)}
    if target.corner != "any":
        args["corner"] = target.corner
    if target.width is not None:
        args["width_cm"] = target.width
    checks = [Check("picture", f"The slide '{target.slide}' shows {image}"
                               + (f" in the {CORNER_WORDS[target.corner]} corner" if "corner" in args else "")
                               + (f", {target.width:g} cm wide" if target.width else "") + ".",
                    "pptx.picture", args)]
    # a picture adds no text: every slide, the target too, keeps its text and its place
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    (image, data), (other, _) = target.pictures
    width = target.width if target.width is not None else _natural_width_cm(data)
    corner = target.corner

    def insert(slide: str, file: str, where: str, w: float, sized: bool) -> dict[str, Any]:
        left, top = _spot(where, w, w * _ratio(data))
        return {"op": "pptx.add_image", "path": deck.path, "title": slide, "image": file, "left_cm": left,
                "top_cm": top, **({"width_cm": w} if sized else {})}

    sized = target.width is not None
    titles = deck.titles
    i = titles.index(target.slide)
    neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
    misses = [
        Attempt(f"puts the picture on '{neighbour}' instead", [insert(neighbour, image, corner, width, sized)]),
        Attempt(f"inserts the other picture {other}", [insert(target.slide, other, corner, width, sized)]),
    ]
    if corner != "any":
        misses.append(Attempt(f"places it in the {MIRROR[corner]} corner",
                              [insert(target.slide, image, MIRROR[corner], width, sized)]))
    if sized:
        misses.append(Attempt("leaves the picture 2 cm too wide",
                              [insert(target.slide, image, corner, width + 2, True)]))
    return Attempts(Attempt(f"insert {image} on '{target.slide}'", [insert(target.slide, image, corner, width, sized)]),
                    misses)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Insert a stated picture file on a stated slide, optionally in a corner and at a stated width.",
    knobs={"corner": ("any", "top_left", "top_right", "bottom_left", "bottom_right"), "width": ("free", "stated")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
