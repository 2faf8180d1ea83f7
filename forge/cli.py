"""The `forge` command line: a thin layer over the library.

Every command's docstring is its --help. Library errors (`ForgeError`) become one `Error: ...` line and
exit status 1 in exactly one place (`_Group.invoke`).
"""

from __future__ import annotations

import csv
import decimal
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
from forge.textsafe import cell, plain, textline

console = Console(width=None if sys.stdout.isatty() else 160)
err_console = Console(stderr=True)


class _Group(TyperGroup):
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ForgeError as exc:
            print(f"Error: {plain(str(exc))}", file=sys.stderr)
            raise typer.Exit(1) from None
        except OSError as exc:  # a path the user gave cannot be read or written (--out, --db, --state ...)
            print(f"Error: {os_error_line(exc)}", file=sys.stderr)
            raise typer.Exit(1) from None


def os_error_line(exc: OSError) -> str:
    """One line for a file-system error: the path, the system's reason, and what to do."""
    where = " -> ".join(str(f) for f in (exc.filename, exc.filename2) if f is not None) or "a path"
    reason = exc.strerror or type(exc).__name__
    if isinstance(exc, FileExistsError | NotADirectoryError):
        reason = "a file is where a folder is needed"
    return f"{where}: {reason}; check the path and its permissions, or choose another one"


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


def _sandbox(no_sandbox: bool, timeout: float = 60.0, *, single: bool = False) -> Any:
    """The sandbox for package scripts and check workers; `single` (solve, check: one untrusted state at a time)
    gives package scripts and the worker 768 MB of address space each (they run one after the other), so a bomb
    keeps the whole command under 1 GB."""
    from forge.sandbox import Limits, Sandbox

    limits = Limits(wall_seconds=timeout, cpu_seconds=max(1, min(30, int(timeout))))
    if single:
        limits = Limits(wall_seconds=timeout, cpu_seconds=limits.cpu_seconds, memory_mb=768, worker_memory_mb=768)
    return Sandbox(limits, enabled=not no_sandbox)


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
    """The real-app policy; one printed note per real app the tier must skip (absent app or driver)."""
    from forge.realapps import Policy, missing

    policy = Policy(mode, rate)
    if mode != "off":
        for note in missing():
            err_console.print(f"note: {note}; that part of the real-app tier is skipped (--real-apps off "
                              "silences this)", highlight=False)
    return policy


def writable_folder(flag: str, folder: Path) -> Path:
    """`folder` created if needed and writable, as an absolute path; else one `Error:` line naming the option. Checked
    before any work, so a typo in --out fails at once instead of after the first task (or deep in a temp path)."""
    import os

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ForgeError(f"{flag} {folder}: cannot create this folder ({exc.strerror}); choose another") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ForgeError(f"{flag} {folder}: not a writable folder; choose another")
    return folder.resolve()


def _run_generation(*, apps: tuple[str, ...], families: tuple[str, ...], skills: tuple[str, ...], n: int, seed: int,
                    out: Path, with_multi_app: bool = False, multi_share: float | None = None, db: str | None,
                    no_sandbox: bool, real_apps: str = "sample", rate: float = 0.1,
                    llm: cli_llm.LLMFlags | None = None, task_ids: list[Any] | None = None,
                    timeout: float = 60.0) -> tuple[Counter[str], Any, cli_llm.RunInfo]:
    from forge.catalog import Catalog
    from forge.generate import Generator, Selection, plan_for
    from forge.llm.budget import Budget
    from forge.llm.ledger import make_backend
    from forge.taxonomy import load_taxonomy

    llm = llm or cli_llm.LLMFlags()
    config = llm.settings()
    taxonomy = load_taxonomy()
    selection = Selection(apps, families, skills, with_multi_app, multi_share)
    task_ids = plan_for(taxonomy, selection, n, seed) if task_ids is None else task_ids
    if not llm.dry_run:  # before the catalog: a bad --out leaves nothing behind
        # absolute: the catalog stores package paths that resolve from any folder (forge export, forge show)
        out = writable_folder("--out", out)
    catalog = Catalog(db)
    if llm.dry_run:
        cli_llm.print_estimate(console, config, catalog, taxonomy, task_ids)
        return Counter(), catalog, cli_llm.RunInfo(None, config.backend, dry_run=True)
    backend = make_backend(config, catalog)
    policy = _policy(real_apps, rate)
    catalog.sync_skills(taxonomy.values())
    sandbox = _sandbox(no_sandbox, timeout)
    run_id = catalog.start_run(seed=seed, requested=len(task_ids), selection=selection.as_dict(), out_dir=str(out),
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
    except KeyboardInterrupt:
        status = "interrupted"
        cli_llm.print_interrupted(err_console, run_id, sum(counts.values()))
        raise typer.Exit(130) from None
    finally:
        catalog.finish_run(run_id, dict(counts), status)
    cli_llm.print_endpoint(err_console, backend)
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
    console.print(f"packages: {out}/<app>/<task_id>/  (rejected: {out}/rejected/<class>/)", markup=False)
    from forge.database import shown

    console.print(f"catalog:  {shown(catalog.url)}", markup=False)
    if info is not None and info.stopped:
        console.print(f"[bold yellow]Stopped early:[/] {info.stopped}. The {sum(counts.values())} tasks recorded are "
                      "kept. To continue, rerun the same command with a higher cap: recorded tasks are skipped and "
                      "answers already paid for come from the cache.", highlight=False)


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
    flags = cli_llm.LLMFlags(config, llm, model, base_url, api_key_env, temperature, max_tokens_per_call, llm_timeout,
                             concurrency, max_cost, max_tokens, dry_run, llm_judge, structured)
    if dask_address is not None:
        from forge.catalog import Catalog
        from forge.cli_serve import run_on_dask

        counts = run_on_dask(dask_address, batch_size, flags, apps=app_name, families=family, skills=skill, n=n,
                             seed=seed, out=out, db=db, no_sandbox=no_sandbox, real_apps=real_apps,
                             rate=real_apps_rate)
        return _print_summary(counts, out, Catalog(db))
    counts, catalog, info = _run_generation(apps=tuple(app_name or ()), families=tuple(family or ()),
                                            skills=tuple(skill or ()), n=n, seed=seed, out=out, db=db,
                                            with_multi_app=with_multi_app, multi_share=multi_share,
                                            no_sandbox=no_sandbox, real_apps=real_apps, rate=real_apps_rate, llm=flags,
                                            timeout=timeout)
    _print_summary(counts, out, catalog, info)


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
    from forge.taxonomy import load_taxonomy

    out = writable_folder("--out", out)
    db = f"sqlite:///{out / 'forge.db'}"
    task_ids = demo_plan(load_taxonomy(), n, seed)
    flags = cli_llm.LLMFlags(config, llm, model, base_url, max_cost=max_cost, dry_run=dry_run)
    counts, catalog, info = _run_generation(apps=(), families=(), skills=(), n=len(task_ids), seed=seed, out=out,
                                            db=db, no_sandbox=no_sandbox, real_apps=real_apps, rate=real_apps_rate,
                                            llm=flags, task_ids=task_ids, timeout=timeout)
    _print_summary(counts, out, catalog, info)
    if dry_run:
        return
    console.print(f"\nTry:  forge sql --db {db} \"{DEMO_QUERY}\"", highlight=False, markup=False)
    columns, rows = catalog.query(DEMO_QUERY)
    _print_rows(columns, rows, "table")


#: The query `forge demo` prints and runs (portable: SQLite and PostgreSQL; tests/forge/test_sql_portable.py).
DEMO_QUERY = ("SELECT app, count(*) AS tasks, sum(CASE WHEN status = 'accepted' THEN 1 ELSE 0 END) AS accepted "
              "FROM tasks GROUP BY app ORDER BY app")


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(help="Package folders, or folders to search for task.json.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per package.")] = False,
    db: Annotated[str | None, typer.Option("--db", help="Also reject duplicates of tasks accepted in this catalog.")
                  ] = None,
    no_sandbox: NoSandbox = False,
    timeout: ScriptTimeout = 60.0,
    all_mutants: Annotated[bool, typer.Option("--all-mutants", help="Try every mutant in the mutation control, "
                                              "not the per-task sample generation uses.")] = False,
) -> None:
    """Run the gate on existing packages (made by Forge or not) and print each one's class.

    Every stage runs, the mutation control on the same per-task sample of mutants as generation (--all-mutants:
    every mutant the mutators offer, a stricter audit); `forge show <id>` prints the mutation table in the catalog.
    Exit status 1 if any package is not accepted.
    """
    from forge.catalog import Catalog
    from forge.solve import LocalEnv
    from forge.workers import gate_runner
    from verifiers.gate import Gate

    folders = _package_folders(paths)
    sandbox = _sandbox(no_sandbox, timeout)
    env = LocalEnv(sandbox, Catalog(db, read_only=True).find_duplicate if db else None)
    with gate_runner(sandbox) as (runner, workdir):
        gate = Gate(env, runner=runner, workdir=workdir, **({"mutants": None} if all_mutants else {}))
        statuses = [_report(gate.verify(folder), folder, as_json) for folder in folders]
    totals = Counter(statuses)
    line = ", ".join(f"{count} {status}" for status, count in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))
    # with --json, stdout stays one object per package; the totals go to stderr
    (err_console if as_json else console).print(f"total: {len(statuses)} packages: {line}", highlight=False)
    if any(s != "accepted" for s in statuses):
        raise typer.Exit(1)


def _report(verdict: Any, folder: Path, as_json: bool) -> str:
    """Print one verdict (a line of JSON or a colored line); returns its class."""
    if as_json:
        print(json.dumps({"path": str(folder), "task_id": verdict.task_id, "status": verdict.status,
                          "stages": [{"name": s.name, "passed": s.passed, "evidence": s.evidence}
                                     for s in verdict.stages]}))
    else:
        console.print(textline((f"{verdict.status:<15}", "green" if verdict.accepted else "red"), f" {folder}  ",
                               "" if verdict.accepted else verdict.evidence), highlight=False, soft_wrap=True)
    return str(verdict.status)


def _package_folders(paths: list[Path]) -> list[Path]:
    folders: list[Path] = []
    for path in paths:
        if not path.exists():
            raise ForgeError(f"{path}: no such file or folder")
        if (path / "task.json").exists() or not path.is_dir():
            folders.append(path)
        else:
            from forge import bounded

            try:  # descriptors, no recursion, links not entered: a hostile tree cannot crash or mislead the search
                found = sorted(path / e.rel for e in bounded.walk(path, descend=lambda e: not e.is_package)
                               if e.is_dir and e.is_package)
            except (bounded.LimitExceeded, OSError) as exc:
                raise ForgeError(f"{path}: cannot search this folder for packages ({exc})") from None
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
    timeout: ScriptTimeout = 60.0,
) -> None:
    """Materialize the task's initial state into STATE (setup.sh in the sandbox), then apply a solution.

    The package must pass the gate's safety and schema stages; solution ops run in a sandboxed worker."""
    from forge.package import load_package
    from forge.solve import solve as solve_package

    evidence = solve_package(load_package(path), _sandbox(no_sandbox, timeout, single=True), state, solution)
    console.print(textline(f"{state}: {evidence}"), highlight=False)


@app.command()
def check(
    path: Annotated[Path, typer.Argument(help="A package folder.")],
    state: Annotated[Path, typer.Option("--state", help="The folder an agent left behind (stands for /home/user).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    no_sandbox: NoSandbox = False,
) -> None:
    """Evaluate the package's rubric against a state folder; print every check with evidence.

    The state is untrusted: it is copied (no link followed, no fifo opened) into a sandboxed check worker with
    memory, CPU and size limits; a bomb or a trap fails its check with evidence. Exit status 0 if all checks
    pass, 1 otherwise.
    """
    from forge.package import load_package
    from forge.solve import check_state

    if not state.is_dir() or state.is_symlink():
        raise ForgeError(f"--state {state}: not a folder; run `forge solve` first or point at an agent's home")
    package = load_package(path)
    outcomes = check_state(package, _sandbox(no_sandbox, single=True), state)
    passed = all(o["passed"] for o in outcomes)
    if as_json:
        print(json.dumps({"task_id": package.id, "passed": passed, "checks": outcomes}, indent=2))
    else:
        for o in outcomes:
            console.print(textline(("PASS", "green") if o["passed"] else ("FAIL", "red"),
                                   f" {o['id']}: {o['criterion']}\n      {o['evidence']}"), highlight=False)
        console.print(textline(f"{package.id}: {'passed' if passed else 'failed'}"), highlight=False)
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
    from verifiers.mutation import headline
    from verifiers.mutation import table as mutation_table

    catalog = Catalog(db, read_only=True)
    row = catalog.task(task_id)
    if row is None:
        raise ForgeError(f"task {task_id!r} is not in the catalog {shown(catalog.url)}; "
                         "list ids with: forge sql \"SELECT id, status FROM tasks LIMIT 20\"")
    console.print(textline((row.id, "bold"), f"  skill={row.skill_id}  status={row.status}"), highlight=False)
    console.print(textline(f"path: {row.path}"), highlight=False)
    console.print(textline(f"instruction: {row.instruction}"), highlight=False)
    if row.path and Path(row.path, "task.json").exists():
        rubric = load_package(Path(row.path)).task.get("rubric")  # the package may have changed since: data
        for item in rubric if isinstance(rubric, list) else []:
            item = item if isinstance(item, dict) else {}
            line = f"  check {item.get('id')} ({item.get('primitive')}): {item.get('criterion')}"
            console.print(plain(line), highlight=False, markup=False)
    for v in catalog.verifications(task_id):
        rows = mutation_table(v.evidence) if v.verifier == "mutation" else []
        evidence = headline(v.evidence) if rows else v.evidence
        console.print(plain(f"  {'ok ' if v.passed else 'NO '} {v.verifier:<22} {evidence}"), highlight=False,
                      markup=False)
        if rows:  # the mutation control's per-mutant table: untrusted names, so every cell is plain text
            table = Table("mutant", "expected", "verdict", box=None, padding=(0, 1, 0, 6))
            for name, expected, got in rows:
                ok = (expected == "reject") == (got == "rejected")
                verdict = cell(got)
                verdict.stylize("" if ok else "bold red")
                table.add_row(cell(name), cell(expected), verdict)
            console.print(table)


class OutputFormat(enum.StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def _number(value: Any) -> Any:
    """PostgreSQL's NUMERIC (avg of integers, 1.0 * x ...) arrives as Decimal, printed `0E-20` and a string in JSON:
    shown as the float SQLite would give."""
    return float(value) if isinstance(value, decimal.Decimal) else value


def _print_rows(columns: list[str], rows: list[tuple[Any, ...]], fmt: str) -> None:
    rows = [tuple(_number(v) for v in r) for r in rows]
    if fmt == "json":
        print(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], indent=2, default=str))
    elif fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)
        writer.writerow(columns)
        writer.writerows(rows)
        sys.stdout.write(buf.getvalue())
    else:
        table = Table()
        for column in columns:  # a column name is the query's: `AS "[/x]"` is text, not markup
            table.add_column(cell(column))
        for r in rows:
            table.add_row(*(cell(v) for v in r))
        console.print(table)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="One read-only statement (SELECT / WITH / EXPLAIN / VALUES).")],
    fmt: Annotated[OutputFormat, typer.Option("--format", help="How to print the rows.")] = OutputFormat.table,
    timeout: Annotated[float, typer.Option("--timeout", help="Stop the query after this many seconds.")] = 30.0,
    max_rows: Annotated[int, typer.Option("--max-rows", help="Print at most this many rows.")] = 10_000,
    max_bytes: Annotated[int, typer.Option("--max-bytes", help="Print at most this many bytes of values "
                                           "(and refuse to build a larger single value).")] = 64 << 20,
    db: DbOption = None,
) -> None:
    """Query an existing catalog read-only. Tables: skills, workflows, runs, rounds, tasks, verifications, llm_calls,
    llm_cache, llm_endpoints, student_results, taxonomy_changes; views skill_stats, skill_round_stats,
    skill_failure_reasons (columns in README).

    The query may not write, runs at most --timeout seconds, and prints at most --max-rows rows and --max-bytes
    bytes (a note on stderr says when a cap cut the rows). On PostgreSQL, functions that act outside a read-only
    query (pg_terminate_backend, replication slots, advisory locks, server files, dblink, ...) are refused.

    Example: forge sql "SELECT app, status, count(*) FROM tasks GROUP BY app, status"
    """
    from forge.catalog import Catalog
    from forge.sqlquery import Limits, run

    limits = Limits(timeout, max_rows, max_bytes)
    result = run(Catalog(db, read_only=True).engine, query, limits)
    _print_rows(result.columns, result.rows, fmt.value)
    if result.note:
        print(f"note: {result.note}", file=sys.stderr)  # one line, unwrapped: scripts read stdout, people this


# Command groups that live in their own modules (forge/cli_*.py). Each module defines `register(app)`,
# which adds its commands or sub-Typers; keep this list sorted.
_COMMAND_MODULES: tuple[str, ...] = ("cli_db", "cli_export", "cli_feedback", "cli_serve", "cli_student")


def _register_commands() -> None:
    import importlib

    for name in _COMMAND_MODULES:
        importlib.import_module(f"forge.{name}").register(app)


_register_commands()


def main() -> None:
    app()
