"""gimp.indexed: convert a flat picture (logo, diagram, chart, scanned form) stored as PNG or BMP to indexed colour
mode with a palette of at most a stated number of colours, and export it as a GIF next to it.

Flat pictures from `preparers.image` use 5-8 colours, so a palette of 16 or more keeps every pixel exactly: the
content check compares at full resolution without tolerance. Checks: the GIF is a palette picture (mode P) using at
most the stated colours, shows the original exactly, keeps its size and is really a GIF; the tree frame refuses the
original changed. Near-misses: a grey palette (colour lost), a palette too small for the picture's colours, PNG data
behind the .gif name. (The original overwritten with the indexed picture shows the same pixels, which is all the
tree frame reads of a picture, so that is no near-miss.)

An indexed PNG written over the original is not a task yet: the gate's image mutants (`verifiers/mutants/image.py`,
the blur) crash on a palette picture, and a GIF is not mutated at all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.gimp import kit as gc

NAME = "gimp.indexed"
KINDS = ("logo", "diagram", "chart", "document")
PALETTE_SIZES = (16, 32, 64, 128, 256)
SAVE = "export it as the GIF file {dest}, leaving {path} as it is"
PLAIN = "save it as a GIF, {dest}, and keep the original {fmt}"
REASONS = ("so it loads faster on the intranet page", "for the old signage display, which only shows palette "
           "pictures", "to keep the file small for the newsletter", "for the embedded screen in the lobby",
           "so the email templates stay light")
PHRASINGS = (
    "Open {path} ({subject}) in GIMP and convert it to indexed colour mode with a palette of at most {colors} "
    "colours {why}. Then {save}.",
    "The picture {path} shows {subject}. Using GIMP, change its mode to Indexed (no more than {colors} colours in "
    "the palette) {why}, and {save}.",
    "Please turn {path} ({subject}) into an indexed-colour image whose palette has at most {colors} colours, {why}. "
    "Keep its size and {save}.",
    "In GIMP, use Image > Mode > Indexed on {path}, which shows {subject}, with a maximum of {colors} colours {why}; "
    "then {save}.",
    "Convert {path} ({subject}) to a palette-based (indexed) picture of at most {colors} colours {why}, and {save}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make {path.file} an indexed-colour picture with at most {colors} colours {why}; {plain}.",
    "I need my picture of {subject}, {path}, in indexed mode (a palette of {colors} colours or fewer) {why}. "
    "Please {plain}.",
    "Can you convert {path.file} to indexed colours, no more than {colors} in the palette, {why}? {plain_cap}.",
    "{path.file} should use a colour palette of at most {colors} colours instead of full RGB, {why}; {plain}.",
    "Turn {path.file}, the picture of {subject}, into an indexed image with up to {colors} palette colours and "
    "{plain}.",
)


class Params(TypedDict):
    source: Literal["png", "bmp"]  # the original picture's format (read by the source nodes)


@dataclass(frozen=True)
class Target:
    dest: str  # the GIF the indexed picture is exported to
    colors: int  # the most colours the palette may have
    fewer: int  # a palette too small for the picture's own colours (a near-miss)


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Target]:
    dest = f"{source.folder}/{source.stem}.gif"
    colors = rng.choice(PALETTE_SIZES)
    plain = PLAIN.format(dest=dest, fmt=source.format_name)
    facts = {"path": source.path, "dest": dest, "subject": source.subject, "colors": colors,
             "why": rng.choice(REASONS), "save": SAVE.format(path=source.path, dest=dest), "plain": plain,
             "plain_cap": plain[0].upper() + plain[1:]}
    own = len(source.image.convert("RGB").getcolors(1 << 16) or ())
    return Goal(None, facts, Target(dest, colors, max(2, own - 2)))


def rubric(source: gc.Source, target: Target) -> list[Check]:
    indexed = Check("indexed", f"{target.dest} is an indexed (palette) picture using at most {target.colors} "
                               f"colours.", "image.indexed", {"path": target.dest, "max_colors": target.colors})
    return [indexed, gc.content_check(target.dest, source, [], "the original picture with every colour kept"),
            gc.size_kept_check(target.dest, source),
            Check("format", f"{target.dest} is really a GIF file (by its content, not just its name).",
                  "image.format_is", {"path": target.dest, "format": "GIF"})]


def solve(source: gc.Source, target: Target) -> Attempts:
    convert = {"op": "image.indexed", "path": source.path, "colors": target.colors}
    export = {"op": "image.export_gif", "path": source.path, "dest": target.dest}
    return Attempts(
        Attempt(f"Image > Mode > Indexed with at most {target.colors} colours, then export as GIF", [convert, export]),
        [Attempt("converted to a grey palette: the colours are lost",
                 [{"op": "image.convert_mode", "path": source.path, "mode": "grayscale"}, convert, export]),
         Attempt(f"used a {target.fewer}-colour palette, which merges some of the picture's colours",
                 [{**convert, "colors": target.fewer}, export]),
         Attempt("saved PNG data behind the .gif name",
                 [convert, {"op": "image.convert_format", "path": source.path, "dest": target.dest,
                            "format": "PNG"}])],
    )


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Convert a flat PNG or BMP picture to indexed colour mode with a palette of at most a stated number "
                "of colours, exported as a GIF with the original kept.",
    knobs={"source": ("png", "bmp")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(KINDS, lambda p: p["source"]),
)
