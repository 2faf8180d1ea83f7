"""multi.doc_slides: turn a Writer document's Heading 1 headings (or its bulleted list items) into slide titles of
an Impress deck, in document order, with a stated layout, placed before the closing slide or at the end, and
optionally the paragraph under each heading as speaker notes (Writer -> Impress).

The titles come from the document, not the instruction; the deck starts with a cover and a closing slide.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, LOOKALIKES, deepen, pick
from kit.dag import NodeContext, Workflow, node
from kit.family import Goal, goal_node, rubric_node
from kit.model import HOME, Check, Solution
from workflows.impress import kit as ic
from workflows.multi import kit as mc
from workflows.writer import kit as wc

NAME = "multi.doc_slides"
CLOSINGS = ("Questions and Discussion", "Open Discussion", "Thank You", "Questions")
SOURCES = {"headings": "each Heading 1 heading of {doc} (not the document title)",
           "items": "each bulleted list item of {doc}"}
PLACES = {"before_closing": "between the cover slide and the closing slide '{closing}', which stays last",
          "end": "after the closing slide '{closing}', at the very end of the deck"}
NOTES = {"headings": " Put the first paragraph under each heading, word for word, into that slide's speaker notes.",
         "items": " Put the two sub-points under each item, word for word, into that slide's speaker notes."}
#: Difficulty axes (issue 15): how deep the document and the deck sit (the Writer kit places the document), and
#: older copies of the document beside it.
AXES = {"location": LOCATION, "lookalikes": LOOKALIKES}
PHRASINGS = (
    "Build slides in {deck} from the document {doc}: for {source}, add a new slide titled with that text, in "
    "document order, {place}. Use the '{layout}' layout for the new slides.{notes} Save the presentation in place "
    "as pptx.",
    "The deck {deck} needs a slide for {source}. Add them in the order they appear in the document, {place}; each "
    "new slide uses the layout '{layout}' and has the text as its title.{notes} Keep the pptx format when saving.",
    "Open {doc} in Writer and {deck} in Impress. For {source}, create a '{layout}' slide whose title is that text, "
    "keeping the document's order, and place the new slides {place}.{notes} Save the presentation.",
    "Please turn the outline of {doc} into slides: {source} becomes the title of a new slide in {deck} (layout "
    "'{layout}'), in the same order as in the document, placed {place}.{notes} Save it in place as pptx.",
    "Using LibreOffice, copy {source} into {deck} as slide titles, one new '{layout}' slide each, in document "
    "order and {place}.{notes} Save the deck, keeping it a pptx file.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Add a '{layout}' slide to {deck} for {source.bare}, titled with that text, {place}.{notes}",
    "Turn {source.bare} into slide titles in {deck}: one new '{layout}' slide each, in order, {place}.{notes}",
    "Could you give {deck} a new '{layout}' slide for {source.bare}, in the document's order, {place}?{notes}",
    "Please extend {deck} with '{layout}' slides titled after {source.bare}, in order, {place}.{notes}",
    "My deck {deck} should cover {source.bare}: one new '{layout}' slide each, titled with it, {place}.{notes}",
)


class Params(TypedDict):
    source: Literal["headings", "items"]
    layout: Literal["title_only", "title_content"]
    place: Literal["before_closing", "end"]
    notes: Literal["none", "text_below"]


@dataclass(frozen=True)
class Target:
    deck: str
    texts: list[str]  # the headings or items, in document order: the new slides' titles
    cover: str  # the cover slide's title
    closing: str  # the closing slide's title
    notes: dict[str, str]  # title -> the text its speaker notes must hold
    title: str  # the document's title (not a heading)


def _document(rng: Any, content: Mapping[str, Any], plan: Mapping[str, Any]) -> wc.Layout:
    """The document with its list material as "List Bullet" items, each with its two details as "List Bullet 2"
    sub-items (Title and Heading 1 styled)."""
    layout = wc.compose(rng, content["document"], plan["document"], items=True)
    details = {item["text"]: item["details"] for item in content["document"]["items"]}
    blocks: list[wc.Para | wc.Grid] = []
    for b in layout.blocks:
        if isinstance(b, wc.Para) and b.role == "item":
            blocks.append(replace(b, style="List Bullet"))
            blocks += [wc.Para(d, "subitem", "List Bullet 2") for d in details[b.text]]
        else:
            blocks.append(b)
    return layout.with_blocks(blocks)


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    doc = _document(rng, content, plan)
    document = content["document"]
    texts = doc.texts("heading") if params["source"] == "headings" else doc.texts("item")
    closing = rng.choice([c for c in CLOSINGS if c not in texts])
    cover = {"layout": "title_slide", "title": document["title"],
             "subtitle": f"{document['author']}, {document['org']}"}
    folder = deepen(rng.choice(ic.FOLDERS), pick(params, "location", AXES))
    deck = ic.Deck(f"{HOME}/{folder}/{document['file_stem']}_slides.pptx",
                   (cover, {"layout": "title_only", "title": closing}), document["author"])
    paragraphs = doc.paragraphs
    notes = {}
    for i, para in enumerate(paragraphs):
        if para.role == "heading":
            notes[para.text] = next(p.text for p in paragraphs[i + 1:] if p.role == "body")
        elif para.role == "item":
            notes[para.text] = " ".join(p.text for p in paragraphs[i + 1:i + 3])
    layout = params["layout"]
    facts = {"deck": deck.path, "doc": doc.path, "source": SOURCES[params["source"]].format(doc=doc.path),
             "place": PLACES[params["place"]].format(closing=closing), "layout": ic.LAYOUT_NAMES[layout],
             "notes": NOTES[params["source"]] if params["notes"] == "text_below" else ""}
    target = Target(deck.path, texts, cover["title"], closing, {k: notes[k] for k in texts}, document["title"])
    return Goal(mc.Setup((("writer", doc), ("impress", deck))), facts, target)


def _titles(t: Target, texts: list[str], place: str) -> list[str]:
    return [t.cover, *texts, t.closing] if place == "before_closing" else [t.cover, t.closing, *texts]


def rubric(params: Params, target: Target) -> list[Check]:
    t, p = target, params
    checks = [Check("titles", f"The slides of {t.deck} are titled, in order: {_titles(t, t.texts, p['place'])}.",
                    "pptx.slide_titles", {"path": t.deck, "titles": _titles(t, t.texts, p["place"])}),
              Check("layout", f"Every new slide has the {p['layout']} layout.", "multi.slide_layouts",
                    {"path": t.deck, "titles": t.texts, "layout": p["layout"]})]
    if p["notes"] == "text_below":
        checks.append(Check("notes", "Each new slide's speaker notes hold the text under its heading or item.",
                            "multi.slide_notes", {"path": t.deck, "notes": t.notes}))
    return checks


# Hand-built rather than a kit `solve`: for list items with notes the near-misses are numbered 1, 2, 3, 5 (the
# title slip, number 4, only exists for headings), and the kit numbers without gaps; renumbering would change
# the packages of those skills.
@node("solve", "solve", ("params", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    p: Params = values["params"]
    t: Target = values["target"]
    layout, place, with_notes = p["layout"], p["place"], p["notes"] == "text_below"

    def build(texts: list[str], *, kind: str = layout, where: str = place, notes: bool = with_notes
              ) -> list[dict[str, Any]]:
        start = 2 if where == "before_closing" else 3
        steps = [mc.op("pptx.add_slide", t.deck, layout=kind, title=text, position=start + i)
                 for i, text in enumerate(texts)]
        if notes:
            steps += [mc.op("pptx.set_notes", t.deck, title=text, text=t.notes[text]) for text in texts]
        return steps

    other = "title_content" if layout == "title_only" else "title_only"
    texts = t.texts
    solutions = [
        Solution("oracle", "one slide per text, in order, in the asked place and layout", build(texts)),
        Solution("near-miss-1", "misses the last one", build(texts[:-1])),
        Solution("near-miss-2", f"uses the {other} layout", build(texts, kind=other)),
        Solution("near-miss-3", "puts the new slides on the wrong side of the closing slide",
                 build(texts, where="end" if place == "before_closing" else "before_closing")),
    ]
    if p["source"] == "headings":
        solutions.append(Solution("near-miss-4", "also makes a slide for the document title",
                                  build([t.title, *texts], notes=False) + (
                                      build(texts, notes=True)[len(texts):] if with_notes else [])))
    if with_notes:
        solutions.append(Solution("near-miss-5", "adds the slides but no speaker notes", build(texts, notes=False)))
    return {"solutions": solutions}


KIT = mc.app_kit((mc.WRITER, mc.IMPRESS), document=mc.passing(*AXES))
WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=KIT.apps,
    description="Make a Writer document's headings or list items the titles of new Impress slides, in order, "
                "with a stated layout and place, optionally with the paragraph under each heading as notes.",
    knobs={"source": ("headings", "items"), "layout": ("title_only", "title_content"),
           "place": ("before_closing", "end"), "notes": ("none", "text_below")},
    axes=AXES,
    nodes=(*KIT.source(), goal_node(goal, KIT.state), mc.prepare, KIT.instruction(NAME, PHRASINGS, NATURAL),
           rubric_node(rubric), solve, *((KIT.frame(()),) if KIT.frame else ()),
           *((KIT.teacher("", None),) if KIT.teacher else ())),
)
