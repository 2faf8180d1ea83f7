"""writer.export_pdf: export a document as a PDF at a stated path, beside it under another name or into a folder
that does not exist yet; the document itself stays as it is.

The check reads the PDF's page texts (verifiers/readers/pdf.py, bounded): every paragraph of the document in order,
every table cell, on a sane number of pages. Near-misses: the PDF left where Writer proposes it (the document's own
name, beside it), only the first half of the document exported (a page range or a selection), an empty page, the
document copied under the .pdf name instead of exported."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from workflows.writer import kit as wc

NAME = "writer.export_pdf"
SUFFIXES = ("final", "print", "for_review", "shared", "signed_off", "v2")
FOLDERS = ("Documents/PDF", "Documents/exports", "Desktop/to_send", "Documents/outbox", "Documents/print")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and export it as a PDF file to {dest}. Export the whole document; do not "
    "change or rename the document itself.",
    "Export the document {path} to PDF and save the PDF as {dest}, with every page of the document in it. Leave "
    "the docx file as it is.",
    "Using File > Export as PDF in Writer, turn {path} into the PDF {dest} (all pages). The original document "
    "must stay unchanged.",
    "Make a PDF version of {path} at {dest}: the complete document, exported from Writer. Keep the docx where it "
    "is and don't modify it.",
    "Convert the Writer document {path} into a PDF named {dest}, containing the entire document. Do not edit, "
    "move or rename the original file.",
)
NATURAL = (
    "Could you export {path.file} as a PDF to {dest}? The whole document, please.",
    "I need a PDF of {path.file} saved as {dest} so I can send it around.",
    "Please turn {path.file} into a PDF at {dest}; leave the Word file as it is.",
    "Help me make a PDF copy of the whole of {path.file}, saved as {dest}.",
    "Export my document {path.file} to PDF, please, and put it at {dest}.",
)


class Params(TypedDict):
    where: Literal["beside", "folder"]


@dataclass(frozen=True)
class Target:
    dest: str  # the PDF's home path
    default: str  # where Writer proposes the PDF: the document's name, beside it


def goal(rng: random.Random, params: Params, plan: dict[str, Any], document: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan, items=rng.random() < 0.5, table=rng.choice(("", "grid", "grid")))
    stem = layout.filename.rsplit(".", 1)[0]
    if params["where"] == "beside":
        dest = f"{layout.folder}/{stem}_{rng.choice(SUFFIXES)}.pdf"
    else:
        dest = f"{HOME}/{rng.choice(FOLDERS)}/{stem}.pdf"
    facts = {"path": layout.path, "dest": dest}
    return Goal(layout, facts, Target(dest, f"{layout.folder}/{stem}.pdf"))


def rubric(params: Params, layout: wc.Layout, target: Target) -> list[Check]:
    paragraphs = [t for t in layout.texts() if t.strip()]
    cells = [c for g in layout.grids for row in g.rows for c in row if c.strip()]
    chars = sum(len(t) for t in paragraphs) + sum(len(c) for c in cells)
    exported = Check(
        id="exported",
        criterion=f"{target.dest} is a PDF of the whole of {layout.path}: its pages show every paragraph of the "
                  "document in order" + (" and every table cell" if cells else "") + ".",
        primitive="pdf.document_text",
        args={"path": target.dest, "source": layout.path, "paragraphs": paragraphs, "cells": cells,
              "max_pages": 3 + chars // 1000},
    )
    return [exported]


def solve(params: Params, layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "fmt.export_pdf", "path": layout.path, "dest": target.dest}
    return Attempts(
        Attempt(f"export the whole document as a PDF at {target.dest}", [base]),
        [Attempt("leaves the PDF where Writer proposes it, under the document's own name",
                 [{**base, "dest": target.default}]),
         Attempt("exports only the first half of the document (a page range)", [{**base, "part": 0.5}]),
         Attempt("writes a PDF with one empty page", [{**base, "blank": True}]),
         Attempt("copies the docx under the .pdf name instead of exporting it", [{**base, "as_copy": True}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Export a Writer document as a PDF at a stated path (beside it under another name, or into a new "
                "folder), the whole document, leaving the docx unchanged.",
    knobs={"where": ("beside", "folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
