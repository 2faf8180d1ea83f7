"""Test helpers: run one family (no registry, no taxonomy needed) through package writing and the real gate."""

from __future__ import annotations

import atexit
import contextlib
import json
import shutil
from pathlib import Path
from typing import Any

from forge.solve import LocalEnv
from forge.workers import gate_runner
from kit.dag import NodeContext, Workflow
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.package import build_package, load_package, write_package
from kit.sandbox import Sandbox
from kit.taxonomy import Skill
from preparers.ops import apply_ops, resolve
from verifiers.gate.mutation import BUDGET
from verifiers.gate.stages import Gate, Verdict


def package_states(package_root: Path, tmp_path: Path, solution: str) -> tuple[Path, Path]:
    """The initial state of a package (assets placed as setup.sh places them) and the state after `solution` (its
    ops applied by Forge), under `tmp_path`."""
    task = load_package(package_root).task
    initial = tmp_path / "initial"
    for asset in task["setup"]["assets"]:
        dest = resolve(initial, asset["dest"])
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(package_root / asset["file"], dest)
    after = tmp_path / "after"
    shutil.copytree(initial, after)
    apply_ops(after, json.loads((package_root / solution).read_text())["ops"])
    return initial, after


def skill_for(workflow: Workflow, params: dict[str, Any], skill_id: str = "test.skill") -> Skill:
    return Skill(id=skill_id, family=workflow.name, apps=workflow.apps, params=params,
                 description="a skill made up for a test", difficulty="easy")


def make_package(workflow: Workflow, params: dict[str, Any], out: Path, *, seed: int = 1, index: int = 0,
                 skill_id: str = "test.skill") -> Path:
    """Run the workflow offline and write its package under `out`; returns the package folder."""
    skill = skill_for(workflow, params, skill_id)
    task_id = TaskId(skill.id, seed, index)
    ctx = NodeContext(params, seed, skill.id, index, OfflineBackend())
    outputs = workflow.run(ctx)
    package = build_package(task_id, skill, workflow, outputs, ctx.calls)
    return write_package(out / skill.app / str(task_id), package)


_RUNNER: list[tuple[object, Path]] = []


def gate_package(folder: Path, *, mutants: tuple[int, int] | None = BUDGET) -> Verdict:
    """The real gate, with the warm sandboxed check workers shared by the whole test session (`mutants`: how many
    mutants the mutation stage samples; None runs every one)."""
    if not _RUNNER:
        stack = contextlib.ExitStack()
        _RUNNER.append(stack.enter_context(gate_runner(Sandbox())))
        atexit.register(stack.close)
    runner, workdir = _RUNNER[0]
    return Gate(LocalEnv(Sandbox()), runner=runner, workdir=workdir,  # type: ignore[arg-type]
                mutants=mutants).verify(folder)


def assert_accepted(folder: Path) -> Verdict:
    """Gate `folder` with every mutant (the family contract's test): accepted, every damaging mutant rejected."""
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    mutation = next(s for s in verdict.stages if s.name == "mutation")
    assert "damaging mutants rejected" in mutation.evidence, mutation.evidence
    return verdict


def gate_family(workflow: Workflow, params: dict[str, Any], out: Path, seeds: range = range(1, 6)) -> list[Verdict]:
    """Generate one task per seed and gate each: the contract every family must meet."""
    return [gate_package(make_package(workflow, params, out, seed=s)) for s in seeds]
