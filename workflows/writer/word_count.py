"""writer.word_count: count the words or characters (with or without spaces) of the whole document, one stated
paragraph, or one section's paragraphs, and write the number into a stated text file. The count is `secret`.

Counting follows Writer's Tools > Word Count on this plain text (no hyphens, symbols or fields): words are
whitespace-separated tokens; characters are counted per paragraph, paragraph breaks excluded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.grounding import leaks
from workflows.writer import kit as wc

NAME = "writer.word_count"
METRICS = {"words": "the number of words", "characters": "the number of characters including spaces",
           "characters_no_spaces": "the number of characters excluding spaces"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and find {metric} in {scope}, as Tools > Word Count reports it. Write just "
    "that number into a new plain text file {answer}.",
    "How long is {scope} of {path}? Use Writer's Word Count to get {metric} and save only the number in the text "
    "file {answer}.",
    "Please count {metric} in {scope} of the document {path} (Tools > Word Count in Writer). Put the number, and "
    "nothing else, into {answer}.",
    "For the document {path}, determine {metric} of {scope}. Create the text file {answer} containing only that "
    "number.",
    "I need {metric} for {scope} in {path}. Check it with LibreOffice Writer's word count and write the number "
    "alone into {answer}.",
)
NATURAL = (
    "How many are there? I need {metric} in {scope.bare} of {path.file}; write just the number into "
    "{answer}.",
    "Help me find {metric} in {scope.bare} of {path.file} and save only that number in {answer}.",
    "Could you count {metric} for {scope.bare} in my document {path.file}? Put the number alone in "
    "{answer}.",
    "I need {metric} of {scope.bare} in {path.file}. Please write the number, nothing else, to "
    "{answer}.",
    "Please check {metric} in {scope.bare} of {path.file} and record the number by itself in {answer}.",
)


def measure(texts: Sequence[str], metric: str) -> int:
    if metric == "words":
        return sum(len(t.split()) for t in texts)
    if metric == "characters":
        return sum(len(t) for t in texts)
    return sum(len("".join(t.split())) for t in texts)


class Params(TypedDict):
    metric: Literal["words", "characters", "characters_no_spaces"]
    scope: Literal["document", "paragraph", "section"]


@dataclass(frozen=True)
class Target:
    answer: str  # the text file the count goes into
    value: int  # the right count
    wrong: list[tuple[str, int]]  # (how a near-miss miscounts, the number it writes)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    metric, scope = params["metric"], params["scope"]
    layout = wc.compose(rng, document, plan)
    paras = layout.paragraphs
    answer = f"{layout.folder}/{rng.choice(('count', 'word_count', 'length', 'answer'))}.txt"
    options = []
    if scope == "document":
        texts = [p.text for p in paras]
        options.append(("the whole document (every paragraph, the title and headings included)", texts,
                        [("leaves out the title", [p.text for p in paras[1:]]),
                         ("counts only the section paragraphs", layout.texts("body"))]))
    for i, p in enumerate(paras):
        where = layout.locate(p.text)
        if scope == "paragraph" and p.role == "body" and where:
            other = next(q.text for q in paras[i + 1:] + paras[:i] if q.role == "body")
            options.append((f"the paragraph beginning {wc.quoted(where)} (only that paragraph)", [p.text],
                            [("counts the next body paragraph", [other]),
                             ("counts the whole document", [q.text for q in paras])]))
        if scope == "section" and p.role == "heading":
            section = [q.text for q in paras[i + 1:][:next((k for k, q in enumerate(paras[i + 1:])
                                                              if q.role != "body"), len(paras))]]
            options.append((f"the section under the heading {wc.quoted(p.text)} (all of its paragraphs up to the "
                            "next heading, without the heading itself)", section,
                            [("counts the heading too", [p.text, *section]),
                             ("counts only the first paragraph of the section", section[:1])]))
    rng.shuffle(options)

    def facts_for(what: str) -> dict[str, Any]:
        return {"path": layout.path, "metric": METRICS[metric], "scope": what, "answer": answer}

    # the count must not appear in the instruction by chance (e.g. inside the quoted paragraph start)
    what, texts, misses = next((o for o in options if not any(leaks(str(v), measure(o[1], metric))
                                                              for v in facts_for(o[0]).values())), options[-1])
    value = measure(texts, metric)
    facts = facts_for(what)
    wrong = [(why, measure(ts, metric)) for why, ts in misses]
    if metric != "words":
        flipped = "characters_no_spaces" if metric == "characters" else "characters"
        wrong[1] = (f"reports {METRICS[flipped]} instead", measure(texts, flipped))
    wrong = [(why, v if v != value else value + 1) for why, v in wrong]
    return Goal(layout, facts, Target(answer, value, wrong))


def rubric(target: Target) -> list[Check]:
    return [Check(id="count", criterion=f"{target.answer} holds the correct count and nothing else.",
                  primitive="docx.answer_number", args={"path": target.answer, "value": target.value})]


def solve(target: Target) -> Attempts:
    def write(value: int) -> list[dict[str, Any]]:
        return [{"op": "docx.write_text", "path": target.answer, "text": f"{value}\n"}]

    return Attempts(Attempt("writes the right count", write(target.value)),
                    [Attempt("off by one", write(target.value - 1)),
                     *(Attempt(why, write(v)) for why, v in target.wrong)])


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Count words or characters of a document, paragraph or section and write the number to a file.",
    knobs={"metric": tuple(METRICS), "scope": ("document", "paragraph", "section")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
