"""impress.slide_title: change the cover title, the cover subtitle, or the title of one or two content slides."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.slide_title"
COVER_TITLES = ("{old} - Final Version", "{old} (Board Edition)", "{old}: Draft for Review", "{old} - Updated")
SUBTITLES = ("Presented by {author}", "Board meeting, final version", "Updated after the leadership review",
             "Version 2 for the steering group", "Confidential, internal use only", "Prepared by {author}")
CONTENT_TITLES = ("{old} Overview", "{old} in Brief", "Update on {old}", "{old} at a Glance", "{old} Today")
PHRASINGS = (
    "Open {path} in LibreOffice Impress. {change} Do not change anything else on the slides. " + ic.SAVE,
    "In the presentation {path}, some slide text needs updating. {change} Leave all other text as it is. "
    + ic.SAVE,
    "Please edit {path}. {change} Replace the old text completely rather than adding to it. Then save the "
    "file in place as pptx.",
    "Using LibreOffice Impress, open {path} and fix the wording. {change} Keep every slide where it is. "
    + ic.SAVE,
    "The deck {path} was reviewed and the text below must change. {change} Then save the presentation in "
    "place, keeping the pptx format.",
)
NATURAL = (
    "In my presentation {path.file}: {change}",
    "Help me fix a title in {path.file}. {change}",
    "Could you update the slide text in {path.file}? {change}",
    "A quick edit to {path.file}, please. {change}",
    "Please make this change to {path.file}. {change}",
)

class Params(TypedDict):
    target: Literal["cover_title", "cover_subtitle", "content_title", "two_titles"]


@dataclass(frozen=True)
class SubtitleChange:
    cover: str  # the cover slide's title
    old: str
    new: str


@dataclass(frozen=True)
class Target:
    expected: list[str]  # every slide title, in order, once changed
    renames: list[tuple[str, str]] = field(default_factory=list)  # (old, new) titles, in slide order
    subtitle: SubtitleChange | None = None  # the cover subtitle's change, when that is the task


def _renames(target: str, deck: ic.Deck, pick: Any) -> list[tuple[str, str]]:
    """(old title, new title) pairs for a title change."""
    if target == "cover_title":
        old = deck.titles[0]
        return [(old, pick(COVER_TITLES).format(old=old))]
    count = 2 if target == "two_titles" else 1
    olds = sorted(pick(deck.content_titles, count), key=deck.position)
    news: list[str] = []
    for old in olds:
        news.append(pick([p for p in CONTENT_TITLES if p.format(old=old) not in news]).format(old=old))
    return list(zip(olds, news, strict=True))


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)

    def pick(pool: Any, k: int | None = None) -> Any:
        return rng.sample(list(pool), k) if k is not None else rng.choice(list(pool))

    cover = deck.titles[0]
    if params["target"] == "cover_subtitle":
        old = deck.slides[0]["subtitle"]
        new = pick([s for s in SUBTITLES if s.format(author=deck.author) != old]).format(author=deck.author)
        change = f"On the cover slide '{cover}', replace the subtitle '{old}' with '{new}'."
        target = Target(deck.titles, subtitle=SubtitleChange(cover, old, new))
    else:
        renames = _renames(params["target"], deck, pick)
        change = " ".join(f"Change the title of slide {deck.position(o)} from '{o}' to '{n}'." for o, n in renames)
        mapping = dict(renames)
        target = Target([mapping.get(x, x) for x in deck.titles], renames=renames)
    return Goal(deck, {"path": deck.path, "change": change}, target)


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    base = {"path": deck.path}
    checks = [Check("order", f"The slides of {deck.path} are, in order: {target.expected}.", "pptx.slide_titles",
                    {**base, "titles": target.expected})]
    sub = target.subtitle
    if sub is not None:
        checks.append(Check("subtitle", f"The subtitle of '{sub.cover}' reads '{sub.new}'.", "pptx.subtitle",
                            {**base, "slide": sub.cover, "text": sub.new}))
    else:
        checks += [Check(f"renamed-{i}", f"Exactly one slide is titled '{new}'.", "pptx.slide_count",
                         {**base, "title": new, "count": 1}) for i, (_, new) in enumerate(target.renames, start=1)]
    return checks


def _subtitle_attempts(path: str, sub: SubtitleChange) -> Attempts:
    base = {"op": "pptx.set_subtitle", "path": path, "title": sub.cover}
    return Attempts(
        Attempt("replace the cover subtitle", [{**base, "text": sub.new}]),
        [Attempt("types the new text into the cover title instead of the subtitle",
                 [{"op": "pptx.set_title", "path": path, "title": sub.cover, "new": sub.new}]),
         Attempt("adds the new text after the old subtitle", [{**base, "text": f"{sub.old} {sub.new}"}]),
         Attempt("types the subtitle in lower case", [{**base, "text": sub.new.lower()}])],
    )


def solve(deck: ic.Deck, target: Target) -> Attempts:
    path = deck.path
    if target.subtitle is not None:
        return _subtitle_attempts(path, target.subtitle)
    renames = target.renames

    def rename(pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        return [{"op": "pptx.set_title", "path": path, "title": o, "new": n} for o, n in pairs]

    old, new = renames[0]
    titles = deck.titles
    i = titles.index(old)
    neighbour = titles[i + 1] if i + 1 < len(titles) and titles[i + 1] not in dict(renames) else titles[i - 1]
    if neighbour in dict(renames) or neighbour == old:
        neighbour = next(x for x in titles if x not in dict(renames))
    if len(renames) == 2:
        third = Attempt("renames only the first of the two slides", rename(renames[:1]))
    else:
        third = Attempt("types the new title in lower case", rename([(old, new.lower())]))
    return Attempts(
        Attempt(f"retitle {renames}", rename(renames)),
        [Attempt(f"retitles '{neighbour}' instead of '{old}'", rename([(neighbour, new), *renames[1:]])),
         Attempt("adds the new title after the old one instead of replacing it",
                 rename([(o, f"{o} {n}") for o, n in renames])),
         third],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Change the cover title, the cover subtitle, or the titles of one or two content slides.",
    knobs={"target": ("cover_title", "cover_subtitle", "content_title", "two_titles")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
