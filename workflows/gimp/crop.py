"""gimp.crop: crop a picture to a stated rectangle, the largest centred square, inside a border, or to one half.

The crop is saved back over the picture in its own format. `image.cropped_to` checks the exact size of the
region and that it shows the original's pixels there (thumbnail comparison, so JPEG re-compression is fine).
Near-miss candidates (a few pixels off, offsets swapped, a shifted or opposite region, scaling instead of
cropping) are kept only when `preview` shows them clearly wrong for that picture: a region shifted across a
smooth sky is not a mistake a content check can see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.crop"
BORDERS = (10, 16, 20, 24, 30, 40)
HALVES = ("left", "right", "top", "bottom")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The image {path} shows {subject}. In GIMP, {task}, then overwrite the file, keeping the {fmt} format.",
    "Please open {path} ({subject}) and {task}; save the cropped picture over the original {fmt} file.",
    "Using GIMP, open {path}, which shows {subject}, and {task}. Keep the file name and the {fmt} format.",
    "The picture of {subject} at {path} needs cropping: {task}. Export the result back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Take {path.file} and {task}. Save it over the original.",
    "The framing of {path.file} is off. Please {task}, then save it as {fmt}.",
    "{path} needs a crop: {task}. Save it with the same name and format.",
    "About {path.file}: could you {task}? Save over it when you're done.",
    "I only want part of {path.file}, so {task} and save the file in place.",
)


Region = Literal["box", "center_square", "trim_border", "half"]


class Params(TypedDict):
    region: Region
    fmt: Literal["png", "jpg"]


@dataclass(frozen=True)
class Target:
    box: list[int]  # the region to keep: [left, top, right, bottom] in pixels of the original


def _box(box: list[int]) -> tuple[int, int, int, int]:
    return box[0], box[1], box[2], box[3]


def _round10(value: float) -> int:
    return int(value // 10 * 10)


def _plan(rng: random.Random, region: str, w: int, h: int) -> tuple[list[int], str]:
    """The crop box [left, top, right, bottom] and how the instruction states it."""
    if region == "box":
        bw, bh = _round10(w * rng.uniform(0.4, 0.7)), _round10(h * rng.uniform(0.4, 0.7))
        left, top = _round10(rng.uniform(0, w - bw)), _round10(rng.uniform(0, h - bh))
        return [left, top, left + bw, top + bh], (
            f"crop it to the rectangle whose top-left corner is at x = {left}, y = {top} and which is {bw} pixels "
            f"wide and {bh} pixels high")
    if region == "center_square":
        s = min(w, h)
        return [(w - s) // 2, (h - s) // 2, (w + s) // 2, (h + s) // 2], (
            "crop it to the largest square that fits, centred in the picture")
    if region == "trim_border":
        b = rng.choice(BORDERS)
        return [b, b, w - b, h - b], f"cut a {b}-pixel border off every side (crop it away, don't scale)"
    side = rng.choice(HALVES)
    box = {"left": [0, 0, w // 2, h], "right": [w // 2, 0, w, h], "top": [0, 0, w, h // 2],
           "bottom": [0, h // 2, w, h]}[side]
    span = "full height" if side in ("left", "right") else "full width"
    return box, f"crop it to its {side} half (the {side} 50% of the picture at {span})"


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    box, task = _plan(rng, params["region"], source.width, source.height)
    facts = {"path": source.path, "subject": source.subject, "task": task, "fmt": source.format_name}
    return Goal(None, facts, Target(box))


def rubric(params: Params, source: gc.Source, target: Target) -> list[Check]:
    box = target.box
    checks = []
    if params["region"] == "box":
        checks.append(gc.size_check(source.path, box[2] - box[0], box[3] - box[1]))
    checks.append(Check("cropped", f"{source.path} is the region {box} (left, top, right, bottom) of the original.",
                        "image.cropped_to", {"path": source.path, "box": box, "original": source.recipe()}))
    return [*checks, gc.format_check(source.path, source.fmt)]


def _candidates(region: str, box: list[int], w: int, h: int) -> list[tuple[str, list[int] | None, list[int]]]:
    """(why, crop box or None for a scale, size) of plausible wrong crops."""
    left, top, right, bottom = box
    bw, bh = right - left, bottom - top
    out: list[tuple[str, list[int] | None, list[int]]] = [
        ("cropped a few pixels short on two sides", [left, top, right - 4, bottom - 3], []),
        ("scaled the whole picture to the crop size instead of cropping", None, [bw, bh]),
    ]
    if region == "box":
        out.append(("swapped the x and y offsets", [top, left, top + bw, left + bh], []))
        dx = bw // 3 if right + bw // 3 <= w else -(bw // 3)
        out.append(("dragged the crop rectangle a third of its width sideways", [left + dx, top, right + dx, bottom],
                    []))
    elif region == "center_square":
        out.append(("cropped the square at the top-left corner instead of the centre", [0, 0, bw, bh], []))
    elif region == "trim_border":
        out.append(("trimmed the border only on the left and top", [left, top, w, h], []))
    else:
        mirror = [w - right, h - bottom, w - left, h - top]
        out.append(("kept the opposite half", mirror, []))
    return out


def solve(params: Params, source: gc.Source, target: Target) -> Attempts:
    box = target.box
    expected = source.image.crop(_box(box))
    crop = {"op": "image.crop", "path": source.path, "box": box}
    misses = [Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                      [crop, gc.wrong_format_op(source.path, source.fmt)])]
    for why, wrong, size in _candidates(params["region"], box, source.width, source.height):
        if wrong is not None and not (0 <= wrong[0] < wrong[2] <= source.width
                                      and 0 <= wrong[1] < wrong[3] <= source.height):
            continue
        ops = ([{"op": "image.crop", "path": source.path, "box": wrong}] if wrong is not None else
               [{"op": "image.resize", "path": source.path, "width": size[0], "height": size[1]}])
        if gc.clearly_differs(gc.preview(source, ops), expected):
            misses.append(Attempt(why, ops))
    return Attempts(Attempt(f"crop to {box} and save in place", [crop]), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Crop a picture to a stated rectangle, the largest centred square, inside a border, or one half.",
    knobs={"region": ("box", "center_square", "trim_border", "half"), "fmt": ("png", "jpg")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"], size_ok=lambda kind, size: size[0] != size[1]),
)
