"""Feedback rounds: expand from the student's last results -> allocate -> generate -> export -> ingest.

`prepare_round` and `finish_round` are the two halves around generation; `run_round` chains them with a
plain `Generator` (the Prefect `round` flow calls the same two functions around its own batches).

prepare_round(N), in order, each decision recorded in `taxonomy_changes`:
1. `retire` and `reallocate` turn round N-1's per-skill statistics into weights (saturated skills lose
   weight, then retire; failed skills gain weight);
2. `forge.expand.analysis` groups round N-1's attempts by family x axis level x failed check, and the operators
   turn it into candidates, but only when failures are not chance: `forge.mining` tests every task feature and
   pair of features against round N-1's failure rate (Fisher, Benjamini-Hochberg), and when no pattern is
   significant (noise, or a student that fails nothing) nothing is added and the expansion says so (issue 39);
   a significant primary pattern (`mining.primary`) is acted on only once confirmed on fresh probes
   (`expand.steer.confirm`: probes that carry it fail more than probes of the same families that do not, one-sided
   Fisher at 0.05), answered now by a simulated `student`, or next round from a real student's results on the
   probes, which join this round's plan (the pattern is `pending` until then);
   only candidates in the families of failed tasks a confirmed pattern explains stay,
   so the student's unexplained background failures grow nothing; the candidates (round N-1 of round 1 is
   round 0: the student's results on `forge generate` tasks; without any attempts: `explore`, every axis level
   once per family):
   `propose` (around each failure cluster), `variant` (every knob combination of a failing family along its
   failing axes), `decompose` (the steps of a failing chain), `chain` (a chain whose steps all pass), then
   harder variants of what passes (all of them for a student that fails nothing, else at most a tenth of the
   rest). The statistics set how many; `limit` only samples what is probed now (scaled-down runs);
3. `probe.admit` refuses duplicates and keeps the candidates whose k probe tasks all pass the gate (at scale,
   `sample`: a seeded sample per family x axis level group is probed and the rest join on it, said so in their rows);
4. `expand.steer.steer` conditions a share of the budget on each confirmed pattern, following its effect size,
   even where no axis expresses it (bounded rejection sampling of skills, seeds and registers of the families the
   pattern touches, kept when the task's feature record carries it); the confirmation and steering verdicts are
   `taxonomy_changes` rows (operators `confirm`, `steer`) and part of the round's `expansion` record;
5. `reallocate.allocate` spreads the rest of the budget over the active skills by weight, 40 % to multi-app
   skills, after one task for each skill added this round (up to half of each share).
Task ids of round N use the run seed `seed * 100 + N`, so rounds never collide. Preparing a round twice
returns the plan recorded the first time (nothing is expanded twice).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from forge.catalog import Catalog
from forge.expand import (
    Candidate,
    catalog_taxonomy,
    chain,
    change,
    knob_key,
    propose,
    reallocate,
    record,
    retire,
    seed_taxonomy,
    steer,
    variant,
    weights,
)
from forge.expand.analysis import Analysis, analyse_round
from forge.expand.probe import DEFAULT_K, admit, refused_before
from forge.expand.steer import Confirmation, Steering, carries
from forge.features import TaskView
from forge.generate import Generator, Outcome
from forge.mining import Pattern, Record, mine, primary, round_records
from forge.stats import skill_stats
from forge.student import Student, answer
from kit.errors import ForgeError, did_you_mean
from kit.ids import TaskId, derive_seed
from kit.llm import Backend
from kit.sandbox import Sandbox
from kit.taxonomy import Skill

#: The weight of a step skill of a chain the student fails (a never-solved skill gets 4 from reallocate).
STEP_WEIGHT = 2.5


class RoundError(ForgeError, ValueError):
    """A round asked out of order or with bad arguments."""


def round_seed(seed: int, round_n: int) -> int:
    """The run seed of round N's task ids: `seed * 100 + N`."""
    return seed * 100 + round_n


def _ensure_seed(catalog: Catalog) -> None:
    """Seed skills the catalog does not hold yet are added (never overwriting a weight or a retirement)."""
    present = set(catalog.skill_ids())
    catalog.sync_skills(s for s in seed_taxonomy().values() if s.id not in present)


def _apply(catalog: Catalog, decisions: list[retire.Decision]) -> None:
    catalog.set_weights((d.skill_id, d.weight, d.action == "retire") for d in decisions)


def candidates(catalog: Catalog, round_n: int, *, seed: int, taxonomy: dict[str, Skill],
               backend: Backend | None = None, gate: bool = True, records: list[Record] | None = None,
               confirmed: list[Pattern] | None = None, unconfirmed: str | None = None
               ) -> tuple[list[Candidate], list[tuple[str, str]], Analysis]:
    """Round N's new skill candidates from round N-1's statistics (explore in round 1), deduplicated in operator
    order, plus the proposer's refusals and the analysis they came from. Nothing is probed or written here.
    With `gate` (the default), none when no mined failure pattern is significant (`analysis.no_growth` says why);
    `gate=False` is the loop before issue 39, which grew from any failure (for comparisons). `confirmed`: the
    patterns that passed their probes (`steer.confirm`), acted on instead of every primary mined one; when none
    did, `unconfirmed` says why nothing grows. `records`: round N-1's mining records, when already read."""
    analysis = analyse_round(catalog, round_n - 1, taxonomy)  # round 0: the results on `forge generate` tasks
    taken = {knob_key(s) for s in taxonomy.values()} | refused_before(catalog)
    if analysis.attempts == 0:
        return variant.explore(round_n=round_n, seed=seed, taken=taken), [], analysis
    families: set[str] | None = None
    if gate:
        records = round_records(catalog, round_n - 1) if records is None else records
        if confirmed is None:
            analysis.patterns, explained = primary(records, mine(records))
        else:
            analysis.patterns = list(confirmed)
            explained = {r.task_id for r in records if r.failed and any(carries(p, r.features) for p in confirmed)}
        # the families of the failed tasks a pattern explains: where the next round's additions go
        families = {f.removeprefix("family=") for r in records if r.task_id in explained for f in r.features
                    if f.startswith("family=")}
        if not analysis.patterns:
            failed = sum(t.attempts - t.successes for t in analysis.families.values())
            analysis.no_growth = unconfirmed or (
                f"no failure pattern beyond chance in round {round_n - 1} ({failed} of "
                f"{analysis.attempts} attempts failed; no task feature or pair fails above that "
                "rate at Benjamini-Hochberg q <= 0.05): nothing is added")
            return [], [], analysis
    proposed, bad = propose.propose(analysis=analysis, round_n=round_n, seed=seed, taxonomy=taxonomy,
                                    backend=backend)
    fresh = []
    for cand in proposed:
        key = knob_key(cand.skill)
        if key not in taken:
            taken.add(key)
            fresh.append(cand)
    out = [*fresh, *variant.around_failures(analysis, round_n=round_n, taken=taken),
           *chain.decompose(analysis, taxonomy, round_n=round_n, taken=taken),
           *chain.chain(analysis, round_n=round_n, taken=taken)]
    if families is not None:  # failures no pattern explains (the student's background noise) grow nothing
        out = [c for c in out if c.skill.family in families or str(c.stats.get("chain")) in families]
    # Harder variants of what passes: all of them when nothing fails; else only as many as a tenth of the
    # additions aimed at failures (the strongest skills first), so the taxonomy grows toward what is failed.
    harder = variant.harder(analysis, taxonomy, round_n=round_n, taken=set(taken))
    if out:
        rank = {sid: (-(t.rate or 0.0), -t.attempts, sid) for sid, t in analysis.skills.items()}
        harder = sorted(harder, key=lambda c: rank.get(str(c.stats.get("from")), (0.0, 0, "")))[:len(out) // 10]
    return [*out, *harder], bad, analysis


def sample_candidates(found: list[Candidate], limit: int | None, seed: int, round_n: int) -> list[Candidate]:
    """At most `limit` candidates, a seeded sample that keeps each operator's share (for scaled-down runs and
    tests: the statistics decide what is wanted, `limit` only how much of it is probed now)."""
    if limit is None or len(found) <= limit:
        return found
    rng = random.Random(derive_seed(seed, round_n, "sample"))
    by_op: dict[str, list[Candidate]] = {}
    for cand in found:
        by_op.setdefault(cand.operator, []).append(cand)
    out: list[Candidate] = []
    for _, cands in sorted(by_op.items()):
        share = max(1, round(limit * len(cands) / len(found)))
        out += rng.sample(cands, min(share, len(cands)))
    return sorted(out[:limit], key=lambda c: c.skill.id)


def confirmations(catalog: Catalog, round_n: int, records: list[Record], taxonomy: dict[str, Skill],
                  build: steer.Builder, *, seed: int, student: Student | None, budget: int
                  ) -> tuple[list[Confirmation], list[str]]:
    """Round N-1's mined primary patterns on fresh probes (`steer.confirm`), after the patterns round N-1 left
    pending, judged on the student's results on their probes (which ran in round N-1). Returns every verdict and
    the probe task ids to add to this round's plan (a student that cannot answer now: patterns pending)."""
    before = catalog.round_row(round_n - 1)
    earlier = (before.counts.get("expansion", {}) if before is not None else {}).get("confirmation", [])
    resolved = steer.resolve(earlier, records)
    done = {c.pattern.name for c in resolved}
    patterns, _ = primary(records, mine(records))
    attempt: Callable[[TaskView], bool] | None = None
    if student is not None:
        def attempt(view: TaskView) -> bool:
            return answer(student, view)[0]
    todo = [p for p in patterns if p.name not in done]
    # probes in the plan take at most a third of the budget
    n = steer.PROBES if attempt is not None or not todo else min(
        steer.PROBES, budget // (6 * min(len(todo), steer.MAX_CONFIRM)))
    fresh, plan = steer.confirm(todo, records, taxonomy, build, mined_round=round_n - 1, seed=seed,
                                run_seed=round_seed(seed, round_n), attempt=attempt, n=n)
    return resolved + fresh, plan


def _unconfirmed(confs: list[Confirmation], round_n: int) -> str | None:
    if not confs:
        return None
    said = {c.status for c in confs}
    return (f"none of the {len(confs)} failure patterns mined in round {round_n - 1} is confirmed on fresh probes "
            f"({', '.join(f'{c.pattern.name}: {c.status}' for c in confs)}): nothing is added"
            + ("; the pending ones are judged next round on their probes' results" if "pending" in said else ""))


def expand(catalog: Catalog, round_n: int, *, k: int, seed: int, sandbox: Sandbox, backend: Backend | None = None,
           limit: int | None = None, sample: int | None = None, budget: int = 0,
           student: Student | None = None) -> tuple[dict[str, Any], list[str]]:
    """Steps 1-3 of a round (see the module docstring); returns what changed, by operator, and the task ids the
    confirmation probes and the steering add to the round's plan. `sample`: probe that many candidates per
    family x axis level group and admit the rest on their groups' samples (`probe.admit`). `student`: a simulated
    student that answers the confirmation probes now (without one, the probes join the plan)."""
    taxonomy = catalog_taxonomy(catalog)
    stats = skill_stats(catalog, round_n - 1)
    current = weights(catalog)
    # a rerun after a crash must not halve weights twice
    reweighted = catalog.reweighted_in_round(round_n, (retire.OPERATOR, reallocate.OPERATOR, chain.DECOMPOSE))
    retired = [] if reweighted else retire.decide(stats, current, round_n)
    realloc = [] if reweighted else reallocate.decide(stats, current, round_n, skip={d.skill_id for d in retired})
    _apply(catalog, retired + realloc)
    record(catalog, round_n, [change(op, d.action, d.skill_id, d.reason, stats=stats[d.skill_id].as_dict())
                              for op, ds in ((retire.OPERATOR, retired), (reallocate.OPERATOR, realloc)) for d in ds])
    records = round_records(catalog, round_n - 1)
    with steer.builder(taxonomy, backend) as build:
        confs, probe_ids = (confirmations(catalog, round_n, records, taxonomy, build, seed=seed,
                                          student=student, budget=budget)
                            if records else ([], []))
        record(catalog, round_n, steer.confirmation_rows(confs))
        confirmed = [c for c in confs if c.status == "confirmed"]
        found, bad, analysis = candidates(catalog, round_n, seed=seed, taxonomy=taxonomy, backend=backend,
                                          records=records, confirmed=[c.pattern for c in confirmed] if confs else None,
                                          unconfirmed=_unconfirmed(confs, round_n))
        after = weights(catalog)  # a step skill reallocate already weighed (or retire retired) keeps that weight
        steps = [] if reweighted else [
            retire.Decision(sid, "reweight", STEP_WEIGHT, f"{why}: weight {after[sid]:.2f} -> {STEP_WEIGHT:.2f}")
            for sid, why in chain.step_skills(analysis).items() if 0 < after.get(sid, 0) < STEP_WEIGHT]
        _apply(catalog, steps)
        record(catalog, round_n, [change(chain.DECOMPOSE, d.action, d.skill_id, d.reason) for d in steps])
        record(catalog, round_n, [change(propose.OPERATOR, "refuse", label, f"proposal does not fit its family: {why}")
                                  for label, why in bad])
        probed = sample_candidates(found, limit, seed, round_n)
        admission = admit(catalog, probed, taxonomy, round_n=round_n, k=k, seed=round_seed(seed, round_n) + 50,
                          sandbox=sandbox, sample=sample)
        # steering draws from the taxonomy as admitted now: this round's variants can carry the pattern too
        build.taxonomy = catalog_taxonomy(catalog)
        steered: list[Steering] = steer.steer(confirmed, records, build.taxonomy, build,
                                              budget=max(0, budget - len(probe_ids)), seed=seed,
                                              run_seed=round_seed(seed, round_n),
                                              round_n=round_n) if confirmed and budget else []
        # steered tasks of skills at axis levels the taxonomy lacked: the skills join as any candidate does
        levels = admit(catalog, [Candidate(skill, steer.STEER, f"steered toward {s.pattern.name!r}: a task of it "
                                           "carries the pattern", {"pattern": s.pattern.name})
                                 for s in steered for skill in s.new_skills.values()],
                       catalog_taxonomy(catalog), round_n=round_n, k=k, seed=round_seed(seed, round_n) + 60,
                       sandbox=sandbox)
        refused = {c.skill.id for c, _ in levels.refused}
        for s in steered:
            s.drop(refused)
        record(catalog, round_n, steer.steering_rows(steered))
        admission.added += levels.added
        admission.refused += levels.refused
        admission.probe_tasks += levels.probe_tasks
    added = Counter(c.operator for c in admission.added)
    extra = [*probe_ids, *(t for s in steered for t in s.task_ids)]
    return {"retired": sum(d.action == "retire" for d in retired), "reweighted": len(realloc) + len(retired)
            - sum(d.action == "retire" for d in retired), "wanted": dict(Counter(c.operator for c in found)),
            "candidates": len(probed), "added": dict(added), "refused": len(admission.refused) + len(bad),
            "probe_tasks": admission.probe_tasks, "added_on_sample": admission.sampled,
            "attempts_analysed": analysis.attempts,
            "patterns": [p.name for p in analysis.patterns[:10]],
            "confirmation": [c.as_dict() for c in confs],
            "steering": [s.as_dict() for s in steered],
            "confirmation_probes_planned": len(probe_ids),
            **({"no_growth": analysis.no_growth} if analysis.no_growth else {}),
            "added_chains": sum(len(c.skill.apps) > 1 for c in admission.added),
            "added_atomic": sum(len(c.skill.apps) == 1 for c in admission.added)}, extra


def prepare_round(db: str | None, round_n: int, budget: int, seed: int, out: str, *, k: int = DEFAULT_K,
                  limit: int | None = None, sandbox: Sandbox | None = None, backend: Backend | None = None,
                  sample: int | None = None, student: Student | None = None, families: Collection[str] = ()
                  ) -> list[str]:
    """Expand from round N-1's statistics, allocate `budget` tasks, record the round; returns the task ids
    to generate, in plan order. At most `limit` of the candidates the statistics call for are considered
    (default: all); with `sample`, only that many per family x axis level group are probed (`probe.admit`).
    `out` is where the round's packages go (recorded with the round). `student`: a simulated student that answers
    the confirmation probes of round N-1's mined patterns now; without one (a real student) the probes join this
    round's plan and the patterns are judged, and acted on, next round. The plan: the allocation, then the
    steered tasks, then the probes, `budget` tasks in all. `families` (default: all) keeps the plan inside those
    families, for a student that knows only them: the allocation spreads the whole budget over their skills and
    steered or probe tasks of other families are dropped (the expansion still reads every result)."""
    if round_n < 1:
        raise RoundError(f"--round {round_n}: rounds are numbered from 1 (round 0 is the seed taxonomy)")
    if budget < 1:
        raise RoundError(f"--budget {budget}: a round needs at least one task")
    catalog = Catalog(db)
    existing = catalog.round_row(round_n)
    if existing is not None and "plan" in existing.counts:
        return list(existing.counts["plan"])
    if families:
        from workflows import families as known

        unknown = sorted(set(families) - set(known()))
        if unknown:
            hint = did_you_mean(unknown[0], sorted(known()))
            raise RoundError(f"--family {unknown[0]}: no such workflow family.{hint} `forge family list` names them")
    _ensure_seed(catalog)
    catalog.start_round(round_n, budget=budget, seed=seed, out=out)
    changes, extra = expand(catalog, round_n, limit=limit, k=k, seed=seed, sandbox=sandbox or Sandbox(),
                            backend=backend, sample=sample, budget=budget, student=student)
    taxonomy = catalog_taxonomy(catalog)
    if families:
        extra = [t for t in extra if taxonomy[TaskId.parse(t).skill_id].family in families]
    extra = extra[:budget]
    fresh = catalog.skills_of_round(round_n)
    pool = [s for s in taxonomy.values() if not families or s.family in families]
    plan = reallocate.allocate(pool, weights(catalog), budget - len(extra), seed,
                               round_seed(seed, round_n), fresh=fresh) if budget > len(extra) else []
    ids = [*(str(t) for t in plan), *extra]
    multi = sum(len(taxonomy[TaskId.parse(t).skill_id].apps) > 1 for t in ids)
    catalog.open_round(round_n, {"out": out, "expansion": changes, "planned": len(ids), "planned_multi_app": multi,
                                 "skills_active": sum(s.status == "active" for s in taxonomy.values()),
                                 "skills_total": len(taxonomy), "plan": ids}
                       | ({"families": sorted(families)} if families else {}))
    return ids


def _export(catalog: Catalog, out: Path, round_n: int, accepted: int) -> dict[str, Any]:
    """Export the round's accepted tasks to `out/osworld` (forge.export.osworld); returns tasks per domain."""
    if accepted == 0:
        return {"skipped": "no accepted task in this round"}
    from forge.export.osworld import export_osworld

    written = export_osworld(catalog, out / "osworld", round=round_n)
    return {"folder": str(out / "osworld"), "tasks": {domain: len(ids) for domain, ids in sorted(written.items())}}


def finish_round(db: str | None, round_n: int, out: str, results: str | None) -> dict[str, Any]:
    """Mark the round's tasks with their round, export the accepted ones for OSWorld, ingest `results` (an
    OSWorld results folder or JSONL) if given, and close the round; returns the round's counts."""
    from forge.feedback import ingest

    catalog = Catalog(db)
    row = catalog.round_row(round_n)
    if row is None or "plan" not in row.counts:
        raise RoundError(f"round {round_n} was not prepared; run `forge round run --round {round_n}` first")
    ids: list[str] = list(row.counts["plan"])
    statuses, accepted_apps = catalog.file_round_tasks(round_n, ids)
    exported = _export(catalog, Path(out), round_n, statuses.get("accepted", 0))
    counts = {key: value for key, value in row.counts.items() if key != "plan"}
    counts.update({"tasks": dict(statuses), "accepted_by_app": dict(accepted_apps),
                   "accepted_multi_app": accepted_apps.get("multi_apps", 0),
                   "export": exported})
    if results:
        counts["ingest"] = ingest(catalog, Path(results), round_n).as_dict()
    catalog.close_round(round_n, {k: v for k, v in counts.items() if k != "expansion"})
    return counts


def run_round(db: str | None, round_n: int, budget: int, seed: int, out: str, *, results: str | None = None,
              k: int = DEFAULT_K, limit: int | None = None, sandbox: Sandbox | None = None,
              progress: Callable[[Outcome], None] | None = None, sample: int | None = None,
              families: Collection[str] = ()) -> dict[str, Any]:
    """prepare -> generate (a plain Generator over the plan) -> finish."""
    sandbox = sandbox or Sandbox()
    ids = prepare_round(db, round_n, budget, seed, out, k=k, limit=limit, sandbox=sandbox, sample=sample,
                        families=families)
    catalog = Catalog(db)
    run_id = catalog.start_run(seed=round_seed(seed, round_n), requested=len(ids), selection={"round": round_n},
                               out_dir=out, backend="offline", round=round_n)
    generator = Generator(Path(out), catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog), run_id=run_id)
    status = "failed"
    counts: Counter[str] = Counter()
    try:
        counts = generator.run([TaskId.parse(t) for t in ids], progress)
        status = "finished"
    finally:
        catalog.finish_run(run_id, dict(counts), status)
    return finish_round(db, round_n, out, results)
