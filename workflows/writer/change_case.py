"""writer.change_case: put the document title or one section heading in UPPERCASE, lowercase, Capitalize Every
Word or Sentence case, as Writer's Format > Text does.

The starting text is what makes the request natural: a heading to shout in capitals starts as written, one to
calm down (lowercase, Sentence case) starts typed in capitals, and one to capitalize starts all in small letters.
The check reads the paragraph as it shows (the Uppercase font effect counts as capitals); the frame keeps every
other paragraph's text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.docx_text import change_text_case
from workflows.writer import kit as wc

NAME = "writer.change_case"
HOW = {
    "upper": "UPPERCASE (all capital letters)",
    "lower": "lowercase (all small letters)",
    "title": "Capitalize Every Word (each word starts with a capital letter, the rest of it in small letters)",
    "sentence": "Sentence case (only the first letter in capitals, the rest in small letters)",
}
#: case -> how the initial text is typed
START = {"upper": None, "lower": "upper", "title": "lower", "sentence": "upper"}
#: case -> the cases a classic slip applies instead, most plausible first (the first that gives other text is used)
WRONG = {"upper": ("title", "sentence"), "lower": ("sentence", "title"), "title": ("headline", "sentence", "upper"),
         "sentence": ("title", "lower")}
SLIPS = {"title": "capitalizes each word instead", "sentence": "uses Sentence case, only the first letter a capital",
         "headline": "keeps short words such as 'and' or 'of' in small letters", "upper": "puts it all in capitals",
         "lower": "puts it all in small letters, the first letter too"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and change the case of {what} to {how}. Do not change any other text, and "
    "save the document in place as .docx.",
    "In the document {path}, {what} should read in {how}. Change only the letter case of that text (Format > "
    "Text), then save the file in Word format under the same name.",
    "Please change {what} in {path} to {how}. The words stay the same; only their case changes. Keep the .docx "
    "format when saving.",
    "Using Format > Text in Writer, set {what} of {path} to {how}. Leave everything else as it is and save your "
    "changes to the same .docx file.",
    "Edit {path} so that {what} is in {how}, without touching any other paragraph. Save it as .docx in place.",
)
NATURAL = (
    "In {path.file}, please change {what} to {how.bare}.",
    "Help me tidy up {path.file}: {what} should be in {how.bare}. Leave the rest of the text alone.",
    "Could you put {what} of my document {path.file} in {how.bare}?",
    "I'd like {what} in {path.file} written in {how.bare}. Nothing else should change.",
    "Please switch {what} in {path.file} to {how.bare} and save it.",
)


class Params(TypedDict):
    case: Literal["upper", "lower", "title", "sentence"]
    target: Literal["title", "heading"]


@dataclass(frozen=True)
class Target:
    case: str
    text: str  # the paragraph's text in the initial document
    expected: str  # what it must read
    other: str  # another heading (or the title), for the near-miss that changes the wrong paragraph
    slip: str  # the case the classic slip applies


def _typed(text: str, start: str | None) -> str:
    return text if start is None else change_text_case(text, start)


def _slip(typed: str, case: str) -> str:
    """The first slip of WRONG[case] that makes other text than the asked case (the last one otherwise)."""
    expected = change_text_case(typed, case)
    return next((c for c in WRONG[case] if change_text_case(typed, c) != expected), WRONG[case][-1])


def _usable(text: str, case: str, texts: list[str]) -> bool:
    """Two words or more, the asked case changes it, the slip and a selection that stops after the first word
    give other text, and no other paragraph starts with it in any case."""
    typed = _typed(text, START[case])
    words = typed.split()
    if len(words) < 2 or sum(c.isalpha() for c in words[-1]) < 2:
        return False
    expected = change_text_case(typed, case)
    partial = change_text_case(words[0], case) + typed[len(words[0]):]
    slip = change_text_case(typed, _slip(typed, case))
    others = [t for t in texts if t != text and t.lower().startswith(typed.lower())]
    return len({typed, expected, partial, slip}) == 4 and not others


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    case, where = params["case"], params["target"]
    layout = wc.compose(rng, document, plan)
    texts = [wc.norm(t) for t in layout.texts()]
    title = layout.texts("title")[0]
    headings = layout.texts("heading")
    pool = [title] if where == "title" else [h for h in headings if _usable(wc.norm(h), case, texts)]
    chosen = rng.choice(pool or headings)
    typed = _typed(chosen, START[case])
    blocks = [wc.Para(typed, b.role, b.style, b.fmt) if isinstance(b, wc.Para) and b.text == chosen else b
              for b in layout.blocks]
    layout = layout.with_blocks(blocks)
    other = next(h for h in [*headings, title] if h != chosen)
    what = (f"the document title {wc.quoted(typed)}" if where == "title"
            else f"the section heading {wc.quoted(typed)}")
    facts = {"path": layout.path, "what": what, "how": HOW[case]}
    target = Target(case, wc.norm(typed), change_text_case(wc.norm(typed), case), other,
                    _slip(wc.norm(typed), case))
    return Goal(layout, facts, target)


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check(id="case", criterion=f"In {layout.path}, the paragraph {wc.quoted(target.text)} now reads "
                                       f"{wc.quoted(target.expected)} ({HOW[target.case]}).",
                  primitive="docx.text_case",
                  args={"path": layout.path, "paragraph": target.text, "case": target.case, "text": target.text})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.change_case", "path": layout.path, "paragraph_start": target.text, "case": target.case}
    return Attempts(
        Attempt(f"Format > Text > {HOW[target.case].split(' (')[0]} on the stated paragraph", [base]),
        [Attempt(SLIPS[target.slip], [{**base, "case": target.slip}]),
         Attempt("changes another heading instead", [{**base, "paragraph_start": target.other}]),
         *_partial(base, target)],
    )


def _partial(base: dict[str, Any], target: Target) -> list[Attempt]:
    """A selection that stopped short: the first word only, or a single word but its last two letters (none when
    that changes the same letters as the whole)."""
    text = target.text
    if len(text.split()) > 1:
        stop, attempt = len(text.split()[0]), Attempt("selects only the first word before changing the case",
                                                      [{**base, "words": 1}])
    else:
        stop, attempt = len(text) - 2, Attempt("leaves the last two letters out of the selection",
                                               [{**base, "chars": len(text) - 2}])
    partial = change_text_case(text[:stop], target.case) + text[stop:]
    return [attempt] if partial != target.expected else []


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Change the letter case of the title or a heading to UPPERCASE, lowercase, Capitalize Every Word "
                "or Sentence case, changing no other text.",
    knobs={"case": ("upper", "lower", "title", "sentence"), "target": ("title", "heading")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
