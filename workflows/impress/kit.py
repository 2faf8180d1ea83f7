"""Nodes and helpers shared by the LibreOffice Impress families.

Every Impress family starts with `sample` (scenario, deck size, folder, which slides carry notes) and the
`content` LLM node (a realistic deck, see `workflows.impress.content`); its own `goal` node turns the deck into
a `Deck` (the initial presentation) plus `facts` (what the instruction states); the shared `prepare` node
builds the pptx asset, and the shared `instruction` node phrases the facts. Slides are named by their titles
in instructions, rubrics and solutions, exactly as a person would refer to them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from kit.axes import LOCATION, LOOKALIKES, deepen, look_alike_paths, pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.family import AppKit
from kit.model import HOME, Asset
from preparers import pptx
from workflows.common import instruction
from workflows.frame import tree_frame_node
from workflows.impress.content import (
    DECK_SCHEMA,
    DECK_SKETCH,
    DECKS,
    SCENARIOS,
    SPARE_SLIDES,
    check_deck,
    generate_deck,
)
from workflows.impress.more_slides import lengthen
from workflows.teacher import teacher_node

__all__ = ["instruction"]  # re-exported: families call ic.instruction(...)

APP = "libreoffice_impress"
FOLDERS = ("Documents", "Desktop", "Documents/presentations", "work/slides", "Documents/meetings", "projects")
#: Layout kinds -> the names LibreOffice Impress shows in its Layouts panel.
LAYOUT_NAMES = {"title_content": "Title, Content", "title_only": "Title Only", "title_slide": "Title Slide",
                "two_content": "Title and 2 Content"}
SAVE = "Save the presentation in place, keeping the pptx format."
MAX_SLIDES = min(len(d.slides) for d in DECKS.values()) - SPARE_SLIDES


@dataclass(frozen=True)
class Deck:
    """The initial presentation: where it lives and its slides as `preparers.pptx` slide specs (cover first)."""

    path: str
    slides: tuple[dict[str, Any], ...]
    author: str
    lookalikes: int = 0  # axis `lookalikes`: older copies of the deck beside it

    @property
    def titles(self) -> list[str]:
        return [s["title"] for s in self.slides]

    def position(self, title: str) -> int:
        """1-based slide number of `title`."""
        return self.titles.index(title) + 1

    def slide(self, title: str) -> dict[str, Any]:
        return self.slides[self.position(title) - 1]

    def with_slide(self, title: str, **changes: Any) -> Deck:
        """The deck with one slide's spec updated."""
        slides = tuple({**s, **changes} if s["title"] == title else s for s in self.slides)
        return replace(self, slides=slides)

    def inserted(self, position: int, spec: dict[str, Any]) -> Deck:
        slides = list(self.slides)
        slides.insert(position - 1, spec)
        return replace(self, slides=tuple(slides))

    def spec(self) -> dict[str, Any]:
        return {"slides": [dict(s) for s in self.slides], "author": self.author}

    @property
    def content_titles(self) -> list[str]:
        """Titles of every slide but the cover."""
        return self.titles[1:]


def deck_from(content: Mapping[str, Any], plan: Mapping[str, Any]) -> Deck:
    """Cover + one Title, Content slide per content slide; notes only where the plan says so."""
    cover = {"layout": "title_slide", "title": content["title"], "subtitle": content["subtitle"]}
    slides = [{"layout": "title_content", "title": s["title"], "bullets": list(s["bullets"]),
               "notes": s["notes"] if with_notes else ""}
              for s, with_notes in zip(content["slides"], plan["notes"], strict=True)]
    return Deck(f"{HOME}/{plan['folder']}/{content['file_stem']}.pptx", (cover, *slides), content["author"],
                int(plan.get("lookalikes", 0)))


def listed(items: list[str]) -> str:
    """'a' and 'b', or 'a'; 'b'; 'c' — for bullet texts that may contain commas."""
    parts = [f"'{i}'" for i in items]
    return " and ".join(parts) if len(parts) == 2 else "; ".join(parts)


# --- shared nodes -------------------------------------------------------------------------------------

#: Difficulty axes (issue 15), the first level being today's behaviour with the same random draws.
#: `deck_slides` (the size axis; `slides` is impress.notes' knob): content slides after the cover; up to 7 the
#: scenario's own (MAX_SLIDES), beyond that the deck is lengthened with generic slides (more_slides.py).
AXES: dict[str, tuple[Any, ...]] = {"deck_slides": (f"4-{MAX_SLIDES}", "8-12", "14-20"), "location": LOCATION,
                                    "lookalikes": LOOKALIKES}


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    n = rng.randint(*span(pick(values["params"], "deck_slides", AXES)))
    scenario = rng.choice(SCENARIOS)
    folder = deepen(rng.choice(FOLDERS), pick(values["params"], "location", AXES))
    plan = {"scenario": scenario, "n_slides": n, "folder": folder, "notes": [rng.random() < 0.4 for _ in range(n)]}
    if pick(values["params"], "lookalikes", AXES) != "0":  # only when moved: the default plan stays as it was
        plan["lookalikes"] = pick(values["params"], "lookalikes", AXES)
    return {"plan": plan}


def _offline_deck(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    plan = values["plan"]
    return generate_deck(rng, scenario=plan["scenario"], n_slides=plan["n_slides"])


_content = llm_node("content", kind="llm", inputs=("plan",), output="content", prompt="impress_content.txt",
                    schema=DECK_SCHEMA, offline=_offline_deck, check=check_deck, sketch=DECK_SKETCH)


def _long_content(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The content node; for a deck longer than a scenario allows (axis `slides`), the model (or the offline
    generator) writes MAX_SLIDES slides and generic ones are added (`more_slides.lengthen`)."""
    plan = values["plan"]
    if plan["n_slides"] <= MAX_SLIDES:
        return _content.fn(ctx, values)
    short = {**plan, "n_slides": MAX_SLIDES, "notes": plan["notes"][:MAX_SLIDES]}
    out = _content.fn(ctx, {**values, "plan": short})
    if not out or not isinstance(out.get("content"), dict):
        return out
    return {**out, "content": lengthen(ctx.rng("more_slides"), out["content"], plan["n_slides"])}


content = replace(_content, fn=_long_content)


def deck_outputs(deck: Deck, extra: tuple[Asset, ...] = ()) -> dict[str, Any]:
    """The prepare node's outputs: the pptx asset (opened in Impress) and any extra files."""
    data = pptx.build(deck.spec())
    copies = [Asset(path, data, app="impress") for path in look_alike_paths(deck.path, deck.lookalikes)]
    return {"assets": [Asset(deck.path, data, app="impress"), *copies, *extra],
            "launch": ["libreoffice", "--impress", deck.path]}


@node("prepare", "prepare", ("deck",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    return deck_outputs(values["deck"])


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every Impress family."""
    return (sample, content)


#: The Impress app kit: families built with `kit.family.family(NAME, IMPRESS, ...)`.
IMPRESS = AppKit(apps=(APP,), source=source_nodes, state="deck", prepare=prepare, instruction=instruction,
                 axes=AXES, frame=tree_frame_node, teacher=teacher_node)
