"""writer.comment: a reviewer's note on a draft: add a comment with a stated text on stated words of a body
paragraph, or on the whole paragraph (Insert > Comment on a selection).

The check reads the comments part: exactly one comment, with that text, whose range covers exactly those words. The
comment markers change no text, so the frame keeps the whole document as it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.docx_text import SMALL_WORDS
from workflows.writer import kit as wc

NAME = "writer.comment"
#: words a selection neither starts nor ends with
EDGE_WORDS = SMALL_WORDS | {"their", "its", "our", "your", "this", "that", "these", "those", "from", "into", "is",
                            "are", "was", "will", "be", "has", "have", "all", "each", "any"}
NOTES = ("Please check this with Finance before we send it.", "Can we confirm this date with the team?",
         "Is this figure still up to date?", "We need a source for this.", "Please add the name of the owner here.",
         "Could this be shorter?", "Check the wording with Legal.", "Is this the final number?")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and add a comment (Insert > Comment) on {what} that reads {note}. Do not "
    "change the text itself, and save the document in place as .docx.",
    "In the document {path}, select {what} and attach a comment with the text {note}. Leave the document text as it "
    "is and save the file in Word format under the same name.",
    "Please add one review comment to {path}: it should be anchored to {what} and say {note}. Keep the .docx format "
    "when saving.",
    "Edit {path}: insert a comment on {what} with the text {note}. Don't edit any text, and save it as .docx in "
    "place.",
    "Using LibreOffice Writer, comment on {what} in {path} with the note {note}. Save your changes to the same .docx "
    "file.",
)
NATURAL = (
    "Could you add a comment on {what} in {path.file} saying {note}?",
    "I'm reviewing {path.file}. Please leave a comment on {what}: {note}",
    "In {path.file}, put a comment on {what} with the text {note}.",
    "Please comment on {what} in my document {path.file}: {note}",
    "Add a review comment to {what} in {path.file} that says {note}.",
)


class Params(TypedDict):
    anchor: Literal["phrase", "paragraph"]


@dataclass(frozen=True)
class Target:
    paragraph: str  # the locator of the body paragraph
    phrase: str | None  # the words the comment covers (phrase anchor)
    note: str
    other: str  # the locator of another body paragraph (near-miss)


def _phrase(rng: random.Random, text: str) -> str | None:
    """2-4 consecutive plain words from inside `text` that occur once and neither start nor end with a short word."""
    words = text.split()
    for _ in range(50):
        n = rng.randint(2, 4)
        i = rng.randint(1, max(1, len(words) - n - 1))
        chunk = words[i:i + n]
        phrase = " ".join(chunk)
        if (len(chunk) == n and all(w.isalnum() for w in chunk) and text.count(phrase) == 1
                and chunk[0].lower() not in EDGE_WORDS and chunk[-1].lower() not in EDGE_WORDS):
            return phrase
    return None


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    body = wc.targets(layout, "body")
    phrase = None
    for _ in range(20):
        para, paragraph = rng.choice(body)
        phrase = _phrase(rng, para.text) if params["anchor"] == "phrase" else None
        if params["anchor"] == "paragraph" or phrase:
            break
    other = next(loc for p, loc in body if p is not para)
    note = rng.choice(NOTES)
    what = (f"the words {wc.quoted(phrase)} in the paragraph beginning {wc.quoted(paragraph)}" if phrase else
            f"the whole paragraph beginning {wc.quoted(paragraph)}")
    facts = {"path": layout.path, "what": what, "note": wc.quoted(note)}
    return Goal(layout, facts, Target(paragraph, phrase, note, other))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path, "paragraph": target.paragraph, "text": target.note}
    what = wc.quoted(target.phrase) if target.phrase else f"the paragraph {wc.quoted(target.paragraph)}"
    if target.phrase:
        args["phrase"] = target.phrase
    return [Check(id="comment", criterion=f"{layout.path} has one comment, reading {wc.quoted(target.note)}, "
                                          f"anchored to exactly {what}.",
                  primitive="docx.comment", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.add_comment", "path": layout.path, "paragraph_start": target.paragraph,
            "text": target.note}
    right = {**base, **({"phrase": target.phrase} if target.phrase else {})}
    if target.phrase:
        spread = Attempt("anchors the comment to the whole paragraph", [base])
        short = Attempt("selects only the first word of the phrase",
                        [{**base, "phrase": target.phrase.split()[0]}])
    else:
        spread = Attempt("anchors the comment to another paragraph", [{**base, "paragraph_start": target.other}])
        short = Attempt("selects only the first words of the paragraph",
                        [{**base, "phrase": " ".join(target.paragraph.split()[:2])}])
    return Attempts(
        Attempt("one comment with the stated text on the stated words", [right]),
        [spread, short,
         Attempt("writes a different note", [{**right, "text": next(n for n in NOTES if n != target.note)}]),
         Attempt("adds the comment twice", [right, right])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Add a review comment with a stated text on stated words, or a whole paragraph, of a Writer "
                "document, changing no text.",
    knobs={"anchor": ("phrase", "paragraph")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
