"""writer.line_spacing: set line spacing (single, 1.5, double, exactly N pt, at least N pt) on one body paragraph
or on every body paragraph; the title, headings and other paragraphs keep theirs."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from verifiers.readers.docx import line_spacing_of
from workflows.writer import kit as wc

NAME = "writer.line_spacing"
#: knob -> (rule, value, how the instruction says it, near-miss (rule, value, why))
SPACINGS: dict[str, tuple[str, float, str, tuple[str, float, str]]] = {
    "single": ("multiple", 1.0, "single line spacing (1.0 line)", ("multiple", 1.5, "uses 1.5 lines")),
    "one_half": ("multiple", 1.5, "1.5 line spacing (one and a half lines)", ("multiple", 2.0, "uses double")),
    "double": ("multiple", 2.0, "double line spacing (2 lines)", ("multiple", 1.5, "uses 1.5 lines")),
    "exact": ("exact", 18.0, "a fixed line spacing of exactly 18 pt", ("atLeast", 18.0, "uses 'at least 18 pt'")),
    "at_least": ("atLeast", 16.0, "a line spacing of at least 16 pt (the 'At least' setting)",
                 ("exact", 16.0, "uses 'fixed' instead of 'at least'")),
}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and give {what} {how}. Leave the spacing of the title, the headings and all "
    "other paragraphs unchanged. Save the document in place as .docx.",
    "In the document {path}, set {what} to {how}. Nothing else should change; save the file in Word format under "
    "the same name.",
    "Please use Format > Paragraph in Writer to give {what} of {path} {how}. Other paragraphs keep their current "
    "spacing. Keep the .docx format when saving.",
    "Edit {path}: {what} needs {how}. Don't modify the paragraph styles or any other paragraph, and save it as .docx "
    "in place.",
    "Change the line spacing of {what} in {path} to {how}, then save your changes to the same .docx file.",
)
NATURAL = (
    "In {path.file}, give {what.bare} {how}.",
    "Help me make {path.file} easier to read: {what.bare} should have {how}.",
    "Could you set {how} for {what.bare} in my document {path.file}? Leave the rest alone.",
    "I'd like {what.bare} of {path.file} to use {how}.",
    "Please change the line spacing of {what.bare} in {path.file} to {how}.",
)


class Params(TypedDict):
    spacing: Literal["single", "one_half", "double", "exact", "at_least"]
    target: Literal["paragraph", "body"]


@dataclass(frozen=True)
class Target:
    spacing: str  # the key in SPACINGS
    where: str  # the `target` knob: paragraph | body
    targets: list[str]  # locators of the paragraphs to respace
    unchanged: list[str]  # locators of paragraphs that must keep their spacing


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    spacing, where = params["spacing"], params["target"]
    layout = wc.compose(rng, document, plan)
    body = wc.targets(layout, "body")
    # the Title style is single-spaced already, so it can only show a change for the other spacings
    keep = [loc for _, loc in wc.targets(layout, *(("heading",) if spacing == "single" else ("title", "heading")))]
    if where == "paragraph":
        para, paragraph = rng.choice(body)
        targets = [paragraph]
        unchanged = [loc for p, loc in body if p is not para] + keep
        what = f"the paragraph beginning {wc.quoted(paragraph)}"
    else:
        targets = [loc for _, loc in body]
        unchanged = keep
        what = (f"every body paragraph (the {len(body)} paragraphs of running text under the section headings; not "
                "the title, the headings or the short lines at the top and bottom)")
    facts = {"path": layout.path, "what": what, "how": SPACINGS[spacing][2]}
    return Goal(layout, facts, Target(spacing, where, targets, unchanged))


def rubric(layout: wc.Layout, target: Target, assets: list[Asset]) -> list[Check]:
    rule, value, how, _ = SPACINGS[target.spacing]
    # every other paragraph keeps the spacing it had: respacing them (to anything) is not the task
    kept = wc.kept_paragraphs(layout, assets, target.targets, lambda doc, p: list(line_spacing_of(doc, p)))
    args: dict[str, Any] = {"path": layout.path, "rule": rule, "value": value, "unchanged": kept}
    if target.where == "paragraph":
        args["paragraph"] = target.targets[0]
    else:
        args["paragraphs"] = target.targets
    return [Check(id="spacing", criterion=f"In {layout.path}, the {target.where} target has {how}; title, headings "
                                          "and other paragraphs keep their spacing.",
                  primitive="docx.line_spacing", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    rule, value, _, (wrong_rule, wrong_value, why) = SPACINGS[target.spacing]
    base = {"op": "docx.set_line_spacing", "path": layout.path, "rule": rule, "value": value}
    targets = target.targets
    if target.where == "body":
        partial = Attempt("misses the last body paragraph", [{**base, "paragraphs": targets[:-1]}])
    else:
        partial = Attempt("changes the next paragraph instead", [{**base, "paragraphs": target.unchanged[:1]}])
    return Attempts(
        Attempt("sets the stated spacing on the target", [{**base, "paragraphs": targets}]),
        [Attempt(why, [{**base, "paragraphs": targets, "rule": wrong_rule, "value": wrong_value}]),
         partial,
         Attempt("changes every paragraph, title and headings included",
                 [{**base, "paragraphs": [wc.norm(p) for p in layout.texts()]}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Set single, 1.5, double, exact or at-least line spacing on a paragraph or all body paragraphs.",
    knobs={"spacing": tuple(SPACINGS), "target": ("paragraph", "body")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
