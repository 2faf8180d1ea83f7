"""gimp.export: make a copy of a picture for a stated use — size, colour mode and format at once, at a new path.

Uses: an app icon (N x N grayscale PNG from a square logo), a web thumbnail (JPEG N px wide, aspect kept), a
profile picture (N x N PNG of the photo's centred square) and a print copy (grayscale TIFF at 300 ppi, same
pixels). Each check tests one stated property of the new file; the original stays untouched. Near-misses get one
property wrong: colour left in, squashed instead of cropped, the wrong format behind the right extension, the
print resolution not set, the edit saved over the original instead of exported.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import PHOTO_KINDS
from workflows.gimp import kit as gc

NAME = "gimp.export"
#: use -> (source kinds, source format, target sizes)
USES: dict[str, tuple[tuple[str, ...], str, tuple[int, ...]]] = {
    "icon": (("logo",), "png", (64, 128, 256)),
    "thumbnail": (PHOTO_KINDS, "jpg", (160, 200, 240, 320)),
    "avatar": (PHOTO_KINDS, "jpg", (128, 200, 256, 400)),
    "print_gray": (("landscape", "cityscape", "chart", "diagram", "document"), "png", (300,)),
}
PRINT_DPI = 300
TASKS = {
    "icon": ("a {n} by {n} pixel grayscale PNG icon for the app's toolbar", "_icon_{n}", "png"),
    "thumbnail": ("a JPEG thumbnail for the website with a width of {n} pixels, keeping the aspect ratio",
                  "_thumb", "jpg"),
    "avatar": ("a {n} by {n} pixel PNG profile picture that shows the centred square of the photo (crop, don't "
               "squash)", "_avatar", "png"),
    "print_gray": ("a grayscale TIFF for the printed newsletter with a resolution of {n} ppi and the same pixel "
                   "size as the original", "_print", "tiff"),
}
PHRASINGS = (
    "Using GIMP, make {task} from {path} ({subject}) and export it to {dest}. Leave the original file as it is.",
    "From the picture {path}, which shows {subject}, I need {task}. Export it with GIMP to {dest}; don't change "
    "{path} itself.",
    "Please export {task} at {dest}, made from {path} ({subject}). Keep the original file unchanged.",
    "Open {path} ({subject}) in GIMP and create {task}. Save it as {dest} and leave the original untouched.",
    "Export {path} ({subject}) to {dest} as {task}, without overwriting the original.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "I need {task}, made from {path.file}. Save it as {dest} and leave the original alone.",
    "Could you make {task} out of {path.file}? The result goes to {dest}.",
    "Please create {task} from {path} and save it as {dest}, without changing the original.",
    "From {path.file} ({subject}), make {task} and put it at {dest}.",
    "Save {task} at {dest}. Use {path.file} as the source and keep that file as it is.",
)

Use = Literal["icon", "thumbnail", "avatar", "print_gray"]


class Params(TypedDict):
    use: Use


@dataclass(frozen=True)
class Target:
    use: Use
    n: int  # the use's number: side in pixels (icon, avatar), width (thumbnail) or ppi (print_gray)
    dest: str  # the copy's path
    fmt: str  # the copy's format


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    use = params["use"]
    n = rng.choice(USES[use][2])
    text, suffix, fmt = TASKS[use]
    dest = source.sibling(fmt, suffix.format(n=n))
    facts = {"path": source.path, "subject": source.subject, "task": text.format(n=n), "dest": dest}
    return Goal(None, facts, Target(use, n, dest, fmt))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    use, n, dest = target.use, target.n, target.dest
    checks = [gc.format_check(dest, target.fmt)]
    gray = Check("grayscale", f"{dest} has no colour: every pixel is grey.", "image.grayscale", {"path": dest})
    if use == "icon":
        checks += [gc.size_check(dest, n, n), gray,
                   gc.content_check(dest, source, _ops(source, use, n), "the logo", gray=True, tone=True)]
    elif use == "thumbnail":
        checks += [Check("side", f"{dest} is exactly {n} pixels wide.", "image.side_equals",
                         {"path": dest, "side": "width", "pixels": n}),
                   Check("aspect", f"{dest} keeps the aspect ratio of {source.width} by {source.height}.",
                         "image.aspect_preserved", {"path": dest, "width": source.width, "height": source.height}),
                   gc.content_check(dest, source, _ops(source, use, n), "the whole photo, scaled down")]
    elif use == "avatar":
        checks += [gc.size_check(dest, n, n),
                   gc.content_check(dest, source, _ops(source, use, n), "the photo's centred square")]
    else:
        checks += [gray, Check("dpi", f"{dest} has a print resolution of {n} ppi.", "image.dpi_is",
                               {"path": dest, "dpi": n}),
                   gc.size_kept_check(dest, source),
                   gc.content_check(dest, source, _ops(source, use, n), "the original picture", gray=True, tone=True)]
    kept = Check("original", f"The original {source.path} still has its own size.", "image.size_unchanged",
                 {"path": source.path, "width": source.width, "height": source.height})
    return [*checks, kept]


def _ops(src: gc.Source, use: str, n: int) -> list[dict[str, Any]]:
    """The edit ops for `use` (before the export)."""
    path = src.path
    if use == "icon":
        return [{"op": "image.resize", "path": path, "width": n, "height": n},
                {"op": "image.convert_mode", "path": path, "mode": "grayscale"}]
    if use == "thumbnail":
        return [{"op": "image.resize", "path": path, "width": n, "height": round(n * src.height / src.width)}]
    if use == "avatar":
        s = min(src.width, src.height)
        left, top = (src.width - s) // 2, (src.height - s) // 2
        return [{"op": "image.crop", "path": path, "box": [left, top, left + s, top + s]},
                {"op": "image.resize", "path": path, "width": n, "height": n}]
    return [{"op": "image.convert_mode", "path": path, "mode": "grayscale"},
            {"op": "image.set_dpi", "path": path, "dpi": n}]


def solve(source: gc.Source, target: Target) -> Attempts:
    use, n, dest, fmt = target.use, target.n, target.dest, target.fmt
    export = {"op": "image.convert_format", "path": source.path, "dest": dest}
    right = _ops(source, use, n)
    misses: list[Attempt] = [
        Attempt(f"exported {gc.other_format(fmt)} data behind the .{fmt} name",
                [*right, {**export, "format": gc.other_format(fmt)}]),
        Attempt("made the edits but saved them over the original instead of exporting the copy", right),
    ]
    if use in ("icon", "print_gray"):
        misses.append(Attempt("left the colour in", [op for op in right if op.get("mode") != "grayscale"] + [export]))
    if use == "print_gray":
        misses.append(Attempt("never set the print resolution", [*right[:1], export]))
    squash: list[dict[str, Any]] = [{"op": "image.resize", "path": source.path, "width": n, "height": n}, export]
    if use == "thumbnail" and n != round(n * source.height / source.width):
        misses.append(Attempt("squashed the whole photo to a square", squash))
    if use == "avatar":
        s = min(source.width, source.height)
        corner: list[dict[str, Any]] = [{"op": "image.crop", "path": source.path, "box": [0, 0, s, s]}, *right[1:],
                                        export]
        expected = gc.preview(source, right)
        misses += [Attempt(why, ops) for why, ops in (("squashed the whole photo to a square", squash),
                                                      ("cropped the square at the top-left corner", corner))
                   if gc.clearly_differs(gc.preview(source, ops), expected)]
    return Attempts(Attempt(f"make the {use} copy and export it to {dest}", [*right, export]), misses)


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Export a copy of a picture for a stated use: icon, thumbnail, profile picture or print copy.",
    knobs={"use": tuple(USES)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(lambda p: USES[p["use"]][0], lambda p: USES[p["use"]][1],
                           size_ok=lambda kind, size: kind == "logo" or size[0] != size[1]),
)
