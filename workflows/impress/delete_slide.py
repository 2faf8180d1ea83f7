"""impress.delete_slide: delete one or two slides named by title, keeping every other slide in order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "content", "plan"), ("deck", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params = values["params"]
    deck = ic.deck_from(values["content"], values["plan"])
    titles = deck.titles
    n = len(titles)
    first = {"second": 2, "middle": rng.randint(3, n - 1), "last": n}[params["where"]]
    positions = [first]
    if params["count"] == 2:
        positions.append(rng.choice([p for p in range(2, n + 1) if p != first]))
    victims = [titles[p - 1] for p in positions]
    words = [f"the slide '{v}' (currently slide {p})" for v, p in zip(victims, positions, strict=True)]
    facts = {"path": deck.path, "victims": " and ".join(words)}
    expected = [t for t in titles if t not in victims]
    return {"deck": deck, "facts": facts, "target": {"victims": victims, "expected": expected}}


@node("rubric", "rubric", ("deck", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    checks = [Check("order", f"The slides of {deck.path} are, in order: {t['expected']}.", "pptx.slide_titles",
                    {"path": deck.path, "titles": t["expected"]})]
    checks += [Check(f"deleted-{i}", f"No slide titled '{v}' is left.", "pptx.slide_count",
                     {"path": deck.path, "title": v, "count": 0}) for i, v in enumerate(t["victims"], start=1)]
    return {"rubric": [*checks, ic.kept_check(deck, values["assets"], t["victims"])]}


@node("solve", "solve", ("deck", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    victims: list[str] = values["target"]["victims"]
    titles = deck.titles

    def delete(*names: str) -> list[dict[str, Any]]:
        return [{"op": "pptx.delete_slide", "path": deck.path, "title": n} for n in names]

    first = titles.index(victims[0])
    neighbour = next(titles[i] for i in (first + 1, first - 1, first + 2, first - 2)
                     if 0 < i < len(titles) and titles[i] not in victims)
    extra = next(t for t in reversed(titles[1:]) if t not in victims and t != neighbour)
    if len(victims) == 2:
        partial = Solution("near-miss-2", "deletes only the first of the two slides", delete(victims[0]))
    else:
        cleared: list[dict[str, Any]] = [
            {"op": "pptx.set_bullets", "path": deck.path, "title": victims[0], "bullets": []},
            {"op": "pptx.set_title", "path": deck.path, "title": victims[0], "new": ""}]
        partial = Solution("near-miss-2", "clears the slide's text but leaves the empty slide", cleared)
    return {"solutions": [
        Solution("oracle", f"delete {victims}", delete(*victims)),
        Solution("near-miss-1", f"deletes the neighbouring slide '{neighbour}' instead of '{victims[0]}'",
                 delete(neighbour, *victims[1:])),
        partial,
        Solution("near-miss-3", f"also deletes '{extra}'", delete(*victims, extra)),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(ic.APP,),
    description="Delete one or two slides named by title from a presentation, keeping the rest in order.",
    knobs={"where": ("second", "middle", "last"), "count": (1, 2)},
    nodes=(*ic.source_nodes(), goal, ic.prepare, ic.instruction(NAME, PHRASINGS), rubric, solve),
)
