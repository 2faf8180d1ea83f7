"""Test helpers for the mutators: a family's package -> its initial and oracle states -> mutants -> verdicts.

Until the gate's mutation stage runs them, this is the harness: the real setup.sh (in bubblewrap, through
`forge.solve.LocalEnv`), the real oracle ops, the real rubric evaluation (`verifiers.gate.rubric.evaluate_rubric`).
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge.solve import LocalEnv
from kit.dag import Workflow
from kit.package import load_package
from kit.sandbox import Sandbox
from preparers.ops import apply_ops
from tests.gatekit import make_package
from verifiers.gate.rubric import evaluate_rubric
from verifiers.mutants import Mutant, MutationContext, Mutator


@dataclass(frozen=True)
class Judged:
    mutant: Mutant
    passed: bool  # did the rubric pass on the mutated state?
    evidence: str

    @property
    def wrong(self) -> bool:
        """A damaging mutant the rubric accepted (lax) or a neutral one it rejected (strict)."""
        return self.passed != (self.mutant.kind == "neutral")


def states(workflow: Workflow, params: dict[str, Any], tmp: Path, *, seed: int = 1) -> MutationContext:
    """Generate one task and build its initial state (setup.sh in the sandbox) and its oracle's end state."""
    folder = make_package(workflow, params, tmp / "out", seed=seed)
    package = load_package(folder)
    env = LocalEnv(Sandbox())
    initial, oracle = tmp / "initial", tmp / "oracle"
    initial.mkdir()
    ran = env.run_setup(package, initial)
    assert ran.ok, ran.evidence()
    shutil.copytree(initial, oracle, symlinks=True)
    solution = package.task["solutions"]["oracle"]
    if solution.endswith(".json"):
        apply_ops(oracle, json.loads((folder / solution).read_text("utf-8"))["ops"])
    else:
        assert env.apply_solution(package, solution, oracle).ok
    return MutationContext(package.task, initial, oracle, random.Random(seed))


def rubric_passes(task: dict[str, Any], root: Path) -> tuple[bool, str]:
    outcomes = evaluate_rubric(task, root)
    return all(o.passed for o in outcomes), "; ".join(f"{o.id}: {o.evidence}" for o in outcomes if not o.passed)


def judge(ctx: MutationContext, mutator: Mutator, tmp: Path) -> list[Judged]:
    """Apply every mutant `mutator` offers to its own copy of the oracle state and run the rubric on it."""
    passed, evidence = rubric_passes(ctx.task, ctx.oracle)
    assert passed, f"the oracle must pass first: {evidence}"
    out = []
    for i, mutant in enumerate(mutator(ctx)):
        state = tmp / f"mutant-{i}"
        shutil.copytree(ctx.oracle, state, symlinks=True)
        mutant.apply(state)
        passed, evidence = rubric_passes(ctx.task, state)
        out.append(Judged(mutant, passed, evidence))
    return out
