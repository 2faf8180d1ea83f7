"""Prefect flows: thin orchestration over `forge.generate` (and `forge.rounds` for feedback rounds).

One Prefect task per *batch* (hundreds of tasks), never per item: per-item task runs cost as much as
the work itself (measured: 10-16 ms of overhead per task run). Batches receive only small arguments — a (start,
stop) slice of the deterministic plan, or a short list of task ids — so any batch can be retried or run
on another machine and produce the same packages; batch tasks use `NO_CACHE` because their results are
the catalog rows and package folders, not Prefect results. A batch task run is named by its slice
(`generate-batch[0:200]`), logs its progress as it goes, and is retried (twice) on infrastructure failures
only: an exception of the machine, network or database, or `infra_fail` tasks in its counts (the retry
skips what is recorded; a catalog server that does not answer is infrastructure too). A flow run is named from
its parameters (`generate-seed-123-n-500`); its catalog run keeps the flow run's id and its counts as each batch
lands, and on_crashed / on_cancellation hooks mark it `interrupted` / `cancelled` with the counts of the tasks it
recorded. A flow run ends with a Prefect table artifact (`forge-generate` / `forge-round`):
tasks per gate class made by this run, tasks resumed, LLM spend. In the round flow the expansion and the
export are tasks of their own.

Seeds: a generate run without `seed` takes the whole seconds from 2020-01-01 UTC to its *scheduled* start
(forge.flowkit.seed_of), so every scheduled run makes new tasks and a rerun of the same run resumes. A
run that makes nothing new (every task already recorded) says so and reports 0 new tasks.

Where batches run is chosen per flow run: one at a time in the flow's process (`workers=1`), `workers`
processes at once on this machine, or an existing Dask cluster (`dask_address`, through prefect-dask).
Every place a batch may run must import this checkout, reach the Prefect API, the catalog (`db`, use
PostgreSQL for several machines) and the package folder (`out`, shared storage).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_type_hints

from prefect import Flow, State, flow, task
from prefect.cache_policies import NO_CACHE
from prefect.client.schemas.objects import FlowRun
from prefect.client.schemas.schedules import CronSchedule
from prefect.deployments.runner import RunnerDeployment
from prefect.futures import PrefectFuture, as_completed
from prefect.task_runners import ProcessPoolTaskRunner, TaskRunner, ThreadPoolTaskRunner
from pydantic import Field, TypeAdapter, ValidationError

from forge import flowkit
from forge.catalog import Catalog, resolve_url
from forge.flowkit import LLMOptions
from forge.generate import Generator, Selection, plan_for, select_skills
from forge.realapps import Policy
from kit.errors import ForgeError
from kit.ids import TaskId
from kit.sandbox import Limits, Sandbox
from kit.taxonomy import Skill, load_taxonomy

# Validated flow parameters (Prefect checks them with pydantic on every call and every deployment run); the
# descriptions are what the Prefect UI shows next to each parameter.
Count = Annotated[int, Field(ge=1, le=10_000_000, description="number of tasks")]
Budget = Annotated[int, Field(ge=1, le=10_000_000, description="tasks in the round")]
BatchSize = Annotated[int, Field(ge=1, le=10_000, description="tasks per Prefect batch task")]
Workers = Annotated[int, Field(ge=1, le=64, description="batches at once on this machine (ignored with "
                                                        "dask_address: the cluster's worker threads bound it)")]
Seed = Annotated[int | None, Field(ge=0, le=2**31 - 1, description="run seed; empty: the run's scheduled start in "
                                   "seconds since 2020-01-01 UTC, so every scheduled run makes new tasks")]
RoundSeed = Annotated[int, Field(ge=0, le=2**31 - 1, description="seed of the rounds (round N's tasks use "
                                                                 "seed*100+N)")]
RoundNumber = Annotated[int | None, Field(ge=1, description="round number; empty: the oldest round not yet "
                                                            "closed, else the next")]
Out = Annotated[str, Field(min_length=1, description="folder for the packages: <out>/<app>/<task_id>/ (shared "
                                                     "storage when batches run on several machines)")]
Db = Annotated[str | None, Field(description="catalog: a SQLAlchemy URL or SQLite path (PostgreSQL for several "
                                             "machines); empty: $FORGE_DATABASE_URL, else ./forge.db")]
Names = Annotated[list[str] | None, Field(description="only these (empty: the default mix of every app)")]
Results = Annotated[str | None, Field(description="the student's results to ingest when the round closes (an "
                                                  "OSWorld results folder or JSONL)")]
DaskAddress = Annotated[str | None, Field(pattern=r"^(tcp|tls|ucx|inproc)://\S+$",
                                          description="a Dask scheduler address, e.g. tcp://10.0.0.5:8786")]
UseSandbox = Annotated[bool, Field(description="run package scripts under bubblewrap (off: trusted packages only)")]
RealApps = Annotated[Literal["off", "sample", "all"], Field(description="real-app tier: off, sample (a share, see "
                                                                        "real_apps_rate) or all")]
Register = Annotated[Literal["mixed", "explicit", "natural"], Field(description="the instructions' register: "
                    "mixed (half natural, half explicit), explicit (specifications) or natural (a user's goal)")]
Rate = Annotated[float, Field(ge=0.0, le=1.0, description="share of tasks the real-app tier checks (sample)")]
Share = Annotated[float | None, Field(ge=0.0, le=1.0, description="share of the plan given to that kind of skill "
                                                                 "(empty: the default mix's share, none for a filter)")]
WithMulti = Annotated[bool, Field(description="with apps: also the multi-app skills that use one of them")]
Timeout = Annotated[float, Field(ge=1, le=3600, description="seconds of wall-clock time a package script may run")]
LLM = Annotated[LLMOptions | None, Field(description="the LLM the workflows ask; empty: offline (no key, "
                                                     "deterministic)")]

#: Retries of a batch task after an infrastructure failure, and the waits before them (seconds).
BATCH_RETRIES = 2
RETRY_DELAYS: list[float] = [10.0, 60.0]


@dataclass(frozen=True)
class Target:
    """Where and how every batch of one run works (absolute paths/URLs: batches may run in other processes)."""

    out: str
    db: str
    run_id: int
    sandbox: bool = True
    real_apps: str = "off"
    real_apps_rate: float = 0.1
    llm: dict[str, Any] | None = None  # LLMOptions as a dict (None: offline)
    timeout: float = 60.0

    def generator(self, catalog: Catalog, taxonomy: dict[str, Skill]) -> Generator:
        from forge.llm.budget import Budget as SpendCap
        from forge.llm.ledger import make_backend

        flags = LLMOptions(**(self.llm or {})).flags()
        config = flags.settings()
        backend = make_backend(config, catalog)
        cost, tokens = flowkit.remaining_budget(catalog, self.run_id, self.llm)
        sandbox = Sandbox(Limits(wall_seconds=self.timeout, cpu_seconds=max(1, min(30, int(self.timeout)))),
                          enabled=self.sandbox)
        return Generator(Path(self.out), catalog, sandbox=sandbox, taxonomy=taxonomy, run_id=self.run_id,
                         real_apps=Policy(self.real_apps, self.real_apps_rate), backend=backend,
                         budget=SpendCap(cost, tokens),
                         concurrency=1 if backend.name == "offline" else config.concurrency)

    def run(self, generator: Generator, task_ids: list[TaskId], label: str) -> dict[str, dict[str, int]]:
        """Run one batch: progress logged as it goes; `infra_fail` tasks raise while retries remain."""
        progress = flowkit.Progress(label, len(task_ids))
        generator.run(task_ids, progress, commit_every=1 if generator.backend.name != "offline" else 25)
        result = flowkit.batch_counts(generator.catalog, self.run_id, [str(t) for t in task_ids])
        infra = result["new"].get("infra_fail", 0)
        if infra and flowkit.attempt() <= BATCH_RETRIES:
            raise flowkit.BatchInfraError(f"{label}: {infra} tasks failed for infrastructure reasons; retrying "
                                          "the batch (recorded tasks are skipped)")
        return result


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


@task(name="generate-batch", task_run_name="generate-batch[{start}:{stop}]", cache_policy=NO_CACHE,
      retries=BATCH_RETRIES, retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=flowkit.retry_on_infra)
def generate_batch(target: Target, selection: dict[str, Any], n: int, seed: int, start: int, stop: int
                   ) -> dict[str, dict[str, int]]:
    """Generate, gate and catalog tasks [start, stop) of the run's plan; returns {"new": counts by gate class,
    "resumed": counts of tasks an earlier run recorded}."""
    taxonomy = load_taxonomy()
    task_ids = plan_for(taxonomy, Selection.from_dict(selection), n, seed)[start:stop]
    generator = target.generator(Catalog(target.db), taxonomy)
    return target.run(generator, task_ids, f"generate-batch[{start}:{stop}]")


@task(name="round-batch", task_run_name="round-batch[{start}:{stop}]", cache_policy=NO_CACHE,
      retries=BATCH_RETRIES, retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=flowkit.retry_on_infra)
def round_batch(target: Target, task_ids: list[str], start: int = 0, stop: int = 0) -> dict[str, dict[str, int]]:
    """Generate, gate and catalog these tasks of a round (`start`/`stop`: their slice of the round's plan), with
    the taxonomy the catalog holds (seed skills plus those earlier rounds added); returns new/resumed counts."""
    from forge.expand import catalog_taxonomy

    catalog = Catalog(target.db)
    generator = target.generator(catalog, catalog_taxonomy(catalog))
    return target.run(generator, [TaskId.parse(t) for t in task_ids], f"round-batch[{start}:{stop}]")


def _collect(catalog: Catalog, run_id: int, futures: list[PrefectFuture[dict[str, dict[str, int]]]],
             landed: list[dict[str, dict[str, int]]]) -> None:
    """Append each batch's result to `landed` as it lands, and write the run's counts so far to the catalog, so a
    run killed later still shows what it made. A failed batch raises its error, so the flow run fails (rerunning
    it resumes); the counts are a report, so a catalog that does not answer this once only delays them."""
    for future in as_completed(futures):
        landed.append(future.result())
        try:
            catalog.set_run_counts(run_id, flowkit.counts(*flowkit.gather(landed)))
        except Exception as exc:  # noqa: BLE001 - see above; the next batch (or the run's end) writes them
            if not flowkit.is_infra(exc):
                raise
            flowkit.run_logger().warning("run %s: could not write its counts yet: %s", run_id, exc)


def _end_catalog_run(status: str) -> Callable[[Flow[..., Any], FlowRun, State], None]:
    """A Prefect state hook that marks the catalog run of the flow run `status` (with the counts of the tasks it
    recorded): `interrupted` on_crashed (the process was killed or the machine lost; the runner of `forge serve`
    runs the hook when the flow's process dies), `cancelled` on_cancellation. The flow run is found by its id,
    which the catalog run keeps in `selection["flow_run"]`."""

    def hook(flow: Flow[..., Any], flow_run: FlowRun, state: State) -> None:  # Prefect passes them by name
        params = flow_run.parameters or {}
        log = logging.getLogger("forge")
        try:
            _, db = absolute(str(params.get("out") or "tasks"), params.get("db"))
            ended = Catalog(db).end_flow_run(str(flow_run.id), status)
        except Exception as exc:  # noqa: BLE001 - a hook must not hide the state it reports; say what is left
            log.warning("flow run %s (%s): could not mark its catalog run %s: %s", flow_run.name, state.name,
                        status, exc)
            return
        log.info("flow run %s (%s): catalog runs %s marked %s", flow_run.name, state.name, ended, status)

    hook.__name__ = f"catalog-run-{status}"
    return hook


# Prefect's hook protocol is generic in the flow's signature; these hooks serve both flows.
ON_CRASHED: list[Any] = [_end_catalog_run("interrupted")]
ON_CANCELLATION: list[Any] = [_end_catalog_run("cancelled")]


def generate_run_name() -> str:
    """`generate-seed-123-n-500`: a flow run named by what it makes (a scheduled run: its scheduled seed)."""
    from prefect import runtime

    params = runtime.flow_run.parameters
    seed = params.get("seed")
    return f"generate-seed-{flowkit.scheduled_seed() if seed is None else seed}-n-{params.get('n')}"


def round_run_name() -> str:
    """`round-3-budget-500` (`round-next-budget-500` when the round is chosen at the start)."""
    from prefect import runtime

    params = runtime.flow_run.parameters
    return f"round-{params.get('round_n') or 'next'}-budget-{params.get('budget')}"


def _flow_run_id() -> str | None:
    from prefect import runtime

    return runtime.flow_run.id


def _finish(catalog: Catalog, name: str, run_id: int, seed: int, results: list[dict[str, dict[str, int]]]
            ) -> dict[str, int]:
    """Log and publish what the run made; returns the new tasks by gate class (+ `resumed` when some were)."""
    new, resumed = flowkit.gather(results)
    log = flowkit.run_logger()
    note = flowkit.nothing_new_note(new, resumed, seed)
    if note is not None:
        log.warning("run %s %s", run_id, note)
    else:
        log.info("run %s made %s new tasks: %s; resumed: %s", run_id, sum(new.values()), new, resumed)
    flowkit.publish(name, run_id, flowkit.summary_table(catalog, run_id, new, resumed),
                    note or f"{sum(new.values())} new tasks, {new.get('accepted', 0)} accepted; {resumed} resumed")
    return flowkit.counts(new, resumed)


@flow(name="generate", task_runner=ThreadPoolTaskRunner(max_workers=1),  # type: ignore[arg-type]
      flow_run_name=generate_run_name, on_crashed=ON_CRASHED, on_cancellation=ON_CANCELLATION)
@flowkit.documented
def generate_flow(n: Count, seed: Seed = None, out: Out = "tasks", db: Db = None, apps: Names = None,
                  families: Names = None, skills: Names = None, batch_size: BatchSize = 200, workers: Workers = 1,
                  dask_address: DaskAddress = None, sandbox: UseSandbox = True, real_apps: RealApps = "sample",
                  real_apps_rate: Rate = 0.1, llm: LLM = None, timeout: Timeout = 60.0,
                  instruction_register: Register = "mixed", with_multi_app: WithMulti = False,
                  multi_share: Share = None, infeasible_share: Share = None) -> dict[str, int]:
    """Generate n tasks like `forge generate`, in batches of `batch_size`; returns the new tasks by gate class
    (plus `resumed`: tasks an earlier run had already recorded, skipped).

    Rerunning the same parameters resumes. Without `seed`, a scheduled run's seed is its scheduled start in
    seconds since 2020-01-01 UTC, so each scheduled run makes new tasks."""
    logger = flowkit.run_logger()
    seed = flowkit.scheduled_seed() if seed is None else seed
    out, db = absolute(out, db)
    selection = Selection(apps=tuple(apps or ()), families=tuple(families or ()), skills=tuple(skills or ()),
                          with_multi_app=with_multi_app, multi_share=multi_share, register=instruction_register,
                          infeasible_share=infeasible_share)
    taxonomy = load_taxonomy()
    select_skills(taxonomy, selection)  # fail fast on unknown names, before any batch starts
    options = llm.absolute().model_dump(exclude_none=True) if llm is not None else None
    backend = flowkit.backend_name(options)  # fail fast on a bad LLM config
    catalog = Catalog(db)
    catalog.sync_skills(taxonomy.values())
    run_id = catalog.start_run(seed=seed, requested=n, selection={**selection.as_dict(), "flow_run": _flow_run_id()},
                               out_dir=out, backend=backend)
    target = Target(out, db, run_id, sandbox, real_apps, real_apps_rate, options, timeout)
    logger.info("run %s: %s tasks, seed %s, batches of %s -> %s (LLM: %s)", run_id, n, seed, batch_size, out, backend)
    landed: list[dict[str, dict[str, int]]] = []
    status = "interrupted"  # a KeyboardInterrupt or termination; on_crashed says the same if this never runs
    try:
        with task_runner(workers, dask_address) as runner:
            _collect(catalog, run_id, [runner.submit(generate_batch, {"target": target,
                                                                      "selection": selection.as_dict(), "n": n,
                                                                      "seed": seed, "start": start,
                                                                      "stop": min(start + batch_size, n)})
                                       for start in range(0, n, batch_size)], landed)
        totals = _finish(catalog, "generate", run_id, seed, landed)
        status = "finished"
    except Exception:
        status = "failed"
        raise
    finally:
        catalog.finish_run(run_id, flowkit.counts(*flowkit.gather(landed)), status)
    return totals


def next_round(catalog: Catalog) -> int:
    """The round a scheduled run works on: the oldest not yet closed (a crashed run resumes it), else the next."""
    unfinished, last = catalog.round_numbers()
    return unfinished or last + 1


@task(name="expand", task_run_name="expand-round-{round_n}", cache_policy=NO_CACHE, retries=BATCH_RETRIES,
      retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=flowkit.retry_on_infra)
def expand_round(db: str, round_n: int, budget: int, seed: int, out: str, sandbox: bool, timeout: float,
                 llm: dict[str, Any] | None) -> list[str]:
    """The round's expansion and plan (forge.rounds.prepare_round: retire, reweight, propose and probe new skills,
    allocate `budget` tasks); returns the task ids. A rerun of a prepared round returns its recorded plan."""
    from forge.llm.ledger import make_backend
    from forge.rounds import prepare_round

    backend = make_backend(LLMOptions(**(llm or {})).flags().settings(), Catalog(db))
    limits = Limits(wall_seconds=timeout, cpu_seconds=max(1, min(30, int(timeout))))
    # issue 15: the statistics decide which candidates a round wants; a scheduled round probes at most `budget` of
    # them (a seeded sample keeping each operator's share), so its probe cost stays bounded by its task budget
    ids = prepare_round(db, round_n, budget, seed, out, sandbox=Sandbox(limits, enabled=sandbox), backend=backend,
                        limit=budget)
    flowkit.run_logger().info("round %s planned: %s tasks", round_n, len(ids))
    return ids


@task(name="close-round", task_run_name="export-round-{round_n}", cache_policy=NO_CACHE, retries=BATCH_RETRIES,
      retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=flowkit.retry_on_infra)
def close_round(db: str, round_n: int, out: str, results: str | None) -> dict[str, Any]:
    """Close the round (forge.rounds.finish_round): export its accepted tasks for OSWorld, ingest `results`."""
    from forge.rounds import finish_round

    summary = finish_round(db, round_n, out, results)
    flowkit.run_logger().info("round %s closed: export %s", round_n, summary.get("export"))
    return summary


@flow(name="round", task_runner=ThreadPoolTaskRunner(max_workers=1),  # type: ignore[arg-type]
      flow_run_name=round_run_name, on_crashed=ON_CRASHED, on_cancellation=ON_CANCELLATION)
@flowkit.documented
def round_flow(budget: Budget, round_n: RoundNumber = None, seed: RoundSeed = 0, out: Out = "tasks", db: Db = None,
               results: Results = None, batch_size: BatchSize = 200, workers: Workers = 1,
               dask_address: DaskAddress = None, sandbox: UseSandbox = True, real_apps: RealApps = "sample",
               real_apps_rate: Rate = 0.1, llm: LLM = None, timeout: Timeout = 60.0) -> dict[str, Any]:
    """One feedback round like `forge round run`: the `expand` task plans `budget` tasks from the catalog's
    statistics, batch tasks generate them, the `close-round` task exports the accepted ones (and ingests the
    student's `results` if given); returns the round's counts.

    `round_n` empty: the oldest round not yet closed, else the next. Rerunning a round resumes it."""
    from forge.rounds import round_seed

    logger = flowkit.run_logger()
    out, db = absolute(out, db)
    options = llm.absolute().model_dump(exclude_none=True) if llm is not None else None
    backend = flowkit.backend_name(options)
    catalog = Catalog(db)
    round_n = next_round(catalog) if round_n is None else round_n
    task_ids = expand_round(db, round_n, budget, seed, out, sandbox, timeout, options)
    run_id = catalog.start_run(seed=round_seed(seed, round_n), requested=len(task_ids),
                               selection={"round": round_n, "flow_run": _flow_run_id()}, out_dir=out, backend=backend,
                               round=round_n)
    target = Target(out, db, run_id, sandbox, real_apps, real_apps_rate, options, timeout)
    logger.info("round %s (run %s): %s tasks -> %s", round_n, run_id, len(task_ids), out)
    landed: list[dict[str, dict[str, int]]] = []
    status = "interrupted"
    try:
        with task_runner(workers, dask_address) as runner:
            _collect(catalog, run_id, [runner.submit(round_batch, {"target": target,
                                                                   "task_ids": task_ids[i:i + batch_size], "start": i,
                                                                   "stop": min(i + batch_size, len(task_ids))})
                                       for i in range(0, len(task_ids), batch_size)], landed)
        _finish(catalog, "round", run_id, round_seed(seed, round_n), landed)
        status = "finished"
    except Exception:
        status = "failed"
        raise
    finally:
        catalog.finish_run(run_id, flowkit.counts(*flowkit.gather(landed)), status)
    summary = close_round(db, round_n, out, results)
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
        select_skills(load_taxonomy(), Selection(apps=tuple(params.get("apps") or ()),
                                                 families=tuple(params.get("families") or ()),
                                                 skills=tuple(params.get("skills") or ())))
    if params.get("llm") is not None:
        params["llm"] = params["llm"].absolute().model_dump(exclude_none=True)
        flowkit.backend_name(params["llm"])  # the config file parses, a --max-cost model has a price
    # concurrency_limit=1: a run still busy when the next is due waits instead of competing for the machine.
    made = flow_obj.to_deployment(name=name, cron=cron, interval=interval, parameters=params, concurrency_limit=1,
                                  description=f"forge {flow_name}: {(flow_obj.fn.__doc__ or '').splitlines()[0]}")
    assert isinstance(made, RunnerDeployment)  # called from sync code, Prefect's dispatcher returns the value
    return made
