"""impress.move_slide: move a slide (named by title) to a stated place: slide 2, the end, or next to another slide."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.move_slide"
MOVES = ("to_second", "to_last", "up_after", "down_after", "up_before", "down_before")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and move the slide '{title}' (currently slide {current}) {where}. "
    "All other slides keep their relative order and content. " + ic.SAVE,
    "In the presentation {path}, the slide '{title}' is in the wrong place. Move it {where}; do not copy it, "
    "and do not change any slide's content. " + ic.SAVE,
    "Please reorder the slides of {path}: '{title}', now slide {current}, should be moved {where}. Leave the "
    "rest of the deck in its current order, then save the file in place as pptx.",
    "Using LibreOffice Impress (the slide pane or the Slide Sorter), open {path} and drag the slide '{title}' "
    "{where}. Every other slide stays in the same relative order. " + ic.SAVE,
    "Rearrange {path} so that the slide '{title}' (slide {current} at the moment) sits {where}. Only this one "
    "slide moves. Then save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "In {path.file}, move the '{title}' slide {where}.",
    "Help me reorder my presentation {path.file}: the '{title}' slide should go {where}.",
    "Could you move '{title}' in {path.file} {where}? The other slides keep their order.",
    "The '{title}' slide of {path.file} is in the wrong place. Please move it {where}.",
    "Please move the '{title}' slide {where} in {path.file}.",
)


class Params(TypedDict):
    move: Literal["to_second", "to_last", "up_after", "down_after", "up_before", "down_before"]


@dataclass(frozen=True)
class Target:
    title: str  # the slide to move
    position: int  # its final 1-based place
    expected: list[str]  # every slide title, in order, once it has moved


def moved(titles: list[str], title: str, position: int) -> list[str]:
    """`titles` after moving `title` to 1-based `position`."""
    rest = [t for t in titles if t != title]
    return rest[:position - 1] + [title] + rest[position - 1:]


def _plan(rng: random.Random, move: str, titles: list[str]) -> tuple[str, int, str]:
    """(slide to move, its final position, how the instruction says where)."""
    n = len(titles)
    if move == "to_second":
        pos = rng.randint(4, n)
        return titles[pos - 1], 2, "so that it comes right after the cover slide, becoming slide 2"
    if move == "to_last":
        pos = rng.randint(2, n - 2)
        return titles[pos - 1], n, f"to the very end of the presentation, after '{titles[-1]}'"
    after = move.endswith("after")
    pairs = []  # (slide position, anchor position), both content slides, and the move changes the order
    for s in range(2, n + 1):
        for a in range(2, n + 1):
            # at least two places away: a move by one is the same as a swap, which a near-miss does
            if s != a and (s > a) == move.startswith("up") and abs(_final(s, a, after) - s) >= 2:
                pairs.append((s, a))
    s, a = rng.choice(pairs)
    words = f"directly {'after' if after else 'before'} the slide '{titles[a - 1]}'"
    return titles[s - 1], _final(s, a, after), words


def _final(slide: int, anchor: int, after: bool) -> int:
    """Final position of a slide moved next to `anchor` (positions in the current deck)."""
    anchor_in_rest = anchor - (1 if slide < anchor else 0)
    return anchor_in_rest + (1 if after else 0)


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    title, position, where = _plan(rng, params["move"], deck.titles)
    facts = {"path": deck.path, "title": title, "current": deck.position(title), "where": where}
    return Goal(deck, facts, Target(title, position, moved(deck.titles, title, position)))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    checks = [
        Check("order", f"The slides of {deck.path} are, in order: {target.expected}.", "pptx.slide_titles",
              {"path": deck.path, "titles": target.expected}),
        Check("position", f"The slide '{target.title}' is slide {target.position}.", "pptx.slide_position",
              {"path": deck.path, "title": target.title, "position": target.position}),
    ]
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    title, position, titles = target.title, target.position, deck.titles
    base = {"path": deck.path, "title": title}
    n = len(titles)
    # one place off, never onto the cover and never back where it started
    off = next(p for p in (position + 1, position - 1, position + 2, position - 2)
               if 2 <= p <= n and moved(titles, title, p) not in (target.expected, titles))
    displaced = titles[position - 1]
    swap = [{"op": "pptx.move_slide", **base, "position": position},
            {"op": "pptx.move_slide", "path": deck.path, "title": displaced, "position": titles.index(title) + 1}]
    return Attempts(
        Attempt(f"move '{title}' to slide {position}", [{"op": "pptx.move_slide", **base, "position": position}]),
        [Attempt(f"drops the slide one place off, at slide {off}",
                 [{"op": "pptx.move_slide", **base, "position": off}]),
         Attempt(f"swaps '{title}' with '{displaced}' instead of moving it", swap),
         Attempt("copies the slide to the new place, leaving the original where it was",
                 [{"op": "pptx.duplicate_slide", **base,
                   "position": position + (position > titles.index(title) + 1)}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Move a slide named by title to slide 2, to the end, or directly before/after another slide.",
    knobs={"move": MOVES},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
