"""gimp.grayscale: convert a picture to grayscale (Image > Mode > Grayscale, or Colors > Desaturate) in place.

Checks: every pixel is grey (grey mode, or equal red, green and blue), the content is the original's
(correlation of grey thumbnails, so GIMP's own luminance weights are fine), the size is unchanged and the file
keeps its real format. Near-misses: saturation only turned down, and the grey picture written in another
format behind the same extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS, PALETTE_NAMES
from workflows.gimp import kit as gc

NAME = "gimp.grayscale"
#: an overcast picture is nearly grey already: a half-hearted desaturation could not be told apart
COLOURFUL = tuple(p for p in PALETTE_NAMES if p != "overcast")
REASONS = ("for the black-and-white newsletter", "so it prints well on the office laser printer",
           "to match the other grayscale figures in the report", "for the archive, which keeps scans in grey",
           "for a calmer look on the website")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and convert it to grayscale {why}. Save it back to the same "
    "file as {fmt}.",
    "The picture {path} shows {subject}. Using GIMP, make it grayscale (no colour left at all) {why}, then "
    "overwrite the file, keeping the {fmt} format.",
    "Please turn {path} ({subject}) into a grayscale image {why}. Keep its size and save it over the original "
    "{fmt} file.",
    "In GIMP, remove all colour from {path}, which shows {subject}, by converting it to grayscale {why}. Keep "
    "the file name and the {fmt} format.",
    "Convert the {fmt} image {path} ({subject}) to grayscale {why} and export it back to {path}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make {path.file} grayscale {why} and save it over the original {fmt}.",
    "Can you take all the colour out of my picture of {subject} ({path}), leaving only greys, {why}? Save it with "
    "the same name and format.",
    "I want {path.file} in shades of grey only, {why}. Save over the file.",
    "Turn {path.file}, the {fmt} of {subject}, into a grayscale image {why}, keeping it where it is.",
    "{path.file} should be grey only, with no colour left at all {why}; save the change to the same file.",
)


class Params(TypedDict):
    fmt: Literal["png", "jpg", "bmp", "tiff", "webp"]  # the picture's own format (read by the source nodes)


@dataclass(frozen=True)
class Target:
    path: str  # the picture to turn grey, in place


def goal(rng: random.Random, source: gc.Source) -> Goal[None, Target]:
    facts = {"path": source.path, "subject": source.subject, "fmt": source.format_name, "why": rng.choice(REASONS)}
    return Goal(None, facts, Target(source.path))


def rubric(source: gc.Source) -> list[Check]:
    gray = Check("grayscale", f"{source.path} has no colour left: every pixel is grey.", "image.grayscale",
                 {"path": source.path})
    return [gray, gc.content_check(source.path, source, [], "the original picture", gray=True, tone=True),
            gc.size_kept_check(source.path, source), gc.format_check(source.path, source.fmt)]


def solve(source: gc.Source) -> Attempts:
    grey = {"op": "image.convert_mode", "path": source.path, "mode": "grayscale"}
    return Attempts(
        Attempt("convert to grayscale and save in place", [grey]),
        [Attempt("turned saturation down to 30% instead of removing colour",
                 [{"op": "image.adjust", "path": source.path, "saturation": 0.3}]),
         Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                 [grey, gc.wrong_format_op(source.path, source.fmt)])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Convert a picture to grayscale and save it in place in its own format.",
    knobs={"fmt": ("png", "jpg", "bmp", "tiff", "webp")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"], palettes=COLOURFUL),
)
