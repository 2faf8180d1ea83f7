"""The `forge` command line: a thin layer over the library.

Every command's docstring is its --help. Library errors (`ForgeError`) become one `Error: ...` line and
exit status 1 in exactly one place (`_Group.invoke`).
"""

from __future__ import annotations

import csv
import enum
import io
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from typer.core import TyperGroup

from forge import cli_llm
from forge.errors import ForgeError

console = Console(width=None if sys.stdout.isatty() else 160)
err_console = Console(stderr=True)


class _Group(TyperGroup):
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ForgeError as exc:
            print(f"Error: {exc}", file=sys.stderr)
            raise typer.Exit(1) from None


app = typer.Typer(
    cls=_Group,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    help="Forge: synthesize verifiable desktop tasks (instruction + setup.sh + rubric) for computer-use agents.\n\n"
         "Start with `forge demo`. Then `forge skills list`, `forge generate -n 100 --seed 1 --out tasks/`, "
         "`forge sql \"SELECT status, count(*) FROM tasks GROUP BY status\"`.",
)
skills_app = typer.Typer(cls=_Group, no_args_is_help=True, pretty_exceptions_enable=False,
                         help="Browse the skill taxonomy.")
app.add_typer(skills_app, name="skills")

DbOption = Annotated[str | None, typer.Option("--db", help="Catalog: any SQLAlchemy URL or a SQLite file path. "
                                              "Default: $FORGE_DATABASE_URL, else ./forge.db.")]
NoSandbox = Annotated[bool, typer.Option("--no-sandbox", help="Run package scripts WITHOUT bubblewrap "
                                         "(trusted packages only; /home/user is rewritten to a temp folder).")]


RealAppsMode = Annotated[str, typer.Option(
    "--real-apps", help="Real-application tier after the gate: off, sample (a share of the tasks, see "
    "--real-apps-rate) or all. Real LibreOffice opens each office file and re-saves the oracle's result; the "
    "rubric must still pass (else the task is `strict`).")]
RealAppsRate = Annotated[float, typer.Option("--real-apps-rate", min=0.0, max=1.0,
                                             help="Share of tasks the real-app tier checks with --real-apps sample.")]
ScriptTimeout = Annotated[float, typer.Option("--timeout", min=1, help="Seconds of wall-clock time a package "
                                             "script may run (its CPU limit is the same or less).")]


def _sandbox(no_sandbox: bool, timeout: float = 60.0) -> Any:
    from forge.sandbox import Limits, Sandbox

    return Sandbox(Limits(wall_seconds=timeout, cpu_seconds=max(1, min(30, int(timeout)))), enabled=not no_sandbox)


@skills_app.command("list")
def skills_list(
    app_name: Annotated[str | None, typer.Option("--app", help="Only skills of this app.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the atomic skills (id, family, app, difficulty, params)."""
    from forge.taxonomy import load_taxonomy

    skills = [s for s in load_taxonomy().values() if app_name is None or app_name in (s.app, *s.apps)]
    if app_name is not None and not skills:
        raise ForgeError(f"no skills for app {app_name!r}; run `forge skills list` to see the apps")
    if as_json:
        print(json.dumps([{"id": s.id, "family": s.family, "app": s.app, "apps": list(s.apps), "params": dict(s.params),
                           "difficulty": s.difficulty, "description": s.description} for s in skills], indent=2))
        return
    table = Table("id", "family", "app", "difficulty", "params", title=f"{len(skills)} skills")
    for s in skills:
        table.add_row(s.id, s.family, s.app, s.difficulty, json.dumps(dict(s.params)))
    console.print(table)


def _policy(mode: str, rate: float) -> Any:
    from forge.realapps import Policy, libreoffice

    policy = Policy(mode, rate)
    if mode == "sample" and not libreoffice.available():
        err_console.print("note: LibreOffice is not installed, so the real-app tier is skipped (apt-get install "
                          "libreoffice-calc-nogui libreoffice-writer-nogui libreoffice-impress-nogui poppler-utils; "
                          "--real-apps off silences this)")
    return policy


def _run_generation(*, apps: tuple[str, ...], families: tuple[str, ...], skills: tuple[str, ...], n: int, seed: int,
                    out: Path, db: str | None, no_sandbox: bool, real_apps: str = "sample", rate: float = 0.1,
                    llm: cli_llm.LLMFlags | None = None) -> tuple[Counter[str], Any, cli_llm.RunInfo]:
    from forge.catalog import Catalog
    from forge.generate import Generator, Selection, plan, select_skills
    from forge.llm.budget import Budget
    from forge.llm.ledger import make_backend
    from forge.taxonomy import load_taxonomy

    llm = llm or cli_llm.LLMFlags()
    config = llm.settings()
    taxonomy = load_taxonomy()
    selection = Selection(apps, families, skills)
    task_ids = plan(select_skills(taxonomy, selection), n, seed)
    catalog = Catalog(db)
    if llm.dry_run:
        cli_llm.print_estimate(console, config, catalog, taxonomy, task_ids)
        return Counter(), catalog, cli_llm.RunInfo(None, config.backend, dry_run=True)
    backend = make_backend(config, catalog)
    policy = _policy(real_apps, rate)
    catalog.sync_skills(taxonomy.values())
    sandbox = _sandbox(no_sandbox)
    run_id = catalog.start_run(seed=seed, requested=n, selection=selection.as_dict(), out_dir=str(out),
                               backend=backend.name)
    budget = Budget(llm.max_cost, llm.max_tokens)
    concurrency = 1 if backend.name == "offline" else config.concurrency
    judge = None
    if llm.judge:
        from verifiers.judge import Judge

        judge = Judge(backend)
    generator = Generator(out, catalog, sandbox=sandbox, taxonomy=taxonomy, run_id=run_id, real_apps=policy,
                          backend=backend, budget=budget, concurrency=concurrency, judge=judge)
    columns = (TextColumn("[bold]generating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[accepted]} accepted"))
    counts: Counter[str] = Counter()
    status = "failed"
    try:
        with Progress(*columns, console=err_console, disable=not err_console.is_terminal) as progress:
            bar = progress.add_task("generate", total=len(task_ids), accepted=0)

            def advance(outcome: Any) -> None:
                counts[outcome.status] += 1
                progress.update(bar, advance=1, accepted=counts["accepted"])

            # With a model, commit every task: its answers are cached at once and a kill loses nothing paid.
            generator.run(task_ids, advance, commit_every=1 if backend.name != "offline" else 25)
        status = "stopped" if generator.stopped else "finished"
    finally:
        catalog.finish_run(run_id, dict(counts), status)
    return counts, catalog, cli_llm.RunInfo(run_id, backend.name, generator.stopped)


def _print_summary(counts: Counter[str], out: Path, catalog: Any, info: cli_llm.RunInfo | None = None) -> None:
    if info is not None and info.dry_run:
        return
    table = Table("status", "tasks", title="gate classes")
    for status, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        table.add_row(status, str(count))
    table.add_row("total", str(sum(counts.values())), style="bold")
    console.print(table)
    if info is not None and info.run_id is not None and info.backend != "offline":
        cli_llm.print_llm_usage(console, catalog, info.run_id, counts["accepted"])
    console.print(f"packages: {out}/<app>/<task_id>/  (rejected: {out}/rejected/<class>/)")
    from forge.database import shown

    console.print(f"catalog:  {shown(catalog.url)}")
    if info is not None and info.stopped:
        console.print(f"[bold yellow]Stopped early:[/] {info.stopped}. The {sum(counts.values())} tasks recorded are "
                      "kept. To continue, rerun the same command with a higher cap: recorded tasks are skipped and "
                      "answers already paid for come from the cache.", highlight=False)


@app.command()
def generate(
    out: Annotated[Path, typer.Option("--out", help="Folder for the packages: <out>/<app>/<task_id>/.")],
    n: Annotated[int, typer.Option("-n", "--n", help="Number of tasks, round-robin over the chosen skills.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: same seed, same packages (byte for byte).")] = 0,
    app_name: Annotated[list[str] | None, typer.Option("--app", help="Only skills of this app (repeatable).")] = None,
    family: Annotated[list[str] | None, typer.Option("--family", help="Only this family (repeatable).")] = None,
    skill: Annotated[list[str] | None, typer.Option("--skill", help="Only this skill id (repeatable).")] = None,
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
    concurrency: cli_llm.Concurrency = None,
    max_cost: cli_llm.MaxCost = None,
    max_tokens: cli_llm.MaxTokens = None,
    dry_run: cli_llm.DryRun = False,
    llm_judge: cli_llm.LLMJudge = False,
    dask_address: Annotated[str | None, typer.Option(
        "--dask-address", help="Run the tasks in batches (--batch-size) on this existing Dask cluster, e.g. "
        "tcp://10.0.0.5:8786, through the Prefect generate flow (offline backend). Its workers need this checkout, "
        "the catalog (PostgreSQL for several machines) and --out at the same path.")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Tasks per batch with --dask-address.")] = 200,
) -> None:
    """Generate N tasks, run each through the gate, and record every one (accepted or not) in the catalog.

    Exit status 0 when the run completed, even if some tasks were rejected; the summary shows the gate
    classes (and, with a model, the LLM spend per node). Offline by default; with a model:
    forge generate --llm openai --model gpt-4o-mini -n 50 --max-cost 1 --out tasks/ (key in $OPENAI_API_KEY).
    Example: forge generate --app libreoffice_calc -n 500 --seed 1 --out tasks/
    """
    flags = cli_llm.LLMFlags(config, llm, model, base_url, api_key_env, temperature, max_tokens_per_call, llm_timeout,
                             concurrency, max_cost, max_tokens, dry_run, llm_judge)
    if dask_address is not None:
        from forge.catalog import Catalog
        from forge.cli_serve import run_on_dask

        counts = run_on_dask(dask_address, batch_size, flags, apps=app_name, families=family, skills=skill, n=n,
                             seed=seed, out=out, db=db, no_sandbox=no_sandbox, real_apps=real_apps,
                             rate=real_apps_rate)
        return _print_summary(counts, out, Catalog(db))
    counts, catalog, info = _run_generation(apps=tuple(app_name or ()), families=tuple(family or ()),
                                            skills=tuple(skill or ()), n=n, seed=seed, out=out, db=db,
                                            no_sandbox=no_sandbox, real_apps=real_apps, rate=real_apps_rate, llm=flags)
    _print_summary(counts, out, catalog, info)


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", help="Where the demo writes packages and its catalog.")] = Path(
        "forge-demo"),
    seed: Annotated[int, typer.Option("--seed", help="Run seed.")] = 0,
    n: Annotated[int, typer.Option("-n", "--n", help="Tasks in the demo batch (the default mix: every app, "
                                   "40 % multi-app).")] = 100,
    no_sandbox: NoSandbox = False,
    real_apps: RealAppsMode = "sample",
    real_apps_rate: RealAppsRate = 0.1,
    llm: cli_llm.LLMChoice = None,
    model: cli_llm.ModelOption = None,
    base_url: cli_llm.BaseUrl = None,
    config: cli_llm.ConfigFile = None,
    max_cost: cli_llm.MaxCost = None,
    dry_run: cli_llm.DryRun = False,
) -> None:
    """Generate, verify and catalog a small mixed batch offline (no API key), then show a SQL query.

    A sample of the office tasks also goes through real LibreOffice (--real-apps sample). With --llm openai
    (and --model, --base-url or a --config file) the same batch uses a model."""
    db = f"sqlite:///{out.resolve() / 'forge.db'}"
    out.mkdir(parents=True, exist_ok=True)
    flags = cli_llm.LLMFlags(config, llm, model, base_url, max_cost=max_cost, dry_run=dry_run)
    counts, catalog, info = _run_generation(apps=(), families=(), skills=(), n=n, seed=seed, out=out, db=db,
                                            no_sandbox=no_sandbox, real_apps=real_apps, rate=real_apps_rate, llm=flags)
    _print_summary(counts, out, catalog, info)
    if dry_run:
        return
    query = "SELECT app, count(*) AS tasks, sum(status = 'accepted') AS accepted FROM tasks GROUP BY app"
    console.print(f"\nTry:  forge sql --db {db} \"{query}\"")
    columns, rows = catalog.query(query)
    _print_rows(columns, rows, "table")


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(help="Package folders, or folders to search for task.json.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per package.")] = False,
    db: Annotated[str | None, typer.Option("--db", help="Also reject duplicates of tasks accepted in this catalog.")
                  ] = None,
    no_sandbox: NoSandbox = False,
    timeout: ScriptTimeout = 60.0,
) -> None:
    """Run the gate on existing packages (made by Forge or not) and print each one's class.

    Exit status 1 if any package is not accepted.
    """
    from forge.catalog import Catalog
    from forge.solve import LocalEnv
    from forge.workers import gate_runner
    from verifiers.gate import Gate

    folders = _package_folders(paths)
    sandbox = _sandbox(no_sandbox, timeout)
    env = LocalEnv(sandbox, Catalog(db).find_duplicate if db else None)
    with gate_runner(sandbox) as (runner, workdir):
        gate = Gate(env, runner=runner, workdir=workdir)
        statuses = [_report(gate.verify(folder), folder, as_json) for folder in folders]
    if any(s != "accepted" for s in statuses):
        raise typer.Exit(1)


def _report(verdict: Any, folder: Path, as_json: bool) -> str:
    """Print one verdict (a line of JSON or a colored line); returns its class."""
    if as_json:
        print(json.dumps({"path": str(folder), "task_id": verdict.task_id, "status": verdict.status,
                          "stages": [{"name": s.name, "passed": s.passed, "evidence": s.evidence}
                                     for s in verdict.stages]}))
    else:
        mark = "[green]" if verdict.accepted else "[red]"
        console.print(f"{mark}{verdict.status:<15}[/] {folder}  {'' if verdict.accepted else verdict.evidence}",
                      highlight=False, soft_wrap=True)
    return str(verdict.status)


def _package_folders(paths: list[Path]) -> list[Path]:
    folders: list[Path] = []
    for path in paths:
        if not path.exists():
            raise ForgeError(f"{path}: no such file or folder")
        if (path / "task.json").exists() or not path.is_dir():
            folders.append(path)
        else:
            found = sorted(p.parent for p in path.rglob("task.json"))
            if not found:
                raise ForgeError(f"{path}: no task.json found in or below this folder")
            folders.extend(found)
    return folders


@app.command()
def solve(
    path: Annotated[Path, typer.Argument(help="A package folder.")],
    state: Annotated[Path, typer.Option("--state", help="An empty folder standing for /home/user.")],
    solution: Annotated[str, typer.Option("--solution", help="oracle, near-miss, near-miss-N, or none.")] = "oracle",
    no_sandbox: NoSandbox = False,
) -> None:
    """Materialize the task's initial state into STATE (setup.sh in the sandbox), then apply a solution."""
    from forge.package import load_package
    from forge.solve import solve as solve_package

    evidence = solve_package(load_package(path), _sandbox(no_sandbox), state, solution)
    console.print(f"{state}: {evidence}", highlight=False)


@app.command()
def check(
    path: Annotated[Path, typer.Argument(help="A package folder.")],
    state: Annotated[Path, typer.Option("--state", help="The folder an agent left behind (stands for /home/user).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Evaluate the package's rubric against a state folder; print every check with evidence.

    Exit status 0 if all checks pass, 1 otherwise.
    """
    from forge.package import load_package
    from verifiers.gate import evaluate_rubric

    if not state.is_dir():
        raise ForgeError(f"--state {state}: not a folder; run `forge solve` first or point at an agent's home")
    package = load_package(path)
    outcomes = evaluate_rubric(package.task, state)
    passed = all(o.passed for o in outcomes)
    if as_json:
        print(json.dumps({"task_id": package.id, "passed": passed, "checks": [o.__dict__ for o in outcomes]}, indent=2))
    else:
        for o in outcomes:
            console.print(f"{'[green]PASS' if o.passed else '[red]FAIL'}[/] {o.id}: {o.criterion}\n      {o.evidence}",
                          highlight=False)
        console.print(f"{package.id}: {'passed' if passed else 'failed'}")
    if not passed:
        raise typer.Exit(1)


@app.command()
def show(
    task_id: Annotated[str, typer.Argument(help="A task id, e.g. calc.sort.numeric_desc--s1--00000.")],
    db: DbOption = None,
) -> None:
    """Show one task from the catalog: class, instruction, rubric and gate evidence."""
    from forge.catalog import Catalog
    from forge.database import shown
    from forge.package import load_package

    catalog = Catalog(db)
    row = catalog.task(task_id)
    if row is None:
        raise ForgeError(f"task {task_id!r} is not in the catalog {shown(catalog.url)}; "
                         "list ids with: forge sql \"SELECT id, status FROM tasks LIMIT 20\"")
    console.print(f"[bold]{row.id}[/]  skill={row.skill_id}  status={row.status}", highlight=False)
    console.print(f"path: {row.path}", highlight=False)
    console.print(f"instruction: {row.instruction}", highlight=False)
    if row.path and Path(row.path, "task.json").exists():
        for item in load_package(Path(row.path)).task["rubric"]:
            line = f"  check {item['id']} ({item['primitive']}): {item['criterion']}"
            console.print(line, highlight=False, markup=False)
    for v in catalog.verifications(task_id):
        console.print(f"  {'ok ' if v.passed else 'NO '} {v.verifier:<22} {v.evidence}", highlight=False, markup=False)


class OutputFormat(enum.StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def _print_rows(columns: list[str], rows: list[tuple[Any, ...]], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], indent=2, default=str))
    elif fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)
        writer.writerow(columns)
        writer.writerows(rows)
        sys.stdout.write(buf.getvalue())
    else:
        table = Table(*columns)
        for r in rows:
            table.add_row(*("" if v is None else str(v) for v in r))
        console.print(table)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="One read-only statement (SELECT / WITH / EXPLAIN / VALUES).")],
    fmt: Annotated[OutputFormat, typer.Option("--format", help="How to print the rows.")] = OutputFormat.table,
    db: DbOption = None,
) -> None:
    """Query the catalog read-only. Tables: skills, workflows, runs, rounds, tasks, verifications, llm_calls,
    llm_cache, student_results, taxonomy_changes; after an ingest, views skill_stats etc. (see README).

    Example: forge sql "SELECT app, status, count(*) FROM tasks GROUP BY app, status"
    """
    from forge.catalog import Catalog

    columns, rows = Catalog(db).query(query)
    _print_rows(columns, rows, fmt.value)


# Command groups that live in their own modules (forge/cli_*.py). Each module defines `register(app)`,
# which adds its commands or sub-Typers; keep this list sorted.
_COMMAND_MODULES: tuple[str, ...] = ("cli_db", "cli_export", "cli_feedback", "cli_serve")


def _register_commands() -> None:
    import importlib

    for name in _COMMAND_MODULES:
        importlib.import_module(f"forge.{name}").register(app)


_register_commands()


def main() -> None:
    app()
