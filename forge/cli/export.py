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
    results: Annotated[Path, typer.Option("--results", help="The --out folder of `forge student run`.")]
    = Path("results"),
    min_score: Annotated[float, typer.Option("--min-score", min=0.0, max=1.0, help="Keep episodes whose "
                                             "rubric score is at least this (1 = every check passed).")] = 1.0,
    db: DbOption = None,
) -> None:
    """Write verified student trajectories as chat-format SFT rows (messages with tool calls), one per line.

    Only finished episodes whose rubric score reaches --min-score; see forge/export/trajectories.py. With --db,
    only episodes of tasks that catalog holds as accepted (a results folder shared by several catalogs).
    Example: forge export trajectories sft.jsonl --results results --min-score 1
    """
    from forge.export.trajectories import export_trajectories

    keep = None
    if db is not None:
        from forge.catalog import Catalog

        keep = set(Catalog(db, read_only=True).accepted_ids()).__contains__
    count = export_trajectories(results, out, min_score, keep=keep)
    console.print(f"{out}: {count} trajectories (score >= {min_score:g})", highlight=False, markup=False)


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
