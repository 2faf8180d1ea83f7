"""impress.delete_slide: delete one or two slides named by title, keeping every other slide in order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.delete_slide"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and delete {victims} from the presentation. Keep all other slides "
    "exactly as they are and in the same order. " + ic.SAVE,
    "The slide deck {path} has slides that are no longer needed: remove {victims} entirely (the whole slide, not "
    "just its text). Nothing else should change. " + ic.SAVE,
    "Please clean up {path}: delete {victims}. The remaining slides keep their content and order. Save the "
    "file in place as pptx.",
    "Using LibreOffice Impress, open {path} and remove {victims} (for example in the slide pane, right-click > "
    "Delete Slide). Do not touch the other slides. " + ic.SAVE,
    "In the presentation {path}, get rid of {victims}. The other slides must stay, unchanged and in their "
    "current order. Then save the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Please delete {victims.bare} from {path.file}; the other slides stay as they are.",
    "Help me trim my presentation {path.file}: remove {victims.bare}.",
    "Could you remove {victims.bare} from {path.file}? Keep the rest in order.",
    "{path.file} has slides I no longer need: please delete {victims.bare}.",
    "In {path.file}, get rid of {victims.bare} and leave the other slides alone.",
)


class Params(TypedDict):
    where: Literal["second", "middle", "last"]
    count: Literal[1, 2]


@dataclass(frozen=True)
class Target:
    victims: list[str]  # titles of the slides to delete, the one `where` names first
    expected: list[str]  # every slide title, in order, once they are gone


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    titles = deck.titles
    n = len(titles)
    # the dict draws the middle position whatever the knob: the rng's later draws depend on it
    first = {"second": 2, "middle": rng.randint(3, n - 1), "last": n}[params["where"]]
    positions = [first]
    if params["count"] == 2:
        positions.append(rng.choice([p for p in range(2, n + 1) if p != first]))
    victims = [titles[p - 1] for p in positions]
    words = [f"the slide '{v}' (currently slide {p})" for v, p in zip(victims, positions, strict=True)]
    facts = {"path": deck.path, "victims": " and ".join(words)}
    expected = [t for t in titles if t not in victims]
    return Goal(deck, facts, Target(victims, expected))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    checks = [Check("order", f"The slides of {deck.path} are, in order: {target.expected}.", "pptx.slide_titles",
                    {"path": deck.path, "titles": target.expected})]
    checks += [Check(f"deleted-{i}", f"No slide titled '{v}' is left.", "pptx.slide_count",
                     {"path": deck.path, "title": v, "count": 0}) for i, v in enumerate(target.victims, start=1)]
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    victims = target.victims
    titles = deck.titles

    def delete(*names: str) -> list[dict[str, Any]]:
        return [{"op": "pptx.delete_slide", "path": deck.path, "title": n} for n in names]

    first = titles.index(victims[0])
    neighbour = next(titles[i] for i in (first + 1, first - 1, first + 2, first - 2)
                     if 0 < i < len(titles) and titles[i] not in victims)
    extra = next(t for t in reversed(titles[1:]) if t not in victims and t != neighbour)
    if len(victims) == 2:
        partial = Attempt("deletes only the first of the two slides", delete(victims[0]))
    else:
        cleared: list[dict[str, Any]] = [
            {"op": "pptx.set_bullets", "path": deck.path, "title": victims[0], "bullets": []},
            {"op": "pptx.set_title", "path": deck.path, "title": victims[0], "new": ""}]
        partial = Attempt("clears the slide's text but leaves the empty slide", cleared)
    return Attempts(
        Attempt(f"delete {victims}", delete(*victims)),
        [Attempt(f"deletes the neighbouring slide '{neighbour}' instead of '{victims[0]}'",
                 delete(neighbour, *victims[1:])),
         partial,
         Attempt(f"also deletes '{extra}'", delete(*victims, extra))],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Delete one or two slides named by title from a presentation, keeping the rest in order.",
    knobs={"where": ("second", "middle", "last"), "count": (1, 2)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
