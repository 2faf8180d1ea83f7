"""writer.multi_edit: several edits of one document in one request ("set the margins to 2.5 cm, center the title
and give the body 1.5 line spacing").

Each goal is an existing Writer family's goal, run on the SAME composed document: every part's `goal` gets a copy
of the task's RNG state, so `wc.compose` lays out the same document for each (asserted), and each then draws its own
details. The parts touch different properties (the section's margins, the title's alignment, the body paragraphs'
line spacing), none of which another part reads, so their checks hold together and the oracle is their ops in
turn. One asset, one instruction listing the goals, one rubric of every part's checks and ONE frame over the
combined change set (the kit's docx frame diffs the initial document against the oracle's).

Knob `edits`: which goals a task combines (2 or 3). Near-misses: every goal done but one; every goal done with one
part's first near-miss (its classic slip) in place of its oracle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.errors import WorkflowError
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from workflows.writer import alignment, line_spacing, page_margins
from workflows.writer import kit as wc

NAME = "writer.multi_edit"
#: part -> (its family module, its knob values, how the goal list says it, a short clause for a user's request)
PARTS: dict[str, tuple[Any, dict[str, str], str, str]] = {
    "margins": (page_margins, {"unit": "cm", "sides": "all"}, "Set the page margins: {margins}.",
                "set {margins}"),
    "title": (alignment, {"align": "center", "target": "title"}, "Make {what} {how}.", "make {what} {how}"),
    "spacing": (line_spacing, {"spacing": "one_half", "target": "body"}, "Give {what} {how}.", "give {what} {how}"),
}
EDITS: dict[str, tuple[str, ...]] = {
    "margins_title": ("margins", "title"),
    "title_spacing": ("title", "spacing"),
    "margins_spacing": ("margins", "spacing"),
    "all_three": ("margins", "title", "spacing"),
}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and make these {count} changes:\n{goals}\nLeave everything else as it is "
    "and save the document in place as .docx.",
    "The document {path} needs {count} edits, all in this one file:\n{goals}\nDo not change anything else; save it "
    "in Word format under the same name.",
    "Please do all of the following in {path}:\n{goals}\nKeep the text and all other formatting unchanged and save "
    "the file as .docx.",
    "Using LibreOffice Writer, carry out these {count} edits on {path}:\n{goals}\nThen save your changes to the "
    "same .docx file.",
    "I have {count} things to fix in {path}:\n{goals}\nNothing else should change. Keep the .docx format when "
    "saving.",
)
NATURAL = (
    "A few fixes for {path.file}, please: {said}.",
    "Could you tidy up {path.file}? Please {said}.",
    "Help me with my document {path.file}: {said}.",
    "In {path.file}, please {said}. Then save it.",
    "Before I send {path.file} around, could you {said}?",
)


class Params(TypedDict):
    edits: Literal["margins_title", "title_spacing", "margins_spacing", "all_three"]


@dataclass(frozen=True)
class Target:
    parts: tuple[str, ...]
    targets: dict[str, Any]  # part -> its family's target
    facts: dict[str, dict[str, Any]]  # part -> its family's facts


def _join(clauses: list[str]) -> str:
    return ", ".join(clauses[:-1]) + f" and {clauses[-1]}" if len(clauses) > 1 else clauses[0]


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    parts = EDITS[params["edits"]]
    state = rng.getstate()
    layout: wc.Layout | None = None
    targets: dict[str, Any] = {}
    facts: dict[str, dict[str, Any]] = {}
    for part in parts:
        module, knobs, _, _ = PARTS[part]
        own = random.Random()
        own.setstate(state)  # the same draws, so the same composed document; each part then draws its own details
        out = module.goal(own, knobs, document, plan)
        if layout is not None and out.state != layout:
            raise WorkflowError(f"family {NAME!r}: part {part!r} laid out another document than the first part")
        layout, targets[part], facts[part] = out.state, out.target, dict(out.facts)
    assert layout is not None
    rng.setstate(state)
    rng.random()  # the task's own stream moves on past the parts'
    listed = "\n".join(f"{n}. {PARTS[p][2].format(**facts[p])}" for n, p in enumerate(parts, start=1))
    said = _join([PARTS[p][3].format(**facts[p]) for p in parts])
    shown = {"path": layout.path, "count": {2: "two", 3: "three"}[len(parts)], "goals": listed, "said": said}
    return Goal(layout, shown, Target(parts, targets, facts))


def _rubric_of(part: str) -> Callable[..., list[Check]]:
    return PARTS[part][0].rubric  # type: ignore[no-any-return]


def rubric(layout: wc.Layout, target: Target, assets: list[Asset]) -> list[Check]:
    """Each part's checks, ids prefixed with the part (the kit appends one frame over all their changes)."""
    checks = []
    for part in target.parts:
        fn = _rubric_of(part)
        own = fn(layout, target.targets[part], assets) if part != "margins" else fn(layout, target.targets[part])
        checks += [Check(f"{part}.{c.id}", c.criterion, c.primitive, c.args) for c in own]
    return checks


def solve(layout: wc.Layout, target: Target) -> Attempts:
    attempts: dict[str, Attempts] = {p: PARTS[p][0].solve(layout, target.targets[p]) for p in target.parts}
    oracle = {p: list(a.oracle.ops) for p, a in attempts.items()}

    def but(part: str, ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [op for p in target.parts for op in (ops if p == part else oracle[p])]

    misses = [Attempt(f"does every goal but the {p}", but(p, [])) for p in target.parts]
    misses += [Attempt(f"every goal done, but the {p}: {attempts[p].near_misses[0].description}",
                       but(p, list(attempts[p].near_misses[0].ops))) for p in target.parts]
    return Attempts(Attempt("carries out every goal on the one document: " + ", ".join(target.parts),
                            [op for p in target.parts for op in oracle[p]]), misses)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Make 2-3 independent edits of one document in one request (page margins, a centered title, 1.5 "
                "line spacing for the body), changing nothing else.",
    knobs={"edits": tuple(EDITS)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)

