"""gimp.invert: turn a picture into its negative (GIMP's Colors > Invert) and save it over the original.

Typical uses: a white-on-black version of a diagram or logo for a dark slide, a negative look for a poster, a
scanned page made easier to read on a dark screen. Checks: the file is the original with every colour inverted
(`image.is_inverted`, full resolution, within the format's tolerance; size exact) and still in its own format.
Near-misses: a grey negative (colours lost), only the top half inverted (a selection left active), the picture
darkened instead of inverted, another format behind the same extension; a confusable result is kept only when it is
clearly wrong for that picture (a grey negative of a grey scan is not).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.invert"
WHY = ("for a slide with a black background", "for the poster's negative-film look", "so it reads well in dark "
       "mode", "for the night-time version of the display board", "for a high-contrast print test")
TASK = "invert its colours so that it becomes a negative (every colour replaced by its opposite)"
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task} {why}. Save it back to the same file as {fmt}.",
    "The picture {path} shows {subject}. Using GIMP's Colors > Invert, {task}, then overwrite the file, keeping it a "
    "{fmt} image.",
    "Please turn {path} ({subject}) into a colour negative {why}: {task}. Save the result over the original {fmt} "
    "file.",
    "In GIMP, open {path}, which shows {subject}, and {task}. Keep the file name, the size and the {fmt} format.",
    "{path} ({subject}) is needed as a negative {why}: {task}, and export it back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you invert the colours of {path.file} {why}? Save it over the same {fmt} file.",
    "I need my picture of {subject}, {path.file}, as a colour negative {why}. Please save it in place.",
    "Please make {path.file} a negative, with all its colours inverted, and save it under the same name.",
    "{why_cap}, I need {path.file} with its colours inverted. Keep it a {fmt} with the same name.",
    "Turn {path.file} ({subject}) into its colour negative {why} and save it over the original.",
)


class Params(TypedDict):
    fmt: Literal["png", "jpg", "bmp"]


@dataclass(frozen=True)
class Target:
    path: str  # the picture, inverted in place


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    why = rng.choice(WHY)
    facts = {"path": source.path, "subject": source.subject, "task": TASK, "fmt": source.format_name, "why": why,
             "why_cap": why[0].upper() + why[1:]}
    return Goal(None, facts, Target(source.path))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    inverted = Check("inverted", f"{target.path} is the original with its colours inverted (a negative).",
                     "image.is_inverted", {"path": target.path, "original": source.recipe()})
    return [inverted, gc.format_check(target.path, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    path = target.path
    right = [{"op": "image.invert", "path": path}]
    expected = gc.preview(source, right)
    misses = [Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                      [*right, gc.wrong_format_op(path, source.fmt)])]
    confused: list[tuple[str, list[dict[str, Any]]]] = [
        ("inverted it and turned it grey (the colours are lost)",
         [*right, {"op": "image.convert_mode", "path": path, "mode": "grayscale"}]),
        ("inverted only the top half (a selection was still active)",
         [{"op": "image.invert", "path": path, "box": [0, 0, source.width, source.height // 2]}]),
        ("darkened the picture instead of inverting it", [{"op": "image.adjust", "path": path, "brightness": 0.4}]),
    ]
    for why, ops in confused:
        if gc.clearly_differs(gc.preview(source, ops), expected):
            misses.append(Attempt(why, ops))
    return Attempts(Attempt("invert the colours and save in place", right), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Invert a picture's colours into a negative (Colors > Invert) and save it in place.",
    knobs={"fmt": ("png", "jpg", "bmp")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"]),
)
