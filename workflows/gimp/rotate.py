"""gimp.rotate: turn a picture 90 degrees either way or 180 degrees, or mirror it horizontally or vertically.

Typical fix-ups: a phone photo shot sideways, a scan fed in upside down, a product shot facing the wrong way.
The result is saved back over the picture in its own format (png, jpg or bmp). `image.is_rotated` and
`image.is_flipped` compare thumbnails with the original transformed (sizes exact, content within tolerance).
Near-misses: the other direction, the other axis, a rotation instead of a flip (or the reverse), and a picture
written in another format behind the same extension; a confusable result is kept only when it is clearly wrong
for that picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.rotate"
#: transform -> clockwise degrees, or flip axis
ROTATE = {"rotate_cw": 90, "rotate_ccw": 270, "rotate_180": 180}
FLIP = {"flip_horizontal": "horizontal", "flip_vertical": "vertical"}
SAY = {
    "rotate_cw": "rotate it 90° clockwise (it was shot sideways)",
    "rotate_ccw": "rotate it 90° counter-clockwise (it was shot sideways)",
    "rotate_180": "rotate it by 180° (it is upside down)",
    "flip_horizontal": "flip it horizontally, so that left and right are swapped (a mirror image)",
    "flip_vertical": "flip it vertically, so that top and bottom are swapped",
}
CONFUSED = {
    "rotate_cw": (("rotated counter-clockwise instead", "rotate_ccw"), ("rotated by 180°", "rotate_180")),
    "rotate_ccw": (("rotated clockwise instead", "rotate_cw"), ("rotated by 180°", "rotate_180")),
    "rotate_180": (("flipped vertically instead of rotating", "flip_vertical"),
                   ("rotated only 90° clockwise", "rotate_cw")),
    "flip_horizontal": (("flipped vertically instead", "flip_vertical"), ("rotated by 180° instead", "rotate_180")),
    "flip_vertical": (("flipped horizontally instead", "flip_horizontal"), ("rotated by 180° instead", "rotate_180")),
}
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The picture {path} shows {subject}. Using GIMP, {task}, then overwrite the file, keeping it a {fmt} image.",
    "Please fix the orientation of {path} ({subject}): {task}. Save the result over the original {fmt} file.",
    "In GIMP, open {path}, which shows {subject}, and {task}. Keep the file name and the {fmt} format.",
    "{path} ({subject}) needs a transform: {task}. Export it back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "My picture {path.file} is the wrong way up; please {task}, and save it over the original.",
    "Could you {task}? It's {path}, the picture of {subject}. Keep it a {fmt}.",
    "{path.file} ({subject}) looks wrong: {task}, then save it in place.",
    "Please fix {path.file} so it looks right: {task}. Save it with the same name and format.",
    "I need {path.file} fixed so I can share it: {task}, and save it over the file.",
)


Transform = Literal["rotate_cw", "rotate_ccw", "rotate_180", "flip_horizontal", "flip_vertical"]


class Params(TypedDict):
    transform: Transform
    fmt: Literal["png", "jpg", "bmp"]


@dataclass(frozen=True)
class Target:
    transform: Transform  # a `ROTATE` or a `FLIP` key


def _ops(path: str, transform: str) -> list[dict[str, Any]]:
    if transform in ROTATE:
        return [{"op": "image.rotate", "path": path, "degrees": ROTATE[transform]}]
    return [{"op": "image.flip", "path": path, "axis": FLIP[transform]}]


def goal(params: Params, source: gc.Source) -> Goal[None, Target]:
    transform = params["transform"]
    facts = {"path": source.path, "subject": source.subject, "task": SAY[transform], "fmt": source.format_name}
    return Goal(None, facts, Target(transform))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    transform = target.transform
    original = source.recipe()
    if transform in ROTATE:
        degrees = 180 if transform == "rotate_180" else 90
        direction = {"rotate_cw": "clockwise", "rotate_ccw": "counter-clockwise"}.get(transform, "")
        check = Check("rotated", f"{source.path} is the original rotated {degrees}° {direction}".rstrip() + ".",
                      "image.is_rotated", {"path": source.path, "original": original, "degrees": degrees,
                                           "direction": direction})
    else:
        check = Check("flipped", f"{source.path} is the original flipped {FLIP[transform]}ly.", "image.is_flipped",
                      {"path": source.path, "original": original, "axis": FLIP[transform]})
    return [check, gc.format_check(source.path, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    right = _ops(source.path, target.transform)
    expected = gc.preview(source, right)
    misses = [Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                      [*right, gc.wrong_format_op(source.path, source.fmt)])]
    for why, wrong in CONFUSED[target.transform]:
        ops = _ops(source.path, wrong)
        if gc.clearly_differs(gc.preview(source, ops), expected):
            misses.append(Attempt(why, ops))
    return Attempts(Attempt(SAY[target.transform], right), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Rotate a picture 90° either way or 180°, or flip it horizontally or vertically, saving in place.",
    knobs={"transform": tuple(SAY), "fmt": ("png", "jpg", "bmp")},
    phrasings=PHRASINGS, natural=NATURAL,
    goal=goal, rubric=rubric, solve=solve, source=gc.source_nodes(KINDS, lambda p: p["fmt"]),
)
