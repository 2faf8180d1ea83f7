"""impress.footer: a footer text on every slide, or on every slide but the title slide (Insert > Header and Footer,
Footer, Apply to All; "Do not show on first slide"), kept as each slide's footer placeholder.

A footer typed in a text box, one missing from a slide (or shown on the title slide when it should not be), or a
text with a slip fails (`pptx.footer_text`); the pptx frame refuses anything else added, a date or slide number
included.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.footer"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and add the footer text \"{text}\" to {where} (Insert > Header and "
    "Footer). Change nothing else. " + ic.SAVE,
    "In the presentation {path}, use Insert > Header and Footer to show the footer \"{text}\" on {where}. Add no "
    "date or slide number. " + ic.SAVE,
    "Please edit {path}: {where} should show the footer \"{text}\". Keep the slides' content as it is. Then save "
    "the file in place as pptx.",
    "Using LibreOffice Impress, open {path} and set the footer of {where} to \"{text}\". " + ic.SAVE,
    "For the presentation {path}: put the footer \"{text}\" on {where}, using the slides' footer field. Then save "
    "the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Add the footer \"{text}\" to {where} in {path.file}.",
    "Help me finish {path.file}: {where} needs the footer \"{text}\".",
    "Could you put \"{text}\" in the footer of {where} in my presentation {path.file}?",
    "Before I send {path.file} out, please add the footer \"{text}\" on {where}.",
    "I'd like the footer \"{text}\" on {where} of {path.file}.",
)
WHERE = {"all": "every slide including the title slide", "not_title": "every slide except the title slide"}


class Params(TypedDict):
    slides: Literal["all", "not_title"]


@dataclass(frozen=True)
class Target:
    text: str
    title_slide: bool  # the title slide gets the footer too
    cover: str  # the title slide's title
    first: str  # the first content slide's title


def _texts(content: Mapping[str, Any]) -> list[str]:
    author = " ".join(str(content.get("author") or "").split())
    texts = ["Internal use only - do not distribute", "Confidential: for internal use only",
             f"{content['title']} - draft for review"]
    if author:
        texts += [f"{author} | Internal use only", f"Prepared by {author}"]
    return [t for t in texts if len(t) <= 70]


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    text = rng.choice(_texts(content))
    title_slide = params["slides"] == "all"
    facts = {"path": deck.path, "text": text, "where": WHERE[params["slides"]]}
    return Goal(deck, facts, Target(text, title_slide, deck.titles[0], deck.content_titles[0]))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    where = "every slide" if target.title_slide else "every slide but the title slide (which shows none)"
    return [Check("footer", f"{where[0].upper()}{where[1:]} of {deck.path} shows the footer \"{target.text}\".",
                  "pptx.footer_text", {"path": deck.path, "text": target.text, "title_slide": target.title_slide})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    skip = None if target.title_slide else [target.cover]
    oracle = {"op": "pptx.set_footer", "path": deck.path, "text": target.text, "skip": skip}
    flipped = "leaves the title slide out" if target.title_slide else "puts it on the title slide too"
    short = target.text.rsplit(" ", 1)[0]
    return Attempts(
        Attempt(f"add the footer on {WHERE['all' if target.title_slide else 'not_title']}", [oracle]),
        [Attempt(flipped, [{**oracle, "skip": [target.cover] if target.title_slide else None}]),
         Attempt(f"adds it to the slide '{target.first}' only", [{**oracle, "skip": None, "only": [target.first]}]),
         Attempt("types it in a text box at the bottom of each slide", [{**oracle, "textbox": True}]),
         Attempt(f"types \"{short}\", leaving out the last word", [{**oracle, "text": short}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Add a stated footer text to every slide, or every slide but the title slide (Insert > Header and "
                "Footer).",
    knobs={"slides": ("all", "not_title")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
