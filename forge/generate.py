"""Batch generation: choose skills, run each task's workflow, write its package, gate it, catalog it.

`plan()` is deterministic: task i of a run goes to skill i mod |skills| (skills sorted by id), with
index i div |skills|, so any slice of a plan can run anywhere (a Prefect batch, another machine) and
produce the same packages. Accepted packages land in `<out>/<app>/<task_id>/`; rejected ones in
`<out>/rejected/<status>/<task_id>/` for inspection; every task gets a catalog row with its class.
"""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from forge.catalog import Catalog, TaskRow
from forge.dag import LLMOutputError, NodeContext
from forge.errors import ForgeError, UnknownNameError, did_you_mean
from forge.ids import TaskId
from forge.llm import Backend, OfflineBackend
from forge.package import build_package, write_package
from forge.sandbox import Sandbox
from forge.solve import LocalEnv
from forge.taxonomy import Skill, load_taxonomy
from verifiers.gate import Gate, Stage, Verdict
from workflows import get_family


@dataclass(frozen=True)
class Selection:
    apps: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, list[str]]:
        return {"apps": list(self.apps), "families": list(self.families), "skills": list(self.skills)}


def select_skills(taxonomy: dict[str, Skill], selection: Selection) -> list[Skill]:
    """Active skills matching every given filter, sorted by id; unknown names raise with a suggestion."""
    apps = {a for s in taxonomy.values() for a in s.apps} | {s.app for s in taxonomy.values()}
    families = {s.family for s in taxonomy.values()}
    for value, known, what in ((selection.apps, apps, "app"), (selection.families, families, "family"),
                               (selection.skills, set(taxonomy), "skill")):
        for name in value:
            if name not in known:
                raise UnknownNameError(f"unknown {what} {name!r}.{did_you_mean(name, sorted(known))} "
                                       "See `forge skills list`.")
    chosen = [s for s in taxonomy.values() if s.status == "active"
              and (not selection.apps or s.app in selection.apps or set(s.apps) & set(selection.apps))
              and (not selection.families or s.family in selection.families)
              and (not selection.skills or s.id in selection.skills)]
    if not chosen:
        raise ForgeError(f"no active skill matches {selection.as_dict()}; see `forge skills list`")
    return sorted(chosen, key=lambda s: s.id)


def plan(skills: Sequence[Skill], n: int, seed: int) -> list[TaskId]:
    if n < 1:
        raise ForgeError(f"-n {n}: ask for at least one task")
    return [TaskId(skills[i % len(skills)].id, seed, i // len(skills)) for i in range(n)]


@dataclass
class Outcome:
    task_id: str
    app: str
    status: str
    path: Path | None
    evidence: str
    stages: list[Stage] = field(default_factory=list)


class Generator:
    """Generates and gates tasks into `out`, recording each in `catalog`. One instance per process."""

    def __init__(self, out: Path, catalog: Catalog, *, sandbox: Sandbox, backend: Backend | None = None,
                 taxonomy: dict[str, Skill] | None = None, run_id: int | None = None) -> None:
        self.out = out
        self.catalog = catalog
        self.backend = backend or OfflineBackend()
        self.taxonomy = taxonomy or load_taxonomy()
        self.run_id = run_id
        self.env = LocalEnv(sandbox, catalog.find_duplicate)
        self.gate = Gate(self.env)

    def run(self, task_ids: Iterable[TaskId], progress: Callable[[Outcome], None] | None = None,
            commit_every: int = 25) -> Counter[str]:
        counts: Counter[str] = Counter()
        session = self.catalog.session()
        try:
            for i, task_id in enumerate(task_ids, start=1):
                outcome, row, calls = self._one(task_id)
                self.catalog.record(session, row, outcome.stages, calls)
                counts[outcome.status] += 1
                if i % commit_every == 0:
                    session.commit()
                if progress:
                    progress(outcome)
            session.commit()
        finally:
            session.close()
        return counts

    def _one(self, task_id: TaskId) -> tuple[Outcome, TaskRow, list]:
        skill = self.taxonomy[task_id.skill_id]
        workflow = get_family(skill.family)
        ctx = NodeContext(skill.params, task_id.seed, skill.id, task_id.index, self.backend)
        row = TaskRow(id=str(task_id), skill_id=skill.id, family=skill.family, app=skill.app, seed=task_id.seed,
                      idx=task_id.index, run_id=self.run_id, workflow_signature=workflow.signature, evidence="")
        start = time.perf_counter()
        try:
            outputs = workflow.run(ctx)
            package = build_package(task_id, skill, workflow, outputs, ctx.calls)
        except LLMOutputError as exc:
            return self._rejected(row, "llm_fail", f"{exc}; raw: {exc.raw[:500]!r}", ctx.calls, start)
        except Exception as exc:  # a family bug must not stop the batch; it is infrastructure, not the task
            return self._rejected(row, "infra_fail", f"{type(exc).__name__}: {exc}", ctx.calls, start)
        row.seconds_generate = time.perf_counter() - start
        folder = write_package(self.out / skill.app / str(task_id), package)
        start = time.perf_counter()
        verdict = self.gate.verify(folder)
        row.seconds_verify = time.perf_counter() - start
        if not verdict.accepted:
            folder = self._move_rejected(folder, verdict)
        else:
            stale = self.out / "rejected"
            for old in stale.glob(f"*/{task_id}") if stale.exists() else ():
                shutil.rmtree(old)
        self._fill(row, verdict, folder, package.task, ctx.calls)
        return Outcome(row.id, skill.app, verdict.status, folder, verdict.evidence, verdict.stages), row, ctx.calls

    def _rejected(self, row: TaskRow, status: str, evidence: str, calls: list, start: float
                  ) -> tuple[Outcome, TaskRow, list]:
        row.status, row.evidence = status, evidence
        row.seconds_generate = time.perf_counter() - start
        self._usage(row, calls)
        stage = Stage("generate", False, evidence, row.seconds_generate)
        return Outcome(row.id, row.app, status, None, evidence, [stage]), row, calls

    def _move_rejected(self, folder: Path, verdict: Verdict) -> Path:
        target = self.out / "rejected" / verdict.status / folder.name
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        folder.rename(target)
        return target

    @staticmethod
    def _usage(row: TaskRow, calls: list) -> None:
        row.prompt_tokens = sum(c.prompt_tokens for c in calls)
        row.completion_tokens = sum(c.completion_tokens for c in calls)
        row.cost_usd = sum(c.cost_usd for c in calls)

    def _fill(self, row: TaskRow, verdict: Verdict, folder: Path, task: dict, calls: list) -> None:
        row.status, row.evidence = verdict.status, verdict.evidence
        row.path, row.instruction = str(folder), task["instruction"]
        row.dedup_key = task["metadata"]["dedup_key"]
        self._usage(row, calls)
