"""What every app's infeasible family shares (issue 38): a request the app or the files cannot satisfy.

An infeasible task asks, in an ordinary voice, for something that cannot be done with the prepared state: a feature
the app does not have, a file, sheet, slide, message or setting named that is not there, or two wishes that
contradict each other. The state is the app kit's usual one (a real workbook, document, deck, profile), so an agent
must look before it declines. The right outcome is to change nothing and declare the task infeasible
(`kit.model.INFEASIBLE_RECORD`; the student runner records a final reply `INFEASIBLE: <why>`); the package says
`feasible: false` (kit.package), and the OSWorld export uses OSWorld's own `infeasible` evaluator.

The knob `impossible` (`KINDS`; not `kind`, which some app kits read) picks the kind. Each app module draws the
request (`Impossible`: what the task is about, why it cannot be done, and the plausible
wrong attempts a too-eager agent makes) and uses `rubric` and `solve` from here: the rubric is the declaration
check (the kit's frame adds "nothing changed"), the oracle declares, and the near-misses are each slip without a
declaration, the first slip with a declaration (declaring and changing files anyway), and doing nothing at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts
from kit.model import DECLARED_INFEASIBLE, INFEASIBLE_RECORD, Check

#: The values of the knob `impossible` every infeasible family has: which kind of impossibility its request holds.
KINDS = ("feature", "missing", "contradiction")
#: What each kind means, for descriptions and the evidence.
KIND_TEXT = {
    "feature": "asks for a feature the application does not have",
    "missing": "names something that is not in the prepared files",
    "contradiction": "asks for two things that contradict each other",
}


class Params(TypedDict):
    impossible: Literal["feature", "missing", "contradiction"]


@dataclass(frozen=True)
class Impossible:
    """What an infeasible request is about and how a too-eager agent gets it wrong.

    `about`: the home path a person looks at before declining (the workbook, the folder, the profile: the teacher
    lists the folder holding it; never the home itself); `why`: what
    makes the request impossible (criterion and evidence); `slips`: (what the attempt does, its ops), each a
    plausible partial or approximate edit that changes the state."""

    about: str
    why: str
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]


def declared(target: Impossible) -> list[Check]:
    """The rubric of an infeasible task: the declaration (the frame of the app kit follows: nothing changed)."""
    return [Check(
        id="declared",
        criterion=f"The agent declared the task infeasible ({target.why}) and recorded why in {INFEASIBLE_RECORD}.",
        primitive=DECLARED_INFEASIBLE,
        args={"path": INFEASIBLE_RECORD, "why": target.why},
    )]


def attempts(target: Impossible) -> Attempts:
    """The oracle declares and changes nothing; the near-misses try anyway (each slip, undeclared), declare and try
    anyway (the first slip), or do nothing and say nothing."""
    declare = {"op": "agent.declare_infeasible", "path": target.about, "reason": target.why}
    slips = [Attempt(f"{does}, without declaring the task infeasible", list(ops)) for does, ops in target.slips]
    first_does, first_ops = target.slips[0]
    beside = {**declare, "path": target.about.rsplit("/", 1)[0]}  # one path, one kind of op: the slip edits `about`
    return Attempts(
        Attempt(f"look, then declare the task infeasible ({target.why}) and change nothing", [declare]),
        [*slips,
         Attempt(f"declares the task infeasible but also {first_does}", [beside, *first_ops]),
         Attempt("changes nothing but never says the task cannot be done", [])],
    )


def rubric(target: Impossible) -> list[Check]:
    return declared(target)


def solve(target: Impossible) -> Attempts:
    return attempts(target)
