"""impress.transition: give one stated slide, or every slide, a stated transition (Fade, Push, Wipe, Split,
Dissolve, Uncover: Impress's Slide Transition panel), which pptx keeps as the slide's `<p:transition>` effect.

A one-slide task fails when another slide gets a transition too (the check, and the frame, which reads every
slide's transition); an all-slides task fails when one slide, the title slide included, lacks it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.checks.pptx_design import TRANSITIONS
from workflows.impress import kit as ic

NAME = "impress.transition"
WORDS = {"fade": "Fade", "push": "Push", "wipe": "Wipe", "split": "Split", "dissolve": "Dissolve",
         "uncover": "Uncover"}
#: the transition a slip picks instead (a neighbour in Impress's panel)
SLIP = {"fade": "dissolve", "push": "wipe", "wipe": "push", "split": "wipe", "dissolve": "fade", "uncover": "push"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and give {where} the {kind} slide transition. {rest} " + ic.SAVE,
    "In the presentation {path}, apply the {kind} transition to {where} (Slide > Slide Transition). {rest} "
    + ic.SAVE,
    "Please set the slide transition of {where} in {path} to {kind}. {rest} Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}, select {where} and choose the {kind} effect in the Slide Transition "
    "panel. {rest} " + ic.SAVE,
    "{where_cap} of {path} should use the {kind} transition. {rest} Then save the presentation in place, keeping "
    "the pptx format.",
)
NATURAL = (
    "Add a {kind} transition to {where} in {path.file}.",
    "Help me liven up {path.file}: {where} should get the {kind} slide transition.",
    "Could you put the {kind} transition on {where} of my presentation {path.file}?",
    "I'd like {where} in {path.file} to use a {kind} transition.",
    "Please apply the {kind} slide transition to {where} of {path.file}.",
)

Kind = Literal["fade", "push", "wipe", "split", "dissolve", "uncover"]


class Params(TypedDict):
    kind: Kind
    scope: Literal["one", "all"]


@dataclass(frozen=True)
class Target:
    slide: str | None  # the slide that gets the transition; None: every slide
    kind: str  # a key of TRANSITIONS
    neighbour: str  # the slide after `slide` (or before it, for the last one); the first content slide for `all`
    cover: str  # the title slide's title


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    titles = deck.titles
    if params["scope"] == "one":
        chosen = rng.choice(deck.content_titles)
        i = titles.index(chosen)
        neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
        slide: str | None = chosen
        where, rest = f"the slide '{chosen}'", "The other slides keep no transition."
    else:
        slide, neighbour = None, deck.content_titles[0]
        where, rest = "every slide", "The title slide gets it too; change nothing else."
    facts = {"path": deck.path, "where": where, "where_cap": where[0].upper() + where[1:],
             "kind": WORDS[params["kind"]], "rest": rest}
    return Goal(deck, facts, Target(slide, params["kind"], neighbour, titles[0]))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": deck.path, "kind": target.kind}
    name = WORDS[target.kind]
    if target.slide is None:
        args["every"] = True
        criterion = f"Every slide of {deck.path} has the {name} transition."
    else:
        args["slide"] = target.slide
        criterion = f"The slide '{target.slide}' has the {name} transition, and no other slide has a transition."
    return [Check("transition", criterion, "pptx.transition", args)]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base = {"op": "pptx.set_transition", "path": deck.path, "effect": TRANSITIONS[target.kind]}
    slip = SLIP[target.kind]
    wrong = f"picks {WORDS[slip]} instead of {WORDS[target.kind]}"
    if target.slide is not None:
        one = {**base, "title": target.slide}
        return Attempts(
            Attempt(f"give '{target.slide}' the {WORDS[target.kind]} transition", [one]),
            [Attempt(wrong, [{**one, "effect": TRANSITIONS[slip]}]),
             Attempt(f"gives the neighbouring slide '{target.neighbour}' the transition",
                     [{**base, "title": target.neighbour}]),
             Attempt("applies the transition to all slides", [base])],
        )
    return Attempts(
        Attempt(f"give every slide the {WORDS[target.kind]} transition", [base]),
        [Attempt(wrong, [{**base, "effect": TRANSITIONS[slip]}]),
         Attempt("gives every slide but the title slide the transition", [{**base, "skip": [target.cover]}]),
         Attempt(f"gives only the slide '{target.neighbour}' the transition", [{**base, "title": target.neighbour}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Give one stated slide, or every slide, a stated slide transition (Fade, Push, Wipe, Split, "
                "Dissolve, Uncover).",
    knobs={"kind": ("fade", "push", "wipe", "split", "dissolve", "uncover"), "scope": ("one", "all")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
