"""gimp.resize: scale a picture to an exact size, by a percentage, or to a width/height keeping its aspect ratio.

The picture is saved back over itself in its own format (png, jpg or webp). Checks: the size the mode asks
for, the content (the original scaled; compared on thumbnails, so GIMP's own resampling filter is fine) and the
real format. Near-misses: a few pixels off, the aspect ratio kept or lost when the other was asked, and a
picture written in another format behind the same extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.resize"
EXACT_SIZES = ((1280, 720), (1024, 768), (800, 600), (640, 480), (1200, 628), (1080, 1080), (960, 540),
               (512, 512), (600, 400), (400, 300), (1000, 500), (720, 720))
PERCENTS = (25, 40, 50, 60, 75, 150)
TARGET_SIDES = (320, 400, 480, 512, 600, 640, 720)
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The picture {path} shows {subject}. Using GIMP, {task}, then overwrite the file, keeping it a {fmt} image.",
    "Please take the image {path} ({subject}) and {task}; save the result over the original {fmt} file.",
    "In GIMP, open {path}, which shows {subject}, and {task}. Keep the file name and the {fmt} format when you save.",
    "I need {path}, the picture of {subject}, resized: {task}. Export it back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please take {path.file} and {task.bare}, then save it over the original {fmt}.",
    "My picture of {subject} is the wrong size. Could you {task.bare}? It's {path}; save it to the same file.",
    "{path.file} needs resizing: {task.bare}. Save over the file, keeping it a {fmt}.",
    "Can you {task.bare}? I mean {path.file} ({subject}); save it in place.",
    "For my page layout, please open {path.file} and {task.bare}. Save the change to the same file.",
)


class Params(TypedDict):
    mode: Literal["exact", "percent", "fit_width", "fit_height"]
    fmt: Literal["png", "jpg", "webp"]


@dataclass(frozen=True)
class Target:
    width: int  # the size the picture ends up at, in pixels
    height: int
    percent: int = 0  # percent: the stated scale
    side: str = ""  # fit_width / fit_height: "width" or "height", the stated side
    pixels: int = 0  # fit_width / fit_height: that side's stated length


def _size(w: float, h: float) -> tuple[int, int]:
    return round(w), round(h)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    mode = params["mode"]
    w, h = source.width, source.height
    if mode == "exact":
        options = [s for s in EXACT_SIZES if abs(s[0] / s[1] - w / h) > 0.05 and s[0] < w]
        size = rng.choice(options)
        task = f"scale the image to exactly {size[0]} by {size[1]} pixels (unlink the chain, the aspect ratio changes)"
        target = Target(*size)
    elif mode == "percent":
        percent = rng.choice(PERCENTS)
        target = Target(*_size(w * percent / 100, h * percent / 100), percent=percent)
        task = f"scale the image to {percent}% of its current size, keeping the aspect ratio"
    else:
        side = "width" if mode == "fit_width" else "height"
        have = w if side == "width" else h
        pixels = rng.choice([p for p in TARGET_SIDES if p < have * 0.8])
        size = _size(pixels, pixels * h / w) if side == "width" else _size(pixels * w / h, pixels)
        task = f"scale the image to a {side} of {pixels} pixels, keeping the aspect ratio"
        target = Target(*size, side=side, pixels=pixels)
    facts = {"path": source.path, "subject": source.subject, "task": task, "fmt": source.format_name}
    return Goal(None, facts, target)


def rubric(params: Params, source: gc.Source, target: Target) -> list[Check]:
    mode = params["mode"]
    path = source.path
    if mode == "exact":
        sized = [gc.size_check(path, target.width, target.height)]
    elif mode == "percent":
        sized = [Check("size", f"{path} is {target.percent}% of its original {source.width} by {source.height} "
                               "pixels.", "image.scaled_by",
                       {"path": path, "width": source.width, "height": source.height, "percent": target.percent})]
    else:
        sized = [Check("side", f"{path} has a {target.side} of exactly {target.pixels} pixels.", "image.side_equals",
                       {"path": path, "side": target.side, "pixels": target.pixels}),
                 Check("aspect", f"{path} keeps the aspect ratio of {source.width} by {source.height}.",
                       "image.aspect_preserved", {"path": path, "width": source.width, "height": source.height})]
    scaled = [{"op": "image.resize", "width": target.width, "height": target.height}]
    return [*sized, gc.content_check(path, source, scaled, "the original picture, scaled"),
            gc.format_check(path, source.fmt)]


def solve(params: Params, source: gc.Source, target: Target) -> Attempts:
    mode = params["mode"]
    w, h = target.width, target.height

    def scale(width: int, height: int) -> list[dict[str, Any]]:
        return [{"op": "image.resize", "path": source.path, "width": width, "height": height}]

    misses = [
        Attempt("scaled a few pixels off the asked size", scale(w + 3, h - 2)),
        Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                [*scale(w, h), gc.wrong_format_op(source.path, source.fmt)]),
    ]
    if mode == "exact":
        misses.append(Attempt("kept the aspect ratio, so only the width matches",
                              scale(w, round(w * source.height / source.width))))
    elif mode == "percent":
        misses.append(Attempt("scaled only the width by the percentage", scale(w, source.height)))
    elif mode == "fit_width":
        misses.append(Attempt("set the width but left the height alone (chain unlinked)", scale(w, source.height)))
    else:
        misses.append(Attempt("set the height but left the width alone (chain unlinked)", scale(source.width, h)))
    return Attempts(Attempt(f"scale to {w}x{h} and save in place", scale(w, h)), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Scale a picture to an exact size, by a percentage, or to a width or height keeping its aspect.",
    knobs={"mode": ("exact", "percent", "fit_width", "fit_height"), "fmt": ("png", "jpg", "webp")},
    phrasings=PHRASINGS, natural=NATURAL,
    goal=goal, rubric=rubric, solve=solve, source=gc.source_nodes(KINDS, lambda p: p["fmt"]),
)
