"""`forge show` (one task from the catalog, with its gate evidence) and `forge sql` (read-only queries), and how rows
are printed (a table, CSV or JSON)."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from forge.cli.base import DbOption, app, console, print_rows
from kit.errors import ForgeError
from kit.textsafe import cell, plain, textline


@app.command()
def show(
    task_id: Annotated[str, typer.Argument(help="A task id, e.g. calc.sort.numeric_desc--s1--00000.")],
    db: DbOption = None,
) -> None:
    """Show one task from the catalog: class, instruction, rubric and gate evidence."""
    from forge.catalog import Catalog
    from forge.database import shown

    catalog = Catalog(db, read_only=True)
    row = catalog.task(task_id)
    if row is None:
        raise ForgeError(f"task {task_id!r} is not in the catalog {shown(catalog.url)}; "
                         "list ids with: forge sql \"SELECT id, status FROM tasks LIMIT 20\"")
    console.print(textline((row.id, "bold"), f"  skill={row.skill_id}  status={row.status}  "
                           f"register={row.register or 'explicit'}"), highlight=False)
    console.print(textline(f"path: {row.path}"), highlight=False)
    console.print(textline(f"instruction: {row.instruction}"), highlight=False)
    if row.path and Path(row.path, "task.json").exists():
        _print_rubric(Path(row.path))
    for verification in catalog.verifications(task_id):
        _print_verification(verification)


def _print_rubric(package: Path) -> None:
    """One line per check of the package's rubric; the package may have changed since it was catalogued: data."""
    from kit.package import load_package

    rubric = load_package(package).task.get("rubric")
    for item in rubric if isinstance(rubric, list) else []:
        item = item if isinstance(item, dict) else {}
        line = f"  check {item.get('id')} ({item.get('primitive')}): {item.get('criterion')}"
        console.print(plain(line), highlight=False, markup=False)


def _print_verification(v: Any) -> None:
    """One gate stage's line; for the mutation control, its headline and the per-mutant table."""
    from verifiers.gate.mutation import headline
    from verifiers.gate.mutation import table as mutation_table

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

    The query may not write, runs at most --timeout seconds, and fetches at most --max-rows rows and --max-bytes
    bytes (a note on stderr says when a cap cut the rows; a first row larger than --max-bytes is an error, and
    nothing past the cap is fetched). On PostgreSQL, functions that act outside a read-only query
    (pg_terminate_backend, replication slots, advisory locks, server files, dblink, ...) are refused.

    Output is the same on SQLite and PostgreSQL: JSON columns as JSON (nested with --format json, JSON text in
    CSV and the table), booleans as True/False, timestamps as ISO 8601 text (typed timestamptz on PostgreSQL,
    so `finished_at - started_at` works there; julianday() on SQLite); CSV lines end with LF.

    Example: forge sql "SELECT app, status, count(*) FROM tasks GROUP BY app, status"
    """
    from forge.catalog import Catalog
    from forge.sqlquery import Limits

    result = Catalog(db, read_only=True).run_sql(query, Limits(timeout, max_rows, max_bytes))
    print_rows(result.columns, result.rows, fmt.value)
    if result.note:
        print(f"note: {result.note}", file=sys.stderr)  # one line, unwrapped: scripts read stdout, people this
