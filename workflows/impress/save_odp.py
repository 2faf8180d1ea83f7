"""impress.save_odp: save a PowerPoint deck as OpenDocument Presentation (.odp) beside it, under its own name (what
Impress's File > Save As proposes) or under a stated new one; the pptx itself stays where it is, unchanged.

The check (`odf.document_text`, shared with writer.save_odt) reads the .odp through the bounded OpenDocument reader
(verifiers/readers/odf.py): its declared type is ODF presentation, and it holds every slide's title and texts in
order. Near-misses: the pptx copied under the .odp name (no conversion), the deck moved instead of copied (Save As,
then the pptx deleted), the last slide left out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.formats_odp import ODP_MIMETYPE
from workflows.impress import kit as ic

NAME = "impress.save_odp"
SUFFIXES = ("_odf", "_open_format", "_for_libreoffice", "_shared", "_v2", "_archive")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and save a copy of it in ODF Presentation format (.odp) as {dest}. Keep "
    "the original pptx file where it is, unchanged.",
    "Convert the PowerPoint deck {path} to OpenDocument Presentation and save it as {dest}. The pptx must stay "
    "as it is.",
    "Using File > Save As in Impress with the ODF Presentation type, save {path} as {dest}. Do not delete, rename "
    "or modify the original presentation.",
    "Make an .odp version of {path} at {dest}: the same presentation saved in OpenDocument format. Leave the pptx "
    "where it is.",
    "Save the presentation {path} in OpenDocument Presentation format under the name {dest}; the PowerPoint file "
    "itself must not change or move.",
)
NATURAL = (
    "Could you save {path.file} as an ODP file at {dest}? Keep the PowerPoint version too.",
    "I need {path.file} in OpenDocument format, saved as {dest}.",
    "Please convert {path.file} to .odp and save it as {dest}; leave the pptx as it is.",
    "Our archive only takes ODF: save {path.file} as {dest}, please.",
    "Help me save a copy of {path.file} in ODP format at {dest}.",
)


class Params(TypedDict):
    name: Literal["same", "renamed"]


@dataclass(frozen=True)
class Target:
    dest: str  # the .odp's home path


def _texts(slide: Mapping[str, Any]) -> list[str]:
    """What a slide shows, in reading order: its title, then its subtitle or bullets."""
    body = [slide["subtitle"]] if slide.get("subtitle") else list(slide.get("bullets") or ())
    return [t for t in (slide["title"], *body) if t.strip()]


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    stem = deck.path.rsplit(".", 1)[0]
    dest = f"{stem}.odp" if params["name"] == "same" else f"{stem}{rng.choice(SUFFIXES)}.odp"
    return Goal(deck, {"path": deck.path, "dest": dest}, Target(dest))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    paragraphs = [t for s in deck.slides for t in _texts(s)]
    return [Check(
        id="saved",
        criterion=f"{target.dest} is an OpenDocument presentation holding every slide's title and texts of "
                  f"{deck.path} in order.",
        primitive="odf.document_text",
        args={"path": target.dest, "source": deck.path, "mimetype": ODP_MIMETYPE, "paragraphs": paragraphs,
              "cells": []},
    )]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base = {"op": "fmt.save_odp", "path": deck.path, "dest": target.dest}
    return Attempts(
        Attempt(f"save the deck as an ODF presentation at {target.dest}", [base]),
        [Attempt("copies the pptx under the .odp name instead of converting it", [{**base, "as_copy": True}]),
         Attempt("saves the .odp, then deletes the pptx (moved, not copied)", [{**base, "moved": True}]),
         Attempt("leaves the last slide out of the .odp", [{**base, "drop_last": True}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Save a PowerPoint deck as OpenDocument Presentation (.odp) beside it, under its own name or a "
                "stated new one, keeping the pptx unchanged.",
    knobs={"name": ("same", "renamed")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
