"""impress.add_slide: insert a new slide with a stated title and layout at a stated position, with its text."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.add_slide"
SUBTITLES = ("Discussion and open questions", "Deep dive for the leadership team", "For decision today",
             "Status and next steps", "Background and context", "Questions welcome")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and insert a new slide with the {layout_name} layout {where}. Give it "
    "the title '{title}'. {body} " + ic.SAVE,
    "In the presentation {path}, add a slide titled '{title}' {where}; use the {layout_name} layout for it. "
    "{body} Leave the other slides as they are. " + ic.SAVE,
    "Please add one more slide to {path}: layout {layout_name}, title '{title}', placed {where}. {body} "
    "Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}. A slide titled '{title}' is missing: insert it {where}, choosing "
    "the {layout_name} layout from the Layouts panel. {body} " + ic.SAVE,
    "The deck {path} needs a new slide '{title}' ({layout_name} layout) {where}. {body} Do not change any "
    "other slide, and save the presentation in place in pptx format.",
)
NATURAL = (
    "In {path.file}, add {layout_name.a} slide '{title}' {where}. {body}",
    "Add a new '{title}' slide to {path.file} {where}, {layout_name} layout. {body}",
    "Please insert a slide '{title}' in {path.file} {where}, using {layout_name}. {body}",
    "I need {title.a_quoted} slide in {path.file}, {where}, with the {layout_name} layout. {body}",
    "Could you add {layout_name.a} slide called '{title}' to {path.file} {where}? {body}",
)


class Params(TypedDict):
    layout: Literal["title_content", "title_only", "title_slide", "two_content"]
    position: Literal["second", "middle", "last"]


@dataclass(frozen=True)
class Target:
    new: dict[str, Any]  # the new slide as `pptx.add_slide` takes it: layout, title and its text fields
    position: int  # the new slide's 1-based place
    expected: list[str]  # every slide title, in order, once it is inserted

    @property
    def title(self) -> str:
        return str(self.new["title"])


def _where(deck: ic.Deck, position: int) -> str:
    prev = deck.titles[position - 2]
    if position == 2:
        return f"right after the cover slide '{prev}', so that it becomes slide 2"
    if position == len(deck.slides) + 1:
        return f"at the very end of the presentation, after '{prev}', so that it becomes slide {position}"
    return f"directly after the slide '{prev}', so that it becomes slide {position}"


def _content(rng: random.Random, layout: str, spare: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The new slide's text fields and how the instruction asks for them."""
    bullets = list(spare["bullets"])
    if layout == "title_content":
        chosen = bullets[:3]
        return {"bullets": chosen}, f"In its content box, type these bullet points in this order: {ic.listed(chosen)}."
    if layout == "two_content":
        left, right = bullets[:2], bullets[2:4]
        return {"columns": [left, right]}, (f"Type the bullets {ic.listed(left)} in the left content box and "
                                            f"{ic.listed(right)} in the right content box.")
    if layout == "title_slide":
        text = rng.choice(SUBTITLES)
        return {"subtitle": text}, f"Type '{text}' as its subtitle."
    return {}, "It needs no other text, only the title."


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    n = len(deck.slides)
    # the dict draws the middle position whatever the knob: the rng's later draws depend on it
    position = {"second": 2, "middle": rng.randint(3, n), "last": n + 1}[params["position"]]
    spare = content["spare"][0]
    fields, body = _content(rng, params["layout"], spare)
    new = {"layout": params["layout"], "title": spare["title"], **fields}
    expected = deck.inserted(position, new).titles
    facts = {"path": deck.path, "title": new["title"], "layout_name": f"\"{ic.LAYOUT_NAMES[params['layout']]}\"",
             "where": _where(deck, position), "body": body}
    return Goal(deck, facts, Target(new, position, expected))


def rubric(params: Params, deck: ic.Deck, target: Target) -> list[Check]:
    new, title = target.new, target.title
    base = {"path": deck.path}
    checks = [
        Check("order", f"The slides of {deck.path} are, in order: {target.expected}.", "pptx.slide_titles",
              {**base, "titles": target.expected}),
        Check("position", f"The slide '{title}' is slide {target.position}.", "pptx.slide_position",
              {**base, "title": title, "position": target.position}),
        Check("layout", f"The slide '{title}' uses the {ic.LAYOUT_NAMES[new['layout']]} layout.",
              "pptx.slide_layout", {**base, "title": title, "layout": new["layout"]}),
    ]
    if "bullets" in new:
        checks.append(Check("bullets", f"The content box of '{title}' holds the bullets {new['bullets']}.",
                            "pptx.body_text", {**base, "slide": title, "paragraphs": new["bullets"],
                                               "named": new["bullets"]}))
    for i, column in enumerate(new.get("columns", [])):
        checks.append(Check(f"column-{i + 1}", f"Content box {i + 1} of '{title}' holds the bullets {column}.",
                            "pptx.body_text", {**base, "slide": title, "paragraphs": column, "named": column,
                                               "column": i}))
    if "subtitle" in new:
        checks.append(Check("subtitle", f"The subtitle of '{title}' reads '{new['subtitle']}'.", "pptx.subtitle",
                            {**base, "slide": title, "text": new["subtitle"]}))
    if new["layout"] == "title_only":  # the instruction asks for the title and no other text
        checks.append(Check("only_title", f"The slide '{title}' shows its title and no other text.",
                            "pptx.slides_kept", {**base, "slides": [[title, [title]]]}))
    return checks


def _wrong_layout(new: dict[str, Any]) -> tuple[dict[str, Any], str]:
    layout = new["layout"]
    if layout == "title_content":
        return {"layout": "two_content", "columns": [new["bullets"], []]}, "uses the two-column layout"
    if layout == "two_content":
        return {"layout": "title_content", "bullets": new["columns"][0] + new["columns"][1]}, (
            "puts all bullets in one content box (Title, Content layout)")
    if layout == "title_slide":
        return {"layout": "title_content", "bullets": [new["subtitle"]]}, (
            "uses Title, Content with the subtitle as a bullet")
    return {"layout": "title_content"}, "uses Title, Content and leaves the content box empty"


def _partial(new: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if "bullets" in new:
        return {"bullets": new["bullets"][:-1]}, "forgets the last bullet"
    if "columns" in new:
        return {"columns": [new["columns"][0], []]}, "leaves the right content box empty"
    if "subtitle" in new:
        return {"subtitle": ""}, "leaves the subtitle empty"
    return {"title": new["title"].lower()}, "types the title in lower case"


def solve(deck: ic.Deck, target: Target) -> Attempts:
    new, position = target.new, target.position
    oracle = {"op": "pptx.add_slide", "path": deck.path, "position": position, **new}
    late = position + 1 if position <= len(deck.slides) else position - 1
    layout, layout_why = _wrong_layout(new)
    partial, partial_why = _partial(new)
    return Attempts(
        Attempt(f"add '{target.title}' as slide {position}", [oracle]),
        [Attempt(f"inserts the slide at position {late} instead of {position}", [{**oracle, "position": late}]),
         Attempt(layout_why, [{"op": "pptx.add_slide", "path": deck.path, "position": position,
                               "title": new["title"], **layout}]),
         Attempt(partial_why, [{**oracle, **partial}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Insert a slide with a stated title, layout and text at a stated position in a presentation.",
    knobs={"layout": ("title_content", "title_only", "title_slide", "two_content"),
           "position": ("second", "middle", "last")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
