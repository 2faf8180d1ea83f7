"""`forge export osworld|dataset|jsonl|parquet|trajectories OUT` and `forge report --out report.html`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forge.cli.base import DbOption, app, console, group

RoundOption = Annotated[int | None, typer.Option("--round", help="Only tasks of this round.")]
AppOption = Annotated[list[str] | None, typer.Option("--app", help="Only tasks of this domain, e.g. "
                                                     "libreoffice_calc (repeatable).")]

export_app = group("export", "Export accepted tasks: OSWorld task files, or a JSONL / Parquet table.")


@export_app.command("osworld")
def osworld(
    out: Annotated[Path, typer.Argument(help="Folder to write evaluation_examples/ into (merge it into an "
                                        "OSWorld checkout).")],
    round: RoundOption = None,
    app_name: AppOption = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Download the assets from here (where "
                                                 "OUT/evaluation_examples/forge/ is served) instead of "
                                                 "uploading them from the host.")] = None,
    db: DbOption = None,
) -> None:
    """Write accepted tasks as OSWorld tasks, scored by OSWorld's own metrics where they fit the rubric.

    OUT/evaluation_examples/examples/<domain>/<id>.json and test_all.json (plus test_round_<N>.json). The
    ids are the catalog task ids, so OSWorld result folders map back to the catalog.
    Example: forge export osworld osworld-out --app libreoffice_calc
    """
    from forge.catalog import Catalog
    from forge.export.osworld import export_osworld

    written = export_osworld(Catalog(db), out, round=round, apps=tuple(app_name or ()), base_url=base_url)
    for domain, ids in sorted(written.items()):
        console.print(f"{domain:<22} {len(ids)} tasks", highlight=False)
    console.print(written.share(), highlight=False, markup=False)
    console.print(f"index: {out / 'evaluation_examples' / 'test_all.json'}", highlight=False, markup=False)


def _table(fmt: str, out: Path, round: int | None, app_name: list[str] | None, db: str | None) -> None:
    """`export jsonl` and `export parquet`: one table of the accepted tasks (`forge.export.dataset`)."""
    from forge.catalog import Catalog
    from forge.export.dataset import export_dataset

    count = export_dataset(Catalog(db), out, fmt, round=round, apps=tuple(app_name or ()))
    console.print(f"{out}: {count} tasks (student-facing columns; answers only in the `hidden` column)",
                  highlight=False, markup=False)


@export_app.command("jsonl")
def jsonl(
    out: Annotated[Path, typer.Argument(help="The .jsonl file to write.")],
    round: RoundOption = None,
    app_name: AppOption = None,
    db: DbOption = None,
) -> None:
    """Write accepted tasks as JSON Lines, one task per line; drop the `hidden` column for students.

    Loads with: datasets.load_dataset("json", data_files="tasks.jsonl")
    """
    _table("jsonl", out, round, app_name, db)


@export_app.command("parquet")
def parquet(
    out: Annotated[Path, typer.Argument(help="The .parquet file to write.")],
    round: RoundOption = None,
    app_name: AppOption = None,
    db: DbOption = None,
) -> None:
    """Write accepted tasks as one Parquet table; drop the `hidden` column for students.

    Loads with: datasets.load_dataset("parquet", data_files="tasks.parquet")
    """
    _table("parquet", out, round, app_name, db)


@export_app.command("dataset")
def dataset(
    out: Annotated[Path, typer.Argument(help="The folder to write (new, empty or an earlier dataset export).")],
    fmt: Annotated[str, typer.Option("--format", help="parquet or jsonl (the same fields in both).")] = "parquet",
    license: Annotated[str, typer.Option("--license", help="Hub licence id for the card, e.g. apache-2.0, "
                                         "cc-by-4.0.")] = "apache-2.0",
    round: RoundOption = None,
    app_name: AppOption = None,
    db: DbOption = None,
) -> None:
    """Write accepted tasks as a Hugging Face dataset folder: train/validation/test split by skill, and a card.

    OUT/data/<split>.parquet and OUT/README.md (licence, splits, fields, counts per app, how it was made); no skill
    is in two splits, and a skill keeps its split in every export. Answers only in the `hidden` column.
    Loads with: datasets.load_dataset("OUT")   (or push it: huggingface-cli upload NAME OUT --repo-type dataset)
    """
    from forge.catalog import Catalog
    from forge.export.dataset import export_hub

    counts = export_hub(Catalog(db), out, fmt, round=round, apps=tuple(app_name or ()), license=license)
    for split, per_app in counts.items():
        console.print(f"{split:<11} {sum(per_app.values()):>6} tasks", highlight=False)
    console.print(f"card: {out / 'README.md'}", highlight=False, markup=False)


@export_app.command("trajectories")
def trajectories(
    out: Annotated[Path, typer.Argument(help="The .jsonl file to write.")],
    results: Annotated[Path, typer.Option("--results", help="The --out folder of `forge student run` (with "
                                          "--teacher: where the teacher runs are written first).")]
    = Path("results"),
    min_score: Annotated[float, typer.Option("--min-score", min=0.0, max=1.0, help="Keep episodes whose "
                                             "rubric score is at least this (1 = every check passed).")] = 1.0,
    teacher: Annotated[bool, typer.Option("--teacher", help="Run each task's terminal solution "
                                          "(solution/teacher.json) through the student's shell first, and export "
                                          "those runs (model 'teacher').")] = False,
    tasks: Annotated[list[Path] | None, typer.Option("--tasks", help="With --teacher: package folders, or "
                                                     "folders holding them (repeatable).")] = None,
    round: RoundOption = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, help="With --teacher: tasks run at "
                                             "once.")] = 1,
    db: DbOption = None,
) -> None:
    """Write verified trajectories as chat-format SFT rows (messages with tool calls), one per line.

    Only finished episodes whose rubric score reaches --min-score; see forge/export/trajectories.py. With --db,
    only episodes of tasks that catalog holds as accepted (a results folder shared by several catalogs). With
    --teacher, the teacher's commands (a look, then the edit) of the tasks in --tasks or of --round are run and
    scored as a student's answer would be, and those runs are the rows (the seed system's data was one third
    terminal trajectories).
    Example: forge export trajectories sft.jsonl --results results --min-score 1
    Example: forge export trajectories teacher.jsonl --teacher --tasks tasks/ --results teacher-runs
    """
    from forge.export.trajectories import export_trajectories

    keep = None
    if db is not None or round is not None:
        from forge.catalog import Catalog

        keep = set(Catalog(db, read_only=True).accepted_ids()).__contains__
    if teacher:
        results = _teacher_runs(results, tasks or [], round, concurrency, db)
    elif tasks:
        raise typer.BadParameter("--tasks goes with --teacher (the student's runs are read from --results)")
    count = export_trajectories(results, out, min_score, keep=keep)
    console.print(f"{out}: {count} trajectories (score >= {min_score:g})", highlight=False, markup=False)


def _teacher_runs(results: Path, tasks: list[Path], round: int | None, concurrency: int, db: str | None) -> Path:
    """Run the teachers of the chosen tasks into `results`; returns the teacher's own result folder."""
    from forge.catalog import Catalog
    from forge.export.teacher import MODEL, run_teachers
    from forge.student_run import catalog_packages, find_packages, model_folder
    from kit.sandbox import Sandbox

    if not tasks and round is None:
        raise typer.BadParameter("--teacher needs --tasks FOLDER or --round N (which tasks to run)")
    catalog = Catalog(db) if db is not None or round is not None else None  # --tasks alone: no catalog is made
    paths = find_packages(tasks) if tasks else catalog_packages(Catalog(db), round_n=round)
    from rich.progress import Progress

    with Progress(console=console, transient=True) as bar:
        running = bar.add_task("teacher runs", total=len(paths))

        def progress(task_id: str, outcome: str) -> None:
            bar.advance(running)
            if outcome not in ("passed", "already"):  # a teacher that fails is news: say which
                console.print(f"{outcome:<7} {task_id}", highlight=False, markup=False)

        counts = run_teachers(paths, results, Sandbox(), catalog, concurrency=concurrency, progress=progress)
    console.print(f"teacher: {counts['passed']} passed, {counts['failed']} failed, {counts['infra']} infra, "
                  f"{counts['gui']} without a terminal solution, {counts['already']} already run", highlight=False)
    return results / "shell" / "terminal" / model_folder(MODEL)


@app.command()
def report(
    out: Annotated[Path, typer.Option("--out", help="The HTML file to write.")] = Path("report.html"),
    db: DbOption = None,
) -> None:
    """Write an HTML report with charts (taxonomy, gate classes, student pass rate, tokens and cost, throughput).

    One self-contained file: charts are inline SVG, so it opens offline.
    """
    from forge.catalog import Catalog
    from forge.report import write_report

    console.print(f"report: {write_report(Catalog(db, read_only=True), out)}", highlight=False, markup=False)
