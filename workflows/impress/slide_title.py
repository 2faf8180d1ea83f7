"""impress.slide_title: change the cover title, the cover subtitle, or the title of one or two content slides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "content", "plan"), ("deck", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    target = values["params"]["target"]
    deck = ic.deck_from(values["content"], values["plan"])

    def pick(pool: Any, k: int | None = None) -> Any:
        return rng.sample(list(pool), k) if k is not None else rng.choice(list(pool))

    cover = deck.titles[0]
    if target == "cover_subtitle":
        old = deck.slides[0]["subtitle"]
        new = pick([s for s in SUBTITLES if s.format(author=deck.author) != old]).format(author=deck.author)
        change = f"On the cover slide '{cover}', replace the subtitle '{old}' with '{new}'."
        t = {"kind": "subtitle", "cover": cover, "old": old, "new": new, "expected": deck.titles}
    else:
        renames = _renames(target, deck, pick)
        change = " ".join(f"Change the title of slide {deck.position(o)} from '{o}' to '{n}'." for o, n in renames)
        mapping = dict(renames)
        t = {"kind": "titles", "renames": renames, "expected": [mapping.get(x, x) for x in deck.titles]}
    return {"deck": deck, "facts": {"path": deck.path, "change": change}, "target": t}


@node("rubric", "rubric", ("deck", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    base = {"path": deck.path}
    checks = [Check("order", f"The slides of {deck.path} are, in order: {t['expected']}.", "pptx.slide_titles",
                    {**base, "titles": t["expected"]})]
    if t["kind"] == "subtitle":
        checks.append(Check("subtitle", f"The subtitle of '{t['cover']}' reads '{t['new']}'.", "pptx.subtitle",
                            {**base, "slide": t["cover"], "text": t["new"]}))
    else:
        checks += [Check(f"renamed-{i}", f"Exactly one slide is titled '{new}'.", "pptx.slide_count",
                         {**base, "title": new, "count": 1}) for i, (_, new) in enumerate(t["renames"], start=1)]
    touched = [t["cover"]] if t["kind"] == "subtitle" else [old for old, _ in t["renames"]]
    return {"rubric": [*checks, ic.kept_check(deck, values["assets"], touched)]}


@node("solve", "solve", ("deck", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    path = deck.path
    if t["kind"] == "subtitle":
        sub = {"op": "pptx.set_subtitle", "path": path, "title": t["cover"]}
        return {"solutions": [
            Solution("oracle", "replace the cover subtitle", [{**sub, "text": t["new"]}]),
            Solution("near-miss-1", "types the new text into the cover title instead of the subtitle",
                     [{"op": "pptx.set_title", "path": path, "title": t["cover"], "new": t["new"]}]),
            Solution("near-miss-2", "adds the new text after the old subtitle", [{**sub,
                                                                                "text": f"{t['old']} {t['new']}"}]),
            Solution("near-miss-3", "types the subtitle in lower case", [{**sub, "text": t["new"].lower()}]),
        ]}
    renames: list[tuple[str, str]] = t["renames"]

    def rename(pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        return [{"op": "pptx.set_title", "path": path, "title": o, "new": n} for o, n in pairs]

    old, new = renames[0]
    titles = deck.titles
    i = titles.index(old)
    neighbour = titles[i + 1] if i + 1 < len(titles) and titles[i + 1] not in dict(renames) else titles[i - 1]
    if neighbour in dict(renames) or neighbour == old:
        neighbour = next(x for x in titles if x not in dict(renames))
    if len(renames) == 2:
        third = Solution("near-miss-3", "renames only the first of the two slides", rename(renames[:1]))
    else:
        third = Solution("near-miss-3", "types the new title in lower case", rename([(old, new.lower())]))
    return {"solutions": [
        Solution("oracle", f"retitle {renames}", rename(renames)),
        Solution("near-miss-1", f"retitles '{neighbour}' instead of '{old}'", rename([(neighbour, new),
                                                                                     *renames[1:]])),
        Solution("near-miss-2", "adds the new title after the old one instead of replacing it",
                 rename([(o, f"{o} {n}") for o, n in renames])),
        third,
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(ic.APP,),
    description="Change the cover title, the cover subtitle, or the titles of one or two content slides.",
    knobs={"target": ("cover_title", "cover_subtitle", "content_title", "two_titles")},
    nodes=(*ic.source_nodes(), goal, ic.prepare, ic.instruction(NAME, PHRASINGS), rubric, solve),
)
