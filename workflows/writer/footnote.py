"""writer.footnote: add a footnote (Insert > Footnote) with a stated text right after stated words of a body
paragraph, e.g. the source of a claim at the end of its sentence.

The check reads the footnotes part (exactly one footnote, the writer's separators aside, with that text) and where
its reference mark stands in the body: right after the words. The mark adds no text, so the frame keeps the body.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.docx_sentences import sentences
from workflows.writer import kit as wc

NAME = "writer.footnote"
NOTES = ("Source: internal finance report, March edition.", "Figures as reported by the regional offices.",
         "Based on the staff survey carried out last autumn.", "See the minutes of the last board meeting.",
         "Estimate provided by the facilities team.", "Subject to approval by the management committee.",
         "Data taken from the annual activity report.", "Confirmed by the project sponsor in writing.")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and insert a footnote (Insert > Footnote) right after the words {phrase} "
    "in the paragraph beginning {paragraph}. The footnote should read {note}. Do not change the text, and save the "
    "document in place as .docx.",
    "In the document {path}, add a footnote with the text {note} at the end of the sentence ending {phrase} (in "
    "the paragraph beginning {paragraph}). Keep the text as it is and save the file in Word format under the same "
    "name.",
    "Please put a footnote after {phrase} in the paragraph beginning {paragraph} of {path}; its text is {note}. "
    "Leave everything else untouched and keep the .docx format when saving.",
    "Using LibreOffice Writer, place the cursor right after {phrase} (paragraph beginning {paragraph}) in {path} "
    "and insert a footnote reading {note}. Save your changes to the same .docx file.",
    "The sentence ending {phrase} in {path} (paragraph beginning {paragraph}) needs a source: add a footnote "
    "saying {note}. Don't edit any text; save it as .docx in place.",
)
NATURAL = (
    "Could you add a footnote after {phrase} in {path.file} saying {note}?",
    "In {path.file}, the sentence ending {phrase} needs a footnote: {note}",
    "Please insert a footnote reading {note} right after {phrase} in my document {path.file}.",
    "Add a footnote to {path.file} at the end of the sentence ending {phrase}, with the text {note}.",
    "Help me put a footnote after {phrase} in {path.file}. It should say {note}",
)


class Params(TypedDict):
    pass


@dataclass(frozen=True)
class Target:
    paragraph: str  # the locator of the body paragraph
    phrase: str  # the last words of a sentence of it (its full stop included)
    note: str
    other: str  # the last words of the next sentence of the same paragraph (near-miss)


def _ending(sentence: str, words: int) -> str:
    return " ".join(sentence.split()[-words:])


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    everything = " ".join(wc.norm(t) for t in layout.texts())
    options = []
    for para, where in wc.targets(layout, "body"):
        said = sentences(para.text)
        for i, sentence in enumerate(said[:-1]):  # not the last: "the end of the paragraph" is a slip then
            phrase, other = _ending(sentence, 4), _ending(said[i + 1], 4)
            if len(sentence.split()) >= 6 and everything.count(phrase) == 1 and phrase[-1] in ".!?":
                options.append((where, phrase, other))
    if not options:  # a document without a two-sentence body paragraph: give the first one a second sentence
        para, where = wc.targets(layout, "body")[0]
        extra = "This will be reviewed again at the end of the quarter."
        blocks = [wc.Para(f"{b.text.rstrip()} {extra}", b.role, b.style, b.fmt) if b is para else b
                  for b in layout.blocks]
        layout = layout.with_blocks(blocks)
        options = [(where, _ending(sentences(para.text)[-1], 4), _ending(extra, 4))]
    where, phrase, other = rng.choice(options)
    note = rng.choice(NOTES)
    facts = {"path": layout.path, "paragraph": wc.quoted(where), "phrase": wc.quoted(phrase),
             "note": wc.quoted(note)}
    return Goal(layout, facts, Target(where, phrase, note, other))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check("footnote", f"{layout.path} has one footnote, reading {wc.quoted(target.note)}, whose mark stands "
                              f"right after {wc.quoted(target.phrase)} in the paragraph beginning "
                              f"{wc.quoted(target.paragraph)}.",
                  "docx.footnote", {"path": layout.path, "paragraph": target.paragraph, "phrase": target.phrase,
                                    "text": target.note})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.add_footnote", "path": layout.path, "paragraph_start": target.paragraph,
            "phrase": target.phrase, "text": target.note}
    return Attempts(
        Attempt("one footnote with the stated text right after the stated words", [base]),
        [Attempt("puts the mark after the next sentence", [{**base, "phrase": target.other}]),
         Attempt("writes a different note", [{**base, "text": next(n for n in NOTES if n != target.note)}]),
         Attempt("adds the footnote twice", [base, base]),
         Attempt("types the note into the text in brackets instead of a footnote",
                 [{"op": "docx.replace_text", "path": layout.path, "old": target.phrase,
                   "new": f"{target.phrase} ({target.note})"}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Add a footnote with a stated text right after stated words (the end of a sentence) of a Writer "
                "document, changing no text.",
    knobs={},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
