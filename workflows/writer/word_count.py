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
    path: str = ""  # the document
    metric: str = "words"
    scope: tuple[str, str] = ("document", "")  # document | paragraph (its start) | section (its heading)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    metric, scope = params["metric"], params["scope"]
    layout = wc.compose(rng, document, plan)
    paras = layout.paragraphs
    answer = f"{layout.folder}/{rng.choice(('count', 'word_count', 'length', 'answer'))}.txt"
    options: list[tuple[str, list[str], list[tuple[str, list[str]]], tuple[str, str]]] = []
    if scope == "document":
        texts = [p.text for p in paras]
        options.append(("the whole document (every paragraph, the title and headings included)", texts,
                        [("leaves out the title", [p.text for p in paras[1:]]),
                         ("counts only the section paragraphs", layout.texts("body"))], ("document", "")))
    for i, p in enumerate(paras):
        where = layout.locate(p.text)
        if scope == "paragraph" and p.role == "body" and where:
            other = next(q.text for q in paras[i + 1:] + paras[:i] if q.role == "body")
            options.append((f"the paragraph beginning {wc.quoted(where)} (only that paragraph)", [p.text],
                            [("counts the next body paragraph", [other]),
                             ("counts the whole document", [q.text for q in paras])], ("paragraph", where)))
        rest = paras[i + 1:]
        inside = rest[:next((k for k, q in enumerate(rest) if q.role in ("heading", "title")), len(rest))]
        # a section is everything up to the next heading, as the instruction says (a lead line and its list items
        # included); one that runs into the letter's closing has no answer a reader would agree on: not offered
        if scope == "section" and p.role == "heading" and inside and not any(q.role in ("closing", "front")
                                                                             for q in inside):
            section = [q.text for q in inside]
            options.append((f"the section under the heading {wc.quoted(p.text)} (all of its paragraphs up to the "
                            "next heading, without the heading itself)", section,
                            [("counts the heading too", [p.text, *section]),
                             ("counts only the first paragraph of the section", section[:1])], ("section", p.text)))
    rng.shuffle(options)

    def facts_for(what: str) -> dict[str, Any]:
        return {"path": layout.path, "metric": METRICS[metric], "scope": what, "answer": answer}

    # the count must not appear in the instruction by chance (e.g. inside the quoted paragraph start)
    what, texts, misses, scoped = next((o for o in options if not any(leaks(str(v), measure(o[1], metric))
                                                              for v in facts_for(o[0]).values())), options[-1])
    value = measure(texts, metric)
    facts = facts_for(what)
    wrong = [(why, measure(ts, metric)) for why, ts in misses]
    if metric != "words":
        flipped = "characters_no_spaces" if metric == "characters" else "characters"
        wrong[1] = (f"reports {METRICS[flipped]} instead", measure(texts, flipped))
    wrong = [(why, v if v != value else value + 1) for why, v in wrong]
    return Goal(layout, facts, Target(answer, value, wrong, layout.path, metric, scoped))


def rubric(target: Target) -> list[Check]:
    return [Check(id="count", criterion=f"{target.answer} holds the correct count and nothing else.",
                  primitive="docx.answer_number", args={"path": target.answer, "value": target.value})]


def solve(target: Target) -> Attempts:
    def write(value: int) -> list[dict[str, Any]]:
        return [{"op": "docx.write_text", "path": target.answer, "text": f"{value}\n"}]

    return Attempts(Attempt("writes the right count", write(target.value)),
                    [Attempt("off by one", write(target.value - 1)),
                     *(Attempt(why, write(v)) for why, v in target.wrong)])


COUNT = {"words": "len(text.split())", "characters": "len(text)",
         "characters_no_spaces": "len(''.join(text.split()))"}


def teach(target: Target) -> str:
    """The count worked out with python-docx, as Writer's Word Count counts (per paragraph, breaks excluded)."""
    kind, key = target.scope
    pick = {"document": "chosen = texts",
            "paragraph": f"chosen = [next(t for t in texts if ' '.join(t.split()).startswith({key!r}))]",
            "section": (f"start = texts.index({key!r}) + 1\n"
                        "end = next((i for i in range(start, len(texts)) if paras[i].style.name.startswith('Heading')"
                        " or paras[i].style.name == 'Title'), len(texts))\n"
                        "chosen = texts[start:end]")}[kind]
    return (f"python3 - <<'PY'\nfrom docx import Document\n"
            f"paras = [p for p in Document({target.path!r}).paragraphs if p.text.strip()]\n"
            "texts = [p.text for p in paras]\n"
            f"{pick}\n"
            f"total = sum({COUNT[target.metric]} for text in chosen)\n"
            f"open({target.answer!r}, 'w').write(f'{{total}}\\n')\nPY")


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Count words or characters of a document, paragraph or section and write the number to a file.",
    knobs={"metric": tuple(METRICS), "scope": ("document", "paragraph", "section")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, teach=teach,
)
