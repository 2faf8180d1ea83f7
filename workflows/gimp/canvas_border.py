"""gimp.canvas_border: enlarge a picture's canvas by a stated number of pixels on every side (a solid-colour frame)
or at the bottom only (a strip for a caption), the new area filled with a stated colour, saved in place.

In GIMP: set the background colour, Image > Canvas Size (centred for a frame, offset 0 for a bottom strip), Layer >
Layer to Image Size and fill the new area, or Filters > Decor > Add Border for a frame. Checks: `image.canvas_extended`
(exact new size, each new strip solid in the colour asked for, the original unchanged at its place) and the file's
real format. Near-misses: the picture scaled up instead of the canvas enlarged, the picture left in the top-left
corner (or the strip added at the top), the new area filled with GIMP's default white (or left transparent), half the
border asked for, another format behind the same extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from verifiers import extract
from workflows.gimp import kit as gc

NAME = "gimp.canvas_border"
#: border colour -> how a person names it (no white: GIMP's default fill is a near-miss)
COLORS = {"#000000": "black", "#1F2A44": "navy", "#8B5E3C": "brown", "#F5F0E1": "cream", "#2F4F4F": "dark slate",
          "#C0392B": "red", "#7F7F7F": "mid-grey"}
PIXELS = {"all": (10, 15, 20, 24, 30, 40, 50), "bottom": (60, 80, 100, 120, 150)}
SAY = {
    "all": "add a {color_name} border ({color}), {pixels} pixels wide, on every side by enlarging the canvas, the "
           "picture itself unchanged in the middle",
    "bottom": "add a {color_name} strip ({color}), {pixels} pixels high, at the bottom edge by enlarging the canvas "
              "there, the picture itself unchanged above it",
}
#: the same goals said shortly, for the natural register
PLAIN = {
    "all": "add a {color_name} border ({color}), {pixels} pixels wide, all around it",
    "bottom": "add a {color_name} strip ({color}), {pixels} pixels high, at the bottom",
}
WHY = {
    "all": ("so it looks framed in the gallery", "for the printed portfolio", "so it stands out on the white page",
            "for the exhibition catalogue"),
    "bottom": ("so there is room for a caption", "for the credit line", "to make space for the date and place",
               "so the title can go underneath"),
}
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}, {why}. Save it back to the same file as {fmt}.",
    "The picture {path} shows {subject}. Using Image > Canvas Size in GIMP, {task}; then overwrite the file, keeping "
    "it a {fmt} image.",
    "Please open {path} ({subject}) and {task}, {why}. Save the result over the original {fmt} file.",
    "In GIMP, open {path}, which shows {subject}, and {task}. Keep the file name and the {fmt} format.",
    "{path} ({subject}) needs more canvas {why}: {task}. Export it back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you take {path.file} and {plain}, {why}? Save it over the same file.",
    "I'd like my picture of {subject}, {path.file}, with more canvas {why}: please {plain}. Keep the name and format.",
    "Please take {path.file} and {plain}, keeping the picture itself as it is; save it in place as {fmt}.",
    "{why_cap}, {path.file} needs a change: {plain}, without covering the picture. Save it under the same name.",
    "My picture {path.file} ({subject}) needs more room {why}. Please {plain}, and save it over the original.",
)

Sides = Literal["all", "bottom"]


class Params(TypedDict):
    sides: Sides
    fmt: Literal["png", "jpg"]


@dataclass(frozen=True)
class Target:
    sides: Sides
    pixels: int  # added on each side that grows
    color: str  # "#RRGGBB"


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    sides = params["sides"]
    pixels = rng.choice(PIXELS[sides])
    # a subject that names a colour ("olive oil", "the red barn") would read as the border's colour: draw another
    colors = [c for c in COLORS if extract.clashes(c, f"{source.subject} {source.path}") is None] or ["#000000"]
    color = rng.choice(colors)
    why = rng.choice(WHY[sides])
    task = SAY[sides].format(pixels=pixels, color=color, color_name=COLORS[color])
    plain = PLAIN[sides].format(pixels=pixels, color=color, color_name=COLORS[color])
    facts = {"path": source.path, "subject": source.subject, "task": task, "plain": plain, "fmt": source.format_name,
             "why": why, "why_cap": why[0].upper() + why[1:]}
    return Goal(None, facts, Target(sides, pixels, color))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    where = "on every side" if target.sides == "all" else "at the bottom"
    grown = Check("canvas", f"{source.path} has {target.pixels} px of {target.color} added {where}, the picture "
                            "unchanged inside.", "image.canvas_extended",
                  {"path": source.path, "original": source.recipe(), "pixels": target.pixels,
                   "color": target.color, "sides": target.sides})
    return [grown, gc.format_check(source.path, source.fmt)]


def _grow(path: str, color: str, **sides: int) -> dict[str, Any]:
    return {"op": "image.extend_canvas", "path": path, "color": color, **sides}


def solve(source: gc.Source, target: Target) -> Attempts:
    path, n, color = source.path, target.pixels, target.color
    if target.sides == "all":
        right = [_grow(path, color, left=n, top=n, right=n, bottom=n)]
        half = max(1, n // 2)
        misses = [
            Attempt("enlarged the canvas but left the picture in the top-left corner",
                    [_grow(path, color, right=2 * n, bottom=2 * n)]),
            Attempt(f"added only {half} px on each side",
                    [_grow(path, color, left=half, top=half, right=half, bottom=half)]),
            Attempt("scaled the picture up to the new size instead of enlarging the canvas",
                    [{"op": "image.resize", "path": path, "width": source.width + 2 * n,
                      "height": source.height + 2 * n}]),
        ]
        sides = {"left": n, "top": n, "right": n, "bottom": n}
    else:
        right = [_grow(path, color, bottom=n)]
        misses = [
            Attempt("added the strip at the top instead of the bottom", [_grow(path, color, top=n)]),
            Attempt(f"added only {n // 2} px at the bottom", [_grow(path, color, bottom=n // 2)]),
            Attempt("scaled the picture up to the new height instead of enlarging the canvas",
                    [{"op": "image.resize", "path": path, "width": source.width, "height": source.height + n}]),
        ]
        sides = {"bottom": n}
    misses.append(Attempt("filled the new area with GIMP's default white background colour",
                          [_grow(path, "#FFFFFF", **sides)]))
    if source.fmt == "png":
        misses.append(Attempt("left the new canvas area transparent", [_grow(path, "transparent", **sides)]))
    misses.append(Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                          [*right, gc.wrong_format_op(path, source.fmt)]))
    return Attempts(Attempt(f"enlarge the canvas with {color}", right), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Enlarge a picture's canvas by a stated number of pixels on every side or at the bottom, filling the "
                "new area with a stated colour, saved in place.",
    knobs={"sides": ("all", "bottom"), "fmt": ("png", "jpg")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"]),
)
