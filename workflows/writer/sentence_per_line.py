"""writer.sentence_per_line: split a stated paragraph, or every paragraph under a stated heading, so that each
sentence is a paragraph of its own (a draft being turned into talking points, or prepared for translation).

The check reads the whole body against the document with those paragraphs split at their sentence ends, each new
paragraph in the style of the one it came from; a manual line break keeps one paragraph and fails. The frame keeps
the rest.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.docx_sentences import sentences
from workflows.writer import kit as wc

NAME = "writer.sentence_per_line"
ABBREVIATION = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|St|No|vs|etc|approx|e\.g|i\.e)\.", re.IGNORECASE)
PHRASINGS = (
    "Open {path} in LibreOffice Writer and split {what} so that each sentence becomes a paragraph of its own, in "
    "the same order (a real paragraph break after each sentence, not a line break). Change no words and save the "
    "document in place as .docx.",
    "In the document {path}, break {what} into one paragraph per sentence: press Enter after every sentence so "
    "each one stands as its own paragraph. Keep the wording and everything else as it is, and save the file in "
    "Word format under the same name.",
    "Please put each sentence of {what} in {path} on its own paragraph (paragraph breaks, not Shift+Enter line "
    "breaks). Do not edit the text itself; save it as .docx when done.",
    "Edit {path}: {what} should read one sentence per paragraph. Split it at each sentence end, keep the order and "
    "the paragraph style, and keep the .docx format when saving.",
    "Using LibreOffice Writer, separate the sentences of {what} in {path} into individual paragraphs, one sentence "
    "per paragraph. Leave the rest of the document alone and save your changes to the same .docx file.",
)
NATURAL = (
    "In {path.file}, please split {what} so each sentence is its own paragraph.",
    "I'm turning {what} of {path.file} into talking points: could you put each sentence in a paragraph of its own?",
    "Could you break {what} in {path.file} into one paragraph per sentence, without changing the wording?",
    "Please give every sentence of {what} its own paragraph in my document {path.file}.",
    "One sentence per paragraph for {what} in {path.file}, please; the words stay the same.",
)


class Params(TypedDict):
    scope: Literal["paragraph", "section"]


@dataclass(frozen=True)
class Target:
    where: str  # the locator of the paragraph, or of the heading whose paragraphs are split
    starts: list[str]  # locators of the paragraphs to split
    expected: list[str]  # every paragraph's text once they are split
    sentences: list[str]  # the sentences that stand alone
    styles: list[str]  # the style of each, by name
    others: list[str]  # locators of paragraphs outside the scope that could be split too (near-miss)


def _splittable(text: str) -> bool:
    return len(sentences(text)) >= 2 and not ABBREVIATION.search(text)


def _sections(layout: wc.Layout) -> list[tuple[int, list[int]]]:
    """(heading index, [its body paragraph indexes]) for every heading of the layout."""
    out: list[tuple[int, list[int]]] = []
    for i, b in enumerate(layout.blocks):
        if isinstance(b, wc.Para) and b.role == "heading":
            out.append((i, []))
        elif out and isinstance(b, wc.Para) and b.role == "body":
            out[-1][1].append(i)
    return out


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    scope = params["scope"]
    layout = wc.compose(rng, document, plan)
    blocks = layout.blocks
    located = {layout.locate(b.text): i for i, b in enumerate(blocks) if isinstance(b, wc.Para)}
    index = {i: where for where, i in located.items() if where is not None}
    body = [i for i, b in enumerate(blocks) if isinstance(b, wc.Para) and b.role == "body" and i in index
            and _splittable(b.text)]
    if scope == "paragraph":  # one of three sentences or more where there is one: a first-only split shows
        longer = [i for i in body if len(sentences(blocks[i].text)) >= 3]  # type: ignore[union-attr]
        chosen = [rng.choice(longer or body)]
        where = index[chosen[0]]
        what = f"the paragraph beginning {wc.quoted(where)}"
    else:
        options = [(h, [i for i in paras if i in body]) for h, paras in _sections(layout) if h in index]
        options = [(h, paras) for h, paras in options if paras] or options
        richest = max(len(paras) for _, paras in options)
        heading, chosen = rng.choice([o for o in options if len(o[1]) == richest])
        where = index[heading]
        what = f"every paragraph under the heading {wc.quoted(where)}"
    expected: list[str] = []
    split: list[str] = []
    styles: list[str] = []
    for i, b in enumerate(blocks):
        if not isinstance(b, wc.Para):
            continue
        if i in chosen:
            parts = sentences(b.text)
            expected += parts
            split += parts
            styles += [b.style or "Normal"] * len(parts)
        else:
            expected.append(wc.norm(b.text))
    others = [index[i] for i in body if i not in chosen]
    facts = {"path": layout.path, "what": what}
    return Goal(layout, facts, Target(where, [index[i] for i in chosen], expected, split, styles, others))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    what = (f"the paragraph {wc.quoted(target.where)}" if target.starts == [target.where] else
            f"every paragraph under the heading {wc.quoted(target.where)}")
    return [Check(id="split", criterion=f"In {layout.path}, each sentence of {what} is a paragraph of its own "
                                        f"({len(target.sentences)} paragraphs), in order and in the same style, and "
                                        "no other text changed.",
                  primitive="docx.sentences_split",
                  args={"path": layout.path, "where": target.where, "paragraphs": target.expected,
                        "sentences": target.sentences, "styles": target.styles})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.split_sentences", "path": layout.path, "paragraph_starts": target.starts}
    near = [Attempt("puts manual line breaks (Shift+Enter) between the sentences instead of paragraph breaks",
                    [{**base, "line_breaks": True}]),
            Attempt("turns the sentences into a bulleted list",
                    [base, {"op": "docx.set_style", "path": layout.path, "paragraphs": target.sentences,
                            "style": "List Bullet"}])]
    if len(target.sentences) > 2 * len(target.starts):  # a paragraph of three sentences or more
        near.append(Attempt("splits off only the first sentence of each paragraph", [{**base, "first_only": True}]))
    if target.others:
        near.append(Attempt("also splits a paragraph outside the asked one(s)",
                            [{**base, "paragraph_starts": [*target.starts, target.others[-1]]}]))
    if len(target.starts) > 1:
        near.append(Attempt("misses the last paragraph of the section",
                            [{**base, "paragraph_starts": target.starts[:-1]}]))
    return Attempts(Attempt("split each paragraph at its sentence ends", [base]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Split a stated paragraph, or every paragraph under a stated heading, of a Writer document so that "
                "each sentence is a paragraph of its own, changing no words.",
    knobs={"scope": ("paragraph", "section")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
