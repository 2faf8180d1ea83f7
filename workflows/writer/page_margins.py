"""writer.page_margins: set stated page margins (all sides, left and right, top and bottom, or left only) in
cm, mm or inches; sides not mentioned must keep their margins."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.docx import twips
from workflows.writer import kit as wc

NAME = "writer.page_margins"
VALUES = {"cm": (1.5, 2.5, 3.0, 3.5), "mm": (15, 18, 22, 25, 30), "in": (0.5, 0.75, 1.25, 1.5)}
UNIT_WORDS = {"cm": "cm", "mm": "mm", "in": "inches"}
SIDES = {"all": ("top", "bottom", "left", "right"), "left_right": ("left", "right"),
         "top_bottom": ("top", "bottom"), "left_only": ("left",)}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and change the page margins: {margins}. {keep}Save the document in place "
    "as .docx.",
    "In Format > Page Style for the document {path}, set {margins}. {keep}Then save the file in Word format under "
    "the same name.",
    "The margins of {path} need adjusting: {margins}. {keep}Please make the change and keep the .docx format when "
    "saving.",
    "Please set the page margins of {path} as follows: {margins}. {keep}Save your changes to the same .docx file.",
    "Using LibreOffice Writer, give the document {path} these page margins: {margins}. {keep}Save it in place, "
    "keeping the Word format.",
)
NATURAL = (
    "Please set {margins} in {path.file}. {keep}",
    "Help me adjust the margins of {path.file}: {margins}. {keep}",
    "Could you change the page margins of my document {path.file}, setting {margins}? {keep}",
    "I need {path.file} with {margins}. {keep}",
    "The margins in {path.file} are off. Please set {margins}. {keep}",
)


def _show(value: float) -> str:
    return f"{value:g}"


class Params(TypedDict):
    unit: Literal["cm", "mm", "in"]
    sides: Literal["all", "left_right", "top_bottom", "left_only"]


@dataclass(frozen=True)
class Target:
    unit: str
    value: float  # the new margin, in `unit`
    sides: list[str]  # the margins to set (top, bottom, left, right)
    keep: dict[str, int]  # the other margins: side -> their initial width in twips


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    unit, sides = params["unit"], params["sides"]
    layout = wc.compose(rng, document, plan)
    initial = wc.DEFAULT_MARGIN[layout.paper]
    value = rng.choice([v for v in VALUES[unit] if abs(twips(v, unit) - initial) > 100])
    changed = SIDES[sides]
    word = UNIT_WORDS[unit]
    names = {"all": "all four margins (top, bottom, left and right)", "left_right": "the left and right margins",
             "top_bottom": "the top and bottom margins", "left_only": "the left margin"}[sides]
    margins = f"{names} to {_show(value)} {word}" + (" each" if len(changed) > 1 else "")
    kept = [s for s in ("top", "bottom", "left", "right") if s not in changed]
    keep = f"Leave the {' and '.join(kept)} margin{'s' if len(kept) > 1 else ''} as they are. " if kept else ""
    facts = {"path": layout.path, "margins": margins, "keep": keep}
    return Goal(layout, facts, Target(unit, value, list(changed), {s: initial for s in kept}))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path, "unit": target.unit, **{s: target.value for s in target.sides}}
    if target.keep:
        args["keep"] = target.keep
    return [Check(id="margins", criterion=f"{layout.path} has {', '.join(target.sides)} margin(s) of "
                                          f"{_show(target.value)} {target.unit}; the other margins are unchanged.",
                  primitive="docx.page_margins", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    unit, value, sides = target.unit, target.value, target.sides
    set_ = {"op": "docx.set_margins", "path": layout.path}
    right = twips(value, unit)
    other_unit = {"cm": "in", "mm": "in", "in": "cm"}[unit]
    wrong = twips(value / 10 if unit == "mm" else value, other_unit)  # the number typed into the wrong unit
    partial = sides[:1] if len(sides) > 1 else ["right"]
    overreach = ["top", "bottom", "left", "right"] if len(sides) < 4 else ["top", "bottom"]
    last_why = "sets every margin, not only the asked ones" if len(sides) < 4 else "sets top and bottom only"
    return Attempts(
        Attempt("sets the stated margins", [{**set_, **{s: right for s in sides}}]),
        [Attempt(f"types the value as {other_unit} instead of {unit}", [{**set_, **{s: wrong for s in sides}}]),
         Attempt("changes only some of the asked margins" if len(sides) > 1 else
                 "changes the right margin instead of the left", [{**set_, **{s: right for s in partial}}]),
         Attempt(last_why, [{**set_, **{s: right for s in overreach}}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Set page margins (all, left/right, top/bottom or left only) in cm, mm or inches.",
    knobs={"unit": ("cm", "mm", "in"), "sides": ("all", "left_right", "top_bottom", "left_only")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
