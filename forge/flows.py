"""Prefect flows: thin orchestration over `forge.generate`.

One Prefect task per *batch* (hundreds of tasks), never per item: per-item task runs cost as much as
the work itself (see shared/reference/prefect.md). Batches receive only small arguments — a (start,
stop) slice of the deterministic plan — so any batch can be retried or run on another worker and
produce the same packages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan, select_skills
from forge.sandbox import Sandbox
from forge.taxonomy import load_taxonomy


@task(name="generate-batch", cache_policy=NO_CACHE)
def generate_batch(start: int, stop: int, n: int, seed: int, out: str, db: str | None, selection: dict[str, Any],
                   run_id: int, sandbox: bool = True) -> dict[str, int]:
    """Generate and gate tasks [start, stop) of the run's plan; returns counts by gate class."""
    taxonomy = load_taxonomy()
    sel = Selection(**{k: tuple(v) for k, v in selection.items()})
    task_ids = plan(select_skills(taxonomy, sel), n, seed)[start:stop]
    generator = Generator(Path(out), Catalog(db), sandbox=Sandbox(enabled=sandbox), taxonomy=taxonomy, run_id=run_id)
    return dict(generator.run(task_ids))


@flow(name="generate", task_runner=ThreadPoolTaskRunner(max_workers=1))  # type: ignore[arg-type]
def generate_flow(n: int, seed: int, out: str, db: str | None = None, apps: list[str] | None = None,
                  families: list[str] | None = None, skills: list[str] | None = None, batch_size: int = 200,
                  sandbox: bool = True) -> dict[str, int]:
    """Generate N tasks in batches of `batch_size`; returns counts by gate class for the whole run."""
    logger = get_run_logger()
    selection = Selection(tuple(apps or ()), tuple(families or ()), tuple(skills or ()))
    taxonomy = load_taxonomy()
    select_skills(taxonomy, selection)  # fail fast on unknown names, before any batch starts
    catalog = Catalog(db)
    catalog.sync_skills(taxonomy.values())
    run_id = catalog.start_run(seed=seed, requested=n, selection=selection.as_dict(), out_dir=out, backend="offline")
    futures = [generate_batch.submit(start, min(start + batch_size, n), n, seed, out, db, selection.as_dict(), run_id,
                                     sandbox)
               for start in range(0, n, batch_size)]
    totals: dict[str, int] = {}
    status = "failed"
    try:
        for future in futures:
            for key, value in future.result().items():
                totals[key] = totals.get(key, 0) + value
        status = "finished"
    finally:
        catalog.finish_run(run_id, totals, status)
    logger.info("run %s: %s", run_id, totals)
    return totals
