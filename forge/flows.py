"""Prefect flows: thin orchestration over `forge.generate` (and `forge.rounds` for feedback rounds).

One Prefect task per *batch* (hundreds of tasks), never per item: per-item task runs cost as much as
the work itself (see shared/reference/prefect.md). Batches receive only small arguments — a (start,
stop) slice of the deterministic plan, or a short list of task ids — so any batch can be retried or run
on another machine and produce the same packages; batch tasks use `NO_CACHE` because their results are
the catalog rows and package folders, not Prefect results.

Where batches run is chosen per flow run: one at a time in the flow's process (`workers=1`), `workers`
processes at once on this machine, or an existing Dask cluster (`dask_address`, through prefect-dask).
Every place a batch may run must import this checkout, reach the Prefect API, the catalog (`db`, use
PostgreSQL for several machines) and the package folder (`out`, shared storage).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_type_hints

from prefect import Flow, flow, get_run_logger, runtime, task
from prefect.cache_policies import NO_CACHE
from prefect.client.schemas.schedules import CronSchedule
from prefect.deployments.runner import RunnerDeployment
from prefect.futures import PrefectFuture
from prefect.task_runners import ProcessPoolTaskRunner, TaskRunner, ThreadPoolTaskRunner
from pydantic import Field, TypeAdapter, ValidationError
from sqlalchemy import func, select

from forge.catalog import Catalog, RoundRow, RunRow, resolve_url
from forge.errors import ForgeError
from forge.generate import Generator, Selection, plan, select_skills
from forge.ids import TaskId
from forge.realapps import Policy
from forge.sandbox import Sandbox
from forge.taxonomy import Skill, load_taxonomy

# Validated flow parameters (Prefect checks them with pydantic on every call and every deployment run).
Count = Annotated[int, Field(ge=1, le=10_000_000, description="number of tasks")]
BatchSize = Annotated[int, Field(ge=1, le=10_000, description="tasks per Prefect batch task")]
Workers = Annotated[int, Field(ge=1, le=64, description="batches at once on this machine (ignored with "
                                                        "dask_address: the cluster's worker threads bound it)")]
Seed = Annotated[int | None, Field(ge=0, description="run seed; empty: the scheduled date as YYYYMMDD "
                                                     "(a nightly schedule makes new tasks each night)")]
DaskAddress = Annotated[str | None, Field(pattern=r"^(tcp|tls|ucx|inproc)://\S+$",
                                          description="a Dask scheduler address, e.g. tcp://10.0.0.5:8786")]
RealApps = Literal["off", "sample", "all"]
Rate = Annotated[float, Field(ge=0.0, le=1.0, description="share of tasks the real-app tier checks (sample)")]


@dataclass(frozen=True)
class Target:
    """Where and how every batch of one run works (absolute paths/URLs: batches may run in other processes)."""

    out: str
    db: str
    run_id: int
    sandbox: bool = True
    real_apps: str = "off"
    real_apps_rate: float = 0.1

    def generator(self, catalog: Catalog, taxonomy: dict[str, Skill]) -> Generator:
        return Generator(Path(self.out), catalog, sandbox=Sandbox(enabled=self.sandbox), taxonomy=taxonomy,
                         run_id=self.run_id, real_apps=Policy(self.real_apps, self.real_apps_rate))


def absolute(out: str, db: str | None) -> tuple[str, str]:
    """The package folder and catalog URL as every batch must see them: a relative folder or SQLite path
    would resolve against each worker's own working directory."""
    url = resolve_url(db)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////") and url != "sqlite:///:memory:":
        url = f"sqlite:///{Path(url.removeprefix('sqlite:///')).resolve()}"
    return str(Path(out).resolve()), url


def task_runner(workers: int, dask_address: str | None) -> TaskRunner[Any]:
    """Where batches run: the Dask cluster at `dask_address`, else `workers` bounded threads (1) or processes.

    Several batches in one process would share one Generator's sandbox workers and real-app tier, so local
    parallelism uses processes; the thread runner is always bounded (Prefect's default is not)."""
    if dask_address:
        from prefect_dask import DaskTaskRunner

        return DaskTaskRunner(address=dask_address)
    if workers == 1:
        return ThreadPoolTaskRunner(max_workers=1)
    return ProcessPoolTaskRunner(max_workers=workers)


@task(name="generate-batch", cache_policy=NO_CACHE)
def generate_batch(target: Target, selection: dict[str, list[str]], n: int, seed: int, start: int, stop: int
                   ) -> dict[str, int]:
    """Generate, gate and catalog tasks [start, stop) of the run's plan; returns counts by gate class."""
    taxonomy = load_taxonomy()
    sel = Selection(**{k: tuple(v) for k, v in selection.items()})
    task_ids = plan(select_skills(taxonomy, sel), n, seed)[start:stop]
    return dict(target.generator(Catalog(target.db), taxonomy).run(task_ids))


@task(name="round-batch", cache_policy=NO_CACHE)
def round_batch(target: Target, task_ids: list[str]) -> dict[str, int]:
    """Generate, gate and catalog these tasks of a round, with the taxonomy the catalog holds (seed skills
    plus those earlier rounds added); returns counts by gate class."""
    from forge.expand import catalog_taxonomy

    catalog = Catalog(target.db)
    return dict(target.generator(catalog, catalog_taxonomy(catalog)).run([TaskId.parse(t) for t in task_ids]))


def _gather(futures: list[PrefectFuture[dict[str, int]]]) -> dict[str, int]:
    """Sum the batches' counts. A failed batch raises its error, so the flow run fails (rerunning it resumes)."""
    totals: dict[str, int] = {}
    for future in futures:
        for key, value in future.result().items():
            totals[key] = totals.get(key, 0) + value
    return dict(sorted(totals.items()))


def _scheduled_seed() -> int:
    return int(runtime.flow_run.scheduled_start_time.strftime("%Y%m%d"))


@flow(name="generate", task_runner=ThreadPoolTaskRunner(max_workers=1))  # type: ignore[arg-type]
def generate_flow(n: Count, seed: Seed = None, out: str = "tasks", db: str | None = None,
                  apps: list[str] | None = None, families: list[str] | None = None, skills: list[str] | None = None,
                  batch_size: BatchSize = 200, workers: Workers = 1, dask_address: DaskAddress = None,
                  sandbox: bool = True, real_apps: RealApps = "sample", real_apps_rate: Rate = 0.1) -> dict[str, int]:
    """Generate n tasks like `forge generate`, in batches of `batch_size`; returns counts by gate class.

    Rerunning the same parameters resumes: tasks the catalog already holds are skipped."""
    logger = get_run_logger()
    seed = _scheduled_seed() if seed is None else seed
    out, db = absolute(out, db)
    selection = Selection(tuple(apps or ()), tuple(families or ()), tuple(skills or ()))
    taxonomy = load_taxonomy()
    select_skills(taxonomy, selection)  # fail fast on unknown names, before any batch starts
    catalog = Catalog(db)
    catalog.sync_skills(taxonomy.values())
    run_id = catalog.start_run(seed=seed, requested=n, selection=selection.as_dict(), out_dir=out, backend="offline")
    target = Target(out, db, run_id, sandbox, real_apps, real_apps_rate)
    logger.info("run %s: %s tasks, seed %s, batches of %s -> %s", run_id, n, seed, batch_size, out)
    totals: dict[str, int] = {}
    status = "failed"
    try:
        with task_runner(workers, dask_address) as runner:
            totals = _gather([runner.submit(generate_batch, {"target": target, "selection": selection.as_dict(),
                                                             "n": n, "seed": seed, "start": start,
                                                             "stop": min(start + batch_size, n)})
                              for start in range(0, n, batch_size)])
        status = "finished"
    finally:
        catalog.finish_run(run_id, totals, status)
    logger.info("run %s: %s", run_id, totals)
    return totals


def next_round(catalog: Catalog) -> int:
    """The round a scheduled run works on: the oldest not yet closed (a crashed run resumes it), else the next."""
    with catalog.session() as session:
        unfinished = session.scalar(select(func.min(RoundRow.id)).where(RoundRow.status != "closed"))
        return int(unfinished or (session.scalar(select(func.max(RoundRow.id))) or 0) + 1)


@flow(name="round", task_runner=ThreadPoolTaskRunner(max_workers=1))  # type: ignore[arg-type]
def round_flow(budget: Count, round_n: Annotated[int | None, Field(ge=1)] = None,
               seed: Annotated[int, Field(ge=0)] = 0, out: str = "tasks", db: str | None = None,
               results: str | None = None, batch_size: BatchSize = 200, workers: Workers = 1,
               dask_address: DaskAddress = None, sandbox: bool = True, real_apps: RealApps = "sample",
               real_apps_rate: Rate = 0.1) -> dict[str, Any]:
    """One feedback round like `forge round run`: plan `budget` tasks from the catalog's statistics
    (forge.rounds.prepare_round), generate them in batches, close the round (finish_round: export, ingest
    the student's `results` if given); returns the round's counts.

    `round_n` empty: the oldest round not yet closed, else the next. Rerunning a round resumes it."""
    from forge.rounds import finish_round, prepare_round, round_seed

    logger = get_run_logger()
    out, db = absolute(out, db)
    catalog = Catalog(db)
    round_n = next_round(catalog) if round_n is None else round_n
    task_ids = prepare_round(db, round_n, budget, seed, out, sandbox=Sandbox(enabled=sandbox))
    run_id = catalog.start_run(seed=round_seed(seed, round_n), requested=len(task_ids),
                               selection={"round": round_n}, out_dir=out, backend="offline")
    with catalog.session() as session, session.begin():
        session.get_one(RunRow, run_id).round = round_n
    target = Target(out, db, run_id, sandbox, real_apps, real_apps_rate)
    logger.info("round %s (run %s): %s tasks -> %s", round_n, run_id, len(task_ids), out)
    totals: dict[str, int] = {}
    status = "failed"
    try:
        with task_runner(workers, dask_address) as runner:
            totals = _gather([runner.submit(round_batch, {"target": target, "task_ids": task_ids[i:i + batch_size]})
                              for i in range(0, len(task_ids), batch_size)])
        status = "finished"
    finally:
        catalog.finish_run(run_id, totals, status)
    summary = finish_round(db, round_n, out, results)
    logger.info("round %s: %s", round_n, summary)
    return summary


FLOWS: dict[str, Flow[..., Any]] = {"generate": generate_flow, "round": round_flow}


def check_parameters(flow_obj: Flow[..., Any], parameters: dict[str, Any]) -> dict[str, Any]:
    """`parameters` validated against the flow's annotated signature (the same pydantic rules Prefect applies to
    each run), so a bad value fails here in one line naming the parameter rather than in every scheduled run."""
    hints = get_type_hints(flow_obj.fn, include_extras=True)
    checked = {}
    for name, value in parameters.items():
        if name not in hints:
            raise ForgeError(f"flow {flow_obj.name!r} has no parameter {name!r}; it takes "
                             f"{', '.join(h for h in hints if h != 'return')}")
        try:
            checked[name] = TypeAdapter(hints[name]).validate_python(value)
        except ValidationError as exc:
            meta = next((m for m in getattr(hints[name], "__metadata__", ()) if getattr(m, "description", None)), None)
            about = f" ({meta.description})" if meta is not None else ""
            raise ForgeError(f"flow {flow_obj.name!r} parameter {name}={value!r}: {exc.errors()[0]['msg']}{about}"
                             ) from None
    return checked


def deployment(flow_name: str, name: str, parameters: dict[str, Any], *, cron: str | None = None,
               interval: float | None = None) -> RunnerDeployment:
    """A deployment of flow `flow_name` ("generate" or "round") with a cron or interval schedule (or none),
    checked before anything is registered: the schedule parses, the parameters pass the flow's validation,
    skill/app/family names exist. Relative `out` and SQLite paths are made absolute (runs start elsewhere).
    `.apply()` registers it; `prefect.serve(it)` registers it and runs its scheduled runs."""
    if flow_name not in FLOWS:
        raise ForgeError(f"--flow {flow_name!r}: choose one of {', '.join(FLOWS)}")
    if cron is not None and interval is not None:
        raise ForgeError("give --cron or --interval, not both")
    flow_obj = FLOWS[flow_name]
    try:
        if cron is not None:
            CronSchedule(cron=cron)
    except ValidationError:
        raise ForgeError(f"--cron {cron!r}: not a cron expression; use five fields, minute hour day month weekday, "
                         "e.g. '0 3 * * *' for 03:00 every day (UTC)") from None
    if interval is not None and interval < 1:
        raise ForgeError(f"--interval {interval}: give at least 1 second")
    params = check_parameters(flow_obj, parameters)
    params["out"], params["db"] = absolute(params.get("out", "tasks"), params.get("db"))
    if flow_name == "generate":
        select_skills(load_taxonomy(), Selection(*(tuple(params.get(k) or ()) for k in ("apps", "families", "skills"))))
    made = flow_obj.to_deployment(name=name, cron=cron, interval=interval, parameters=params,
                                  description=f"forge {flow_name}: {(flow_obj.fn.__doc__ or '').splitlines()[0]}")
    assert isinstance(made, RunnerDeployment)  # called from sync code, Prefect's dispatcher returns the value
    return made
