"""gimp.convert: export a picture to another file format at a stated new path, keeping the original file.

In GIMP this is File > Export As with the new extension. Checks: the new file's real format (from its bytes),
its size and content (the original's), and that the original is still there in its own format. Near-misses:
a file renamed rather than converted (old format behind the new extension), an export under a slightly
different name, and a smaller copy exported by mistake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import EXTENSIONS, KINDS
from workflows.gimp import kit as gc

NAME = "gimp.convert"
CONVERSIONS = {
    "png_to_jpg": ("png", "jpg"), "jpg_to_png": ("jpg", "png"), "bmp_to_png": ("bmp", "png"),
    "png_to_webp": ("png", "webp"), "webp_to_png": ("webp", "png"), "tiff_to_png": ("tiff", "png"),
    "jpg_to_webp": ("jpg", "webp"), "png_to_tiff": ("png", "tiff"), "bmp_to_jpg": ("bmp", "jpg"),
    "tiff_to_jpg": ("tiff", "jpg"),
}
#: target format -> why a copy in that format is needed
USES = {
    "jpg": ("to attach it to an email", "for the website", "for the slide deck", "for the photo printing service"),
    "png": ("for the team wiki", "for the slide deck", "for the shared drive", "for the documentation"),
    "webp": ("for the website", "for the online shop", "for the blog post"),
    "tiff": ("for the print shop", "for the archive", "for the magazine layout"),
}
SUFFIXES = ("", "", "_web", "_export", "_converted")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and export it as a {fmt} file to {dest} {use}. Keep the "
    "original {src_fmt} file as it is.",
    "I need a {fmt} version of {path} ({subject}) {use}. Use GIMP to export it to {dest} at the same size, and "
    "leave the original {src_fmt} file in place.",
    "Using GIMP, convert the {src_fmt} image {path}, which shows {subject}, to {fmt}: export it to {dest}. Don't "
    "delete or overwrite the original.",
    "Please export the picture of {subject} at {path} as {fmt} {use}, saving it to {dest}. The original {src_fmt} "
    "file must stay where it is.",
    "Convert {path} ({subject}) from {src_fmt} to {fmt} with GIMP's Export As, writing the new file to {dest}; "
    "keep the pixel size, and keep the original {src_fmt} file.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "I need a {fmt} version of {path.file} {use}. Save it as {dest} and keep the original.",
    "Could you turn my {src_fmt} picture of {subject} into a {fmt} at {dest}? Don't touch {path.file} itself.",
    "Please convert {path.file} to {fmt} {use}; the new file should be {dest}, the same size, with the original "
    "left alone.",
    "Make {dest}, a {fmt} version of {path} ({subject}), {use}. The {src_fmt} original stays.",
    "Save {path.file} as a {fmt} image named {dest}, keeping the original {src_fmt} file too.",
)


class Params(TypedDict):
    conversion: Literal["png_to_jpg", "jpg_to_png", "bmp_to_png", "png_to_webp", "webp_to_png", "tiff_to_png",
                        "jpg_to_webp", "png_to_tiff", "bmp_to_jpg", "tiff_to_jpg"]


@dataclass(frozen=True)
class Target:
    dest: str  # the new file's path
    fmt: str  # its format (a `CONVERSIONS` format)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    _, fmt = CONVERSIONS[params["conversion"]]
    dest = source.sibling(fmt, rng.choice(SUFFIXES))
    facts = {"path": source.path, "subject": source.subject, "dest": dest, "fmt": gc.FORMAT_NAMES[fmt],
             "src_fmt": source.format_name, "use": rng.choice(USES[fmt])}
    return Goal(None, facts, Target(dest, fmt))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    kept = Check("original", f"The original {source.path} is still there and still a {source.format_name} file.",
                 "image.format_is", {"path": source.path, "format": source.pil_format})
    return [gc.format_check(target.dest, target.fmt), gc.size_kept_check(target.dest, source),
            gc.content_check(target.dest, source, [], "the same picture as the original"), kept]


def _typo(dest: str, fmt: str) -> str:
    """The same name with the other common spelling of the extension (or a stray '-copy')."""
    other = {"jpg": ".jpeg", "tiff": ".tiff"}.get(fmt)
    stem = dest[: -len(EXTENSIONS[fmt])]
    return stem + other if other else stem + "-copy" + EXTENSIONS[fmt]


def solve(source: gc.Source, target: Target) -> Attempts:
    dest, fmt = target.dest, target.fmt
    export = {"op": "image.convert_format", "path": source.path, "dest": dest}
    half = {"op": "image.resize", "path": source.path, "width": source.width // 2, "height": source.height // 2}
    return Attempts(
        Attempt(f"export as {gc.FORMAT_NAMES[fmt]} to {dest}", [export]),
        [Attempt(f"renamed a copy to {dest} without converting (still {source.format_name} inside)",
                 [{**export, "format": source.pil_format}]),
         Attempt(f"exported to {_typo(dest, fmt)} instead of {dest}", [{**export, "dest": _typo(dest, fmt)}]),
         Attempt("exported a copy scaled to half size", [half, export])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Export a picture to another format (PNG, JPEG, WebP, TIFF) at a stated path, keeping the original.",
    knobs={"conversion": tuple(CONVERSIONS)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: CONVERSIONS[p["conversion"]][0]),
)
