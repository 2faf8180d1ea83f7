"""gimp.brightness: make a photo brighter or darker by an amount stated as a range of percent.

"Mean brightness" is the average grey level (0-255) of the picture; the instruction states the range, so the
person can use any tool (Brightness-Contrast, Levels, Curves) and read the mean off GIMP's histogram. Checks: the
change lands in the range, the picture still shows the same scene (grey correlation), size and format kept.
The oracle's factor is tuned on the real pixels so that clipping cannot push it out of the range. Near-misses:
the wrong direction, too timid, too strong, another format behind the same extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PIL import ImageStat

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "source"), ("facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    src: gc.Source = values["source"]
    direction = values["params"]["direction"]
    low = rng.choice(LOWS)
    facts = {"path": src.path, "subject": src.subject, "direction": direction, "low": low, "high": low + SPAN,
             "fmt": src.format_name, "why": rng.choice(REASONS[direction])}
    return {"facts": facts, "target": {"direction": direction, "low": low, "high": low + SPAN}}


@node("rubric", "rubric", ("source", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    t = values["target"]
    criterion = f"{src.path} is {t['direction']}: mean brightness changed by {t['low']}-{t['high']}%."
    args = {"path": src.path, "baseline": round(mean_brightness(src.image), 2), "direction": t["direction"],
            "min_percent": t["low"], "max_percent": t["high"]}
    changed = Check("brightness", criterion, "image.brightness_changed", args)
    return {"rubric": [changed, gc.content_check(src.path, src, [], "the same scene", tone=True),
                       gc.size_kept_check(src.path, src), gc.format_check(src.path, src.fmt)]}


@node("solve", "solve", ("source", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    t = values["target"]
    sign = 1 if t["direction"] == "brighter" else -1

    def adjust(change: float) -> list[dict[str, Any]]:
        return [{"op": "image.adjust", "path": src.path, "brightness": factor_for(src, sign * change)}]

    middle = (t["low"] + t["high"]) / 2
    right = adjust(middle)
    return {"solutions": [
        Solution("oracle", f"make it {t['direction']} by about {middle:g}%", right),
        Solution("near-miss-1", "went the wrong way", [{**right[0], "brightness": factor_for(src, -sign * middle)}]),
        Solution("near-miss-2", f"too timid: only about {t['low'] / 3:.0f}%", adjust(t["low"] / 3)),
        Solution("near-miss-3", f"overdid it: about {t['high'] + 12}%", adjust(t["high"] + 12)),
        Solution("near-miss-4", f"saved {gc.other_format(src.fmt)} data behind the .{src.fmt} name",
                 [*right, gc.wrong_format_op(src.path, src.fmt)]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(gc.APP,),
    description="Make a photo brighter or darker by a stated range of percent of its mean brightness.",
    knobs={"direction": ("brighter", "darker"), "fmt": ("png", "jpg")},
    nodes=(*gc.source_nodes(PHOTO_KINDS, lambda p: p["fmt"]), goal, gc.instruction(NAME, PHRASINGS), rubric, solve),
)
