"""gimp.contrast: give a photo more or less contrast by a stated range of percent, exported as a new file next to
the original, which stays as it is.

"Contrast" is the standard deviation of the picture's grey levels (0-255), the "Std dev" GIMP's Histogram dialog
shows, so the person can use any tool (Brightness-Contrast, Levels, Curves) and read the result off the histogram.
Checks: the change lands in the range on the new file, the new file still shows the same scene (any tone curve),
keeps the original's hues, its size and format; the tree frame refuses the original changed. The oracle's factor is
tuned on the real pixels so that clipping cannot push it out of the range. Near-misses: the wrong direction, too
timid, too strong, saturation changed instead of contrast, the original overwritten instead of a new file, the
original overwritten as well, another format behind the new file's extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import PHOTO_KINDS
from verifiers.checks.image_tone import contrast
from workflows.gimp import kit as gc

NAME = "gimp.contrast"
LOWS = (15, 20, 25)
SPAN = 20
SAY = {"more": "punchier, with more contrast", "less": "softer, with less contrast"}
SUFFIXES = ("_edited", "_v2", "_final", "_print")
REASONS = {
    "more": ("it looks flat and hazy", "the details get lost on the projector", "it looks dull in the brochure",
             "the client finds it lifeless"),
    "less": ("the shadows are too harsh", "it looks too hard in print", "the highlights are blown next to the "
             "calm shots around it", "the client wants a gentler look"),
}
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and make it {direction}: the standard deviation of its grey "
    "levels (the Std dev in the histogram) must change by between {low}% and {high}%. Export the result as {dest} in "
    "{fmt} and leave the original file as it is.",
    "The photo {path} shows {subject}, and {why}. In GIMP, make it {direction} so that its contrast (standard "
    "deviation of the grey levels) changes by {low}% to {high}%, then export it to {dest} ({fmt}); do not overwrite "
    "{path}.",
    "Please make {path} ({subject}) {direction}: the standard deviation of its grey levels should change by at least "
    "{low}% and at most {high}%. Keep the size, save the result as the {fmt} file {dest} and keep the original "
    "unchanged.",
    "Using GIMP, adjust {path}, which shows {subject}: {why}, so make it {direction} (contrast, measured as the grey "
    "levels' standard deviation, changed by {low}-{high}%). Export it as {dest} in {fmt} format; the original stays "
    "untouched.",
    "{path} ({subject}) needs a contrast fix because {why}: make it {direction}, changing the standard deviation of "
    "its grey levels by between {low}% and {high}%, and export the result to {dest} as {fmt}, leaving {path} alone.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make {path.file} {direction}, since {why}. Its std dev should change by {low}-{high}%; save it as "
    "{dest}.",
    "My photo {path.file} should be {direction}: {why}. Change the grey levels' std dev by {low}-{high}% and save "
    "it as {dest}.",
    "Can you make {path.file} {direction}? A {low}-{high}% change in its std dev would do. Save it as {dest}, not "
    "over the original.",
    "Since {why}, make {path.file} {direction}, with its std dev moved by {low}-{high}%. Export it to {dest}.",
    "{path.file} is hard to use because {why}. Make it {direction} ({low}-{high}% std dev change) and save the "
    "copy as {dest}.",
)

Direction = Literal["more", "less"]


class Params(TypedDict):
    direction: Direction
    fmt: Literal["png", "jpg"]


@dataclass(frozen=True)
class Target:
    direction: Direction
    dest: str  # the new file the adjusted picture is exported to
    low: int  # the contrast must change by at least `low` percent
    high: int  # and by at most `high` percent


def change_of(source: gc.Source, ops: list[dict[str, Any]]) -> float:
    """How many percent `ops` change the contrast of (a quarter-size copy of) the source picture."""
    small = replace(source, image=source.image.reduce(4))
    base = contrast(small.image)
    return (contrast(gc.preview(small, ops)) - base) / base * 100


def factor_for(source: gc.Source, change: float) -> float:
    """A contrast factor whose result changes the contrast by `change` percent (clipping included)."""
    factor = 1 + change / 100
    for _ in range(5):
        got = 1 + change_of(source, [{"op": "image.contrast", "path": source.path, "factor": factor}]) / 100
        factor = max(0.05, factor * (1 + change / 100) / max(got, 0.01))
    return round(factor, 4)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    direction = params["direction"]
    low = rng.choice(LOWS)
    dest = source.sibling(source.fmt, rng.choice(SUFFIXES))
    facts = {"path": source.path, "dest": dest, "subject": source.subject, "direction": SAY[direction], "low": low,
             "high": low + SPAN, "fmt": source.format_name, "why": rng.choice(REASONS[direction])}
    return Goal(None, facts, Target(direction, dest, low, low + SPAN))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    criterion = (f"{target.dest} has {target.direction} contrast: the standard deviation of its grey levels changed "
                 f"by {target.low}-{target.high}%.")
    args = {"path": target.dest, "baseline": round(contrast(source.image), 2), "direction": target.direction,
            "min_percent": target.low, "max_percent": target.high}
    changed = Check("contrast", criterion, "image.contrast_changed", args)
    hues = Check("hues", f"{target.dest} keeps the hues of the original's colours (no colour cast).",
                 "image.hues_kept", {"path": target.dest, "original": source.recipe()})
    detail = Check("detail", f"{target.dest} keeps every detail of the original (not blurred, pixelated or moved).",
                   "image.detail_kept", {"path": target.dest, "original": source.recipe()})
    return [changed, hues, detail, gc.content_check(target.dest, source, [], "the same scene", tone=True),
            gc.size_kept_check(target.dest, source), gc.format_check(target.dest, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    sign = 1 if target.direction == "more" else -1
    export = {"op": "image.convert_format", "path": source.path, "dest": target.dest}

    def adjust(change: float) -> dict[str, Any]:
        return {"op": "image.contrast", "path": source.path, "factor": factor_for(source, sign * change)}

    middle = (target.low + target.high) / 2
    right = adjust(middle)
    slips = [
        Attempt("went the wrong way", [adjust(-middle), export]),
        Attempt(f"too timid: only about {target.low / 3:.0f}%", [adjust(target.low / 3), export]),
        Attempt(f"overdid it: about {target.high + 15}%", [adjust(target.high + 15), export]),
        Attempt("changed the colour saturation instead of the contrast",
                [{"op": "image.adjust", "path": source.path, "saturation": 1 + sign * middle / 100}, export]),
    ]

    def out_of_range(attempt: Attempt) -> bool:  # a slip the clipping pulls back into the range is no slip
        got = sign * change_of(source, [op for op in attempt.ops if op["op"] != "image.convert_format"])
        return not target.low - 3 <= got <= target.high + 3

    return Attempts(
        Attempt(f"make it {SAY[target.direction]} by about {middle:g}% and export to {target.dest}", [right, export]),
        [*[slip for slip in slips if out_of_range(slip)],
         Attempt("saved the adjusted picture over the original instead of exporting a new file", [right]),
         Attempt("exported the new file but also overwrote the original",
                 [right, export, {"op": "image.adjust", "path": source.path}]),
         Attempt(f"saved {gc.other_format(source.fmt)} data behind the new file's .{source.fmt} name",
                 [right, {**export, "format": gc.other_format(source.fmt)}])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Give a photo more or less contrast by a stated range of percent of its grey levels' standard "
                "deviation, exported as a new file with the original kept.",
    knobs={"direction": ("more", "less"), "fmt": ("png", "jpg")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(PHOTO_KINDS, lambda p: p["fmt"]),
)
