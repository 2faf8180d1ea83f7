"""writer.font: character formatting (font, size, bold, italic, underline) on the title, a body paragraph, or a
phrase inside one. The rest of the paragraph and the other body paragraphs must not take the formatting."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.font"
FONTS = ("Liberation Serif", "Liberation Sans", "DejaVu Sans", "Georgia", "Courier New", "Verdana",
         "Times New Roman", "Liberation Mono")
SIZES = {"title": (20, 22, 24, 28, 32), "body": (12, 14, 16, 18)}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {task}. Change nothing else, then save the document in place as .docx.",
    "In the document {path}, {task}. Keep the other text as it is and save the file in Word format under the same "
    "name.",
    "Please {task} in {path}. Only that text should change; save it as .docx when done.",
    "Using the formatting toolbar in Writer, {task} ({path}). Save your changes to the same .docx file.",
    "Edit {path}: {task}. Leave all other formatting alone and keep the .docx format when saving.",
)
NATURAL = (
    "In {path.file}, please {task}.",
    "Help me polish {path.file}: {task}, and leave the rest of the formatting alone.",
    "Could you {task} in my document {path.file}?",
    "I'd like one change in {path.file}: {task}.",
    "Please edit {path.file} and {task}. Nothing else should change.",
)
WRONG = {"bold": "italic", "italic": "bold", "underline": "bold"}


def _describe(prop: str, value: Any) -> tuple[str, str]:
    """(verb phrase template with {what}, short description) for one property value."""
    return {
        "font": (f'set the font of {{what}} to "{value}"', f"font {value}"),
        "size": (f"set the font size of {{what}} to {value} pt", f"size {value} pt"),
        "bold": ("make {what} bold", "bold"),
        "italic": ("make {what} italic", "italic"),
        "underline": ("underline {what} (single underline)", "underlined"),
    }[prop]


def _phrase(rng: random.Random, text: str) -> str:
    """2-4 consecutive words from the middle of `text`, without edge punctuation, occurring once."""
    words = text.split()
    for _ in range(50):
        n = rng.randint(2, 4)
        i = rng.randint(1, max(1, len(words) - n - 1))
        chunk = words[i:i + n]
        phrase = " ".join(chunk)
        if chunk and all(w.isalnum() for w in chunk) and text.count(phrase) == 1:
            return phrase
    return words[1].strip(",.:")


def _part(text: str) -> str:
    """What a sloppy selection catches: the first word, or half of a single word."""
    words = text.split()
    return words[0] if len(words) > 1 else text[:max(1, len(text) // 2)]


class Params(TypedDict):
    property: Literal["font", "size", "bold", "italic", "underline"]
    target: Literal["title", "paragraph", "phrase"]


@dataclass(frozen=True)
class Target:
    prop: str  # the `property` knob
    value: Any  # the font name, the size in pt, or True
    where: str  # the `target` knob: title | paragraph | phrase
    paragraph: str  # the title, or the locator of the body paragraph
    phrase: str | None  # the words inside the paragraph (phrase only)
    unchanged: list[str]  # locators of body paragraphs that must not take the formatting
    short: str  # the formatting in a few words ("size 14 pt")


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    prop, where = params["property"], params["target"]
    layout = wc.compose(rng, document, plan)
    body = wc.targets(layout, "body")
    value: Any = {"font": rng.choice(FONTS), "size": rng.choice(SIZES["title" if where == "title" else "body"]),
                  "bold": True, "italic": True, "underline": True}[prop]
    phrase = None
    if where == "title":
        title = layout.texts("title")[0]
        paragraph, what = title, f"the title {wc.quoted(title)}"
        unchanged = [loc for _, loc in body]
    else:
        para, paragraph = rng.choice(body)
        unchanged = [loc for p, loc in body if p is not para]
        what = f"the whole paragraph beginning {wc.quoted(paragraph)}"
        if where == "phrase":
            phrase = _phrase(rng, para.text)
            what = f"the words {wc.quoted(phrase)} in the paragraph beginning {wc.quoted(paragraph)}"
    verb, short = _describe(prop, value)
    facts = {"path": layout.path, "task": verb.format(what=what)}
    return Goal(layout, facts, Target(prop, value, where, paragraph, phrase, unchanged, short))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path, "paragraph": target.paragraph, target.prop: target.value,
                            "unchanged": target.unchanged}
    if target.phrase:
        args["phrase"] = target.phrase
    what = wc.quoted(target.phrase) if target.phrase else f"the paragraph {wc.quoted(target.paragraph)}"
    return [Check(id="format", criterion=f"In {layout.path}, {what} is {target.short}, and no other body text is.",
                  primitive="docx.char_format", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    prop, value = target.prop, target.value
    base = {"op": "docx.format_chars", "path": layout.path, "paragraph_start": target.paragraph}
    right = {**base, prop: value, **({"phrase": target.phrase} if target.phrase else {})}
    if prop == "font":
        wrong = {**right, "font": next(f for f in FONTS if f != value)}
    elif prop == "size":
        wrong = {**right, "size": value - 2}
    else:
        wrong = {k: v for k, v in right.items() if k != prop} | {WRONG[prop]: True}
    if target.phrase is not None:
        spread = Attempt("formats the whole paragraph instead of the words", [{**base, prop: value}])
        partial = Attempt("selects only part of the phrase", [{**right, "phrase": _part(target.phrase)}])
    elif target.where == "paragraph":
        spread = Attempt("formats a different paragraph",
                         [{**base, prop: value, "paragraph_start": target.unchanged[0]}])
        text = next(p.text for p in layout.paragraphs if wc.norm(p.text).startswith(target.paragraph))
        partial = Attempt("formats only the first sentence", [{**right, "phrase": text.split(". ")[0]}])
    else:
        spread = Attempt("formats the first body paragraph instead of the title",
                         [{**base, prop: value, "paragraph_start": target.unchanged[0]}])
        partial = Attempt("selects only part of the title", [{**right, "phrase": _part(target.paragraph)}])
    return Attempts(Attempt(f"{target.short} on the stated text", [right]),
                    [spread, partial, Attempt("applies the wrong value or property", [wrong])])


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Set font, size, bold, italic or underline on the title, a paragraph or a phrase in a paragraph.",
    knobs={"property": ("font", "size", "bold", "italic", "underline"), "target": ("title", "paragraph", "phrase")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
