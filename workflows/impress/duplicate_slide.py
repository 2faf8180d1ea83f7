"""impress.duplicate_slide: duplicate a slide (same bullets), place the copy, and optionally retitle the copy."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.duplicate_slide"
RETITLES = ("{old} (continued)", "{old}: Follow-up", "{old} - Backup", "{old} in Detail", "{old} - Part 2")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and duplicate the slide '{title}' (slide {current}). {place} {rename}"
    "The original slide and all other slides stay as they are. " + ic.SAVE,
    "In the presentation {path}, make a copy of the slide '{title}' with all of its bullet points. {place} "
    "{rename}Do not change anything else. " + ic.SAVE,
    "Please duplicate slide {current} ('{title}') of {path} (Slide > Duplicate Slide). {place} {rename}"
    "Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}. The slide '{title}' is needed twice: duplicate it. {place} "
    "{rename}Leave every other slide untouched. " + ic.SAVE,
    "The deck {path} needs a second copy of the slide '{title}' (currently slide {current}), with the same "
    "bullets. {place} {rename}Then save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Duplicate the '{title}' slide in {path.file}. {place} {rename}",
    "Help me make a copy of the '{title}' slide in my presentation {path.file}. {place} {rename}",
    "Could you duplicate the slide '{title}' in {path.file}? {place} {rename}",
    "I need a second copy of the '{title}' slide in {path.file}. {place} {rename}",
    "Please copy the slide '{title}' of {path.file}, bullets included. {place} {rename}",
)


class Params(TypedDict):
    place: Literal["after", "end"]
    retitle: Literal["keep", "rename"]


@dataclass(frozen=True)
class Target:
    title: str  # the slide to duplicate
    copy: str  # the copy's title: `title` again, or its new title
    position: int  # the copy's 1-based place
    expected: list[str]  # every slide title, in order, once the copy is in place
    bullets: list[str]  # the bullets the copy carries (the original's)

    @property
    def renamed(self) -> bool:
        return self.copy != self.title


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    titles = deck.titles
    # "directly after the original" and "at the end" must differ: never the last slide
    title = rng.choice(titles[1:-1])
    current = deck.position(title)
    copy_title = rng.choice(RETITLES).format(old=title) if params["retitle"] == "rename" else title
    position = current + 1 if params["place"] == "after" else len(titles) + 1
    place = ("The copy must come directly after the original." if params["place"] == "after" else
             f"Move the copy to the very end of the presentation, after '{titles[-1]}'.")
    rename = (f"After that, change the title of the copy (not of the original) to '{copy_title}'; the copy keeps the "
              "same bullets. " if params["retitle"] == "rename" else "")
    expected = titles[:position - 1] + [copy_title] + titles[position - 1:]
    facts = {"path": deck.path, "title": title, "current": current, "place": place, "rename": rename}
    return Goal(deck, facts, Target(title, copy_title, position, expected, deck.slide(title)["bullets"]))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    base = {"path": deck.path}
    copies = 1 if target.renamed else 2
    checks = [
        Check("order", f"The slides of {deck.path} are, in order: {target.expected}.", "pptx.slide_titles",
              {**base, "titles": target.expected}),
        Check("count", f"{copies} slide(s) are titled '{target.title}'.", "pptx.slide_count",
              {**base, "title": target.title, "count": copies}),
        Check("copy-bullets", f"Every slide titled '{target.copy}' holds the bullets {target.bullets}.",
              "pptx.body_text", {**base, "slide": target.copy, "paragraphs": target.bullets, "named": []}),
    ]
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    title, copy_title, position = target.title, target.copy, target.position
    dup = {"op": "pptx.duplicate_slide", "path": deck.path, "title": title, "position": position,
           **({"new_title": copy_title} if target.renamed else {})}
    current = deck.position(title)
    wrong_place = len(deck.slides) + 1 if position == current + 1 else current + 1
    if target.renamed:
        second = Attempt("retitles the original slide instead of the copy",
                         [{**dup, "new_title": None, "position": current + 1},
                          {"op": "pptx.set_title", "path": deck.path, "title": title, "new": copy_title},
                          *([{"op": "pptx.move_slide", "path": deck.path, "title": title, "position": position}]
                            if position != current + 1 else [])])
        third = Attempt("duplicates the slide but forgets to retitle the copy", [{**dup, "new_title": None}])
    else:
        second = Attempt("adds a new empty slide with the same title instead of a copy",
                         [{"op": "pptx.add_slide", "path": deck.path, "layout": "title_content", "title": title,
                           "position": position}])
        other = deck.titles[current] if current < len(deck.slides) else deck.titles[current - 2]
        third = Attempt(f"duplicates the neighbouring slide '{other}' instead", [{**dup, "title": other}])
    return Attempts(
        Attempt(f"duplicate '{title}' to slide {position}", [dup]),
        [Attempt(f"puts the copy at slide {wrong_place} instead of {position}", [{**dup, "position": wrong_place}]),
         second,
         third],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Duplicate a slide with its bullets, place the copy after the original or at the end, and "
                "optionally retitle the copy.",
    knobs={"place": ("after", "end"), "retitle": ("keep", "rename")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
