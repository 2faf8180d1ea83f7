"""Probe confirmation of mined failure patterns, and steering the next round by any task feature (issue 39 items 1
and 2).

A mined pattern (`forge.mining`) is a set of task features that failed above round N-1's rate. Before the loop acts
on it, it is **confirmed on fresh probes**: `PROBES` new tasks whose feature record carries the pattern and as many
that do not, from the same families, are built and attempted; the pattern is kept only when its tasks fail more
again (one-sided Fisher's exact test at `CONFIRM_ALPHA`). With a simulated student (one whose `attempt(view)` can be
called now) the probes run while the round is prepared; with a real one they join the round's plan, the pattern is
`pending`, and the next round resolves it from the student's results on them (`resolve`) before acting on it.

**Steering** conditions a share of the next round's tasks on each confirmed pattern even when no axis or knob
expresses it (a file under a deep folder, dates in the values, a word in the instruction): bounded rejection sampling
over the skills of the families the pattern touches (and their seed skills at axis levels the taxonomy lacks, which
join it only when their probe tasks pass the gate), their seeds and the instruction register. Each try builds the
task's package without the gate (the workflow's nodes up to the instruction, files and rubric; the frame only when
the pattern names a check primitive) and its feature record (`forge.features`, the record mining reads), and keeps
the task when the record carries every feature of the pattern; a skill is drawn in proportion to how often its tasks
carried the pattern so far (round N-1's records, then this round's own tries: (hits + 1) / (tries + 2)). Each task
gets at most `MAX_TRIES` tries; a pattern whose tasks run out of tries twice in a row stops, and the slots it did not
fill go back to the ordinary allocation (never a loop without end). The steered tasks keep their ids (skill, run
seed, index, register): the round's generator builds the same package again and gates it like any other task.

The budget a pattern gets follows its effect size as `reallocate` follows a skill's failure rate: a skill's weight
is 1 + 3 x its failure rate, so its tasks gain 3 x (failure rate) over a solved one; a pattern's tasks gain the
difference of the failure rates with and without it, and the pattern gets `STEER_SHARE` x that difference of the
budget (all patterns together at most `STEER_SHARE`).

Every verdict and every steering is a `taxonomy_changes` row (operator `confirm`: action confirm | reject | pending;
operator `steer`: action steer), with the evidence in its statistics, and part of the round's expansion record.
"""

from __future__ import annotations

import itertools
import random
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forge.expand import change
from forge.features import TaskView, features, rubric_primitives, task_view
from forge.mining import Pattern, Record, fisher_greater
from kit.ids import TaskId, derive_seed
from kit.scratch import owned_folder, scratch_root
from kit.taxonomy import Skill

CONFIRM = "confirm"
STEER = "steer"
#: Fresh probe tasks per confirmed pattern that carry it (and as many that do not).
PROBES = 8
#: Fewer probes a side than this cannot confirm anything (3 of 3 failing against 0 of 3: p = 0.05).
MIN_PROBES = 3
#: The one-sided Fisher test a pattern's probes must pass.
CONFIRM_ALPHA = 0.05
#: At most this many of a round's mined patterns are probed (the strongest primary ones).
MAX_CONFIRM = 3
#: Tries of the rejection sampler per task.
MAX_TRIES = 12
#: The budget share a pattern whose tasks fail always, and the rest never, would get (see the module docstring).
STEER_SHARE = 0.8
#: All the untried axis-level variants of one seed skill weigh this much of the seed skill's own weight.
VIRTUAL_WEIGHT = 0.1
#: How many tries a family's record weighs in each of its skills' prior (the skill's own tries count one each).
FAMILY_PRIOR = 2.0
#: Task indices of steered tasks and probes start here (a round's allocation numbers its tasks from 0).
STEER_INDEX = 50_000
PROBE_INDEX = 70_000
#: Outputs a feature record needs from a workflow (build_package needs the solutions and launch too).
_NEEDED = ("assets", "instruction", "rubric", "solutions", "launch")

Attempt = Callable[[TaskView], bool]


@dataclass(frozen=True)
class Built:
    """A task built without the gate: its id, the view a student gets and its feature record."""

    task_id: TaskId
    view: TaskView
    features: frozenset[str]


class Builder:
    """Builds tasks' packages into a scratch folder (no gate) for their views and feature records."""

    def __init__(self, taxonomy: Mapping[str, Skill], folder: Path, *, backend: Any = None) -> None:
        from kit.llm import OfflineBackend

        self.taxonomy, self.folder = dict(taxonomy), folder
        self.backend = backend or OfflineBackend()
        self.builds = 0

    def build(self, task_id: TaskId, *, frame: bool = False) -> Built | None:
        """The task's package (the nodes a feature record needs; the frame too with `frame`), its view and features;
        None when the workflow fails (a task the gate would reject as infrastructure)."""
        from kit.dag import NodeContext
        from kit.package import build_package, write_package
        from workflows import get_family

        skill = self.taxonomy[task_id.skill_id]
        workflow = get_family(skill.family)
        ctx = NodeContext(skill.params, task_id.seed, skill.id, task_id.index, self.backend,
                          register=task_id.register)
        wanted = (*_NEEDED, "frame") if frame else _NEEDED
        self.builds += 1
        try:
            values = _run_for(workflow, ctx, wanted)
            package = build_package(task_id, skill, workflow, values, ctx.calls)
        except Exception:  # noqa: BLE001 - a family bug or a refused draw is a failed try, not a failed round
            return None
        folder = write_package(self.folder / str(task_id), package)
        view = task_view(str(task_id), skill, package=folder, app=skill.app)
        return Built(task_id, view, features(view, rubric_primitives(folder)))

    def discard(self, built: Built) -> None:
        shutil.rmtree(self.folder / str(built.task_id), ignore_errors=True)


def _run_for(workflow: Any, ctx: Any, outputs: Sequence[str]) -> dict[str, Any]:
    """Run only the nodes `outputs` depend on (the frame and the teacher are the costly ones a feature record
    does not need), in the workflow's order."""
    producer = {out: n for n in workflow.order for out in n.outputs}
    needed: set[str] = set()
    todo = [producer[o] for o in outputs if o in producer]
    while todo:
        node = todo.pop()
        if node.name not in needed:
            needed.add(node.name)
            todo.extend(producer[i] for i in node.inputs if i in producer)
    values: dict[str, Any] = {"params": dict(ctx.params)}
    for node in workflow.order:
        if node.name in needed:
            values.update(node.fn(ctx, {name: values[name] for name in node.inputs}))
    return values


@contextmanager
def builder(taxonomy: Mapping[str, Skill], backend: Any = None) -> Iterator[Builder]:
    """A `Builder` over a scratch folder removed at the end of the block."""
    with owned_folder("steer", scratch_root()) as folder:
        yield Builder(taxonomy, Path(folder), backend=backend)


def carries(pattern: Pattern | Sequence[str], feats: frozenset[str]) -> bool:
    need = pattern.features if isinstance(pattern, Pattern) else tuple(pattern)
    return set(need) <= feats


@dataclass
class Draw:
    """One task asked of the sampler: what it kept (None when the tries ran out) and how many tries it took."""

    built: Built | None
    tries: int


class Sampler:
    """Bounded rejection sampling of tasks whose feature record does (or does not) carry a pattern.

    The pool: the active skills of the families whose tasks carried the pattern in the mined round and, with
    `round_n` (steering), their seed skills at every other level of one axis, skills the taxonomy does not hold
    yet (`variant.atomic_skill`, operator `steer`): all the variants of one seed skill together weigh
    `VIRTUAL_WEIGHT` x the seed skill's weight, until their own tries say more. A kept task of such a skill makes
    the skill a candidate that must pass its probe tasks (`rounds.expand`)."""

    def __init__(self, pattern: Pattern, records: Sequence[Record], taxonomy: Mapping[str, Skill], build: Builder, *,
                 seed: int, run_seed: int, index: Iterator[int], round_n: int | None = None) -> None:
        from forge.generate import has_natural

        self.pattern, self.build, self.run_seed, self.index = pattern, build, run_seed, index
        self.rng = random.Random(derive_seed(seed, run_seed, "steer", pattern.name))
        families = {f.removeprefix("family=") for r in records if carries(pattern, r.features)
                    for f in r.features if f.startswith("family=")}
        self.pool = sorted((s for s in taxonomy.values() if s.status == "active" and s.family in families),
                           key=lambda s: s.id)
        self.hits: dict[str, int] = {s.id: 0 for s in self.pool}
        self.tries: dict[str, int] = {s.id: 0 for s in self.pool}
        for r in records:  # the prior: how often each skill's tasks carried the pattern in the mined round
            sid = _skill_of(r.task_id)
            if sid in self.hits:
                self.tries[sid] += 1
                self.hits[sid] += carries(pattern, r.features)
        self.scale: dict[str, float] = {s.id: 1.0 for s in self.pool}
        self.virtual: dict[str, Skill] = {}
        if round_n is not None:
            self._add_levels(families, taxonomy, round_n)
        self.natural = {s.id: has_natural(s.family) for s in self.pool}
        self.frame = any(f.startswith("check=") for f in pattern.features)

    def _add_levels(self, families: set[str], taxonomy: Mapping[str, Skill], round_n: int) -> None:
        from forge.expand import knob_key
        from forge.expand.variant import atomic_families, atomic_skill, seeds_by_family

        taken = {knob_key(s) for s in taxonomy.values()}
        for family in sorted(families & set(atomic_families())):
            axes = atomic_families()[family].axes
            for base in seeds_by_family().get(family, ()):
                variants = [atomic_skill(base, {axis: level}, round_n=round_n, operator=STEER)
                            for axis, levels in sorted(axes.items()) for level in levels[1:]]
                variants = [v for v in variants if knob_key(v) not in taken and v.id not in taxonomy]
                for v in variants:
                    taken.add(knob_key(v))
                    self.virtual[v.id] = v
                    self.build.taxonomy[v.id] = v
                    self.pool.append(v)
                    # the seed skill's record is the prior: the same knobs and wording, another level
                    self.hits[v.id], self.tries[v.id] = self.hits.get(base.id, 0), self.tries.get(base.id, 0)
                    self.scale[v.id] = VIRTUAL_WEIGHT / len(variants)

    def _rates(self, want: bool) -> list[float]:
        """Per skill of the pool, the chance that its task carries the pattern (`want`) or not: the skill's own
        tries, shrunk toward its family's (a family's skills share its content and wording, so an untried skill of a
        family whose tasks carried the pattern is likelier to than one of a family whose tasks did not). With
        hundreds of families a round's tasks leave most skills untried, and a flat prior spread the draws over them
        all (steering fell below 3x the blind loop's share once the taxonomy passed 200 families)."""
        family: dict[str, list[int]] = {}
        for s in self.pool:
            hits_tries = family.setdefault(s.family, [0, 0])
            hits_tries[0] += self.hits[s.id]
            hits_tries[1] += self.tries[s.id]
        out = []
        for s in self.pool:
            hits, tried = family[s.family]
            shared = ((hits if want else tried - hits) + 1) / (tried + 2)
            own = self.hits[s.id] if want else self.tries[s.id] - self.hits[s.id]
            out.append(self.scale[s.id] * (own + FAMILY_PRIOR * shared) / (self.tries[s.id] + FAMILY_PRIOR))
        return out

    def draw(self, want: bool = True, tries: int = MAX_TRIES) -> Draw:
        """A task whose record carries the pattern (`want`) or does not, in at most `tries` builds."""
        if not self.pool:
            return Draw(None, 0)
        for n in range(1, tries + 1):
            rates = self._rates(want)
            skill = self.rng.choices(self.pool, weights=rates)[0]
            register = "natural" if self.natural[skill.id] and self.rng.random() < 0.5 else "explicit"
            built = self.build.build(TaskId(skill.id, self.run_seed, next(self.index), register), frame=self.frame)
            self.tries[skill.id] += 1
            if skill.id in self.virtual:  # its own tries speak for it now
                self.scale[skill.id] = max(self.scale[skill.id], VIRTUAL_WEIGHT)
            if built is None:
                continue
            hit = carries(self.pattern, built.features)
            self.hits[skill.id] += hit
            if hit == want:
                return Draw(built, n)
            self.build.discard(built)
        return Draw(None, tries)


def _skill_of(task_id: str) -> str:
    try:
        return TaskId.parse(task_id).skill_id
    except ValueError:
        return ""


# --- confirmation ---------------------------------------------------------------------------------------------

@dataclass
class Confirmation:
    """A mined pattern's verdict on fresh probes: confirmed | rejected | pending (probes in the plan, results next
    round) | unprobed (no probe task could be built for it)."""

    pattern: Pattern
    status: str
    mined_round: int
    carrying: list[str] = field(default_factory=list)  # probe task ids that carry the pattern
    others: list[str] = field(default_factory=list)  # ...and those of the same families that do not
    failed_carrying: int = 0
    failed_others: int = 0
    p: float | None = None
    tries: int = 0
    reason: str = ""

    @property
    def effect(self) -> float:
        """The mined difference of failure rates with and without the pattern (what the steered share follows)."""
        return max(0.0, self.pattern.rate_with - self.pattern.rate_without)

    def as_dict(self) -> dict[str, Any]:
        return {"pattern": self.pattern.name, "status": self.status, "mined_round": self.mined_round,
                "mined": self.pattern.as_dict(), "probes_carrying": len(self.carrying),
                "probes_failed_carrying": self.failed_carrying, "probes_other": len(self.others),
                "probes_failed_other": self.failed_others, "p": self.p, "alpha": CONFIRM_ALPHA, "tries": self.tries,
                "carrying_ids": self.carrying, "other_ids": self.others, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Confirmation:
        m = data["mined"]
        pattern = Pattern(tuple(m["features"]), m["tasks_with"], m["failed_with"], m["tasks_without"],
                          m["failed_without"], m["p"], m["q"], tuple(m.get("aliases", ())),
                          dict(m.get("failed_checks", {})))
        return cls(pattern, str(data["status"]), int(data["mined_round"]), list(data.get("carrying_ids", [])),
                   list(data.get("other_ids", [])), int(data.get("probes_failed_carrying", 0)),
                   int(data.get("probes_failed_other", 0)), data.get("p"), int(data.get("tries", 0)),
                   str(data.get("reason", "")))

    def judge(self, failed: Mapping[str, bool]) -> None:
        """Set the verdict from the probes' outcomes (task id -> failed; probes without an outcome left out)."""
        carrying = [t for t in self.carrying if t in failed]
        others = [t for t in self.others if t in failed]
        self.failed_carrying = sum(failed[t] for t in carrying)
        self.failed_others = sum(failed[t] for t in others)
        total, n = len(carrying) + len(others), len(carrying)
        if not carrying or not others:
            self.status, self.p = "rejected", None
            self.reason = (f"{self.pattern.name!r}: no outcome on {'its' if not carrying else 'the other'} probes "
                           f"({len(carrying)} carrying, {len(others)} not): not confirmed")
            return
        self.p = fisher_greater(self.failed_carrying, n, self.failed_carrying + self.failed_others, total)
        self.status = "confirmed" if self.p <= CONFIRM_ALPHA else "rejected"
        self.reason = (f"{self.pattern.name!r} (mined in round {self.mined_round}: fails "
                       f"{self.pattern.rate_with:.0%} of {self.pattern.n_with} tasks vs {self.pattern.rate_without:.0%}"
                       f" without) on fresh probes: {self.failed_carrying}/{n} carrying it failed vs "
                       f"{self.failed_others}/{len(others)} of the same families without it; one-sided Fisher p "
                       f"{self.p:.2g} {'<=' if self.status == 'confirmed' else '>'} {CONFIRM_ALPHA}: {self.status}")


def probe_tasks(conf: Confirmation, sampler: Sampler, n: int = PROBES) -> list[Built]:
    """Draw `n` probes that carry the pattern and `n` that do not (same families); fills `conf`'s ids and tries."""
    kept = []
    for want in (True, False):
        for _ in range(n):
            draw = sampler.draw(want)
            conf.tries += draw.tries
            if draw.built is not None:
                kept.append(draw.built)
                (conf.carrying if want else conf.others).append(str(draw.built.task_id))
    return kept


def confirm(patterns: Sequence[Pattern], records: Sequence[Record], taxonomy: Mapping[str, Skill], build: Builder, *,
            mined_round: int, seed: int, run_seed: int, attempt: Attempt | None, n: int = PROBES
            ) -> tuple[list[Confirmation], list[str]]:
    """Probe the strongest `MAX_CONFIRM` patterns: judged now when `attempt` (a simulated student's answer to a
    view: True when it passed) is given, else `pending` with the probe ids, returned second, to add to the plan."""
    index = itertools.count(PROBE_INDEX)
    out, plan = [], []
    for pattern in patterns[:MAX_CONFIRM]:
        conf = Confirmation(pattern, "pending", mined_round)
        if n < MIN_PROBES:
            conf.status = "unprobed"
            conf.reason = (f"{pattern.name!r}: the round's budget leaves room for {n} probes a side (at least "
                           f"{MIN_PROBES} needed): not confirmed, not acted on")
            out.append(conf)
            continue
        sampler = Sampler(pattern, records, taxonomy, build, seed=seed, run_seed=run_seed, index=index)
        probes = probe_tasks(conf, sampler, n)
        if not conf.carrying or not conf.others:
            conf.status = "unprobed"
            conf.reason = (f"{pattern.name!r}: no probe {'carrying' if not conf.carrying else 'without'} it could be "
                           f"built in {conf.tries} tries: not confirmed, not acted on")
        elif attempt is not None:
            conf.judge({str(b.task_id): not attempt(b.view) for b in probes})
        else:
            plan += [str(b.task_id) for b in probes]
            conf.reason = (f"{pattern.name!r}: {len(conf.carrying)} probes carrying it and {len(conf.others)} "
                           "without join this round's plan; acted on next round if they confirm it")
        for b in probes:
            build.discard(b)
        out.append(conf)
    return out, plan


def resolve(earlier: Iterable[Mapping[str, Any]], records: Sequence[Record]) -> list[Confirmation]:
    """The pending confirmations of the previous round, judged on the student's results on their probes (which ran
    in that round: `records`)."""
    failed = {r.task_id: r.failed for r in records}
    out = []
    for data in earlier:
        if data.get("status") == "pending":
            conf = Confirmation.from_dict(data)
            conf.judge(failed)
            out.append(conf)
    return out


def confirmation_rows(confs: Iterable[Confirmation]) -> list[Any]:
    action = {"confirmed": "confirm", "rejected": "reject", "pending": "pending", "unprobed": "reject"}
    return [change(CONFIRM, action[c.status], c.pattern.name[:120], c.reason, stats=c.as_dict()) for c in confs]


# --- steering ---------------------------------------------------------------------------------------------------

@dataclass
class Steering:
    """The tasks conditioned on one confirmed pattern this round."""

    pattern: Pattern
    share: float
    wanted: int
    task_ids: list[str] = field(default_factory=list)
    tries: list[int] = field(default_factory=list)  # per kept task
    exhausted: int = 0  # tasks whose tries ran out
    stopped: str | None = None
    #: skills at axis levels the taxonomy did not hold, by id, for kept tasks (each must pass its probe tasks)
    new_skills: dict[str, Skill] = field(default_factory=dict)
    #: kept tasks dropped because their new skill failed its probe tasks
    dropped: int = 0

    def drop(self, refused: set[str]) -> None:
        """Forget the kept tasks of new skills that failed their probes (their slots go to the allocation)."""
        keep = [(t, n) for t, n in zip(self.task_ids, self.tries, strict=True)
                if TaskId.parse(t).skill_id not in refused]
        self.dropped += len(self.task_ids) - len(keep)
        self.task_ids, self.tries = [t for t, _ in keep], [n for _, n in keep]
        self.new_skills = {k: v for k, v in self.new_skills.items() if k not in refused}

    def as_dict(self) -> dict[str, Any]:
        kept = len(self.task_ids)
        return {"pattern": self.pattern.name, "share": round(self.share, 4), "wanted": self.wanted, "tasks": kept,
                "tries": sum(self.tries) + self.exhausted * MAX_TRIES, "tries_per_task":
                round(sum(self.tries) / kept, 2) if kept else None, "max_tries": MAX_TRIES,
                "exhausted": self.exhausted, "stopped": self.stopped, "new_skills": sorted(self.new_skills),
                "dropped": self.dropped}

    @property
    def reason(self) -> str:
        d = self.as_dict()
        text = (f"{self.pattern.name!r} (fails {self.pattern.rate_with:.0%} vs {self.pattern.rate_without:.0%} "
                f"without): {self.share:.0%} of the budget = {self.wanted} tasks; {d['tasks']} carry it after "
                f"{d['tries']} tries ({d['tries_per_task']} per task, at most {MAX_TRIES})")
        if self.exhausted:
            text += f"; {self.exhausted} ran out of tries"
        if self.new_skills or self.dropped:
            text += (f"; {len(self.new_skills)} at axis levels new to the taxonomy (admitted on their probes)"
                     + (f", {self.dropped} dropped with a skill that failed them" if self.dropped else ""))
        return text + (f"; {self.stopped}" if self.stopped else "")


def shares(confirmed: Sequence[Confirmation], budget: int) -> list[tuple[Confirmation, float, int]]:
    """Each confirmed pattern's budget share (STEER_SHARE x its effect; together at most STEER_SHARE) and tasks."""
    effects = [c.effect for c in confirmed]
    scale = min(1.0, 1.0 / sum(effects)) if sum(effects) > 0 else 0.0
    return [(c, STEER_SHARE * e * scale, int(STEER_SHARE * e * scale * budget)) for c, e in zip(confirmed, effects,
                                                                                                 strict=True)]


def steer(confirmed: Sequence[Confirmation], records: Sequence[Record], taxonomy: Mapping[str, Skill],
          build: Builder, *, budget: int, seed: int, run_seed: int, round_n: int | None = None) -> list[Steering]:
    """Draw each confirmed pattern's share of the round's tasks (see the module docstring); with `round_n`, also
    from seed skills at axis levels the taxonomy lacks (`Steering.new_skills`: the caller admits them)."""
    index = itertools.count(STEER_INDEX)
    out = []
    for conf, share, wanted in shares(confirmed, budget):
        steering = Steering(conf.pattern, share, wanted)
        sampler = Sampler(conf.pattern, records, taxonomy, build, seed=seed, run_seed=run_seed, index=index,
                          round_n=round_n)
        in_a_row = 0
        for _ in range(wanted):
            draw = sampler.draw(True)
            if draw.built is None:
                steering.exhausted += 1
                in_a_row += 1
                if in_a_row == 2 or not sampler.pool:
                    steering.stopped = (f"stopped after {len(steering.task_ids) + steering.exhausted} of {wanted} "
                                        "tasks: the tries ran out twice in a row; the rest of its share goes to the "
                                        "ordinary allocation")
                    break
                continue
            in_a_row = 0
            steering.task_ids.append(str(draw.built.task_id))
            steering.tries.append(draw.tries)
            if draw.built.task_id.skill_id in sampler.virtual:
                skill = sampler.virtual[draw.built.task_id.skill_id]
                steering.new_skills[skill.id] = skill
            build.discard(draw.built)
        out.append(steering)
    return out


def steering_rows(steered: Iterable[Steering]) -> list[Any]:
    return [change(STEER, STEER, s.pattern.name[:120], s.reason, stats=s.as_dict()) for s in steered]
