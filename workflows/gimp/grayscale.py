"""gimp.grayscale: convert a picture to grayscale (Image > Mode > Grayscale, or Colors > Desaturate) in place.

Checks: every pixel is grey (grey mode, or equal red, green and blue), the content is the original's
(correlation of grey thumbnails, so GIMP's own luminance weights are fine), the size is unchanged and the file
keeps its real format. Near-misses: saturation only turned down, and the grey picture written in another
format behind the same extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from preparers.image import KINDS, PALETTE_NAMES
from workflows.gimp import kit as gc

NAME = "gimp.grayscale"
#: an overcast picture is nearly grey already: a half-hearted desaturation could not be told apart
COLOURFUL = tuple(p for p in PALETTE_NAMES if p != "overcast")
REASONS = ("for the black-and-white newsletter", "so it prints well on the office laser printer",
           "to match the other grayscale figures in the report", "for the archive, which keeps scans in grey",
           "for a calmer look on the website")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and convert it to grayscale {why}. Save it back to the same "
    "file as {fmt}.",
    "The picture {path} shows {subject}. Using GIMP, make it grayscale (no colour left at all) {why}, then "
    "overwrite the file, keeping the {fmt} format.",
    "Please turn {path} ({subject}) into a grayscale image {why}. Keep its size and save it over the original "
    "{fmt} file.",
    "In GIMP, remove all colour from {path}, which shows {subject}, by converting it to grayscale {why}. Keep "
    "the file name and the {fmt} format.",
    "Convert the {fmt} image {path} ({subject}) to grayscale {why} and export it back to {path}.",
)


@node("goal", "goal", ("source",), ("facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    facts = {"path": src.path, "subject": src.subject, "fmt": src.format_name,
             "why": ctx.rng("goal").choice(REASONS)}
    return {"facts": facts, "target": src.path}


@node("rubric", "rubric", ("source",), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    gray = Check("grayscale", f"{src.path} has no colour left: every pixel is grey.", "image.grayscale",
                 {"path": src.path})
    return {"rubric": [gray, gc.content_check(src.path, src, [], "the original picture", gray=True, tone=True),
                       gc.size_kept_check(src.path, src), gc.format_check(src.path, src.fmt)]}


@node("solve", "solve", ("source",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    grey = {"op": "image.convert_mode", "path": src.path, "mode": "grayscale"}
    return {"solutions": [
        Solution("oracle", "convert to grayscale and save in place", [grey]),
        Solution("near-miss-1", "turned saturation down to 30% instead of removing colour",
                 [{"op": "image.adjust", "path": src.path, "saturation": 0.3}]),
        Solution("near-miss-2", f"saved {gc.other_format(src.fmt)} data behind the .{src.fmt} name",
                 [grey, gc.wrong_format_op(src.path, src.fmt)]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(gc.APP,),
    description="Convert a picture to grayscale and save it in place in its own format.",
    knobs={"fmt": ("png", "jpg", "bmp", "tiff", "webp")},
    nodes=(*gc.source_nodes(KINDS, lambda p: p["fmt"], palettes=COLOURFUL), goal, gc.instruction(NAME, PHRASINGS),
           rubric, solve),
)
