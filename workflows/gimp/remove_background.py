"""gimp.remove_background: cut a logo, diagram or chart out of its plain coloured background (make the background
transparent) and export the result as a PNG with an alpha channel next to the original, which stays as it is.

The source is a flat picture whose background is one solid colour (`source_nodes(backgrounds=...)` paints the white
background of `preparers.image` a colour the picture itself does not use), so the background is known exactly: the
mask of the white-background drawing. In GIMP: Layer > Transparency > Add Alpha Channel, Select by Color (or Color to
Alpha) on the background, Delete, File > Export As .png. Checks: on the new file the background is transparent and
the subject opaque (`image.transparent_background`, on the wholly-background and wholly-subject parts of a thumbnail of
the mask, so anti-aliased edges don't matter), the subject's pixels are those of the original (`image.content_matches`
against the original with the background cleared), and it is really a PNG; the tree frame refuses the original
changed. Near-misses: the background filled with white instead of cleared, an alpha channel added but nothing
cleared, the subject's main colour cleared instead of the background, JPEG data (no alpha) behind the .png name, the
original cleared and saved over itself with no new file.
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from PIL import Image

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import background_mask, render
from workflows.gimp import kit as gc

NAME = "gimp.remove_background"
KINDS = ("logo", "diagram", "chart")
#: background colour -> how a person names it
COLORS = {"#2E8B8B": "teal", "#F2C14E": "mustard yellow", "#7A4FA3": "purple", "#E8A0BF": "pink",
          "#3A5BA0": "blue", "#9BC53D": "lime green", "#D1495B": "red", "#C9C3B8": "light grey"}
MIN_SUBJECT_CELLS = 12
SUFFIXES = ("_transparent", "_cutout", "_nobg", "-transparent")
USES = ("for the website header", "to put it on the new flyer", "for the slide template", "for the shop's product "
        "page", "to overlay it on a photo", "for the email signature")
PHRASINGS = (
    "Open {path} ({subject}) in GIMP and remove its plain {color_name} background ({color}): make the background "
    "fully transparent while the {kind} itself stays opaque and unchanged. Export the result as the PNG file {dest} "
    "{use}, and leave the original file as it is.",
    "I need {path} ({subject}) without its solid {color_name} background {use}. In GIMP, add an alpha channel, make "
    "every background pixel ({color}) transparent, keep the {kind} exactly as it is, and export it to {dest} as PNG.",
    "Please cut the {kind} in {path} ({subject}) out of its {color_name} ({color}) background: the background must "
    "become transparent, the {kind} stay opaque. Save it as a PNG with transparency at {dest}; do not change {path}.",
    "Using GIMP, make the {color_name} background ({color}) of {path}, which shows {subject}, transparent {use}. "
    "Export the picture with its alpha channel to {dest} (PNG) and keep the original {fmt} file unchanged.",
    "{path} ({subject}) sits on a flat {color_name} background ({color}). Remove that background so it is "
    "transparent, leave the {kind} untouched, and export the result {use} as the PNG file {dest}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you get rid of the {color_name} background in {path.file} {use}? I need a PNG with a transparent "
    "background, saved as {dest}.",
    "I want my {kind} from {path.file} without the {color_name} background {use}. Make the background transparent "
    "and save it as {dest}.",
    "Please make the {color_name} background of {path.file} see-through, keep the {kind} as it is, and save the PNG "
    "as {dest}.",
    "{use_cap}, I need {path.file} with a transparent background instead of the {color_name} one. Save it as {dest} "
    "and keep the original.",
    "Remove the plain {color_name} background from {path.file} ({subject}) so it's transparent, and save the result "
    "as {dest}.",
)


class Params(TypedDict):
    source: Literal["png", "bmp"]  # the original picture's format (lossless, so its background is one colour)


@dataclass(frozen=True)
class Target:
    dest: str  # the new PNG file
    color: str  # the background colour, "#RRGGBB"


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    color = source.background or ""
    dest = source.sibling("png", rng.choice(SUFFIXES))
    use = rng.choice(USES)
    facts = {"path": source.path, "subject": source.subject, "kind": source.kind, "dest": dest, "color": color,
             "color_name": COLORS.get(color, "plain"), "fmt": source.format_name, "use": use,
             "use_cap": use[0].upper() + use[1:]}
    return Goal(None, facts, Target(dest, color))


def _mask(source: gc.Source) -> dict[str, Any]:
    """The background, as a thumbnail of the white-background drawing's mask (255 = background).

    `image.transparent_background` reads only the thumbnail's wholly-background and wholly-subject cells; a chart
    of thin bars and lines may have no wholly-subject cell at the usual thumbnail size, so the mask is made finer
    (2x, 4x) until at least `MIN_SUBJECT_CELLS` of its cells are the subject's alone."""
    full = background_mask(render(dict(source.spec)))
    reference = gc.thumbnail(full, gray=True)
    for scale in (1, 2, 4):
        size = (min(full.width, reference["width"] * scale), min(full.height, reference["height"] * scale))
        small = full.resize(size, Image.Resampling.BOX)
        if small.histogram()[0] >= MIN_SUBJECT_CELLS:
            break
    return {**reference, "width": small.width, "height": small.height,
            "data": base64.b64encode(small.tobytes()).decode("ascii")}


def rubric(source: gc.Source, target: Target) -> list[Check]:
    clear = [{"op": "image.clear_color", "color": target.color}]
    return [Check("transparent", f"In {target.dest} the {COLORS.get(target.color, '')} background is transparent and "
                                 f"the {source.kind} opaque.", "image.transparent_background",
                  {"path": target.dest, "mask": _mask(source)}),
            gc.content_check(target.dest, source, clear, f"the same {source.kind}, unchanged, without its background"),
            gc.size_kept_check(target.dest, source), gc.format_check(target.dest, "png")]


def _main_color(source: gc.Source, background: str) -> str:
    """The subject's most common colour (the picture's, the background's left out)."""
    colors = sorted(source.image.convert("RGB").getcolors(1 << 24) or [], key=lambda c: c[0], reverse=True)
    hexes = ["#" + "".join(f"{int(v):02X}" for v in rgb) for _, rgb in colors if isinstance(rgb, tuple)]
    return next(h for h in hexes if h != background)


def solve(source: gc.Source, target: Target) -> Attempts:
    path, dest, color = source.path, target.dest, target.color
    clear = {"op": "image.clear_color", "path": path, "color": color}
    export = {"op": "image.convert_format", "path": path, "dest": dest}
    return Attempts(
        Attempt(f"clear the {color} background and export with alpha to {dest}", [clear, export]),
        [Attempt("filled the background with white instead of making it transparent",
                 [clear, {"op": "image.flatten", "path": path, "color": "#FFFFFF"}, export]),
         Attempt("added an alpha channel but left the background opaque",
                 [{"op": "image.convert_mode", "path": path, "mode": "RGBA"}, export]),
         Attempt("selected the subject's main colour instead of the background and deleted it",
                 [{**clear, "color": _main_color(source, color)}, export]),
         Attempt("exported JPEG data (no alpha) behind the .png name", [clear, {**export, "format": "JPEG"}]),
         Attempt("cleared the background in the original and saved over it, with no new file", [clear])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Make a flat picture's plain coloured background transparent and export it as a PNG with alpha, "
                "keeping the original.",
    knobs={"source": ("png", "bmp")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["source"], backgrounds=tuple(COLORS)),
)
