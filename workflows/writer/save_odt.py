"""writer.save_odt: save a Word document in OpenDocument format (.odt) at a stated path, beside it under another
name or into a folder that does not exist yet; the docx itself stays where it is, unchanged.

The check reads the .odt through the bounded OpenDocument reader (verifiers/readers/odf.py): its declared type is
ODF text, and it holds every paragraph of the document in order and every table cell. Near-misses: the docx
renamed to .odt (no conversion), the file saved where Writer proposes it (the document's own name, beside it), the
document moved instead of copied (Save As, then the docx deleted)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers.ops.formats import ODT_MIMETYPE
from workflows.writer import kit as wc

NAME = "writer.save_odt"
SUFFIXES = ("odf", "open_format", "for_libreoffice", "shared", "v2", "archive")
FOLDERS = ("Documents/ODF", "Documents/open_formats", "Desktop/for_review", "Documents/archive/odt")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and save a copy of it in ODF Text format (.odt) as {dest}. Keep the "
    "original docx file where it is, unchanged.",
    "Convert the Word document {path} to OpenDocument Text and save it as {dest}. The docx must stay as it is.",
    "Using File > Save As in Writer with the ODF Text Document type, save {path} as {dest}. Do not delete, "
    "rename or modify the original document.",
    "Make an .odt version of {path} at {dest}: the same document saved in OpenDocument format. Leave the docx "
    "where it is.",
    "Save the document {path} in OpenDocument Text format under the name {dest}; the Word file itself must not "
    "change or move.",
)
NATURAL = (
    "Could you save {path.file} as an ODT file at {dest}? Keep the Word version too.",
    "I need {path.file} in OpenDocument format, saved as {dest}.",
    "Please convert {path.file} to .odt and save it as {dest}; leave the docx as it is.",
    "Our archive only takes ODF: save {path.file} as {dest}, please.",
    "Help me save a copy of {path.file} in ODT format at {dest}.",
)


class Params(TypedDict):
    where: Literal["beside", "folder"]


@dataclass(frozen=True)
class Target:
    dest: str  # the .odt's home path
    default: str  # where Writer proposes it: the document's name, beside it


def goal(rng: random.Random, params: Params, plan: dict[str, Any], document: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan, items=rng.random() < 0.5, table=rng.choice(("", "grid", "grid")))
    stem = layout.filename.rsplit(".", 1)[0]
    if params["where"] == "beside":
        dest = f"{layout.folder}/{stem}_{rng.choice(SUFFIXES)}.odt"
    else:
        dest = f"{HOME}/{rng.choice(FOLDERS)}/{stem}.odt"
    return Goal(layout, {"path": layout.path, "dest": dest}, Target(dest, f"{layout.folder}/{stem}.odt"))


def rubric(params: Params, layout: wc.Layout, target: Target) -> list[Check]:
    paragraphs = [t for t in layout.texts() if t.strip()]
    cells = [c for g in layout.grids for row in g.rows for c in row if c.strip()]
    saved = Check(
        id="saved",
        criterion=f"{target.dest} is an OpenDocument text file holding every paragraph of {layout.path} in order"
                  + (" and every table cell" if cells else "") + ".",
        primitive="odf.document_text",
        args={"path": target.dest, "source": layout.path, "mimetype": ODT_MIMETYPE, "paragraphs": paragraphs,
              "cells": cells},
    )
    return [saved]


def solve(params: Params, layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "fmt.save_odt", "path": layout.path, "dest": target.dest}
    return Attempts(
        Attempt(f"save the document as ODF text at {target.dest}", [base]),
        [Attempt("renames a copy of the docx to .odt instead of converting it", [{**base, "as_copy": True}]),
         Attempt("saves it where Writer proposes, under the document's own name", [{**base, "dest": target.default}]),
         Attempt("saves the .odt, then deletes the docx (moved, not copied)",
                 [{**base, "moved": True}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Save a Word document as OpenDocument Text (.odt) at a stated path (beside it under another name, "
                "or into a new folder), keeping the docx unchanged.",
    knobs={"where": ("beside", "folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
