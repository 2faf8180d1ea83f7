"""Evaluate a task's rubric on a state: every check primitive run against the state root, with its evidence.

The one place a rubric is run: by the gate's controls (`verifiers.gate.controls`), the mutation control
(`verifiers.gate.mutation`) and the real-app tier alike. Below all three, so none of them imports another to get it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.errors import CheckError
from verifiers import checks


@dataclass(frozen=True)
class CheckOutcome:
    id: str
    criterion: str
    passed: bool
    evidence: str


def evaluate_rubric(task: dict[str, Any], root: Path, *, stop_on_fail: bool = False,
                    state: checks.State | None = None) -> list[CheckOutcome]:
    """Run the rubric checks of `task` against the state `root` (standing for /home/user), or against `state`
    (e.g. one holding documents mutated in memory).

    `stop_on_fail` ends at the first failing check: enough to prove a state does not pass."""
    state = state or checks.State(root)
    outcomes = []
    for item in task["rubric"]:
        try:
            result = checks.run_check(state, item["primitive"], item["args"])
        except CheckError as exc:
            result = checks.fail(str(exc))
        outcomes.append(CheckOutcome(item["id"], item["criterion"], result.passed, result.evidence))
        if stop_on_fail and not result.passed:
            break
    return outcomes
