"""Batch generation: choose skills, run each task's workflow, write its package, gate it, catalog it.

`plan()` is deterministic and stratified: the skills are taken family by family in a seeded order (40 % of
the default mix's slots go to multi-app skills), so any slice of a plan can run anywhere (a Prefect batch,
another machine) and produce the same packages, and a short plan still covers every family. The plan also gives each
task its instruction register (`assign_registers`: explicit, natural, or half and half by default). Accepted packages
land in `<out>/<app>/<task_id>/`; rejected ones in `<out>/rejected/<status>/<task_id>/` for inspection; every
task gets a catalog row with its class.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import shutil
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forge.catalog import Catalog, TaskRow
from forge.daemons import Daemons
from forge.llm.ahead import Ahead
from forge.llm.budget import Budget
from forge.realapps import FAILS_AS, Policy, real_apps
from forge.solve import LocalEnv
from forge.warm import warm_setups
from forge.workers import gate_runner
from kit import scratch
from kit.dag import LLMOutputError, NodeContext
from kit.errors import ForgeError, UnknownNameError, did_you_mean
from kit.ids import TaskId
from kit.llm import Backend, LLMConfigError, OfflineBackend, ledger_tokens
from kit.package import build_package, load_package, sweep_partial, write_package
from kit.sandbox import Sandbox
from kit.taxonomy import Skill, load_taxonomy
from verifiers.gate.stages import Gate, Stage, Verdict
from workflows import get_family


@dataclass(frozen=True)
class Selection:
    """Which skills a run draws from. No filter at all is the *default mix*: every app, with `multi_share` of
    the tasks multi-app. An explicit filter is honoured exactly: `--app` takes that app's single-app skills
    (its multi-app skills too only with `with_multi_app`), `--family`/`--skill` take exactly those."""

    apps: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    with_multi_app: bool = False
    multi_share: float | None = None  # None: MULTI_SHARE for the default mix, no split for explicit filters
    register: str = "mixed"  # the instructions' register: explicit | natural | mixed (half and half)
    infeasible_share: float | None = None  # None: INFEASIBLE_SHARE for the default mix, none set apart otherwise

    @property
    def default_mix(self) -> bool:
        return not (self.apps or self.families or self.skills)

    def share(self) -> float:
        """The multi-app share of the plan: an explicit selection is not split unless asked."""
        if self.multi_share is not None:
            return self.multi_share
        return MULTI_SHARE if self.default_mix else 0.0

    def declines(self) -> float:
        """The share of infeasible tasks (decline, change nothing) the plan keeps: as `share`, for those skills."""
        if self.infeasible_share is not None:
            return self.infeasible_share
        return INFEASIBLE_SHARE if self.default_mix else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"apps": list(self.apps), "families": list(self.families), "skills": list(self.skills),
                "with_multi_app": self.with_multi_app, "multi_share": self.multi_share, "register": self.register,
                "infeasible_share": self.infeasible_share}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Selection:
        return cls(tuple(data.get("apps") or ()), tuple(data.get("families") or ()), tuple(data.get("skills") or ()),
                   bool(data.get("with_multi_app", False)), data.get("multi_share"), data.get("register") or "mixed",
                   data.get("infeasible_share"))


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
              and (not selection.apps or _in_apps(s, selection))
              and (not selection.families or s.family in selection.families)
              and (not selection.skills or s.id in selection.skills)]
    if not chosen:
        hint = " (multi-app skills join an --app selection only with --with-multi-app)" if selection.apps else ""
        raise ForgeError(f"no active skill matches {selection.as_dict()}{hint}; see `forge skills list`")
    return sorted(chosen, key=lambda s: s.id)


def _in_apps(skill: Skill, selection: Selection) -> bool:
    if len(skill.apps) == 1:
        return skill.app in selection.apps
    return skill.app in selection.apps or (selection.with_multi_app and bool(set(skill.apps) & set(selection.apps)))


#: Share of the default mix given to multi-app skills (the paper: 38.24 % of tasks are multi-app).
MULTI_SHARE = 0.4
#: Share of the default mix given to infeasible skills (issue 38: about 1 task in 15 asks for what cannot be done).
INFEASIBLE_SHARE = 1 / 15
#: The families whose tasks are infeasible (the right outcome is to decline) end with this.
INFEASIBLE_FAMILY = ".infeasible"


def infeasible(skill: Skill) -> bool:
    return skill.family.endswith(INFEASIBLE_FAMILY)


def plan(skills: Sequence[Skill], n: int, seed: int, multi_share: float = 0.0, infeasible_share: float = 0.0
         ) -> list[TaskId]:
    """n task ids over `skills`, stratified by family and shuffled by `seed`. In order of priority:
    1. the first slots take one skill of every family (families in a seeded order), so any n at least the
       number of families covers every family;
    2. with `multi_share` > 0 and both kinds present, the later slots keep the plan's running share of
       multi-app tasks at `multi_share` (a 3,000-task default mix has exactly 1,200 multi-app tasks; a small one
       fewer, since its opening holds one skill of each family and few families are multi-app),
    3. but a kind that has used all its skills yields to the other while that one has skills never used, so
       n = the number of skills covers every skill (the share is then caught up by the later slots);
    4. with `infeasible_share` > 0 and infeasible skills among others, the infeasible skills are a third kind whose
       running share the later slots keep at `infeasible_share` first (the same yielding applies).
    Each kind goes through its skills in `stratified` order; a skill's k-th visit is its task index k.
    Deterministic: the same skills, n and seed give the same plan, so any slice of it can run anywhere
    (a Prefect batch, another machine) and produce the same packages."""
    if n < 1:
        raise ForgeError(f"-n {n}: ask for at least one task")
    declines = infeasible_share > 0 and any(map(infeasible, skills)) and not all(map(infeasible, skills))
    apart = [s for s in skills if declines and infeasible(s)]
    skills = [s for s in skills if not (declines and infeasible(s))]
    split = multi_share > 0 and any(len(s.apps) > 1 for s in skills) and any(len(s.apps) == 1 for s in skills)
    kinds = {"single": [s for s in skills if len(s.apps) == 1 or not split],
             "multi": [s for s in skills if len(s.apps) > 1 and split], "infeasible": apart}
    orders = {kind: stratified(group, seed) for kind, group in kinds.items() if group}
    firsts = {s.family for s in (*skills, *apart)}
    family_order = sorted(firsts)
    random.Random(f"plan-families:{seed}").shuffle(family_order)
    rank = {name: i for i, name in enumerate(family_order)}
    opening = sorted((s for order in orders.values() for s in order[:_families(order)]), key=lambda s: rank[s.family])
    used = {kind: _families(order) for kind, order in orders.items()}
    ids = [TaskId(skill.id, seed, 0) for skill in opening[:n]]
    multi = sum(len(s.apps) > 1 for s in opening[:n] if not infeasible(s)) if split else 0
    declined = sum(infeasible(s) for s in opening[:n]) if declines else 0
    for i in range(len(ids), n):
        kind = "multi" if split and multi < multi_share * (i + 1) else "single"
        other = "single" if kind == "multi" else "multi"
        if other in orders and used[kind] >= len(orders[kind]) and used[other] < len(orders[other]):
            kind = other  # skills of the other kind never used yet come before repeats of this one
        if declines:
            fresh = [k for k in orders if used[k] < len(orders[k])]
            due = declined < infeasible_share * (i + 1)
            if (due and ("infeasible" in fresh or kind not in fresh)) or fresh == ["infeasible"]:
                kind = "infeasible"
        order = orders[kind]
        ids.append(TaskId(order[used[kind] % len(order)].id, seed, used[kind] // len(order)))
        used[kind] += 1
        multi += kind == "multi"
        declined += kind == "infeasible"
    return ids


def _families(order: list[Skill]) -> int:
    """How many families a `stratified` order holds (its opening has one skill of each)."""
    return len({s.family for s in order})


def plan_for(taxonomy: dict[str, Skill], selection: Selection, n: int, seed: int) -> list[TaskId]:
    """The run's plan: `select_skills`, `plan` with the selection's multi-app share, then `assign_registers`."""
    ids = plan(select_skills(taxonomy, selection), n, seed, selection.share(), selection.declines())
    return assign_registers(ids, selection.register, seed, lambda skill_id: has_natural(taxonomy[skill_id].family))


#: `--register` choices: every task explicit, every task natural, or half and half (the default).
REGISTER_MODES = ("mixed", "explicit", "natural")


def has_natural(family: str) -> bool:
    """Whether the family has natural phrasings (a family without them only makes explicit tasks)."""
    from workflows.common import natural_phrasings

    get_family(family)  # importing the family records its phrasings
    return bool(natural_phrasings(family))


def assign_registers(task_ids: Sequence[TaskId], mode: str, seed: int, natural_ok: Callable[[str], bool]
                     ) -> list[TaskId]:
    """Each task's instruction register, chosen by the plan (`natural_ok(skill_id)`: its family has natural
    phrasings). `explicit`: every task as today; `natural`: every task natural (a family without natural phrasings
    is an error naming it); `mixed`: the tasks that can be natural alternate in plan order from a seeded start, so
    exactly half of them (give or take one) are natural in any prefix, and any slice of the plan is the same."""
    if mode not in REGISTER_MODES:
        raise ForgeError(f"--register {mode!r}: choose one of {', '.join(REGISTER_MODES)}")
    if mode == "explicit":
        return [TaskId(t.skill_id, t.seed, t.index) for t in task_ids]
    able = {t.skill_id: natural_ok(t.skill_id) for t in task_ids}
    if mode == "natural":
        missing = sorted({t.skill_id for t in task_ids if not able[t.skill_id]})
        if missing:
            raise ForgeError(f"--register natural: {len(missing)} skills have no natural phrasings yet "
                             f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}); use --register "
                             "mixed (they stay explicit) or select other skills")
        return [TaskId(t.skill_id, t.seed, t.index, "natural") for t in task_ids]
    turn = random.Random(f"register:{seed}").randrange(2)
    registered = []
    for task in task_ids:
        natural = able[task.skill_id] and turn % 2 == 1
        turn += able[task.skill_id]
        registered.append(TaskId(task.skill_id, task.seed, task.index, "natural" if natural else "explicit"))
    return registered


def stratified(skills: Sequence[Skill], seed: int) -> list[Skill]:
    """Every skill once, in an order where any prefix is spread over the families like the whole:
    first one skill of each family (families in a seeded order), then the rest by their family's stride
    (skill j of a family of k sits at (j + offset) / k, offset seeded per family), so a prefix as long as the
    number of families covers every family, the whole list covers every skill, and two seeds pick different
    skills. Within a family the skills are shuffled by the seed too."""
    rng = random.Random(f"plan:{seed}")
    families: dict[str, list[Skill]] = {}
    for skill in sorted(skills, key=lambda s: s.id):
        families.setdefault(skill.family, []).append(skill)
    names = sorted(families)
    rng.shuffle(names)
    for name in names:
        rng.shuffle(families[name])
    firsts = [families[name][0] for name in names]
    rest = []
    for rank, name in enumerate(names):
        group, offset = families[name], rng.random()
        rest += [((j + offset) / len(group), rank, skill) for j, skill in enumerate(group[1:], start=1)]
    return firsts + [skill for _, _, skill in sorted(rest, key=lambda r: (r[0], r[1]))]


@dataclass
class _Prepared:
    task_id: TaskId
    app: str
    row: TaskRow
    folder: Path
    task: dict[str, Any]
    calls: list


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim()


def release_free_memory() -> None:
    """Give freed heap pages back to the OS. glibc keeps them (in the main heap and the gate threads' arenas),
    so without this a long run's RSS creeps up ~1 KB per task while its live data stays flat; measured on a
    20,000-task run: malloc_trim(0) took RSS from 128 MB back to 115 MB (benchmarks/memory.py)."""
    if _TRIM is not None:
        _TRIM(0)


#: At most this many warm check workers (one per usable core): more than two did not help on two cores.
MAX_WORKERS = 2
#: Tasks gated at once per check worker; dedup still runs in plan order. A task's gate waits on latency that uses no
#: CPU (its setup.sh in a fresh bubblewrap sandbox: ~60 ms of namespace setup and teardown, measured), so with two
#: per worker one task's controls run while the other's sandbox starts.
GATES_PER_WORKER = 2
#: Tasks the main thread generates ahead of the oldest one not yet recorded. Without a margin it would wait on the
#: gates whenever they fall behind, and a core would idle: at the start the worker group spends ~0.6 s of one core
#: importing its Python (measured: 0.4 s with one core idle per run; 32 Calc tasks, ~0.45 s of generating, still
#: left 0.08 s of it), and later a long gate (a big picture's mutants) holds the oldest slot. A kill loses at most
#: these generated, not yet recorded tasks; a rerun makes them again, byte for byte.
AHEAD = 64


def _ready(item: tuple[Any, ...]) -> bool:
    """A pending task that can be routed without waiting: rejected before its gate, or its gate is done."""
    return not isinstance(item[1], Future) or item[1].done()


def usable_cores() -> int:
    """CPUs this process may run on: its affinity mask, which the gate's children (check workers, sandboxes)
    inherit. A Dask worker pinned to one core (or a container given one) gets one gate, so two such workers
    on two cores scale out instead of both crowding the same cores."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass
class Outcome:
    task_id: str
    app: str
    status: str
    path: Path | None
    evidence: str
    stages: list[Stage] = field(default_factory=list)


class Generator:
    """Generates and gates tasks into `out`, recording each in `catalog`. One instance per process.

    `run` pipelines: the main thread generates the next task while gate threads (GATES_PER_WORKER per worker)
    verify the last ones, whose controls run in `workers` warm sandboxed check workers (in-process when the
    sandbox is off); by default one per usable core, at most MAX_WORKERS;
    the dedup stage, moving rejected packages and recording happen in plan order in the main thread.
    Accepted tasks the real-app policy samples wait for a batch of the real-app tier before they are
    recorded (one soffice call per batch and format); the tier runs in a thread of its own, one batch at a time,
    while the pipeline goes on."""

    def __init__(self, out: Path, catalog: Catalog, *, sandbox: Sandbox, backend: Backend | None = None,
                 taxonomy: dict[str, Skill] | None = None, run_id: int | None = None, workers: int | None = None,
                 real_apps: Policy | None = None, real_apps_batch: int = 20, budget: Budget | None = None,
                 concurrency: int = 1, judge: Any = None) -> None:
        self.out = out.resolve()  # catalog rows store absolute package paths: they resolve from any folder
        self.judge = judge  # optional verifiers.gate.judge.Judge: its read-back and verdict may reject accepted tasks
        self.budget = budget
        self.concurrency = concurrency  # tasks whose workflows (LLM calls) run at once; results stay in plan order
        self.stopped: str | None = None  # why `run` stopped before the end of the plan (a budget cap)
        self.catalog = catalog
        self.backend = backend or OfflineBackend()
        self.taxonomy = taxonomy or load_taxonomy()
        self.run_id = run_id
        self.sandbox = sandbox
        self.workers = workers or min(MAX_WORKERS, usable_cores())
        self.gates = GATES_PER_WORKER * self.workers
        self.policy = real_apps or Policy("off")
        self.real_apps_batch = real_apps_batch
        self.env = LocalEnv(sandbox, catalog.find_duplicate)

    def run(self, task_ids: Iterable[TaskId], progress: Callable[[Outcome], None] | None = None,
            commit_every: int = 25, resume: bool = True) -> Counter[str]:
        """Generate, gate and record `task_ids` in order; returns counts by gate class.

        With `resume` (the default) a task the catalog already holds with a final verdict from the same
        workflow version (and, when it has one, a complete package folder) is counted and skipped, so
        rerunning a killed command continues where it stopped. Infrastructure failures are retried."""
        task_ids = list(task_ids)
        counts: Counter[str] = Counter()
        sweep_partial(self.out)
        finished = self._finished(task_ids) if resume else {}
        families = {self.taxonomy[t.skill_id].family for t in task_ids}
        self.catalog.sync_workflows(get_family(name) for name in sorted(families))
        stack = contextlib.ExitStack()
        stack.enter_context(scratch.temp_files_in_ram())
        runner, workdir = stack.enter_context(gate_runner(self.sandbox, self.workers))
        self.env.setups = stack.enter_context(warm_setups(self.sandbox, self.out, workdir, self.gates))
        stack.callback(setattr, self.env, "setups", None)
        gate = Gate(self.env, runner=runner, workdir=workdir)
        tier = stack.enter_context(real_apps(self.policy, self.env, runner, workdir, self.sandbox))
        pending: deque[tuple[_Prepared, Future[Verdict]] | tuple[Outcome, TaskRow, list]] = deque()
        held: list[tuple[Outcome, TaskRow, list]] = []
        checked: deque[tuple[list[tuple[Outcome, TaskRow, list]], Future[list[list[Stage]]]]] = deque()
        tier_thread = Daemons("real-apps")
        stack.callback(tier_thread.close)
        unwritten: list[tuple[Outcome, TaskRow, list]] = []

        def write() -> None:
            """One short write transaction per `commit_every` tasks: the catalog is never locked while
            tasks are generated or gated (another process may write the same catalog meanwhile)."""
            if unwritten:
                self.catalog.record_all((row, outcome.stages, calls) for outcome, row, calls in unwritten)
                unwritten.clear()
                release_free_memory()

        def record(result: tuple[Outcome, TaskRow, list]) -> None:
            unwritten.append(result)
            counts[result[0].status] += 1
            if len(unwritten) >= commit_every:
                write()
            if progress:
                progress(result[0])

        def route(item: tuple[_Prepared, Future[Verdict]] | tuple[Outcome, TaskRow, list]) -> None:
            """Finish the oldest task in plan order; record it now, or hold it for the next real-app batch."""
            if isinstance(item[0], _Prepared):
                job, future = item  # type: ignore[misc]
                result = self._finish(gate, job, future.result())
            else:
                result = item  # type: ignore[assignment]
            outcome = result[0]
            if tier is None or outcome.status != "accepted" or outcome.path is None:
                return record(result)
            if not self.policy.wants(load_package(outcome.path).task):
                return record(result)
            held.append(result)
            if len(held) >= self.real_apps_batch:
                flush()

        def flush() -> None:
            """Hand the held tasks to the real-app tier, which runs in its own thread (real LibreOffice and
            Thunderbird mostly wait: starting, loading, saving) while the pipeline goes on."""
            assert tier is not None
            batch = list(held)
            held.clear()
            packages = [load_package(outcome.path) for outcome, _, _ in batch if outcome.path is not None]
            checked.append((batch, tier_thread.submit(tier.check, packages)))

        def collect(wait: bool = False) -> None:
            """Record the tier's finished batches, in the order they were handed over."""
            while checked and (wait or checked[0][1].done()):
                batch, future = checked.popleft()
                for (outcome, row, calls), stages in zip(batch, future.result(), strict=True):
                    self._apply_tier(outcome, row, stages)
                    record((outcome, row, calls))

        ahead = Ahead(self._prepare, [t for t in task_ids if str(t) not in finished], self.concurrency,
                      may_start=lambda: self.budget is None or not self.budget.exhausted())
        try:
            with ThreadPoolExecutor(max_workers=self.gates, thread_name_prefix="gate") as gate_threads:
                try:
                    for task_id in task_ids:
                        if str(task_id) in finished:
                            counts[finished[str(task_id)].status] += 1
                            if progress:
                                progress(finished[str(task_id)])
                            continue
                        prepared = ahead(task_id)
                        if prepared is None:  # a budget cap: the tasks in flight still finish and are recorded
                            self.stopped = self.budget.exhausted() if self.budget is not None else None
                            break
                        if isinstance(prepared, tuple):
                            pending.append(prepared)
                        else:
                            pending.append((prepared, gate_threads.submit(self._verify, gate, prepared)))
                        # the oldest tasks are recorded as soon as their gate is done (a kill loses little), and
                        # no more than AHEAD wait for one
                        while pending and (len(pending) > max(AHEAD, self.gates + 1) or _ready(pending[0])):
                            route(pending.popleft())
                        collect()
                    while pending:
                        route(pending.popleft())
                except KeyboardInterrupt:
                    # Ctrl-C: abandon the LLM requests in flight, the gates and real-app batches not yet started;
                    # what was recorded is written below, and a rerun resumes from it (answers already paid for
                    # are cached).
                    getattr(self.backend, "cancel", lambda: None)()
                    gate_threads.shutdown(wait=False, cancel_futures=True)
                    tier_thread.close(cancel=True)  # a batch in flight is not waited for: its apps die with us
                    raise
            if held:
                flush()
            collect(wait=True)
        finally:
            try:
                write()  # whatever was recorded before an error is kept
            finally:
                ahead.close()
                stack.close()
        return counts

    def _finished(self, task_ids: list[TaskId]) -> dict[str, Outcome]:
        """Tasks of this plan already recorded with a final verdict that a rerun would reproduce."""
        finished, out = {}, self.out.resolve()
        for task_id, (status, path, signature) in self.catalog.recorded([str(t) for t in task_ids]).items():
            skill = self.taxonomy.get(TaskId.parse(task_id).skill_id)
            if skill is None or status == "infra_fail" or signature != get_family(skill.family).signature:
                continue
            if path is not None and not (Path(path).resolve().is_relative_to(out)
                                         and (Path(path) / "task.json").is_file()):
                continue  # the package is gone, or the run writes to another folder: make it again
            finished[task_id] = Outcome(task_id, skill.app, status, Path(path) if path else None,
                                        "resumed: recorded by an earlier run")
        return finished

    def _apply_tier(self, outcome: Outcome, row: TaskRow, stages: list[Stage]) -> None:
        """Add the real-app stages to a task; a failing one rejects it (`setup_fail` or `strict`)."""
        outcome.stages.extend(stages)
        failed = next((s for s in stages if not s.passed), None)
        row.seconds_verify = (row.seconds_verify or 0.0) + sum(s.seconds for s in stages)
        if failed is None or outcome.path is None:
            return
        outcome.status, outcome.evidence = FAILS_AS[failed.name], failed.evidence
        target = self.out / "rejected" / outcome.status / outcome.path.name
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        outcome.path = outcome.path.rename(target)
        row.status, row.evidence, row.path = outcome.status, failed.evidence, str(target)

    def _verify(self, gate: Gate, job: _Prepared) -> Verdict:
        start = time.perf_counter()
        verdict = gate.verify(job.folder, dedup=False)
        if self.judge is not None and verdict.accepted:
            for review in (self.judge.read_back, self.judge.review):
                stage, calls = review(job.task)
                verdict.stages.append(stage)
                job.calls.extend(calls)
                if self.budget is not None:
                    self.budget.add(calls)
                if not stage.passed:  # the model read another goal, or the judge found the instruction underspecified
                    verdict.status = "grounding_fail"
                    break
        job.row.seconds_verify = time.perf_counter() - start
        return verdict

    def _prepare(self, task_id: TaskId) -> _Prepared | tuple[Outcome, TaskRow, list]:
        """Run the workflow and write the package (or the rejection when the workflow fails)."""
        skill = self.taxonomy[task_id.skill_id]
        workflow = get_family(skill.family)
        ctx = NodeContext(skill.params, task_id.seed, skill.id, task_id.index, self.backend, register=task_id.register)
        row = TaskRow(id=str(task_id), skill_id=skill.id, family=skill.family, app=skill.app, seed=task_id.seed,
                      idx=task_id.index, run_id=self.run_id, workflow_signature=workflow.signature, evidence="",
                      register=task_id.register)
        start = time.perf_counter()
        try:
            outputs = workflow.run(ctx)
            package = build_package(task_id, skill, workflow, outputs, ctx.calls)
        except LLMConfigError:
            raise  # the endpoint refuses every call (key, model, URL): stop the run, do not fail each task
        except LLMOutputError as exc:  # the whole raw answer is kept: it is the evidence
            return self._rejected(row, "llm_fail", f"{exc}; raw: {exc.raw!r}", ctx.calls, start)
        except Exception as exc:  # a family bug must not stop the batch; it is infrastructure, not the task
            return self._rejected(row, "infra_fail", f"{type(exc).__name__}: {exc}", ctx.calls, start)
        finally:
            if self.budget is not None:
                self.budget.add(ctx.calls)
        row.seconds_generate = time.perf_counter() - start
        folder = write_package(self.out / skill.app / str(task_id), package)
        return _Prepared(task_id, skill.app, row, folder, package.task, ctx.calls)

    def _finish(self, gate: Gate, job: _Prepared, verdict: Verdict) -> tuple[Outcome, TaskRow, list]:
        """In plan order: the dedup stage, then move a rejected package aside and fill in its catalog row."""
        gate.dedup(job.folder, verdict)
        folder = job.folder
        if not verdict.accepted:
            folder = self._move_rejected(folder, verdict)
        else:
            stale = self.out / "rejected"
            for old in stale.glob(f"*/{job.task_id}") if stale.exists() else ():
                shutil.rmtree(old)
        self._fill(job.row, verdict, folder, job.task, job.calls)
        outcome = Outcome(job.row.id, job.app, verdict.status, folder, verdict.evidence, verdict.stages)
        return outcome, job.row, job.calls

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
        """The task's spend as the ledger counts it (offline calls: 0 tokens; estimates stay in llm_calls)."""
        spent = [ledger_tokens(c.backend, c.prompt_tokens, c.completion_tokens) for c in calls]
        row.prompt_tokens = sum(p for p, _, _ in spent)
        row.completion_tokens = sum(c for _, c, _ in spent)
        row.cost_usd = sum(c.cost_usd for c in calls)

    def _fill(self, row: TaskRow, verdict: Verdict, folder: Path, task: dict, calls: list) -> None:
        row.status, row.evidence = verdict.status, verdict.evidence
        row.path, row.instruction = str(folder), task["instruction"]
        row.dedup_key = task["metadata"]["dedup_key"]
        self._usage(row, calls)
