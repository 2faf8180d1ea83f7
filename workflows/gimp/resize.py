"""gimp.resize: scale a picture to an exact size, by a percentage, or to a width/height keeping its aspect ratio.

The picture is saved back over itself in its own format (png, jpg or webp). Checks: the size the mode asks
for, the content (the original scaled; compared on thumbnails, so GIMP's own resampling filter is fine) and the
real format. Near-misses: a few pixels off, the aspect ratio kept or lost when the other was asked, and a
picture written in another format behind the same extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


def _size(w: float, h: float) -> list[int]:
    return [round(w), round(h)]


@node("goal", "goal", ("params", "source"), ("facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    mode = values["params"]["mode"]
    src: gc.Source = values["source"]
    w, h = src.width, src.height
    if mode == "exact":
        options = [s for s in EXACT_SIZES if abs(s[0] / s[1] - w / h) > 0.05 and s[0] < w]
        size = list(rng.choice(options))
        task = f"scale the image to exactly {size[0]} by {size[1]} pixels (unlink the chain, the aspect ratio changes)"
        target: dict[str, Any] = {"size": size}
    elif mode == "percent":
        percent = rng.choice(PERCENTS)
        size = _size(w * percent / 100, h * percent / 100)
        task = f"scale the image to {percent}% of its current size, keeping the aspect ratio"
        target = {"size": size, "percent": percent}
    else:
        side = "width" if mode == "fit_width" else "height"
        have = w if side == "width" else h
        pixels = rng.choice([p for p in TARGET_SIDES if p < have * 0.8])
        size = _size(pixels, pixels * h / w) if side == "width" else _size(pixels * w / h, pixels)
        task = f"scale the image to a {side} of {pixels} pixels, keeping the aspect ratio"
        target = {"size": size, "side": side, "pixels": pixels}
    facts = {"path": src.path, "subject": src.subject, "task": task, "fmt": src.format_name}
    return {"facts": facts, "target": target}


@node("rubric", "rubric", ("params", "source", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    mode = values["params"]["mode"]
    src: gc.Source = values["source"]
    t = values["target"]
    path = src.path
    if mode == "exact":
        sized = [gc.size_check(path, *t["size"])]
    elif mode == "percent":
        sized = [Check("size", f"{path} is {t['percent']}% of its original {src.width} by {src.height} pixels.",
                       "image.scaled_by", {"path": path, "width": src.width, "height": src.height,
                                           "percent": t["percent"]})]
    else:
        sized = [Check("side", f"{path} has a {t['side']} of exactly {t['pixels']} pixels.", "image.side_equals",
                       {"path": path, "side": t["side"], "pixels": t["pixels"]}),
                 Check("aspect", f"{path} keeps the aspect ratio of {src.width} by {src.height}.",
                       "image.aspect_preserved", {"path": path, "width": src.width, "height": src.height})]
    scaled = [{"op": "image.resize", "width": t["size"][0], "height": t["size"][1]}]
    return {"rubric": [*sized, gc.content_check(path, src, scaled, "the original picture, scaled"),
                       gc.format_check(path, src.fmt)]}


@node("solve", "solve", ("params", "source", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    mode = values["params"]["mode"]
    src: gc.Source = values["source"]
    w, h = values["target"]["size"]

    def scale(width: int, height: int) -> list[dict[str, Any]]:
        return [{"op": "image.resize", "path": src.path, "width": width, "height": height}]

    misses: list[tuple[str, list[dict[str, Any]]]] = [
        ("scaled a few pixels off the asked size", scale(w + 3, h - 2)),
        (f"saved {gc.other_format(src.fmt)} data behind the .{src.fmt} name",
         [*scale(w, h), gc.wrong_format_op(src.path, src.fmt)]),
    ]
    if mode == "exact":
        misses.append(("kept the aspect ratio, so only the width matches", scale(w, round(w * src.height / src.width))))
    elif mode == "percent":
        misses.append(("scaled only the width by the percentage", scale(w, src.height)))
    elif mode == "fit_width":
        misses.append(("set the width but left the height alone (chain unlinked)", scale(w, src.height)))
    else:
        misses.append(("set the height but left the width alone (chain unlinked)", scale(src.width, h)))
    solutions = [Solution("oracle", f"scale to {w}x{h} and save in place", scale(w, h))]
    solutions += [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(gc.APP,),
    description="Scale a picture to an exact size, by a percentage, or to a width or height keeping its aspect.",
    knobs={"mode": ("exact", "percent", "fit_width", "fit_height"), "fmt": ("png", "jpg", "webp")},
    nodes=(*gc.source_nodes(KINDS, lambda p: p["fmt"]), goal, gc.instruction(NAME, PHRASINGS), rubric, solve),
)
