"""writer.track_changes: a draft comes back from a reviewer with tracked changes (in 2-3 body paragraphs a sentence
struck out and a new sentence inserted); accept all of them, or reject all of them, so no change is left marked.

The check reads the body: no insertion or deletion mark left, and each changed paragraph reading as its accepted or
its rejected version. The docx frame reads the text as Writer shows it with the changes in, so it keeps the rest.
"""

from __future__ import annotations

import copy
import io
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Asset, Check
from preparers.office_zip import normalize
from workflows.writer import kit as wc

NAME = "writer.track_changes"
INSERTS = ("This was agreed at the last meeting.", "More details will follow next week.",
           "Questions can go to the team lead.", "This applies to every site.", "Please keep this in mind.",
           "The budget for this is already approved.")
REVIEWERS = ("Alex Morgan", "Sam Patel", "Jordan Lee", "Robin Clarke")
HOW = {"accept": ("accept all the tracked changes", "Edit > Track Changes > Accept All"),
       "reject": ("reject all the tracked changes", "Edit > Track Changes > Reject All")}
PHRASINGS = (
    "Open {path} in LibreOffice Writer. {reviewer} edited it with track changes on ({n} paragraphs have marked "
    "insertions and deletions). Please {how} ({menu}) so that no change is left marked, then save the document "
    "in place as .docx.",
    "The document {path} contains tracked changes by {reviewer}. {How} with {menu}; no other edits. Save the file "
    "in Word format under the same name.",
    "In {path}, {how}: the insertions and deletions {reviewer} made in {n} paragraphs. Afterwards no change "
    "should be marked any more. Keep the .docx format when saving.",
    "Edit {path}: {how} (the ones {reviewer} made). Do not change anything else, and save it as .docx in place.",
    "Using LibreOffice Writer ({menu}), {how} in {path}, the ones from {reviewer}. Save your changes to the same "
    ".docx file.",
)
NATURAL = (
    "{reviewer} marked up {path.file} with tracked changes. Please {how}.",
    "Could you {how} in {path.file}? They are the edits {reviewer} made.",
    "The tracked changes in {path.file} need sorting out: {how}.",
    "Please go through {path.file} and {how} that {reviewer} left.",
    "I got {path.file} back from {reviewer} with tracked changes. Please {how} and leave the rest alone.",
)


class Params(TypedDict):
    action: Literal["accept", "reject"]


@dataclass(frozen=True)
class Change:
    text: str  # the paragraph as it was before the reviewer's changes
    start: str  # its locator (words of its first sentence, which no change touches)
    delete: tuple[int, int]  # [first word, end word) of the sentence the reviewer struck out
    insert_at: int  # the word the reviewer's new sentence goes before (the word count: at the end)
    insert: str

    def segments(self) -> list[tuple[str, str]]:
        """[(text, "" | "ins" | "del")] in order: the paragraph with the marked changes."""
        words = self.text.split()
        out: list[tuple[str, str]] = []
        for i, word in enumerate(words):
            if i == self.insert_at:
                out.append((self.insert + " ", "ins"))
            kind = "del" if self.delete[0] <= i < self.delete[1] else ""
            out.append((word + (" " if i < len(words) - 1 else ""), kind))
        if self.insert_at >= len(words):
            out.append((" " + self.insert, "ins"))
        merged: list[tuple[str, str]] = []
        for text, kind in out:
            if merged and merged[-1][1] == kind:
                merged[-1] = (merged[-1][0] + text, kind)
            else:
                merged.append((text, kind))
        return merged

    def reads(self, action: str) -> str:
        return wc.norm("".join(t for t, kind in self.segments() if kind != ("del" if action == "accept" else "ins")))


@dataclass(frozen=True)
class Target:
    action: str
    reviewer: str
    changes: tuple[Change, ...]


def _sentence_starts(text: str) -> list[int]:
    """The index of each sentence's first word in `text`."""
    words = text.split()
    return [0] + [i + 1 for i, w in enumerate(words[:-1]) if w.endswith((".", "!", "?"))]


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    body = []  # paragraphs of two sentences or more whose locator lies in the first sentence
    for p, loc in wc.targets(layout, "body"):
        starts = _sentence_starts(p.text)
        if len(starts) >= 2 and len(loc.split()) <= starts[1]:
            body.append((p, loc, starts))
    chosen = rng.sample(body, min(len(body), rng.randint(2, 3)))
    changes = []
    for p, loc, starts in sorted(chosen, key=lambda c: layout.paragraphs.index(c[0])):
        count = len(p.text.split())
        k = rng.randrange(1, len(starts))  # a whole sentence struck out, never the first
        span = (starts[k], starts[k + 1] if k + 1 < len(starts) else count)
        at = rng.choice([i for i in [*starts[1:], count] if not span[0] < i < span[1]])  # between two sentences
        changes.append(Change(p.text, loc, span, at, rng.choice(INSERTS)))
    reviewer = rng.choice(REVIEWERS)
    how, menu = HOW[params["action"]]
    facts = {"path": layout.path, "reviewer": reviewer, "n": str(len(changes)), "how": how, "How": how.capitalize(),
             "menu": menu}
    return Goal(layout, facts, Target(params["action"], reviewer, tuple(changes)))


def _tracked(data: bytes, target: Target) -> bytes:
    """The document with each change of `target` marked as a tracked insertion and deletion."""
    doc = Document(io.BytesIO(data))
    ids = iter(range(100, 200))
    for change in target.changes:
        p = next(p for p in doc.paragraphs if wc.norm(p.text) == wc.norm(change.text))
        rpr = p.runs[0]._r.rPr if p.runs else None
        for run in p.runs:
            run._r.getparent().remove(run._r)
        for text, kind in change.segments():
            r = OxmlElement("w:r")
            if rpr is not None:
                r.append(copy.deepcopy(rpr))
            t = OxmlElement("w:delText" if kind == "del" else "w:t")
            t.set(qn("xml:space"), "preserve")
            t.text = text
            r.append(t)
            if kind:
                mark = OxmlElement(f"w:{kind}")
                mark.set(qn("w:id"), str(next(ids)))
                mark.set(qn("w:author"), target.reviewer)
                mark.set(qn("w:date"), "2026-03-02T09:30:00Z")
                mark.append(r)
                p._p.append(mark)
            else:
                p._p.append(r)
    out = io.BytesIO()
    doc.save(out)
    return normalize(out.getvalue())  # byte-reproducible, like every generated document


def prepare(layout: wc.Layout, target: Target) -> Mapping[str, Any]:
    outputs = wc.document_outputs(layout)
    assets = [Asset(a.dest, _tracked(a.data, target), app=a.app) for a in outputs["assets"]]
    return {"assets": assets, "launch": outputs["launch"]}


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    paragraphs = {c.start: c.reads(target.action) for c in target.changes}
    return [Check(id="resolved", criterion=f"In {layout.path}, no tracked change is left and the "
                                           f"{len(paragraphs)} changed paragraphs read with every change "
                                           f"{target.action}ed.",
                  primitive="docx.changes_resolved",
                  args={"path": layout.path, "action": target.action, "paragraphs": paragraphs})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.resolve_changes", "path": layout.path, "action": target.action}
    other = "reject" if target.action == "accept" else "accept"
    return Attempts(
        Attempt(f"{target.action} every tracked change", [base]),
        [Attempt(f"{other}s them instead", [{**base, "action": other}]),
         Attempt("leaves the changes of the last paragraph marked", [{**base, "skip": [target.changes[-1].start]}]),
         Attempt("accepts the insertions but rejects the deletions", [{**base, "mixed": True}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Accept all or reject all of the tracked insertions and deletions a reviewer made in a Writer "
                "document, leaving no change marked.",
    knobs={"action": ("accept", "reject")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
