"""impress.export_pdf: export a presentation as a PDF at a stated path, one slide per page: the whole deck, or only
a stated range of slides (the export dialog's Pages field); the deck itself stays as it is.

The check reads the PDF's pages (verifiers/readers/pdf.py, bounded): exactly one page per asked slide, page i
showing slide i's title and texts. Near-misses: handouts (two slides on a page), only the current slide
(Selection), the last asked slide left out, the range off by one or the whole deck instead of the range, the pptx
copied under the .pdf name."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from workflows.impress import kit as ic

NAME = "impress.export_pdf"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and export {what} as a PDF file to {dest}, one slide per page (no "
    "handouts or notes pages). Do not change the presentation itself.",
    "Export {what} of the presentation {path} to PDF and save it as {dest}; each slide must be a page of its "
    "own. Leave the pptx file as it is.",
    "Using File > Export as PDF in Impress, turn {what} of {path} into the PDF {dest}, with one slide on each "
    "page. The original deck must stay unchanged.",
    "Make a PDF at {dest} from {path}: it should contain {what}, one slide per page. Keep the pptx where it is "
    "and don't modify it.",
    "Convert {what} of the slide deck {path} into a PDF named {dest}, one page per slide. Do not edit, move or "
    "rename the presentation.",
)
NATURAL = (
    "Could you export {what} of {path.file} as a PDF to {dest}, one slide per page?",
    "I need a PDF of {what} from {path.file}, saved as {dest}, each slide on its own page.",
    "Please turn {what} of my deck {path.file} into a PDF at {dest}, one page per slide.",
    "Help me save {what} of {path.file} as the PDF {dest}, with a page for each slide.",
    "For the handout pack, export {what} of {path.file} to PDF at {dest}, one slide on each page.",
)
SUFFIXES = ("", "_slides", "_final", "_print", "_shared")


class Params(TypedDict):
    pages: Literal["all", "range"]


@dataclass(frozen=True)
class Target:
    dest: str
    first: int  # 1-based, inclusive: the slides to export
    last: int


def _texts(slide: dict[str, Any]) -> list[str]:
    """What a slide shows, in reading order: its title, then its subtitle or bullets."""
    body = [slide["subtitle"]] if slide.get("subtitle") else list(slide.get("bullets") or ())
    return [t for t in (slide["title"], *body) if t.strip()]


def goal(rng: random.Random, params: Params, plan: dict[str, Any], content: dict[str, Any]
         ) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    n = len(deck.slides)
    folder, stem = deck.path.rsplit("/", 1)[0], deck.path.rsplit("/", 1)[1].rsplit(".", 1)[0]
    where = rng.choice((folder, folder, f"{HOME}/Desktop", f"{HOME}/Documents/PDF"))
    dest = f"{where}/{stem}{rng.choice(SUFFIXES)}.pdf"
    if params["pages"] == "all":
        first, last, what = 1, n, f"all {n} slides"
    else:
        first = rng.randint(2, n - 2)
        last = rng.randint(first + 1, min(n - 1, first + 3))
        what = f"only slides {first} to {last}"
    facts = {"path": deck.path, "dest": dest, "what": what}
    return Goal(deck, facts, Target(dest, first, last))


def rubric(params: Params, deck: ic.Deck, target: Target) -> list[Check]:
    slides = [_texts(s) for s in deck.slides[target.first - 1:target.last]]
    span = "every slide" if params["pages"] == "all" else f"slides {target.first} to {target.last}"
    exported = Check(
        id="exported",
        criterion=f"{target.dest} is a PDF of {span} of {deck.path}, one page per slide in order ({len(slides)} "
                  "pages), each page showing its slide's title and texts.",
        primitive="pdf.slide_pages",
        args={"path": target.dest, "source": deck.path, "slides": slides},
    )
    return [exported]


def solve(params: Params, deck: ic.Deck, target: Target) -> Attempts:
    base: dict[str, Any] = {"op": "fmt.slides_pdf", "path": deck.path, "dest": target.dest}
    copy = Attempt("copies the pptx under the .pdf name instead of exporting it", [{**base, "as_copy": True}])
    if params["pages"] == "all":
        return Attempts(
            Attempt(f"export every slide as one PDF page at {target.dest}", [base]),
            [Attempt("exports handouts, two slides on a page", [{**base, "per_page": 2}]),
             Attempt("exports only the current slide (Selection)", [{**base, "first_only": True}]),
             Attempt("leaves the last slide out", [{**base, "first": 1, "last": target.last - 1}]),
             copy],
        )
    ranged = {**base, "first": target.first, "last": target.last}
    return Attempts(
        Attempt(f"export slides {target.first} to {target.last} as one PDF page each at {target.dest}", [ranged]),
        [Attempt("exports the whole deck instead of the range", [base]),
         Attempt("stops one slide short of the range", [{**ranged, "last": target.last - 1}]),
         Attempt("counts the slides from 0, exporting the range one slide later",
                 [{**ranged, "first": target.first + 1, "last": target.last + 1}]),
         copy],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Export a presentation as a PDF at a stated path, one slide per page: the whole deck or a stated "
                "range of slides, leaving the pptx unchanged.",
    knobs={"pages": ("all", "range")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
