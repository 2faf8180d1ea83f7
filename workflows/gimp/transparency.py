"""gimp.transparency: make a logo's or diagram's white background transparent, or flatten a transparent
background onto white.

Flat pictures from `preparers.image` sit on pure white, so their background is known exactly (`background_mask`);
checks look only at the wholly-background and wholly-foreground parts of a thumbnail of that mask, so
anti-aliased edges from GIMP's Color to Alpha or a fuzzy selection don't matter. A transparent source stores
black under its transparent pixels (as many exporters do), so dropping the alpha channel instead of flattening
shows black, which the background check catches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from preparers.image import background_mask, flatten
from workflows.gimp import kit as gc

NAME = "gimp.transparency"
KINDS = ("logo", "diagram", "chart")
WHITE = "#FFFFFF"
TASKS = {
    "clear_white": "make its white background fully transparent while every pixel of the {kind} itself stays "
                   "opaque (add an alpha channel, then remove the white)",
    "flatten_white": "its background is transparent: flatten it onto a solid white background ({color}) so that "
                     "no transparency and no alpha channel is left",
}
PHRASINGS = (
    "Open {path} ({subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The image {path} shows {subject}. Using GIMP, {task}; then overwrite the file, keeping the {fmt} format.",
    "Please edit {path} ({subject}): {task}. Save it over the original {fmt} file.",
    "In GIMP, open {path}, which shows {subject}, and {task}. Keep the file name and the {fmt} format.",
    "For the new brochure, take {path} ({subject}) and {task}. Export it back to {path} as {fmt}.",
)


@node("goal", "goal", ("params", "source"), ("facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    action = values["params"]["action"]
    task = TASKS[action].format(kind=src.kind, color=WHITE)
    facts = {"path": src.path, "subject": src.subject, "fmt": src.format_name, "task": task}
    return {"facts": facts, "target": action}


@node("rubric", "rubric", ("source", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    flat = flatten(src.image)
    mask = gc.thumbnail(background_mask(flat), gray=True)
    if values["target"] == "clear_white":
        first = [Check("transparent", f"In {src.path} the white background is transparent and the {src.kind} opaque.",
                       "image.transparent_background", {"path": src.path, "mask": mask})]
    else:
        first = [Check("background", f"In {src.path} the background is opaque white ({WHITE}).",
                       "image.background_color", {"path": src.path, "mask": mask, "color": WHITE}),
                 Check("no_alpha", f"{src.path} has no alpha channel left.", "image.mode_is",
                       {"path": src.path, "modes": ["RGB", "L"]})]
    return {"rubric": [*first, gc.content_check(src.path, src, [], f"the same {src.kind} as before"),
                       gc.size_kept_check(src.path, src), gc.format_check(src.path, src.fmt)]}


@node("solve", "solve", ("source", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    path = src.path
    wrong_format = f"saved {gc.other_format(src.fmt)} data behind the .{src.fmt} name"
    if values["target"] == "clear_white":
        right = [{"op": "image.clear_color", "path": path, "color": WHITE}]
        return {"solutions": [
            Solution("oracle", "remove the white background and save with alpha", right),
            Solution("near-miss-1", "added an alpha channel but left the white background opaque",
                     [{"op": "image.convert_mode", "path": path, "mode": "RGBA"}]),
            Solution("near-miss-2", wrong_format, [*right, gc.wrong_format_op(path, src.fmt)]),
        ]}
    right = [{"op": "image.flatten", "path": path, "color": WHITE}]
    return {"solutions": [
        Solution("oracle", "flatten onto white and save without alpha", right),
        Solution("near-miss-1", "removed the alpha channel without filling: the transparent areas show black",
                 [{"op": "image.convert_mode", "path": path, "mode": "RGB"}]),
        Solution("near-miss-2", "flattened onto the light grey (#EEEEEE) background colour of the toolbox",
                 [{"op": "image.flatten", "path": path, "color": "#EEEEEE"}]),
        Solution("near-miss-3", wrong_format, [*right, gc.wrong_format_op(path, src.fmt)]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(gc.APP,),
    description="Make a flat picture's white background transparent, or flatten a transparent one onto white.",
    knobs={"action": ("clear_white", "flatten_white"), "fmt": ("png", "webp", "tiff")},
    nodes=(*gc.source_nodes(KINDS, lambda p: p["fmt"], transparent_if=lambda p: p["action"] == "flatten_white"),
           goal, gc.instruction(NAME, PHRASINGS), rubric, solve),
)
