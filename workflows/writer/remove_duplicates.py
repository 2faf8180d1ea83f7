"""writer.remove_duplicates: a draft where 2-3 body paragraphs were pasted twice (right after themselves, or again
further down); delete the repeated copies, keeping the first copy of each where it stands.

The check reads the whole body text against the document with each repeat gone; the frame keeps everything else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.remove_duplicates"
NUMBERS = {1: "one", 2: "two", 3: "three"}
WHERE = {"adjacent": "each repeat comes right after its original",
         "scattered": "the repeats were pasted again further down the document"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer: {n} body paragraphs appear twice ({where}). Delete the repeated copies so "
    "that each paragraph appears once, keeping the first copy where it is. Change nothing else and save the "
    "document in place as .docx.",
    "In the document {path}, {n} paragraphs are duplicated ({where}). Remove the second copy of each, leave the "
    "first one in place, and save the file in Word format under the same name.",
    "Please clean up {path}: {n} paragraphs were pasted twice ({where}). Delete the duplicate copies (keep the "
    "first occurrence of each) without editing any other text. Keep the .docx format when saving.",
    "Edit {path} so that no paragraph is repeated: {n} paragraphs occur twice ({where}); keep the first copy of "
    "each and delete the later one. Save it as .docx in place.",
    "Using LibreOffice Writer, remove the duplicate paragraphs from {path}: {n} paragraphs are repeated "
    "({where}). Keep each first copy and do not change anything else. Save your changes to the same .docx file.",
)
NATURAL = (
    "Some paragraphs in {path.file} got pasted twice. Please delete the repeated copies and keep the first one of "
    "each.",
    "Help me clean up {path.file}: {n} paragraphs appear twice. Remove the duplicates, keeping the first copy.",
    "Could you remove the duplicate paragraphs from {path.file}? Each one should appear only once, where it first "
    "appears.",
    "I pasted {n} paragraphs twice by mistake in {path.file}. Please delete the extra copies and leave the rest "
    "alone.",
    "Please get rid of the repeated paragraphs in {path.file} so each appears once, keeping the first copy.",
)


class Params(TypedDict):
    placement: Literal["adjacent", "scattered"]


@dataclass(frozen=True)
class Target:
    placement: str
    expected: list[str]  # every paragraph's text once the repeats are gone
    repeated: list[str]  # the texts that were pasted twice


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    placement = params["placement"]
    layout = wc.compose(rng, document, plan)
    blocks = list(layout.blocks)
    texts = [wc.norm(t) for t in layout.texts()]
    body = [i for i, b in enumerate(blocks)
            if isinstance(b, wc.Para) and b.role == "body" and texts.count(wc.norm(b.text)) == 1]
    chosen = sorted(rng.sample(body[:-1], min(rng.randint(2, 3), len(body) - 1)))  # the last has no "further down"
    repeated = [b.text for i, b in enumerate(blocks) if i in chosen and isinstance(b, wc.Para)]
    out: list[wc.Para | wc.Grid] = []
    if placement == "adjacent":
        for i, b in enumerate(blocks):
            out += [b, b] if i in chosen else [b]
    else:  # each copy lands after a later body paragraph (or at the end of the body)
        later = {i: rng.choice([j for j in body if j > i]) for i in chosen}
        for i, b in enumerate(blocks):
            out.append(b)
            out += [blocks[k] for k in chosen if later[k] == i]
    layout = layout.with_blocks(out)
    facts = {"path": layout.path, "n": NUMBERS[len(repeated)], "where": WHERE[placement]}
    return Goal(layout, facts, Target(placement, [wc.norm(t) for t in texts], [wc.norm(t) for t in repeated]))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check(id="deduplicated", criterion=f"In {layout.path}, each of the {len(target.repeated)} repeated "
                                               "paragraphs appears once, in its first place, and no other text "
                                               "changed.",
                  primitive="docx.duplicates_removed",
                  args={"path": layout.path, "paragraphs": target.expected, "repeated": target.repeated})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.remove_duplicates", "path": layout.path}
    near = [Attempt("deletes every copy, the first one too", [{**base, "keep": "none"}]),
            Attempt("misses the last repeated paragraph", [{**base, "skip": 1}])]
    if target.placement == "scattered":
        near.insert(0, Attempt("keeps the later copy and deletes the first one", [{**base, "keep": "last"}]))
    return Attempts(Attempt("delete the repeats, keeping each first copy", [{**base, "keep": "first"}]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Delete paragraphs pasted twice in a Writer document (right after themselves or further down), "
                "keeping the first copy of each.",
    knobs={"placement": ("adjacent", "scattered")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
