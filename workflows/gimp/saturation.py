"""gimp.saturation: make a photo's colours more vivid or more muted by a stated range of percent, exported as a new
file next to the original, which stays as it is.

"Mean saturation" is the average of the HSV saturation channel (0-255); the instruction states the range, so any
tool does (Hue-Saturation, Colors > Saturation, Curves on the channels). Checks: the change lands in the range on
the new file, the new file still shows the same scene (grey levels: a saturation change keeps them), its size and
format; the tree frame refuses the original changed. The oracle's factor is tuned on the real pixels so that
clipping cannot push it out of the range. Near-misses: the wrong direction, too timid, too strong, brightness
changed instead of saturation, all colour removed (muting), the original overwritten as well as exported, another
format behind the new file's extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import PALETTE_NAMES, PHOTO_KINDS
from verifiers.checks.image_tone import saturation
from workflows.gimp import kit as gc

NAME = "gimp.saturation"
LOWS = (15, 20, 25)
SPAN = 20
#: the overcast palette is nearly grey already: its saturation has too little room to move
COLOURFUL = tuple(p for p in PALETTE_NAMES if p != "overcast")
SAY = {"more": "more vivid", "less": "more muted"}
SUFFIXES = ("_edited", "_v2", "_final", "_web")
REASONS = {
    "more": ("the colours look dull on the website", "it looks washed out next to the other shots",
             "the print shop wants richer colours", "the client finds it lifeless"),
    "less": ("the colours look garish on the website", "it clashes with the calm shots around it",
             "the print shop says the reds will bleed", "the client finds it loud"),
}
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and make its colours {direction}: its mean colour saturation "
    "must change by between {low}% and {high}%. Export the result as {dest} in {fmt} and leave the original file "
    "as it is.",
    "The photo {path} shows {subject}, and {why}. In GIMP, make it {direction} so that the average saturation "
    "changes by {low}% to {high}%, then export it to {dest} ({fmt}); do not overwrite {path}.",
    "Please make the colours of {path} ({subject}) {direction}, by at least {low}% and at most {high}% of its mean "
    "saturation. Keep the size, save the result as the {fmt} file {dest} and keep the original unchanged.",
    "Using GIMP, adjust {path}, which shows {subject}: {why}, so make the colours {direction} (mean saturation "
    "changed by {low}-{high}%). Export it as {dest} in {fmt} format; the original stays untouched.",
    "{path} ({subject}) needs its saturation fixed because {why}: make the colours {direction} by between {low}% "
    "and {high}% of the mean saturation, and export the result to {dest} as {fmt}, leaving {path} alone.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make the colours in {path.file} {direction}, since {why}. Mean saturation should change by {low}% to "
    "{high}%; save it as {dest} and keep my original.",
    "My photo of {subject}, {path}, needs colours that are {direction} because {why}. A {low}-{high}% change in "
    "average saturation is right. Save the result as {dest}, original untouched.",
    "Can you make {path.file} {direction}? Somewhere between {low} and {high} percent in average saturation would "
    "do. Save the new version as {dest}, not over the original.",
    "Since {why}, I'd like the colours of {path.file} {direction} by {low}-{high}% of their mean saturation. "
    "Export it to {dest} and leave the original alone.",
    "{path.file} shows {subject}, and {why}. Make it {direction}, changing its average saturation by {low} to "
    "{high} percent, and save the copy as {dest}.",
)

Direction = Literal["more", "less"]


class Params(TypedDict):
    direction: Direction
    fmt: Literal["png", "jpg"]


@dataclass(frozen=True)
class Target:
    direction: Direction
    dest: str  # the new file the adjusted picture is exported to
    low: int  # the mean saturation must change by at least `low` percent
    high: int  # and by at most `high` percent


def _small(source: gc.Source) -> gc.Source:
    return replace(source, image=source.image.reduce(4))


def change_of(source: gc.Source, ops: list[dict[str, Any]]) -> float:
    """How many percent `ops` change the mean saturation of (a quarter-size copy of) the source picture."""
    small = _small(source)
    base = saturation(small.image)
    return (saturation(gc.preview(small, ops)) - base) / base * 100


def factor_for(source: gc.Source, change: float) -> float:
    """A saturation factor whose result changes the mean saturation by `change` percent (clipping included)."""
    factor = 1 + change / 100
    for _ in range(5):
        got = 1 + change_of(source, [{"op": "image.adjust", "path": source.path, "saturation": factor}]) / 100
        factor = max(0.0, factor * (1 + change / 100) / max(got, 0.01))
    return round(factor, 4)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    direction = params["direction"]
    low = rng.choice(LOWS)
    dest = source.sibling(source.fmt, rng.choice(SUFFIXES))
    facts = {"path": source.path, "dest": dest, "subject": source.subject, "direction": SAY[direction], "low": low,
             "high": low + SPAN, "fmt": source.format_name, "why": rng.choice(REASONS[direction])}
    return Goal(None, facts, Target(direction, dest, low, low + SPAN))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    criterion = (f"{target.dest} is {SAY[target.direction]}: its mean colour saturation changed by "
                 f"{target.low}-{target.high}%.")
    args = {"path": target.dest, "baseline": round(saturation(source.image), 2), "direction": target.direction,
            "min_percent": target.low, "max_percent": target.high}
    changed = Check("saturation", criterion, "image.saturation_changed", args)
    hues = Check("hues", f"{target.dest} keeps the hues of the original's colours (no colour cast).",
                 "image.hues_kept", {"path": target.dest, "original": source.recipe()})
    detail = Check("detail", f"{target.dest} keeps every detail of the original (not blurred, pixelated or moved).",
                   "image.detail_kept", {"path": target.dest, "original": source.recipe()})
    return [changed, hues, detail, gc.content_check(target.dest, source, [], "the same scene", gray=True, tone=True),
            gc.size_kept_check(target.dest, source), gc.format_check(target.dest, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    sign = 1 if target.direction == "more" else -1
    export = {"op": "image.convert_format", "path": source.path, "dest": target.dest}

    def adjust(change: float) -> dict[str, Any]:
        return {"op": "image.adjust", "path": source.path, "saturation": factor_for(source, sign * change)}

    middle = (target.low + target.high) / 2
    right = adjust(middle)
    slips = [
        Attempt("went the wrong way", [adjust(-middle), export]),
        Attempt(f"too timid: only about {target.low / 3:.0f}%", [adjust(target.low / 3), export]),
        Attempt(f"overdid it: about {target.high + 15}%", [adjust(target.high + 15), export]),
        Attempt("changed the brightness instead of the saturation",
                [{"op": "image.adjust", "path": source.path, "brightness": 1 + sign * middle / 100}, export]),
    ]
    if target.direction == "less":
        slips.append(Attempt("removed all colour instead of muting it",
                             [{"op": "image.adjust", "path": source.path, "saturation": 0.0}, export]))

    def out_of_range(attempt: Attempt) -> bool:  # a slip the clipping pulls back into the range is no slip
        got = sign * change_of(source, [op for op in attempt.ops if op["op"] != "image.convert_format"])
        return not target.low - 3 <= got <= target.high + 3

    return Attempts(
        Attempt(f"make the colours {SAY[target.direction]} by about {middle:g}% and export to {target.dest}",
                [right, export]),
        [*[slip for slip in slips if out_of_range(slip)],
         Attempt("saved the adjusted picture over the original instead of exporting a new file", [right]),
         Attempt("exported the new file but also overwrote the original",
                 [right, export, {"op": "image.adjust", "path": source.path}]),
         Attempt(f"saved {gc.other_format(source.fmt)} data behind the new file's .{source.fmt} name",
                 [right, {**export, "format": gc.other_format(source.fmt)}])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Make a photo's colours more vivid or more muted by a stated range of percent of its mean "
                "saturation, exported as a new file with the original kept.",
    knobs={"direction": ("more", "less"), "fmt": ("png", "jpg")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(PHOTO_KINDS, lambda p: p["fmt"], palettes=COLOURFUL),
)
