"""multi.image_slide: scale a photo in GIMP (exact size, a width keeping the aspect ratio, or a percentage), export
the scaled copy as PNG or JPEG to a stated path, and insert that copy on a stated slide of an Impress deck — an
existing one or a new one added at the end (GIMP -> Impress).

The slide check looks at the inserted picture's own pixels (size and content), so inserting the original photo,
or a copy scaled wrongly, fails even when it looks the same size on the slide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, cast

from PIL import Image

from kit.axes import LOCATION, LOOKALIKES
from kit.dag import NodeContext
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.gimp import kit as gc
from workflows.impress import kit as ic
from workflows.multi import kit as mc

NAME = "multi.image_slide"
PHOTO_KINDS = ("landscape", "cityscape", "beach", "product")
FACTORS = (0.25, 0.4, 0.5, 0.6, 0.75)
WIDTHS = (400, 480, 500, 560, 600, 640, 720)
NEW_TITLES = ("Photo Highlights", "On Location", "A Closer Look", "Gallery", "From the Field")
#: Difficulty axes (issue 15), honoured by the GIMP and Impress kits' sample nodes: how deep the photo and the deck
#: sit, and older copies of the photo beside it.
AXES = {"location": LOCATION, "lookalikes": LOOKALIKES}
PHRASINGS = (
    "In GIMP, open {image} and scale it {how}. Export the result as {fmt} to {dest}, leaving the original "
    "untouched. Then, in Impress, insert {dest} {where} of {deck} and save the presentation in place as pptx.",
    "The photo {image} is too big for the slides. Scale it {how} in GIMP, export the scaled copy as {dest} "
    "({fmt}), and put that copy {where} of the deck {deck}. Save the deck as pptx.",
    "Please prepare {image} for the presentation {deck}: scale it {how}, export it in {fmt} format to {dest}, and "
    "insert the exported picture {where}. Keep the original photo as it is and save the pptx in place.",
    "Using GIMP and LibreOffice Impress: scale {image} {how}, export it as the {fmt} file {dest}, then insert "
    "{dest} {where} of {deck}. Save the presentation without changing its format.",
    "Scale the picture {image} {how} and export it to {dest} as {fmt} (GIMP: Image > Scale Image, then File > "
    "Export As). Insert the exported file {where} of {deck} in Impress and save it in place.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you scale {image} {how}, save that as {dest}, and put it {where} of {deck}?",
    "The photo {image} is too big for my slides. Scale it {how}, save it as {dest}, and insert that {where} of "
    "{deck}.",
    "Please make a {fmt} version of {image} scaled {how} at {dest}, then add it {where} in {deck}.",
    "Scale {image} {how}, save it as {dest}, and place it {where} of {deck}; keep the original photo.",
    "For {deck}, I'd like {image} scaled {how} and saved as {dest}, then inserted {where}.",
)


#: The GIMP kit's prepare node, run by the goal on the family's own picture part (it reads no node context).
_PICTURE = gc.source_nodes(PHOTO_KINDS, lambda p: "jpg")[2]


class Params(TypedDict):
    size: Literal["exact", "width", "percent"]
    fmt: Literal["png", "jpg"]
    target: Literal["existing", "new_slide"]


@dataclass(frozen=True)
class Target:
    source: str  # the photo's path
    dest: str  # where the scaled copy is exported
    deck: str
    slide: str  # the slide the copy goes on
    width: int  # the copy's size
    height: int
    number: int  # the number the instruction states (percent or pixels)
    orig: tuple[int, int]  # the photo's size
    fmt: str
    reference: dict[str, Any]  # a thumbnail of the expected copy, for the slide check
    count: int  # slides in the deck before the task
    picture: gc.Source
    neighbour: str  # another content slide: the wrong place


def _size(rng: Any, mode: str, width: int, height: int) -> tuple[int, int, str, int]:
    """(new width, new height, how the instruction says it, the stated number)."""
    if mode == "percent":
        factor = rng.choice(FACTORS)
        percent = round(factor * 100)
        return round(width * factor), round(height * factor), f"to {percent}% of its size", percent
    if mode == "width":
        new = rng.choice([w for w in WIDTHS if w < width])
        return new, round(height * new / width), f"to a width of {new} pixels, keeping the aspect ratio", new
    factor = rng.choice([f for f in FACTORS if (width * f).is_integer() and (height * f).is_integer()] or FACTORS)
    w, h = round(width * factor), round(height * factor)
    return w, h, f"to exactly {w} x {h} pixels", w


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    pic = _PICTURE.fn(cast(NodeContext, None), {"plan": plan["picture"], "picture": content["picture"]})
    source: gc.Source = pic["source"]
    deck = ic.deck_from(content["deck"], plan["deck"])
    width, height, how, number = _size(rng, params["size"], source.width, source.height)
    fmt = params["fmt"]
    dest = source.sibling(fmt, rng.choice(("_slide", "_small", f"_{width}px", "_deck")))
    if params["target"] == "existing":
        slide = rng.choice(deck.content_titles)
        where = f"on the slide titled '{slide}'"
    else:
        slide = rng.choice([t for t in NEW_TITLES if t not in deck.titles])
        where = f"on a new slide titled '{slide}' (layout 'Title Only') that you add at the end"
    expected = source.image.convert("RGB").resize((width, height), Image.Resampling.BICUBIC)
    facts = {"image": source.path, "how": how, "fmt": gc.FORMAT_NAMES[fmt], "dest": dest, "where": where,
             "deck": deck.path}
    target = Target(source.path, dest, deck.path, slide, width, height, number, (source.width, source.height), fmt,
                    gc.thumbnail(expected), len(deck.titles), source,
                    next(t for t in deck.content_titles if t != slide))
    setup = mc.Setup((("files", pic["assets"]), ("impress", deck)), launch=tuple(pic["launch"]))
    return Goal(setup, facts, target)


def rubric(params: Params, target: Target) -> list[Check]:
    t, p = target, params
    dest, (ow, oh) = t.dest, t.orig
    size = {"exact": Check("size", f"{dest} is {t.width} x {t.height} pixels.", "image.size_equals",
                           {"path": dest, "width": t.width, "height": t.height}),
            "width": Check("size", f"{dest} is {t.width} pixels wide.", "image.side_equals",
                           {"path": dest, "side": "width", "pixels": t.width}),
            "percent": Check("size", f"{dest} is the photo scaled to {t.number}%.", "image.scaled_by",
                             {"path": dest, "width": ow, "height": oh, "percent": t.number})}[p["size"]]
    scaled = [{"op": "image.resize", "width": t.width, "height": t.height}]
    checks = [size, gc.format_check(dest, t.fmt),
              gc.content_check(dest, t.picture, scaled, f"the photo scaled to {t.width} x {t.height}"),
              Check("colour", f"{dest} keeps the photo's colour (an RGB picture).", "image.mode_is",
                    {"path": dest, "modes": ["RGB", "RGBA"]}),
              Check("slide", f"Slide '{t.slide}' of {t.deck} shows the scaled {t.width}x{t.height} "
                             "copy of the photo.", "multi.slide_picture",
                    {"path": t.deck, "slide": t.slide, "width": t.width, "height": t.height,
                     "reference": t.reference})]
    if p["size"] == "width":
        checks.append(Check("aspect", f"{dest} keeps the photo's aspect ratio.", "image.aspect_preserved",
                            {"path": dest, "width": ow, "height": oh}))
    if p["target"] == "new_slide":
        checks.append(Check("position", f"The new slide '{t.slide}' is the last slide.", "pptx.slide_position",
                            {"path": t.deck, "title": t.slide, "position": t.count + 1}))
    return checks


def solve(params: Params, target: Target) -> Attempts:
    t, p = target, params
    new = p["target"] == "new_slide"

    def steps(width: int = t.width, height: int = t.height, picture: str = t.dest, slide: str = t.slide,
              insert: bool = True, add: bool = new) -> list[dict[str, Any]]:
        ops = [mc.op("multi.export_image", t.source, dest=t.dest, width=width, height=height)]
        if add:
            ops.append(mc.op("pptx.add_slide", t.deck, layout="title_only", title=t.slide, position=t.count + 1))
        if insert:
            ops.append(mc.op("pptx.add_image", t.deck, title=slide, image=picture, left_cm=4, top_cm=4,
                             width_cm=12))
        return ops

    wrong = {"exact": (t.height, t.width, "swaps width and height"),
             "width": (round(t.width * t.width / t.height), t.width, "makes the height the stated width"),
             "percent": (round(t.orig[0] * (100 - t.number) / 100),
                         round(t.orig[1] * (100 - t.number) / 100), "scales by the remaining percentage instead")
             }[p["size"]]
    misses = [
        Attempt("inserts the original photo instead of the scaled copy", steps(picture=t.source)),
        Attempt("exports the scaled copy but never inserts it", steps(insert=False)),
        Attempt("inserts the copy on another slide" + (" instead of a new one" if new else ""),
                steps(slide=t.neighbour, add=False) if new else steps(slide=t.neighbour)),
    ]
    if wrong[:2] != (t.width, t.height):
        misses.append(Attempt(wrong[2], steps(width=wrong[0], height=wrong[1])))
    return Attempts(Attempt("scale, export the copy, insert it on the asked slide", steps()), misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.GIMP, mc.IMPRESS), picture=mc.passing(*AXES, kinds=PHOTO_KINDS, fmt="jpg"),
               deck=mc.passing("location")),
    description="Scale a photo in GIMP, export the copy as PNG or JPEG, and insert it on an existing or new "
                "Impress slide.",
    knobs={"size": ("exact", "width", "percent"), "fmt": ("png", "jpg"), "target": ("existing", "new_slide")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
