"""writer.header_footer: add a header or footer holding stated text or an automatic page number, aligned left,
center or right. A typed "1" is not a page number: the check wants a PAGE field."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.header_footer"
ALIGN_WORDS = {"left": "left-aligned", "center": "centered", "right": "right-aligned"}
LABELS = ("Confidential", "Internal use only", "Draft for discussion", "For review", "Final version")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and add a {part} to the pages that contains {content}, {align_word} "
    "(align {align}). Save the document in place as .docx.",
    "The document {path} needs a {part}: {content}, aligned {align}. Please add it in Writer (Insert > Header and "
    "Footer) and save the file in Word format under the same name.",
    "Please give {path} a {part} showing {content}. The {part} text should be {align_word} (align {align}). Keep "
    "the .docx format when saving.",
    "In Writer, switch on the {part} for {path} and put {content} in it, aligned {align}. Save your changes to the "
    "same .docx file.",
    "Add {content} to the {part} of {path}, {align_word} (align {align}), then save it as .docx in place.",
)
NATURAL = (
    "Add {content.bare} to the {part} of {path.file}, {align_word}.",
    "Help me put {content.bare} in the {part} of my document {path.file}, {align_word}.",
    "Could you give {path.file} {part.a} with {content.bare}, {align_word}?",
    "I need {align_word.a} {part} in {path.file} that shows {content.bare}.",
    "Please add {part.a} to {path.file} containing {content.bare}, {align_word} on the page.",
)


class Params(TypedDict):
    part: Literal["header", "footer"]
    content: Literal["text", "page_number"]
    align: Literal["left", "center", "right"]


@dataclass(frozen=True)
class Target:
    part: str  # header | footer
    text: str | None  # the stated text; None for a page number field
    page_number: bool
    align: str


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    part, content, align = params["part"], params["content"], params["align"]
    layout = wc.compose(rng, document, plan)
    text = None
    if content == "text":
        text = rng.choice((f"{document['org']} | {rng.choice(LABELS)}", f"{document['title']} | {document['org']}",
                           f"{rng.choice(LABELS)} | {document['org']}"))
        shown = f'the text "{text}" (typed exactly like that)'
    else:
        shown = "an automatic page number (a page number field that changes from page to page, not a typed number)"
    facts = {"path": layout.path, "part": part, "content": shown, "align": align, "align_word": ALIGN_WORDS[align]}
    return Goal(layout, facts, Target(part, text, content == "page_number", align))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path, "part": target.part, "page_number": target.page_number,
                            "align": target.align}
    what = "a page number field"
    if target.text:
        args["text"] = target.text
        what = f'"{target.text}"'
    return [Check(id=target.part, criterion=f"The {target.part} of {layout.path} holds {what}, aligned {target.align}.",
                  primitive="docx.header_footer", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    other_part = "footer" if target.part == "header" else "header"
    other_align = "center" if target.align != "center" else "right"
    right = {"op": "docx.set_header_footer", "path": layout.path, "part": target.part, "align": target.align,
             **({"text": target.text} if target.text else {"page_number": True})}
    if target.text:
        third = Attempt("types only part of the text", [{**right, "text": target.text.split(" | ")[0]}])
    else:
        third = Attempt("types the number 1 instead of inserting a page number field",
                        [{**right, "literal_number": True}])
    return Attempts(
        Attempt(f"{target.part} as stated", [right]),
        [Attempt(f"puts it in the {other_part} instead", [{**right, "part": other_part}]),
         Attempt(f"aligns it {other_align}", [{**right, "align": other_align}]),
         third],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Add a header or footer with stated text or an automatic page number, aligned left/center/right.",
    knobs={"part": ("header", "footer"), "content": ("text", "page_number"), "align": ("left", "center", "right")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
