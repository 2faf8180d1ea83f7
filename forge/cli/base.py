"""What every command module shares: the root app, the group class that turns library errors into one line, the
consoles, the common options and small helpers.

Library errors (`ForgeError`) and file-system errors become one `Error: ...` line and exit status 1 in exactly one
place, `Group.invoke`; every command group is made with `group()` so it gets that class too.
"""

from __future__ import annotations

import csv
import decimal
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

from kit.errors import ForgeError
from kit.textsafe import cell, plain

console = Console(width=None if sys.stdout.isatty() else 160)
err_console = Console(stderr=True)


class Group(TyperGroup):
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
    cls=Group,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    help="Forge: synthesize verifiable desktop tasks (instruction + setup.sh + rubric) for computer-use agents.\n\n"
         "Start with `forge demo`. Then `forge skills list`, `forge generate -n 100 --seed 1 --out tasks/`, "
         "`forge sql \"SELECT status, count(*) FROM tasks GROUP BY status\"`.",
)


def group(name: str, help: str) -> typer.Typer:
    """A command group `forge NAME ...` added to the root app (its errors are one line, like the root's)."""
    sub = typer.Typer(cls=Group, no_args_is_help=True, pretty_exceptions_enable=False, help=help)
    app.add_typer(sub, name=name)
    return sub


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
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def sandbox(no_sandbox: bool, timeout: float = 60.0, *, single: bool = False) -> Any:
    """The sandbox for package scripts and check workers; `single` (solve, check: one untrusted state at a time)
    gives package scripts and the worker 768 MB of address space each (they run one after the other), so a bomb
    keeps the whole command under 1 GB."""
    from kit.sandbox import Limits, Sandbox

    limits = Limits(wall_seconds=timeout, cpu_seconds=max(1, min(30, int(timeout))))
    if single:
        limits = Limits(wall_seconds=timeout, cpu_seconds=limits.cpu_seconds, memory_mb=768, worker_memory_mb=768)
    return Sandbox(limits, enabled=not no_sandbox)


def writable_folder(flag: str, folder: Path) -> Path:
    """`folder` created if needed and writable, as an absolute path; else one `Error:` line naming the option. Checked
    before any work, so a typo in --out fails at once instead of after the first task (or deep in a temp path)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ForgeError(f"{flag} {folder}: cannot create this folder ({exc.strerror}); choose another") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ForgeError(f"{flag} {folder}: not a writable folder; choose another")
    return folder.resolve()


def _number(value: Any) -> Any:
    """PostgreSQL's NUMERIC (avg of integers, 1.0 * x ...) arrives as Decimal, printed `0E-20` and a string in JSON:
    shown as the float SQLite would give."""
    return float(value) if isinstance(value, decimal.Decimal) else value


def _json_text(value: Any) -> Any:
    """A JSON column's value (dict or list, from either backend) as JSON text, for CSV and the table."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value


def print_rows(columns: list[str], rows: list[tuple[Any, ...]], fmt: str) -> None:
    """Rows as a table, CSV (LF line ends) or JSON; JSON columns are nested JSON in `json`, JSON text otherwise."""
    rows = [tuple(_number(v) for v in r) for r in rows]
    try:
        if fmt == "json":
            print(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], indent=2, default=str))
            return
        rows = [tuple(_json_text(v) for v in r) for r in rows]
    except RecursionError:
        raise ForgeError("a JSON value is nested too deeply to print; select it as text (CAST(column AS TEXT)) "
                         "or print --format csv") from None
    if fmt == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")  # streamed: no second copy of the rows as one string
        writer.writerow(columns)
        writer.writerows(rows)
    else:
        table = Table()
        for column in columns:  # a column name is the query's: `AS "[/x]"` is text, not markup
            table.add_column(cell(column))
        for r in rows:
            table.add_row(*(cell(v) for v in r))
        console.print(table)
