"""gimp.transparency: make a logo's or diagram's white background transparent, or flatten a transparent
background onto white.

Flat pictures from `preparers.image` sit on pure white, so their background is known exactly (`background_mask`);
checks look only at the wholly-background and wholly-foreground parts of a thumbnail of that mask, so
anti-aliased edges from GIMP's Color to Alpha or a fuzzy selection don't matter. A transparent source stores
black under its transparent pixels (as many exporters do), so dropping the alpha channel instead of flattening
shows black, which the background check catches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
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
#: the same goals without GIMP's tools, for the natural register
PLAIN = {
    "clear_white": "make the white background see-through while the {kind} itself stays fully opaque",
    "flatten_white": "put it on a solid white background ({color}) so that nothing in it is transparent any more",
}
PHRASINGS = (
    "Open {path} ({subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The image {path} shows {subject}. Using GIMP, {task}; then overwrite the file, keeping the {fmt} format.",
    "Please edit {path} ({subject}): {task}. Save it over the original {fmt} file.",
    "In GIMP, open {path}, which shows {subject}, and {task}. Keep the file name and the {fmt} format.",
    "For the new brochure, take {path} ({subject}) and {task}. Export it back to {path} as {fmt}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{path.file} needs a change: {plain}. Save it over the same {fmt} file.",
    "For the new brochure I need {path} ({subject}) changed: {plain}. Save it with the same name and format.",
    "Please take {path.file}, my picture of {subject}, and {plain}; save it over the file.",
    "{path.file} isn't right yet. Could you {plain}? Save it in place as {fmt}.",
    "I want to use {path.file} elsewhere, so {plain}, and save it under the same name.",
)

Action = Literal["clear_white", "flatten_white"]


class Params(TypedDict):
    action: Action
    fmt: Literal["png", "webp", "tiff"]


@dataclass(frozen=True)
class Target:
    action: Action  # clear the white background, or flatten the transparent one onto white


def goal(params: Params, source: gc.Source) -> Goal[None, Target]:
    action = params["action"]
    task = TASKS[action].format(kind=source.kind, color=WHITE)
    facts = {"path": source.path, "subject": source.subject, "fmt": source.format_name, "task": task,
             "plain": PLAIN[action].format(kind=source.kind, color=WHITE)}
    return Goal(None, facts, Target(action))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    flat = flatten(source.image)
    mask = gc.thumbnail(background_mask(flat), gray=True)
    if target.action == "clear_white":
        first = [Check("transparent", f"In {source.path} the white background is transparent and the {source.kind} "
                                      "opaque.", "image.transparent_background", {"path": source.path, "mask": mask})]
    else:
        first = [Check("background", f"In {source.path} the background is opaque white ({WHITE}).",
                       "image.background_color", {"path": source.path, "mask": mask, "color": WHITE}),
                 Check("no_alpha", f"{source.path} has no alpha channel left.", "image.mode_is",
                       {"path": source.path, "modes": ["RGB", "L"]})]
    return [*first, gc.content_check(source.path, source, [], f"the same {source.kind} as before"),
            gc.size_kept_check(source.path, source), gc.format_check(source.path, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    path = source.path
    wrong_format = f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name"
    if target.action == "clear_white":
        right = [{"op": "image.clear_color", "path": path, "color": WHITE}]
        return Attempts(
            Attempt("remove the white background and save with alpha", right),
            [Attempt("added an alpha channel but left the white background opaque",
                     [{"op": "image.convert_mode", "path": path, "mode": "RGBA"}]),
             Attempt(wrong_format, [*right, gc.wrong_format_op(path, source.fmt)])],
        )
    right = [{"op": "image.flatten", "path": path, "color": WHITE}]
    return Attempts(
        Attempt("flatten onto white and save without alpha", right),
        [Attempt("removed the alpha channel without filling: the transparent areas show black",
                 [{"op": "image.convert_mode", "path": path, "mode": "RGB"}]),
         Attempt("flattened onto the light grey (#EEEEEE) background colour of the toolbox",
                 [{"op": "image.flatten", "path": path, "color": "#EEEEEE"}]),
         Attempt(wrong_format, [*right, gc.wrong_format_op(path, source.fmt)])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Make a flat picture's white background transparent, or flatten a transparent one onto white.",
    knobs={"action": ("clear_white", "flatten_white"), "fmt": ("png", "webp", "tiff")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"], transparent_if=lambda p: p["action"] == "flatten_white"),
)
