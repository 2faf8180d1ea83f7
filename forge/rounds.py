"""Feedback rounds: expand from the student's last results -> allocate -> generate -> export -> ingest.

`prepare_round` and `finish_round` are the two halves around generation; `run_round` chains them with a
plain `Generator` (the Prefect `round` flow calls the same two functions around its own batches).

prepare_round(N), in order, each decision recorded in `taxonomy_changes`:
1. `retire` and `reallocate` turn round N-1's per-skill statistics into weights (saturated skills lose
   weight, then retire; failed skills gain weight);
2. `compose` (multi-app), `harder` (same-app extra step, or look-alike copies of the working file) and
   `propose` (unused knob values) make `grow` candidates (default: as many as the task budget), drawn
   toward the skills the student failed;
3. `probe.admit` refuses duplicates and keeps the candidates whose k probe tasks all pass the gate;
4. `reallocate.allocate` spreads the budget over the active skills by weight, 40 % to multi-app skills.
Task ids of round N use the run seed `seed * 100 + N`, so rounds never collide. Preparing a round twice
returns the plan recorded the first time (nothing is expanded twice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select, update

from forge.catalog import Catalog, RoundRow, RunRow, SkillRow, TaskRow, TaxonomyChangeRow, now
from forge.errors import ForgeError
from forge.expand import (
    catalog_taxonomy,
    change,
    compose,
    harder,
    knob_key,
    propose,
    reallocate,
    record,
    retire,
    seed_taxonomy,
    weights,
)
from forge.expand.probe import DEFAULT_K, admit, blocked_family_pairs, refused_before
from forge.generate import Generator, Outcome
from forge.ids import TaskId
from forge.llm import Backend
from forge.sandbox import Sandbox
from forge.stats import skill_stats

#: Shares of a round's new candidates per operator (`propose` gets what unused knob values there are).
HARDER_SHARE = 0.35
PROPOSE_SHARE = 0.05


class RoundError(ForgeError, ValueError):
    """A round asked out of order or with bad arguments."""


def round_seed(seed: int, round_n: int) -> int:
    """The run seed of round N's task ids: `seed * 100 + N`."""
    return seed * 100 + round_n


def _round_row(catalog: Catalog, round_n: int) -> RoundRow | None:
    with catalog.session() as session:
        return session.get(RoundRow, round_n)


def _ensure_seed(catalog: Catalog) -> None:
    """Seed skills the catalog does not hold yet are added (never overwriting a weight or a retirement)."""
    with catalog.session() as session:
        present = set(session.scalars(select(SkillRow.id)))
    catalog.sync_skills(s for s in seed_taxonomy().values() if s.id not in present)


def _apply(catalog: Catalog, decisions: list[retire.Decision]) -> None:
    with catalog.session() as session, session.begin():
        for d in decisions:
            row = session.get(SkillRow, d.skill_id)
            if row is not None:
                row.weight = d.weight
                if d.action == "retire":
                    row.status = "retired"


def expand(catalog: Catalog, round_n: int, *, grow: int, k: int, seed: int, sandbox: Sandbox,
           backend: Backend | None = None) -> dict[str, Any]:
    """Steps 1-3 of a round (see the module docstring); returns what changed, by operator."""
    taxonomy = catalog_taxonomy(catalog)
    stats = skill_stats(catalog, round_n - 1) if round_n > 1 else {}
    current = weights(catalog)
    with catalog.session() as session:  # a rerun after a crash must not halve weights twice
        reweighted = session.scalar(select(TaxonomyChangeRow.id).where(
            TaxonomyChangeRow.round == round_n, TaxonomyChangeRow.operator.in_((retire.OPERATOR, reallocate.OPERATOR))))
    retired = [] if reweighted else retire.decide(stats, current, round_n)
    realloc = [] if reweighted else reallocate.decide(stats, current, round_n, skip={d.skill_id for d in retired})
    _apply(catalog, retired + realloc)
    record(catalog, round_n, [change(op, d.action, d.skill_id, d.reason, stats=stats[d.skill_id].as_dict())
                              for op, ds in ((retire.OPERATOR, retired), (reallocate.OPERATOR, realloc)) for d in ds])
    taken = {knob_key(s) for s in taxonomy.values()} | refused_before(catalog)
    pressures = compose.pressure(stats, taxonomy)
    proposed, bad = propose.propose(n=round(grow * PROPOSE_SHARE), round_n=round_n, seed=seed, taxonomy=taxonomy,
                                    backend=backend)
    record(catalog, round_n, [change(propose.OPERATOR, "refuse", label, f"proposal does not fit its family: {why}")
                              for label, why in bad])
    taken |= {knob_key(c.skill) for c in proposed}
    n_harder = round(grow * HARDER_SHARE)
    blocked = blocked_family_pairs(catalog)
    hard = harder.propose(n=n_harder, round_n=round_n, seed=seed, taken=taken, pressures=pressures, blocked=blocked)
    multi = compose.propose(n=max(0, grow - len(proposed) - len(hard)), round_n=round_n, seed=seed, taken=taken,
                            pressures=pressures, blocked=blocked)
    admission = admit(catalog, [*multi, *hard, *proposed], taxonomy, round_n=round_n, k=k,
                      seed=round_seed(seed, round_n) + 50, sandbox=sandbox)
    added = Counter(c.operator for c in admission.added)
    return {"retired": sum(d.action == "retire" for d in retired), "reweighted": len(realloc) + len(retired)
            - sum(d.action == "retire" for d in retired), "candidates": len(multi) + len(hard) + len(proposed),
            "added": dict(added), "refused": len(admission.refused) + len(bad), "probe_tasks": admission.probe_tasks,
            "added_multi_app": sum(len(c.skill.apps) > 1 for c in admission.added)}


def prepare_round(db: str | None, round_n: int, budget: int, seed: int, out: str, *, k: int = DEFAULT_K,
                  grow: int | None = None, sandbox: Sandbox | None = None, backend: Backend | None = None
                  ) -> list[str]:
    """Expand from round N-1's statistics, allocate `budget` tasks, record the round; returns the task ids
    to generate, in plan order. `grow` candidates are probed (default: `budget`). `out` is where the
    round's packages go (recorded with the round)."""
    if round_n < 1:
        raise RoundError(f"--round {round_n}: rounds are numbered from 1 (round 0 is the seed taxonomy)")
    if budget < 1:
        raise RoundError(f"--budget {budget}: a round needs at least one task")
    catalog = Catalog(db)
    existing = _round_row(catalog, round_n)
    if existing is not None and "plan" in existing.counts:
        return list(existing.counts["plan"])
    _ensure_seed(catalog)
    with catalog.session() as session, session.begin():
        session.merge(RoundRow(id=round_n, status="preparing", budget=budget, seed=seed, started_at=now(),
                               counts={"out": out}))
    changes = expand(catalog, round_n, grow=budget if grow is None else grow, k=k, seed=seed,
                     sandbox=sandbox or Sandbox(), backend=backend)
    taxonomy = catalog_taxonomy(catalog)
    plan = reallocate.allocate(list(taxonomy.values()), weights(catalog), budget, seed, round_seed(seed, round_n))
    ids = [str(t) for t in plan]
    multi = sum(len(taxonomy[t.skill_id].apps) > 1 for t in plan)
    with catalog.session() as session, session.begin():
        row = session.get(RoundRow, round_n)
        assert row is not None
        row.status = "open"
        row.counts = {"out": out, "expansion": changes, "planned": len(ids), "planned_multi_app": multi,
                      "skills_active": sum(s.status == "active" for s in taxonomy.values()),
                      "skills_total": len(taxonomy), "plan": ids}
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
    row = _round_row(catalog, round_n)
    if row is None or "plan" not in row.counts:
        raise RoundError(f"round {round_n} was not prepared; run `forge round run --round {round_n}` first")
    ids: list[str] = list(row.counts["plan"])
    with catalog.session() as session, session.begin():
        for i in range(0, len(ids), 500):
            session.execute(update(TaskRow).where(TaskRow.id.in_(ids[i:i + 500])).values(round=round_n))
        statuses = Counter(session.scalars(select(TaskRow.status).where(TaskRow.round == round_n)))
        accepted_apps = Counter(session.scalars(select(TaskRow.app).where(TaskRow.round == round_n,
                                                                          TaskRow.status == "accepted")))
    exported = _export(catalog, Path(out), round_n, statuses.get("accepted", 0))
    counts = {key: value for key, value in row.counts.items() if key != "plan"}
    counts.update({"tasks": dict(statuses), "accepted_by_app": dict(accepted_apps),
                   "accepted_multi_app": accepted_apps.get("multi_apps", 0),
                   "export": exported})
    if results:
        counts["ingest"] = ingest(catalog, Path(results), round_n).as_dict()
    with catalog.session() as session, session.begin():
        stored = session.get(RoundRow, round_n)
        assert stored is not None
        stored.status, stored.finished_at = "closed", now()
        stored.counts = {**stored.counts, **{k: v for k, v in counts.items() if k != "expansion"}}
    return counts


def run_round(db: str | None, round_n: int, budget: int, seed: int, out: str, *, results: str | None = None,
              k: int = DEFAULT_K, grow: int | None = None, sandbox: Sandbox | None = None,
              progress: Callable[[Outcome], None] | None = None) -> dict[str, Any]:
    """prepare -> generate (a plain Generator over the plan) -> finish."""
    sandbox = sandbox or Sandbox()
    ids = prepare_round(db, round_n, budget, seed, out, k=k, grow=grow, sandbox=sandbox)
    catalog = Catalog(db)
    run_id = catalog.start_run(seed=round_seed(seed, round_n), requested=len(ids), selection={"round": round_n},
                               out_dir=out, backend="offline")
    with catalog.session() as session, session.begin():
        run = session.get(RunRow, run_id)
        assert run is not None
        run.round = round_n
    generator = Generator(Path(out), catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog), run_id=run_id)
    status = "failed"
    counts: Counter[str] = Counter()
    try:
        counts = generator.run([TaskId.parse(t) for t in ids], progress)
        status = "finished"
    finally:
        catalog.finish_run(run_id, dict(counts), status)
    return finish_round(db, round_n, out, results)
