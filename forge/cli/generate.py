"""`forge generate` and `forge demo`: tasks through the gate into the catalog, with a progress bar and a summary."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from forge.cli import llm as cli_llm
from forge.cli.base import (
    DbOption,
    NoSandbox,
    RealAppsMode,
    RealAppsRate,
    ScriptTimeout,
    app,
    console,
    err_console,
    print_rows,
    sandbox,
    writable_folder,
)
from forge.llm.flags import LLMFlags
from kit.errors import ForgeError

#: The query `forge demo` prints and runs (portable: SQLite and PostgreSQL; tests/forge/test_sql_portable.py).
DEMO_QUERY = ("SELECT app, count(*) AS tasks, sum(CASE WHEN status = 'accepted' THEN 1 ELSE 0 END) AS accepted "
              "FROM tasks GROUP BY app ORDER BY app")


@dataclass(frozen=True)
class Request:
    """What to generate: the selection, the plan's size and seed, where packages go and how the gate runs."""

    out: Path
    db: str | None
    n: int
    seed: int
    apps: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    with_multi_app: bool = False
    multi_share: float | None = None
    no_sandbox: bool = False
    real_apps: str = "sample"
    rate: float = 0.1
    timeout: float = 60.0
    register: str = "mixed"
    infeasible_share: float | None = None


def policy(mode: str, rate: float) -> Any:
    """The real-app policy; one printed note per real app the tier must skip (absent app or driver)."""
    from forge.realapps import Policy, missing

    chosen = Policy(mode, rate)
    if mode != "off":
        for note in missing():
            err_console.print(f"note: {note}; that part of the real-app tier is skipped (--real-apps off "
                              "silences this)", highlight=False)
    return chosen


def run_generation(request: Request, llm: LLMFlags | None = None, task_ids: list[Any] | None = None
                   ) -> tuple[Counter[str], Any, cli_llm.RunInfo]:
    """Plan (unless `task_ids` are given), then generate and gate every task into the catalog; with --dry-run,
    only print the estimate."""
    from forge.catalog import Catalog
    from forge.generate import Selection, plan_for
    from kit.taxonomy import load_taxonomy

    llm = llm or LLMFlags()
    config = llm.settings()
    taxonomy = load_taxonomy()
    selection = Selection(request.apps, request.families, request.skills, request.with_multi_app,
                          request.multi_share, request.register, request.infeasible_share)
    task_ids = plan_for(taxonomy, selection, request.n, request.seed) if task_ids is None else task_ids
    out = request.out
    if not llm.dry_run:  # before the catalog: a bad --out leaves nothing behind
        # absolute: the catalog stores package paths that resolve from any folder (forge export, forge show)
        out = writable_folder("--out", out)
    catalog = Catalog(request.db)
    if llm.dry_run:
        cli_llm.print_estimate(console, config, catalog, taxonomy, task_ids)
        return Counter(), catalog, cli_llm.RunInfo(None, config.backend, dry_run=True)
    generator = _generator(request, llm, config, catalog, taxonomy, selection.as_dict(), out, len(task_ids))
    counts = _run_with_progress(generator, catalog, task_ids)
    cli_llm.print_endpoint(err_console, generator.backend)
    return counts, catalog, cli_llm.RunInfo(generator.run_id, generator.backend.name, generator.stopped)


def _generator(request: Request, llm: LLMFlags, config: Any, catalog: Any, taxonomy: Any, selection: dict[str, Any],
               out: Path, requested: int) -> Any:
    """A `forge.generate.Generator` for a new run recorded in `catalog` (its skills synced first), with the backend,
    budget and judge the flags ask for."""
    from forge.generate import Generator
    from forge.llm.budget import Budget
    from forge.llm.ledger import make_backend

    backend = make_backend(config, catalog, progress=lambda line: err_console.print(line, markup=False,
                                                                                     highlight=False))
    real_apps = policy(request.real_apps, request.rate)
    catalog.sync_skills(taxonomy.values())
    chosen_sandbox = sandbox(request.no_sandbox, request.timeout)
    run_id = catalog.start_run(seed=request.seed, requested=requested, selection=selection, out_dir=str(out),
                               backend=backend.name)
    judge = None
    if llm.judge:
        from verifiers.gate.judge import Judge

        judge = Judge(backend)
    concurrency = 1 if backend.name == "offline" else config.concurrency
    return Generator(out, catalog, sandbox=chosen_sandbox, taxonomy=taxonomy,
                     run_id=run_id, real_apps=real_apps, backend=backend, budget=Budget(llm.max_cost, llm.max_tokens),
                     concurrency=concurrency, judge=judge)


def _run_with_progress(generator: Any, catalog: Any, task_ids: list[Any]) -> Counter[str]:
    """Run the generator's tasks under a progress bar; the run's row is finished whatever happens (Ctrl-C: exit 130
    with a note on how to continue)."""
    columns = (TextColumn("[bold]generating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[accepted]} accepted"))
    counts: Counter[str] = Counter()
    status = "failed"
    offline = generator.backend.name == "offline"
    try:
        with Progress(*columns, console=err_console, disable=not err_console.is_terminal) as progress:
            bar = progress.add_task("generate", total=len(task_ids), accepted=0)

            def advance(outcome: Any) -> None:
                counts[outcome.status] += 1
                progress.update(bar, advance=1, accepted=counts["accepted"])

            # With a model, commit every task: its answers are cached at once and a kill loses nothing paid.
            generator.run(task_ids, advance, commit_every=25 if offline else 1)
        status = "stopped" if generator.stopped else "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        cli_llm.print_interrupted(err_console, generator.run_id, sum(counts.values()))
        raise typer.Exit(130) from None
    finally:
        catalog.finish_run(generator.run_id, dict(counts), status)
    return counts


def print_summary(counts: Counter[str], out: Path, catalog: Any, info: cli_llm.RunInfo | None = None) -> None:
    """The gate classes of a run, its LLM spend (with a model), where the packages and the catalog are."""
    from forge.database import shown

    if info is not None and info.dry_run:
        return
    table = Table("status", "tasks", title="gate classes")
    for status, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        table.add_row(status, str(count))
    table.add_row("total", str(sum(counts.values())), style="bold")
    console.print(table)
    if info is not None and info.run_id is not None and info.backend != "offline":
        cli_llm.print_llm_usage(console, catalog, info.run_id, counts["accepted"])
    console.print(f"packages: {out}/<app>/<task_id>/  (rejected: {out}/rejected/<class>/)", markup=False)
    console.print(f"catalog:  {shown(catalog.url)}", markup=False)
    if info is not None and info.stopped:
        console.print(f"[bold yellow]Stopped early:[/] {info.stopped}. The {sum(counts.values())} tasks recorded are "
                      "kept. To continue, rerun the same command with a higher cap: recorded tasks are skipped and "
                      "answers already paid for come from the cache.", highlight=False)


def run_on_dask(address: str, batch_size: int, flags: LLMFlags, request: Request) -> Counter[str]:
    """`forge generate --dask-address`: the same plan as a local run, as generate-flow batches on the cluster."""
    from forge.flows import check_parameters, generate_flow

    if flags.dry_run or flags.judge or any(v is not None for v in (flags.temperature, flags.max_tokens_per_call,
                                                                      flags.timeout)):
        raise ForgeError("--dask-address takes --llm, --model, --base-url, --api-key-env, --config, --concurrency, "
                         "--max-cost and --max-tokens; drop --dry-run, --llm-judge, --temperature, "
                         "--max-tokens-per-call and --llm-timeout (set them in the --config file), or run without "
                         "--dask-address")
    options = {"backend": flags.backend, "model": flags.model, "base_url": flags.base_url,
               "api_key_env": flags.api_key_env, "config": str(flags.config) if flags.config else None,
               "concurrency": flags.concurrency, "max_cost": flags.max_cost, "max_tokens": flags.max_tokens}
    given = {k: v for k, v in options.items() if v is not None}
    params = check_parameters(generate_flow, {
        "n": request.n, "seed": request.seed, "out": str(request.out), "db": request.db,
        "apps": list(request.apps) or None, "families": list(request.families) or None,
        "skills": list(request.skills) or None, "batch_size": batch_size, "dask_address": address,
        "sandbox": not request.no_sandbox, "real_apps": request.real_apps, "real_apps_rate": request.rate,
        "llm": given or None, "instruction_register": request.register, "with_multi_app": request.with_multi_app,
        "multi_share": request.multi_share, "infeasible_share": request.infeasible_share})
    writable_folder("--out", request.out)
    err_console.print(f"{request.n} tasks in {-(-request.n // batch_size)} batches of up to {batch_size} on the Dask "
                      f"cluster at {address} (Prefect flow 'generate'); a rerun resumes", highlight=False)
    return Counter(generate_flow(**params))


@app.command()
def generate(
    out: Annotated[Path, typer.Option("--out", help="Folder for the packages: <out>/<app>/<task_id>/.")],
    n: Annotated[int, typer.Option("-n", "--n", help="Number of tasks. The first tasks take one skill of every "
                                   "family, then every skill once, then again (seeded order).")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: same seed, same packages (byte for byte); "
                                      "another seed picks other skills first.")] = 0,
    app_name: Annotated[list[str] | None, typer.Option("--app", help="Only single-app skills of this app "
                                                       "(repeatable; see --with-multi-app).")] = None,
    family: Annotated[list[str] | None, typer.Option("--family", help="Only this family (repeatable).")] = None,
    skill: Annotated[list[str] | None, typer.Option("--skill", help="Only this skill id (repeatable); tasks are "
                                                    "spread evenly over the named skills.")] = None,
    with_multi_app: Annotated[bool, typer.Option("--with-multi-app", help="With --app: also the multi-app skills "
                                                 "that use the app.")] = False,
    multi_share: Annotated[float | None, typer.Option("--multi-share", min=0.0, max=1.0, help="Share of multi-app "
                          "tasks (default: 0.4 for the default mix, i.e. no --app/--family/--skill; no split for "
                          "an explicit selection).")] = None,
    infeasible_share: Annotated[float | None, typer.Option("--infeasible-share", min=0.0, max=1.0, help="Share of "
                               "infeasible tasks, whose right outcome is to decline and change nothing (default: "
                               "1/15 for the default mix; none set apart for an explicit selection).")] = None,
    register: Annotated[str, typer.Option("--register", help="The instructions' register: explicit (a "
                        "specification: paths, ranges, exact values), "
                        "natural (a user's goal in their own voice, 8-40 words) or mixed (the default: half and "
                        "half, alternating in plan order; families without natural phrasings stay explicit). "
                        "Recorded per task: tasks.register, task.json 'register'.")] = "mixed",
    db: DbOption = None,
    no_sandbox: NoSandbox = False,
    real_apps: RealAppsMode = "sample",
    real_apps_rate: RealAppsRate = 0.1,
    llm: cli_llm.LLMChoice = None,
    model: cli_llm.ModelOption = None,
    base_url: cli_llm.BaseUrl = None,
    api_key_env: cli_llm.ApiKeyEnv = None,
    config: cli_llm.ConfigFile = None,
    temperature: cli_llm.Temperature = None,
    max_tokens_per_call: cli_llm.MaxTokensPerCall = None,
    llm_timeout: cli_llm.LLMTimeout = None,
    structured: cli_llm.Structured = None,
    concurrency: cli_llm.Concurrency = None,
    max_cost: cli_llm.MaxCost = None,
    max_tokens: cli_llm.MaxTokens = None,
    dry_run: cli_llm.DryRun = False,
    llm_judge: cli_llm.LLMJudge = False,
    dask_address: Annotated[str | None, typer.Option(
        "--dask-address", help="Run the tasks in batches (--batch-size) on this existing Dask cluster, e.g. "
        "tcp://10.0.0.5:8786, through the Prefect generate flow (LLM options too). Its workers need this checkout, "
        "the catalog (PostgreSQL for several machines) and --out at the same path.")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Tasks per batch with --dask-address.")] = 200,
    timeout: ScriptTimeout = 60.0,
) -> None:
    """Generate N tasks, run each through the gate, and record every one (accepted or not) in the catalog.

    Exit status 0 when the run completed, even if some tasks were rejected; the summary shows the gate
    classes (and, with a model, the LLM spend per node). Offline by default; with a model:
    forge generate --llm openai --model gpt-4o-mini -n 50 --max-cost 1 --out tasks/ (key in $OPENAI_API_KEY).
    Example: forge generate --app libreoffice_calc -n 500 --seed 1 --out tasks/
    """
    flags = LLMFlags(config, llm, model, base_url, api_key_env, temperature, max_tokens_per_call, llm_timeout,
                     concurrency, max_cost, max_tokens, dry_run, llm_judge, structured)
    request = Request(out, db, n, seed, tuple(app_name or ()), tuple(family or ()), tuple(skill or ()),
                      with_multi_app, multi_share, no_sandbox, real_apps, real_apps_rate, timeout, register,
                      infeasible_share)
    if dask_address is not None:
        from forge.catalog import Catalog

        counts = run_on_dask(dask_address, batch_size, flags, request)
        return print_summary(counts, out, Catalog(db))
    counts, catalog, info = run_generation(request, flags)
    print_summary(counts, out, catalog, info)


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", help="Where the demo writes packages and its catalog.")] = Path(
        "forge-demo"),
    seed: Annotated[int, typer.Option("--seed", help="Run seed.")] = 0,
    n: Annotated[int | None, typer.Option("-n", "--n", help="Tasks in the demo batch: the default mix, whose "
                                          "first tasks take one skill of every family. Default: one per family.")
                              ] = None,
    no_sandbox: NoSandbox = False,
    real_apps: RealAppsMode = "sample",
    real_apps_rate: RealAppsRate = 0.1,
    timeout: ScriptTimeout = 60.0,
    llm: cli_llm.LLMChoice = None,
    model: cli_llm.ModelOption = None,
    base_url: cli_llm.BaseUrl = None,
    config: cli_llm.ConfigFile = None,
    max_cost: cli_llm.MaxCost = None,
    dry_run: cli_llm.DryRun = False,
) -> None:
    """Generate one task of every workflow family offline (no API key), gate and catalog them, then query the catalog.

    Each family is shown by one of its skills (chosen by --seed), so the demo covers every app and every kind of
    task, multi-app chains included. Every task goes through the full gate; a sample of those with office files
    or a Thunderbird profile also through the real apps (--real-apps sample, skipped with a note when an app is
    not installed). Packages and the SQLite catalog go to --out. With --llm openai (and --model, --base-url or a
    --config file) the same tasks use a model."""
    from forge.demo import demo_plan
    from kit.taxonomy import load_taxonomy

    out = writable_folder("--out", out)
    db = f"sqlite:///{out / 'forge.db'}"
    task_ids = demo_plan(load_taxonomy(), n, seed)
    flags = LLMFlags(config, llm, model, base_url, max_cost=max_cost, dry_run=dry_run)
    request = Request(out, db, len(task_ids), seed, no_sandbox=no_sandbox, real_apps=real_apps, rate=real_apps_rate,
                      timeout=timeout)
    counts, catalog, info = run_generation(request, flags, task_ids)
    print_summary(counts, out, catalog, info)
    if dry_run:
        return
    console.print(f"\nTry:  forge sql --db {db} \"{DEMO_QUERY}\"", highlight=False, markup=False)
    columns, rows = catalog.query(DEMO_QUERY)
    print_rows(columns, rows, "table")
