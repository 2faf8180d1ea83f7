"""gimp.crop: crop a picture to a stated rectangle, the largest centred square, inside a border, or to one half.

The crop is saved back over the picture in its own format. `image.cropped_to` checks the exact size of the
region and that it shows the original's pixels there (thumbnail comparison, so JPEG re-compression is fine).
Near-miss candidates (a few pixels off, offsets swapped, a shifted or opposite region, scaling instead of
cropping) are kept only when `preview` shows them clearly wrong for that picture: a region shifted across a
smooth sky is not a mistake a content check can see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


def _box(box: list[int]) -> tuple[int, int, int, int]:
    return box[0], box[1], box[2], box[3]


def _round10(value: float) -> int:
    return int(value // 10 * 10)


def _plan(rng: Any, region: str, w: int, h: int) -> tuple[list[int], str]:
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


@node("goal", "goal", ("params", "source"), ("facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    box, task = _plan(ctx.rng("goal"), values["params"]["region"], src.width, src.height)
    facts = {"path": src.path, "subject": src.subject, "task": task, "fmt": src.format_name}
    return {"facts": facts, "target": box}


@node("rubric", "rubric", ("params", "source", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    box: list[int] = values["target"]
    checks = []
    if values["params"]["region"] == "box":
        checks.append(gc.size_check(src.path, box[2] - box[0], box[3] - box[1]))
    checks.append(Check("cropped", f"{src.path} is the region {box} (left, top, right, bottom) of the original.",
                        "image.cropped_to", {"path": src.path, "box": box,
                                             "original": src.recipe()}))
    return {"rubric": [*checks, gc.format_check(src.path, src.fmt)]}


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


@node("solve", "solve", ("params", "source", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    box: list[int] = values["target"]
    expected = src.image.crop(_box(box))
    crop = {"op": "image.crop", "path": src.path, "box": box}
    misses = [Solution("near-miss-1", f"saved {gc.other_format(src.fmt)} data behind the .{src.fmt} name",
                       [crop, gc.wrong_format_op(src.path, src.fmt)])]
    for why, wrong, size in _candidates(values["params"]["region"], box, src.width, src.height):
        if wrong is not None and not (0 <= wrong[0] < wrong[2] <= src.width and 0 <= wrong[1] < wrong[3] <= src.height):
            continue
        ops = ([{"op": "image.crop", "path": src.path, "box": wrong}] if wrong is not None else
               [{"op": "image.resize", "path": src.path, "width": size[0], "height": size[1]}])
        if gc.clearly_differs(gc.preview(src, ops), expected):
            misses.append(Solution(f"near-miss-{len(misses) + 1}", why, ops))
    return {"solutions": [Solution("oracle", f"crop to {box} and save in place", [crop]), *misses]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(gc.APP,),
    description="Crop a picture to a stated rectangle, the largest centred square, inside a border, or one half.",
    knobs={"region": ("box", "center_square", "trim_border", "half"), "fmt": ("png", "jpg")},
    nodes=(*gc.source_nodes(KINDS, lambda p: p["fmt"], size_ok=lambda kind, size: size[0] != size[1]), goal,
           gc.instruction(NAME, PHRASINGS), rubric, solve),
)
