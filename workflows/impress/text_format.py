"""impress.text_format: format one stated text (a slide title or one bullet; or two stated bullets) bold, italic,
underlined, struck through, at a size or in a color — that text only, not the rest of the slide."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.text_format"
#: Sizes no LibreOffice default uses (titles 44 pt, bullets 32/28/24/20 pt), so a re-saved file never matches by chance.
SIZES = {"title": (36, 40, 48, 54), "bullet": (18, 22, 26, 36, 40)}
COLORS = {"C00000": "dark red", "0070C0": "blue", "00B050": "green", "7030A0": "purple", "ED7D31": "orange"}
FORMATS = ("bold", "italic", "underline", "size", "color", "bold_italic", "strike")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and, on the slide '{slide}', {task}. Only that text changes; the rest "
    "of the slide keeps its formatting. " + ic.SAVE,
    "In the presentation {path}, go to the slide '{slide}' and {task}. Do not format any other text on the "
    "slide. " + ic.SAVE,
    "Please edit the slide '{slide}' of {path}: {task}. Leave all other text as it is. Then save the file in "
    "place as pptx.",
    "Using LibreOffice Impress, open {path}, select the text on the slide '{slide}' and {task} (Format > "
    "Character). Nothing else should change. " + ic.SAVE,
    "On the slide '{slide}' of {path}, {task}, and only that. Then save the presentation in place, keeping "
    "the pptx format.",
)
NATURAL = (
    "On the '{slide}' slide of {path.file}, {task}.",
    "Help me emphasize something in my presentation {path.file}: on '{slide}', {task}.",
    "Could you {task} on the '{slide}' slide of {path.file}?",
    "I'd like one formatting change in {path.file}: on the '{slide}' slide, {task}.",
    "Please go to the '{slide}' slide in {path.file} and {task}.",
)

Part = Literal["title", "bullet", "two_bullets"]


class Params(TypedDict):
    format: Literal["bold", "italic", "underline", "size", "color", "bold_italic", "strike"]
    target: Part


@dataclass(frozen=True)
class Target:
    slide: str  # title of the slide
    text: str  # the text to format: the slide title or one bullet
    style: dict[str, Any]  # the format, as `pptx.format_text` and `pptx.text_format` take it
    part: Part  # which text of the slide `text` is
    bullets: list[str]  # the slide's bullets
    index: int  # the drawn bullet's index (drawn for a title too)
    also: str | None = None  # two_bullets: the second bullet to format, the one after `text` (or before the last)


def _style(fmt: str, target: str, rng: random.Random) -> tuple[dict[str, Any], str]:
    """The format args and the task wording, with `{what}` standing for the text to format."""
    if fmt == "bold":
        return {"bold": True}, "make {what} bold"
    if fmt == "italic":
        return {"italic": True}, "make {what} italic"
    if fmt == "underline":
        return {"underline": True}, "underline {what} (single underline)"
    if fmt == "strike":
        return {"strike": True}, "strike through {what} (strikethrough: a line through the text; do not delete it)"
    if fmt == "bold_italic":
        return {"bold": True, "italic": True}, "make {what} both bold and italic"
    if fmt == "size":
        size = rng.choice(SIZES[target])
        return {"size": size}, f"set the font size of {{what}} to {size} pt"
    color = rng.choice(sorted(COLORS))
    return {"color": color}, f"change the font color of {{what}} to {COLORS[color]} (hex {color})"


def _wrong_style(style: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if "size" in style:
        return {"size": style["size"] + 4}, f"uses {style['size'] + 4} pt instead of {style['size']} pt"
    if "color" in style:
        other = next(c for c in sorted(COLORS) if c != style["color"])
        return {"color": other}, f"picks the color {other} instead of {style['color']}"
    if style == {"bold": True, "italic": True}:
        return {"bold": True}, "makes it bold but not italic"
    swap = {"bold": "italic", "italic": "underline", "underline": "bold", "strike": "underline"}[next(iter(style))]
    return {swap: True}, f"applies {swap} instead"


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    fmt, part = params["format"], params["target"]
    deck = ic.deck_from(content, plan)
    if part == "two_bullets":  # a slide with a bullet left alone, so "the whole box" stays a near-miss
        slide = rng.choice([t for t in deck.content_titles if len(deck.slide(t)["bullets"]) >= 3])
    else:
        slide = rng.choice(deck.content_titles)
    bullets = deck.slide(slide)["bullets"]
    index = rng.randrange(len(bullets))
    text = slide if part == "title" else bullets[index]
    also = None
    if part == "two_bullets":
        index = min(index, len(bullets) - 2)
        text, also = bullets[index], bullets[index + 1]
    style, how = _style(fmt, "bullet" if part == "two_bullets" else part, rng)
    what = ("the slide title" if part == "title" else f"the bullet point '{text}'" if also is None
            else f"the two bullet points '{text}' and '{also}'")
    facts = {"path": deck.path, "slide": slide, "task": how.format(what=what)}
    return Goal(deck, facts, Target(slide, text, style, part, bullets, index, also))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    also = {} if target.also is None else {"also": target.also}
    both = f"'{target.text}'" + ("" if target.also is None else f" and '{target.also}'")
    checks = [Check(
        "formatted", f"On '{target.slide}', {both} (all of it) has {target.style} and no other text there does.",
        "pptx.text_format", {"path": deck.path, "slide": target.slide, "text": target.text, **target.style, **also})]
    # formatting changes no text: every slide, the target too, keeps its text and its place
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base = {"op": "pptx.format_text", "path": deck.path, "title": target.slide}
    oracle = {**base, "text": target.text, **target.style}
    bullets, index = target.bullets, target.index
    if target.part == "title":
        wrong_text, wrong_why = bullets[0], "formats the first bullet instead of the title"
        everything = [oracle, {**base, "text": bullets[0], "whole_shape": True, **target.style}]
        all_why = "formats the title and every bullet on the slide"
    else:
        other = index + 1 if index + 1 < len(bullets) else index - 1
        wrong_text, wrong_why = bullets[other], f"formats the neighbouring bullet '{bullets[other]}'"
        everything = [{**oracle, "whole_shape": True}]
        all_why = "formats the whole content box instead of one bullet"
    style, style_why = _wrong_style(target.style)
    if target.also is not None:  # two bullets: one of them left alone, the whole box, or the wrong format
        second = {**oracle, "text": target.also}
        return Attempts(
            Attempt(f"format '{target.text}' and '{target.also}' with {target.style}", [oracle, second]),
            [Attempt(f"formats '{target.text}' but leaves '{target.also}' alone", [oracle]),
             Attempt(f"formats '{target.also}' but leaves '{target.text}' alone", [second]),
             Attempt(all_why, everything),
             Attempt(style_why, [{**base, "text": target.text, **style}, {**base, "text": target.also, **style}])],
        )
    return Attempts(
        Attempt(f"format '{target.text}' with {target.style}", [oracle]),
        [Attempt(wrong_why, [{**base, "text": wrong_text, **target.style}]),
         Attempt(all_why, everything),
         Attempt(style_why, [{**base, "text": target.text, **style}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Format a slide title or one bullet bold, italic, underlined, struck through, at a font size or in a "
                "color.",
    knobs={"format": FORMATS, "target": ("title", "bullet", "two_bullets")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
