"""gimp.resolution: set a picture's print resolution without resampling, or scale it to print at a stated
width and resolution.

Image > Print Size changes only the stored ppi; Image > Scale Image in inches at a new resolution also resamples
the pixels. The source stores 72 ppi. Checks read the resolution the file really stores (PNG keeps pixels per
metre, so 300 ppi reads back as 299.9994) and the print width it gives. Near-misses: the wrong value, only one
of resampling and resolution done, the aspect ratio lost, another format behind the same extension.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.resolution"
SOURCE_DPI = 72
PPI = (150, 200, 300, 600)
PRINT = tuple((inches, dpi) for inches in (2, 3, 4, 5, 6, 8) for dpi in (100, 150, 200, 300))
PURPOSES = ("for the print shop", "for the annual report", "for the exhibition poster", "for the photo book",
            "for the printed flyer")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The picture {path} shows {subject} and will be printed {purpose}. In GIMP, {task}; then overwrite the {fmt} "
    "file.",
    "Please prepare {path} ({subject}) {purpose}: {task}. Keep the file name and the {fmt} format.",
    "Using GIMP, open the image {path}, which shows {subject}, and {task}. Export it back to {path} as {fmt}, "
    "saving the resolution with it.",
    "{path} ({subject}) goes to print {purpose}. {task_cap}, and save it over the original {fmt} file.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "I'm printing {path.file} {purpose}. Please {task.bare}, and save it in place.",
    "Please get {path.file} ready for print {purpose}: {task.bare}. Save it in place.",
    "{path.file} goes to the printer {purpose}, so {task.bare}. Keep it a {fmt} with the same name.",
    "Take {path.file}, which is {purpose}, and {task.bare}. Save it over the original.",
    "{path.file} will be printed {purpose}: {task.bare}, and save it over the original.",
)


class Params(TypedDict):
    mode: Literal["set_ppi", "print_width"]
    fmt: Literal["png", "jpg", "tiff"]


@dataclass(frozen=True)
class Target:
    dpi: int  # the print resolution to store
    width: int  # the picture's pixel size afterwards (the original's for set_ppi)
    height: int
    inches: int | None = None  # print_width: the stated print width; None when the pixels stay


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    if params["mode"] == "set_ppi":
        dpi = rng.choice(PPI)
        task = (f"change its print resolution to {dpi} ppi without resampling (Image > Print Size), so the pixel "
                f"size stays {source.width} by {source.height}")
        target = Target(dpi, source.width, source.height)
    else:
        inches, dpi = rng.choice([(i, d) for i, d in PRINT if 0.3 * source.width <= i * d <= 0.9 * source.width])
        task = (f"scale it so that it prints exactly {inches} inches wide at {dpi} ppi, keeping the aspect ratio "
                "(the pixels are resampled)")
        width = inches * dpi
        target = Target(dpi, width, round(width * source.height / source.width), inches)
    facts = {"path": source.path, "subject": source.subject, "task": task, "task_cap": task[0].upper() + task[1:],
             "fmt": source.format_name, "purpose": rng.choice(PURPOSES)}
    return Goal(None, facts, target)


def rubric(source: gc.Source, target: Target) -> list[Check]:
    dpi = Check("dpi", f"{source.path} stores a print resolution of {target.dpi} ppi.", "image.dpi_is",
                {"path": source.path, "dpi": target.dpi})
    if target.inches is None:
        sized = [gc.size_kept_check(source.path, source)]
    else:
        sized = [Check("print_width", f"{source.path} prints {target.inches} inches wide.", "image.print_width",
                       {"path": source.path, "inches": target.inches}),
                 Check("aspect", f"{source.path} keeps the aspect ratio of {source.width} by {source.height}.",
                       "image.aspect_preserved", {"path": source.path, "width": source.width,
                                                  "height": source.height})]
    content = gc.content_check(source.path, source,
                               [{"op": "image.resize", "width": target.width, "height": target.height}],
                               "the original picture")
    return [dpi, *sized, content, gc.format_check(source.path, source.fmt)]


def solve(source: gc.Source, target: Target) -> Attempts:
    path = source.path
    resampled = target.inches is not None
    set_dpi = {"op": "image.set_dpi", "path": path, "dpi": target.dpi}
    scale = {"op": "image.resize", "path": path, "width": target.width, "height": target.height}
    right = [scale, set_dpi] if resampled else [set_dpi]
    misses = [Attempt(f"saved {gc.other_format(source.fmt)} data behind the .{source.fmt} name",
                      [*right, gc.wrong_format_op(path, source.fmt)])]
    if not resampled:
        misses.append(Attempt(f"set {target.dpi // 2} ppi instead of {target.dpi}",
                              [{**set_dpi, "dpi": target.dpi // 2}]))
    else:
        misses += [Attempt("changed the resolution only (Print Size), so it prints at another width", [set_dpi]),
                   Attempt(f"resampled the pixels but left the resolution at {SOURCE_DPI} ppi", [scale]),
                   Attempt("scaled only the width, losing the aspect ratio",
                           [{**scale, "height": source.height}, set_dpi])]
    return Attempts(Attempt("set the print resolution" + (" and resample" if resampled else ""), right), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Set a picture's print resolution without resampling, or scale it to print at a stated width.",
    knobs={"mode": ("set_ppi", "print_width"), "fmt": ("png", "jpg", "tiff")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["fmt"], dpi=SOURCE_DPI),
)
