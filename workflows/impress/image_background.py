"""impress.image_background: use a stated picture from ~/Pictures as the background of one stated slide, or of
every slide (Slide > Slide Properties > Background > Image), kept as the slide's (or master's) picture fill.

Two backdrop pictures wait in ~/Pictures (the asked one and a similar one), so choosing the wrong file is a real
mistake the rubric can see (`pptx.background_picture` reads the picture's pixels). The picture inserted on the
slide as a large image instead, the background put on another slide, or on some slides only, fails.
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

NAME = "impress.image_background"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and use the picture {image} as the background of {where} (Slide > Slide "
    "Properties > Background > Image). {rest} " + ic.SAVE,
    "In the presentation {path}, set the background of {where} to the image file {image}. {rest} " + ic.SAVE,
    "Please give {where} of {path} the picture {image} as its background. {rest} Then save the file in place as "
    "pptx.",
    "Using LibreOffice Impress, open {path} and make {image} the background image of {where}. {rest} " + ic.SAVE,
    "{where_cap} of {path} should show the picture {image} as background. {rest} Then save the presentation in "
    "place, keeping the pptx format.",
)
NATURAL = (
    "Use {image} as the background picture of {where} in {path.file}.",
    "Help me dress up {path.file}: {where} should get {image} as its background.",
    "Could you set the background of {where} in my presentation {path.file} to the image {image}?",
    "I'd like {image.file} as the background of {where} of {path.file}.",
    "Please make the picture {image} the background of {where} in {path.file}.",
)
STEMS = ("ocean_gradient", "dawn_sky", "soft_texture", "evening_haze", "blue_backdrop", "sunrise_glow",
         "calm_waves", "paper_texture", "green_hills", "night_city")
#: (top, bottom) colours a backdrop fades between
SKIES = (((18, 52, 110), (120, 170, 220)), ((250, 190, 120), (90, 60, 140)), ((230, 230, 225), (180, 175, 165)),
         ((30, 90, 70), (160, 210, 170)), ((15, 20, 50), (70, 80, 140)), ((200, 90, 60), (250, 220, 150)))


class Params(TypedDict):
    scope: Literal["one", "all"]


@dataclass(frozen=True)
class Target:
    slide: str | None  # the slide that gets the background; None: every slide
    pictures: tuple[tuple[str, bytes], ...]  # (path, PNG bytes) of the asked picture, then of the similar one
    neighbour: str  # the slide after `slide` (or before it, for the last one); the first content slide for `all`
    cover: str  # the title slide's title


def draw_backdrop(rng: random.Random, sky: tuple[tuple[int, int, int], tuple[int, int, int]]) -> bytes:
    """A small backdrop picture: a vertical fade between two colours with a few soft discs. Same rng, same bytes."""
    width, height = rng.choice(((320, 240), (400, 300), (480, 270)))
    (r1, g1, b1), (r2, g2, b2) = sky
    img = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(img)
    for y in range(height):
        f = y / (height - 1)
        draw.line((0, y, width, y), fill=(round(r1 + (r2 - r1) * f), round(g1 + (g2 - g1) * f),
                                          round(b1 + (b2 - b1) * f)))
    for _ in range(rng.randint(2, 4)):
        r = rng.randint(height // 10, height // 4)
        x, y = rng.randint(0, width), rng.randint(0, height)
        tint = tuple(min(255, c + 40) for c in (r2, g2, b2))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tint)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    stems = rng.sample(STEMS, 2)
    skies = rng.sample(SKIES, 2)
    pictures = tuple((f"{HOME}/Pictures/{stem}.png", draw_backdrop(rng, sky)) for stem, sky in zip(stems, skies,
                                                                                                  strict=True))
    titles = deck.titles
    if params["scope"] == "one":
        chosen = rng.choice(deck.content_titles)
        i = titles.index(chosen)
        neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
        slide: str | None = chosen
        where, rest = f"the slide '{chosen}'", "The other slides keep their background."
    else:
        slide, neighbour = None, deck.content_titles[0]
        where, rest = "every slide", "The title slide gets it too; change nothing else."
    facts = {"path": deck.path, "image": pictures[0][0], "where": where, "where_cap": where[0].upper() + where[1:],
             "rest": rest}
    return Goal(deck, facts, Target(slide, pictures, neighbour, titles[0]))


def prepare(deck: ic.Deck, target: Target) -> Mapping[str, Any]:
    """The deck, and both pictures waiting in ~/Pictures."""
    return ic.deck_outputs(deck, tuple(Asset(dest, data) for dest, data in target.pictures))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    image, data = target.pictures[0]
    args: dict[str, Any] = {"path": deck.path, "image": image, "pixels": pixel_digest(data)}
    if target.slide is None:
        args["every"] = True
        criterion = f"Every slide of {deck.path} shows the picture {image} as its background."
    else:
        args["slide"] = target.slide
        criterion = f"The slide '{target.slide}' shows the picture {image} as its background; no other slide does."
    return [Check("background", criterion, "pptx.background_picture", args)]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    (image, _), (other, _) = target.pictures
    base = {"op": "pptx.set_background_image", "path": deck.path, "image": image}
    wrong_file = Attempt(f"uses the other picture {other}", [{**base, "image": other, "title": target.slide}])
    if target.slide is not None:
        one = {**base, "title": target.slide}
        return Attempts(
            Attempt(f"set {image} as the background of '{target.slide}'", [one]),
            [wrong_file,
             Attempt(f"sets it on the neighbouring slide '{target.neighbour}'", [{**base, "title": target.neighbour}]),
             Attempt("sets it as the background of every slide", [base]),
             Attempt("inserts the picture on the slide, stretched over it, instead of as its background",
                     [{"op": "pptx.add_image", "path": deck.path, "title": target.slide, "image": image,
                       "left_cm": 0, "top_cm": 0, "width_cm": 25.4}])],
        )
    return Attempts(
        Attempt(f"set {image} as the background of every slide", [base]),
        [wrong_file,
         Attempt("sets it on every slide but the title slide", [{**base, "skip": [target.cover]}]),
         Attempt(f"sets it on the slide '{target.neighbour}' only", [{**base, "title": target.neighbour}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Use a stated picture from ~/Pictures as the background of one stated slide, or of every slide.",
    knobs={"scope": ("one", "all")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
