"""gimp.brightness: make a photo brighter or darker by an amount stated as a range of percent.

"Mean brightness" is the average grey level (0-255) of the picture; the instruction states the range, so the
person can use any tool (Brightness-Contrast, Levels, Curves) and read the mean off GIMP's histogram. Checks: the
change lands in the range, the picture still shows the same scene (grey correlation), size and format kept.
The oracle's factor is tuned on the real pixels so that clipping cannot push it out of the range. Near-misses:
the wrong direction, too timid, too strong, another format behind the same extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from PIL import ImageStat

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import PHOTO_KINDS, flatten
from workflows.gimp import kit as gc

NAME = "gimp.brightness"
LOWS = (10, 15, 20)
SPAN = 20
REASONS = {
    "brighter": ("it came out underexposed", "it is too dark on the projector", "it looks gloomy next to the "
                 "other photos", "the shop wants lighter product shots"),
    "darker": ("it came out overexposed", "it looks washed out in the slides", "it is too bright next to the "
               "other photos", "the client asked for a moodier look"),
}
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and make it {direction}: its mean brightness must change by "
    "between {low}% and {high}%. Save it back to the same file as {fmt}.",
    "The photo {path} shows {subject}, and {why}. In GIMP, make it {direction} so that the average brightness "
    "changes by {low}% to {high}%, then overwrite the {fmt} file.",
    "Please make {path} ({subject}) {direction}, by at least {low}% and at most {high}% of its mean brightness. "
    "Keep the size and save it over the original {fmt} file.",
    "Using GIMP, adjust {path}, which shows {subject}: {why}, so make it {direction} (mean brightness changed by "
    "{low}-{high}%). Keep the file name and the {fmt} format.",
    "{path} ({subject}) needs a brightness fix because {why}: make it {direction} by between {low}% and {high}% "
    "of its mean brightness, and export it back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make {path.file} {direction}, since {why}. Its overall brightness should change by {low}% to {high}%; "
    "keep it a {fmt} with the same name.",
    "My photo of {subject}, {path}, needs to be {direction} because {why}. A {low}-{high}% change in average "
    "brightness is right. Save it in place.",
    "Can you make {path.file} {direction}? Somewhere between {low} and {high} percent in average brightness would "
    "do, saved over the original.",
    "Since {why}, I'd like {path.file} made {direction} by {low}-{high}% of its mean brightness. Overwrite the {fmt} "
    "file.",
    "{path.file} shows {subject}, and {why}. Make it {direction}, changing its average brightness by {low} to "
    "{high} percent, and save it over the file.",
)


Direction = Literal["brighter", "darker"]


class Params(TypedDict):
    direction: Direction
    fmt: Literal["png", "jpg"]


@dataclass(frozen=True)
class Target:
    direction: Direction
    low: int  # the mean brightness must change by at least `low` percent
    high: int  # and by at most `high` percent


def mean_brightness(image: Any) -> float:
    return float(ImageStat.Stat(flatten(image).convert("L")).mean[0])


def factor_for(src: gc.Source, change: float) -> float:
    """A brightness factor whose result changes the mean brightness by `change` percent (clipping included);
    tuned on a quarter-size copy, whose mean is the same to a fraction of a percent."""
    small = replace(src, image=src.image.reduce(4))
    base = mean_brightness(small.image)
    factor = 1 + change / 100
    for _ in range(4):
        got = mean_brightness(gc.preview(small, [{"op": "image.adjust", "path": src.path, "brightness": factor}]))
        factor *= (1 + change / 100) / (got / base)
    return round(factor, 4)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    direction = params["direction"]
    low = rng.choice(LOWS)
    facts = {"path": source.path, "subject": source.subject, "direction": direction, "low": low, "high": low + SPAN,
             "fmt": source.format_name, "why": rng.choice(REASONS[direction])}
    return Goal(None, facts, Target(direction, low, low + SPAN))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    criterion = f"{source.path} is {target.direction}: mean brightness changed by {target.low}-{target.high}%."
    args = {"path": source.path, "baseline": round(mean_brightness(source.image), 2), "direction": target.direction,
            "min_percent": target.low, "max_percent": target.high}
    changed = Check("brightness", criterion, "image.brightness_changed", args)
    return [changed, gc.content_check(source.path, source, [], "the same scene", tone=True),
            gc.size_kept_check(source.path, source), gc.format_check(source.path, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    sign = 1 if target.direction == "brighter" else -1

    def adjust(change: float) -> list[dict[str, Any]]:
        return [{"op": "image.adjust", "path": source.path, "brightness": factor_for(source, sign * change)}]

    middle = (target.low + target.high) / 2
    right = adjust(middle)
    return Attempts(
        Attempt(f"make it {target.direction} by about {middle:g}%", right),
        [Attempt("went the wrong way", [{**right[0], "brightness": factor_for(source, -sign * middle)}]),
         Attempt(f"too timid: only about {target.low / 3:.0f}%", adjust(target.low / 3)),
         Attempt(f"overdid it: about {target.high + 12}%", adjust(target.high + 12)),
         Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                 [*right, gc.wrong_format_op(source.path, source.fmt)])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Make a photo brighter or darker by a stated range of percent of its mean brightness.",
    knobs={"direction": ("brighter", "darker"), "fmt": ("png", "jpg")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(PHOTO_KINDS, lambda p: p["fmt"]),
)
