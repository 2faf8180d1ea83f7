"""gimp.flip: make a mirrored copy of a picture (flipped horizontally or vertically) next to the original, which
stays as it is.

Typical uses: a product shot that should face the other way on a page, a photo mirrored for a two-page spread, a
diagram whose flow must run the other way. In GIMP: Image > Transform > Flip Horizontally / Vertically, then File >
Export As. (Flipping in place is `gimp.rotate`'s flip_* transforms; this family asks for a new file.) Checks: the new
file is the original mirrored along the stated axis (`image.is_flipped`, sizes exact) and really in the stated
format; the tree frame refuses the original changed. Near-misses: the other axis, a 180° turn, the original flipped
and saved in place with no copy, a copy exported before flipping, the original flipped as well as the copy, another
format behind the copy's extension; a confusable result is kept only when it is clearly wrong for that picture.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.flip"
SAY = {
    "horizontal": "flip it horizontally, so that left and right are swapped",
    "vertical": "flip it vertically, so that top and bottom are swapped",
}
OTHER = {"horizontal": "vertical", "vertical": "horizontal"}
SUFFIXES = ("_mirrored", "_flipped", "-mirror", "_reversed")
WHY = ("for the facing page of the brochure", "so it faces the text on the poster", "for the second slide of the "
       "pair", "for the photo collage", "so both versions can go side by side on the web page")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}. Export the mirrored picture as {dest} in {fmt} "
    "{why}, and leave the original file as it is.",
    "I need a mirrored copy of {path} ({subject}) {why}. Using GIMP, {task}, then export it to {dest} ({fmt}); do "
    "not overwrite {path}.",
    "Please make a flipped version of the picture of {subject} at {path}: {task}. Save the result as the {fmt} file "
    "{dest} and keep the original unchanged.",
    "In GIMP, open {path}, which shows {subject}, {task} and export the result to {dest} as {fmt} {why}. The original "
    "stays untouched.",
    "{path} ({subject}) is needed the other way round {why}: {task}, and write the result to {dest} in {fmt} format, "
    "leaving {path} alone.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you make a mirror copy of {path.file} {why}? Please {task} and save it as {dest}.",
    "I need {path.file}, my picture of {subject}, the other way round {why}: {task}, saved as {dest}. Keep the "
    "original.",
    "Please open {path.file} and {task}. Save the flipped copy as {dest}; the original should stay as it is.",
    "{why_cap}, I need a flipped copy of {path.file}: {task}. Save it to {dest} and don't touch the original.",
    "Make me a mirrored version of {path.file} ({subject}) {why}: {task}, then save it as {dest}.",
)

Axis = Literal["horizontal", "vertical"]


class Params(TypedDict):
    axis: Axis
    fmt: Literal["png", "jpg", "webp"]


@dataclass(frozen=True)
class Target:
    axis: Axis
    dest: str  # the new file the mirrored picture is exported to


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    axis = params["axis"]
    dest = source.sibling(source.fmt, rng.choice(SUFFIXES))
    why = rng.choice(WHY)
    facts = {"path": source.path, "subject": source.subject, "task": SAY[axis], "dest": dest,
             "fmt": source.format_name, "why": why, "why_cap": why[0].upper() + why[1:]}
    return Goal(None, facts, Target(axis, dest))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    flipped = Check("flipped", f"{target.dest} is {source.path} flipped {target.axis}ly.", "image.is_flipped",
                    {"path": target.dest, "original": source.recipe(), "axis": target.axis})
    return [flipped, gc.format_check(target.dest, source.fmt)]


def _flip(path: str, axis: str) -> dict[str, Any]:
    return {"op": "image.flip", "path": path, "axis": axis}


def solve(source: gc.Source, target: Target) -> Attempts:
    path, dest = source.path, target.dest
    export = {"op": "image.convert_format", "path": path, "dest": dest}
    right = [_flip(path, target.axis), export]
    expected = gc.preview(source, right)
    misses = [
        Attempt("flipped the original and saved it in place, with no copy", [_flip(path, target.axis)]),
        Attempt("exported the copy before flipping (the copy is unchanged)", [export, _flip(path, target.axis)]),
        Attempt("flipped the original in place as well as exporting the copy",
                [_flip(path, target.axis), export, {**export, "dest": path}]),
        Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                [_flip(path, target.axis), {**export, "format": gc.other_format(source.fmt)}]),
    ]
    turn = {"op": "image.rotate", "path": path, "degrees": 180}
    confused: list[tuple[str, list[dict[str, Any]]]] = [
        (f"flipped {OTHER[target.axis]}ly instead", [_flip(path, OTHER[target.axis]), export]),
        ("rotated by 180° instead of flipping", [turn, export])]
    for why, ops in confused:
        if gc.clearly_differs(gc.preview(source, ops), expected):
            misses.append(Attempt(why, ops))
    return Attempts(Attempt(f"flip {target.axis}ly and export the copy to {dest}", right), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Export a copy of a picture mirrored horizontally or vertically next to it, keeping the original.",
    knobs={"axis": ("horizontal", "vertical"), "fmt": ("png", "jpg", "webp")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"]),
)
