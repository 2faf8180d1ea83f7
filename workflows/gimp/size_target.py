"""gimp.size_target: export a photo as a JPEG no bigger than a stated number of kilobytes (an upload or mail limit),
at its full size, keeping the original.

The limit is drawn from the picture itself: a little above what Pillow's JPEG at quality 75 takes, well below what
GIMP's default quality 90 takes, so the person has to lower the quality slider (GIMP shows the file size in the
export dialog) but never so far that the picture breaks up. Checks: the new file is at most the limit (1 KB = 1000
bytes), is really a JPEG, keeps the original's width and height, and still shows the picture at JPEG's tolerance;
the tree frame refuses the original changed. Near-misses: exported at the default quality (too big), scaled down to
fit instead of compressed, squeezed to quality 5 (blocky), PNG data behind the .jpg name, and the smaller JPEG
written over the original (or, from a PNG, under the original's name) instead of the asked file.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.image import PHOTO_KINDS
from preparers.ops.image_filesize import jpeg_bytes
from workflows.gimp import kit as gc

NAME = "gimp.size_target"
SUFFIXES = ("_web", "_email", "_small", "_upload")
PURPOSES = ("the club's upload form", "the e-mail to the printer", "the rental listing site", "the intranet news page",
            "the school newsletter form", "the online shop's product page")
PHRASINGS = (
    "Open {path} ({subject}) in GIMP and export it as the JPEG file {dest}, at most {kb} KB (1 KB = 1000 bytes) for "
    "{purpose}. Keep its full size of {width} by {height} pixels and leave the original file as it is.",
    "The picture {path} shows {subject}. {purpose_cap} accepts files of up to {kb} KB, so use GIMP to export it to "
    "{dest} as a JPEG no bigger than {kb} KB (1000 bytes each), without scaling it; {path} must stay unchanged.",
    "Please make a JPEG copy of {path} ({subject}) at {dest} that is smaller than or equal to {kb} KB (counting 1000 "
    "bytes per KB) for {purpose}. Do not change its {width}x{height} pixel size or the original.",
    "Using GIMP's Export As, save {path}, which shows {subject}, as {dest} in JPEG format with a file size of at most "
    "{kb} KB (1 KB = 1000 bytes): lower the quality rather than the size. Keep the original.",
    "For {purpose}, export {path} ({subject}) as a JPEG of no more than {kb} KB (1000 bytes per KB) named {dest}, "
    "still {width} by {height} pixels, and don't overwrite {path}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{purpose_cap} only takes files up to {kb} KB. Can you save {path.file} as a JPEG, {dest}, that fits, without "
    "shrinking it? Keep the original.",
    "I need my picture of {subject} as a JPEG of at most {kb} KB for {purpose}. Please export {path.file} to {dest}, "
    "same pixel size, original untouched.",
    "Could you make {dest} from {path.file}: a JPEG no bigger than {kb} KB, still {width} by {height}? It's for "
    "{purpose}.",
    "Please export {path.file} as a JPEG under {kb} KB at full size and save it as {dest}; leave my original alone.",
    "{path.file} is too big for {purpose}. Save a JPEG version at {dest} that's {kb} KB or less, without making it "
    "smaller in pixels.",
)


class Params(TypedDict):
    source: Literal["png", "jpg"]  # the original picture's format (read by the source nodes)


@dataclass(frozen=True)
class Target:
    dest: str  # the JPEG to export
    kb: int  # its most kilobytes (1000 bytes each)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    dest = f"{source.folder}/{source.stem}{rng.choice(SUFFIXES)}.jpg"
    kb = 5 * math.ceil(len(jpeg_bytes(source.image, 75)) * 1.05 / 5000)
    purpose = rng.choice(PURPOSES)
    facts = {"path": source.path, "dest": dest, "subject": source.subject, "kb": kb, "purpose": purpose,
             "purpose_cap": purpose[0].upper() + purpose[1:], "width": source.width, "height": source.height}
    return Goal(None, facts, Target(dest, kb))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    small = Check("file-size", f"{target.dest} is at most {target.kb} KB ({target.kb * 1000:,} bytes).",
                  "image.file_size_at_most", {"path": target.dest, "max_kb": target.kb})
    return [small, gc.format_check(target.dest, "jpg"), gc.size_kept_check(target.dest, source),
            gc.content_check(target.dest, source, [], "the original picture")]


def solve(source: gc.Source, target: Target) -> Attempts:
    budget = int(target.kb * 1000 * 0.95)  # a little room: a re-save with a comment must still fit
    export = {"op": "image.export_jpeg_within", "path": source.path, "dest": target.dest, "max_bytes": budget}
    half = {"op": "image.resize", "path": source.path, "width": source.width // 2, "height": source.height // 2}
    return Attempts(
        Attempt(f"Export As JPEG at the highest quality that fits {target.kb} KB", [export]),
        [Attempt("exported at GIMP's default quality 90: too big", [{**export, "quality": 90}]),
         Attempt("scaled the picture to half its size to make it fit", [half, {**export, "quality": 90}]),
         Attempt("squeezed it to quality 5: it fits but breaks up into blocks", [{**export, "quality": 5}]),
         Attempt("saved PNG data behind the .jpg name",
                 [{"op": "image.convert_format", "path": source.path, "dest": target.dest, "format": "PNG"}]),
         Attempt("wrote the smaller JPEG over the original instead of a new file" if source.fmt == "jpg" else
                 "exported the JPEG under the original's name instead of the asked one",
                 [{**export, "dest": source.sibling("jpg")}])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Export a photo as a JPEG no bigger than a stated number of kilobytes, at full size, keeping the "
                "original.",
    knobs={"source": ("png", "jpg")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(PHOTO_KINDS, lambda p: p["source"]),
)
