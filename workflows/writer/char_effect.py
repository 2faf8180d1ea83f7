"""writer.char_effect: strike through, highlight or colour a stated phrase of a body paragraph, or the whole
paragraph, as a reviewer marks up a draft.

The check reads the effect on every character of the target and refuses it on the rest of that paragraph; the
frame refuses it anywhere else (it reads strike, colour, highlight and shading of every run). Colours are judged
by name (LibreOffice's "Red" is C9211E, Word's FF0000: both are red), highlighting saved as character shading
counts as highlighting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.docx_text import SMALL_WORDS
from workflows.writer import kit as wc

NAME = "writer.char_effect"
#: colour name -> (Word highlight name, font colour as LibreOffice's palette writes it)
COLOURS = {"yellow": ("yellow", "FFFF00"), "green": ("brightGreen", "00A933"), "red": ("red", "C9211E"),
           "blue": ("blue", "2A6099")}
CHOICES = {"strike": (None,), "highlight": ("yellow", "green"), "color": ("red", "blue", "green")}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {task}. Change nothing else, then save the document in place as .docx.",
    "In the document {path}, {task}. Keep all other text and formatting as it is and save the file in Word format "
    "under the same name.",
    "Please {task} in {path}. Only that text should change; save it as .docx when done.",
    "Using Format > Character in Writer, {task} ({path}). Save your changes to the same .docx file.",
    "Edit {path}: {task}. Leave all other formatting alone and keep the .docx format when saving.",
)
NATURAL = (
    "In {path.file}, please {task}.",
    "I'm marking up {path.file}: {task}, and leave the rest of the formatting alone.",
    "Could you {task} in my document {path.file}?",
    "One change in {path.file}, please: {task}.",
    "Please edit {path.file} and {task}. Nothing else should change.",
)
COLOUR_WORDS = ("red", "yellow", "green", "blue")


def _phrase(rng: random.Random, text: str) -> str | None:
    """2-4 consecutive plain words from the middle of `text` that occur once, name no colour and neither start nor
    end with a short word ("the", "of"): what a person would mark."""
    words = text.split()
    for _ in range(50):
        n = rng.randint(2, 4)
        i = rng.randint(1, max(1, len(words) - n - 1))
        chunk = words[i:i + n]
        phrase = " ".join(chunk)
        if (len(chunk) == n and all(w.isalnum() for w in chunk) and text.count(phrase) == 1
                and chunk[0].lower() not in SMALL_WORDS and chunk[-1].lower() not in SMALL_WORDS
                and not any(w.lower() in COLOUR_WORDS for w in chunk)):
            return phrase
    return None


class Params(TypedDict):
    effect: Literal["strike", "highlight", "color"]
    target: Literal["phrase", "paragraph"]


@dataclass(frozen=True)
class Target:
    effect: str
    colour: str | None  # highlight and color: the colour's name
    paragraph: str  # the locator of the body paragraph
    phrase: str | None  # the words inside it (phrase only)
    other: str  # the locator of another body paragraph
    first_part: str  # what a selection that stops short catches


def _task(effect: str, colour: str | None, what: str) -> str:
    if effect == "strike":
        return f"strike through {what} (strikethrough: a line through the text; do not delete it)"
    if effect == "highlight":
        return f"highlight {what} in {colour} (text highlighting, not the font colour)"
    return f"change the font colour of {what} to {colour} (the letters themselves, not a highlight)"


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    effect, where = params["effect"], params["target"]
    layout = wc.compose(rng, document, plan)
    body = wc.targets(layout, "body")
    colour = rng.choice(CHOICES[effect])
    phrase = None
    for _ in range(20):  # a paragraph with a usable phrase (phrase), and a locator that names no colour
        para, paragraph = rng.choice(body)
        phrase = _phrase(rng, para.text) if where == "phrase" else None
        if (where == "paragraph" or phrase) and not any(w in paragraph.lower().split() for w in COLOUR_WORDS):
            break
    other = next(loc for p, loc in body if p is not para)
    if phrase is not None:
        what = f"the words {wc.quoted(phrase)} in the paragraph beginning {wc.quoted(paragraph)}"
        first_part = phrase.split()[0]
    else:
        what = f"the whole paragraph beginning {wc.quoted(paragraph)}"
        first = para.text.split(". ")[0]
        first_part = first if first != para.text else " ".join(para.text.split()[:len(para.text.split()) // 2])
    facts = {"path": layout.path, "task": _task(effect, colour, what)}
    return Goal(layout, facts, Target(effect, colour, paragraph, phrase, other, first_part))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path, "paragraph": target.paragraph, "effect": target.effect}
    if target.phrase:
        args["phrase"] = target.phrase
    if target.colour:
        args["color"] = target.colour
    what = wc.quoted(target.phrase) if target.phrase else f"the paragraph {wc.quoted(target.paragraph)}"
    how = "struck through" if target.effect == "strike" else (
        f"highlighted in {target.colour}" if target.effect == "highlight" else f"in {target.colour} letters")
    return [Check(id="effect", criterion=f"In {layout.path}, {what} is {how}, and no other text of that paragraph "
                                         "is.", primitive="docx.char_effect", args=args)]


def _value(effect: str, colour: str | None) -> dict[str, Any]:
    if effect == "strike":
        return {"strike": True}
    assert colour is not None
    highlight, rgb = COLOURS[colour]
    return {"highlight": highlight} if effect == "highlight" else {"color": rgb}


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.char_effect", "path": layout.path, "paragraph_start": target.paragraph}
    value = _value(target.effect, target.colour)
    right = {**base, **value, **({"phrase": target.phrase} if target.phrase else {})}
    if target.phrase is not None:
        spread = Attempt("applies it to the whole paragraph instead of the words", [{**base, **value}])
        partial = Attempt("selects only the first word of the phrase", [{**right, "phrase": target.first_part}])
    else:
        spread = Attempt("applies it to another paragraph", [{**base, **value, "paragraph_start": target.other}])
        partial = Attempt("selects only the first sentence", [{**right, "phrase": target.first_part}])
    where = {"phrase": target.phrase} if target.phrase else {}
    near = [spread, partial]
    if target.effect == "strike":
        near.append(Attempt("underlines the text instead of striking it through",
                            [{**base, **where, "underline": True}]))
    else:
        swapped = "color" if target.effect == "highlight" else "highlight"
        near.append(Attempt(f"uses {'the font colour' if swapped == 'color' else 'highlighting'} instead",
                            [{**base, **where, **_value(swapped, target.colour)}]))
        wrong = next(c for c in CHOICES[target.effect] + ("blue",) if c != target.colour)
        near.append(Attempt(f"picks {wrong} instead of {target.colour}",
                            [{**base, **where, **_value(target.effect, wrong)}]))
    return Attempts(Attempt("the asked effect on the stated text", [right]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Strike through, highlight or colour a stated phrase or paragraph of a Writer document, changing "
                "nothing else.",
    knobs={"effect": ("strike", "highlight", "color"), "target": ("phrase", "paragraph")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
