"""Read-only means read-only: `sql`, `show`, `stats`, `report` and `skills history` open existing Forge catalogs
only, and `forge sql` is bounded in time, rows and bytes and refuses PostgreSQL functions with side effects, on a
real SQLite file and a real PostgreSQL server (tests/pgkit.py)."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import make_url, text
from typer.testing import CliRunner

from forge.catalog import Catalog, TaskRow
from forge.cli import app
from kit.errors import CatalogError
from tests import pgkit
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)

runner = CliRunner()
INFINITE = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
READERS = [("sql", "SELECT 1"), ("show", "calc.sort.numeric_desc--s1--00000"), ("stats",), ("skills", "history"),
           ("report", "--out", "{tmp}/report.html")]


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def one_line_error(result: Any) -> str:
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    return str(result.output)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def filled(url: str, n: int = 3) -> Catalog:
    catalog = Catalog(url)
    with catalog.session() as session, session.begin():
        for i in range(n):
            session.add(TaskRow(id=f"calc.sort.numeric_desc--s1--{i:05d}", skill_id="calc.sort.numeric_desc",
                                family="calc.sort", app="libreoffice_calc", status="accepted", seed=1, idx=i,
                                workflow_signature="sig", instruction=f"task {i}"))
    return catalog


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:  # noqa: F811
    url = pgkit.fresh_database(postgres_server)
    yield url
    pgkit.drop_database(url)


# --- opening: existing Forge catalogs only -------------------------------------------------------------------------

@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_readers_refuse_a_missing_catalog_and_create_nothing(tmp_path, command):
    missing = tmp_path / "typo" / "forge.db"
    args = [a.format(tmp=tmp_path) for a in command]
    message = one_line_error(invoke(*args, "--db", str(missing)))
    assert "does not exist; nothing was created" in message
    assert not missing.parent.exists(), "the catalog's folder was created"


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_readers_refuse_another_applications_sqlite_and_leave_it_byte_identical(tmp_path, command):
    other = tmp_path / "notes.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.execute("INSERT INTO notes (body) VALUES ('mine')")
    before = digest(other)
    args = [a.format(tmp=tmp_path) for a in command]
    message = one_line_error(invoke(*args, "--db", str(other)))
    assert "is not a Forge catalog (it holds other tables: notes); nothing was changed" in message
    assert digest(other) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]


def test_writers_refuse_another_applications_sqlite_too(tmp_path):
    """`generate` creates a catalog in a new or empty file, never inside another application's (nor switches
    its journal mode to WAL on the way)."""
    other = tmp_path / "notes.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    before = digest(other)
    with pytest.raises(CatalogError, match="is not a Forge catalog"):
        Catalog(str(other))
    assert digest(other) == before
    with sqlite3.connect(other) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]


def test_readers_refuse_an_empty_postgres_database_and_create_no_table(pg_url):
    message = one_line_error(invoke("sql", "--db", pg_url, "SELECT 1"))
    assert "holds no catalog (it is empty); nothing was created" in message
    with psycopg.connect(make_url(pg_url).set(drivername="postgresql").render_as_string(hide_password=False)) as c:
        assert c.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)


def test_read_only_catalog_cannot_write(db_url):
    filled(db_url)
    catalog = Catalog(db_url, read_only=True)
    with pytest.raises(Exception, match="(?i)read-only|readonly"), catalog.engine.begin() as conn:
        conn.execute(text("DELETE FROM tasks"))
    assert Catalog(db_url, read_only=True).query("SELECT count(*) FROM tasks")[1] == [(3,)]


# --- forge sql: time, rows, bytes ----------------------------------------------------------------------------------

def test_sql_timeout_stops_an_endless_query(db_url):
    filled(db_url)
    endless = (f"{INFINITE} SELECT count(*) FROM c" if db_url.startswith("sqlite")
               else "SELECT count(*) FROM generate_series(1, 1000000000000) AS g")
    start = time.monotonic()
    message = one_line_error(invoke("sql", "--db", db_url, "--timeout", "1", endless))
    assert time.monotonic() - start < 15
    assert "query stopped after 1 s (--timeout)" in message
    assert invoke("sql", "--db", db_url, "SELECT count(*) AS n FROM tasks", "--format", "csv").stdout == "n\n3\n"


def test_sql_timeout_covers_pg_sleep(pg_url):
    filled(pg_url)
    start = time.monotonic()
    message = one_line_error(invoke("sql", "--db", pg_url, "--timeout", "1", "SELECT pg_sleep(30)"))
    assert time.monotonic() - start < 15 and "--timeout" in message


def test_sql_row_cap_prints_the_first_rows_and_a_note(db_url):
    filled(db_url)
    query = "SELECT x FROM generate_series(1, 50) AS g(x)" if db_url.startswith("postgres") else \
        f"{INFINITE} SELECT x FROM c LIMIT 50"
    result = invoke("sql", "--db", db_url, "--max-rows", "10", "--format", "csv", query)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["x", *map(str, range(1, 11))]
    assert "only the first 10 rows are shown (--max-rows)" in result.stderr
    exact = invoke("sql", "--db", db_url, "--max-rows", "50", "--format", "csv", query)
    assert len(exact.stdout.splitlines()) == 51 and exact.stderr == ""


def test_sql_byte_cap_on_many_large_rows(db_url):
    filled(db_url)
    query = ("SELECT repeat('x', 100000) AS v FROM generate_series(1, 1000)" if db_url.startswith("postgres")
             else f"{INFINITE} SELECT hex(zeroblob(50000)) AS v FROM c")  # 100,000 characters per row, endless
    result = invoke("sql", "--db", db_url, "--max-bytes", "1000000", "--format", "csv", query)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1 + 10
    assert "only the first 10 rows are shown: the next would pass 1,000,000 bytes (--max-bytes)" in result.stderr


def test_sqlite_refuses_to_build_a_value_above_the_byte_cap(tmp_path):
    url = f"sqlite:///{tmp_path / 'forge.db'}"
    filled(url)
    message = one_line_error(invoke("sql", "--db", url, "--max-bytes", "1000000", "SELECT randomblob(2000000)"))
    assert "a value would be larger than 1,000,000 bytes (--max-bytes)" in message


def test_sql_of_endless_blobs_stays_small_in_memory(tmp_path):
    """The red-team case: gigabytes of blobs. A real `forge sql` process stops at the byte cap (64 MiB by default);
    its peak RSS stays far under 1 GB."""
    url = f"sqlite:///{tmp_path / 'forge.db'}"
    filled(url)
    # A small wrapper runs the command and reports its child's peak RSS: measured from this (large) pytest
    # process, the fork would count pytest's own pages as the child's peak.
    wrapper = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
               "stderr=subprocess.PIPE, text=True); sys.stderr.write(done.stderr); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(done.returncode)")
    done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "forge", "sql", "--db", url,
                           "--format", "csv", f"{INFINITE} SELECT hex(randomblob(1000000)) FROM c"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "--max-bytes" in done.stderr
    peak_mib = int(done.stdout.split()[-1]) / 1024
    assert peak_mib < 1024, f"peak RSS {peak_mib:.0f} MiB"


# --- PostgreSQL: functions a read-only transaction does not stop ---------------------------------------------------

def _raw(url: str) -> psycopg.Connection:
    return psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False),
                           autocommit=True)


def test_a_read_only_transaction_alone_lets_a_replication_slot_through(pg_url):
    """Why the deny list exists: PostgreSQL creates the slot inside a READ ONLY transaction, and it outlives it."""
    with _raw(pg_url) as conn:
        with conn.transaction():
            conn.execute("SET TRANSACTION READ ONLY")
            conn.execute("SELECT pg_create_physical_replication_slot('forge_probe_slot')")
        try:
            assert conn.execute("SELECT slot_name FROM pg_replication_slots").fetchall() == [("forge_probe_slot",)]
        finally:
            conn.execute("SELECT pg_drop_replication_slot('forge_probe_slot')")


@pytest.mark.parametrize("statement", [
    "SELECT pg_create_physical_replication_slot('forge_evil')",
    "SELECT * FROM pg_create_physical_replication_slot('forge_evil')",
    "SELECT pg_catalog.\"pg_create_physical_replication_slot\"('forge_evil')",
    "SELECT PG_CREATE_LOGICAL_REPLICATION_SLOT('forge_evil', 'test_decoding')",
    "WITH s AS (SELECT pg_create_physical_replication_slot('forge_evil', true)) SELECT * FROM s",
    "EXPLAIN ANALYZE SELECT pg_create_physical_replication_slot('forge_evil')",
    "SELECT query_to_xml('SELECT pg_create_' || 'physical_replication_slot(''forge_evil'')', true, false, '')",
    'SELECT U&"\\0070g_create_physical_replication_slot"(\'forge_evil\')',
])
def test_sql_refuses_replication_slots_however_spelt(pg_url, statement):
    filled(pg_url)
    message = one_line_error(invoke("sql", "--db", pg_url, statement))
    assert "forge sql refuses" in message and "the catalog is unchanged" in message
    with _raw(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_replication_slots").fetchone() == (0,)


@pytest.mark.parametrize("call", [
    "pg_terminate_backend({pid})",
    "pg_cancel_backend({pid})",
    "pg_catalog.pg_terminate_backend({pid})",
    "set_config('default_transaction_read_only', 'off', false)",
    "pg_advisory_lock(1)",
    "pg_try_advisory_lock(1)",
    "pg_read_file('/etc/passwd')",
    "pg_ls_dir('.')",
    "lo_import('/etc/passwd')",
    "dblink_exec('dbname=postgres', 'DROP TABLE tasks')",
    "ts_stat('SELECT pg_terminate_backend({pid})::text::tsvector')",
    "nextval('runs_id_seq')",
    "pg_logical_emit_message(false, 'x', 'y')",
    "pg_reload_conf()",
])
def test_sql_refuses_side_effect_functions_and_a_concurrent_session_survives(pg_url, call):
    filled(pg_url)
    with _raw(pg_url) as other:  # stands for a concurrent `forge generate`
        pid = other.execute("SELECT pg_backend_pid()").fetchone()[0]  # type: ignore[index]
        message = one_line_error(invoke("sql", "--db", pg_url, f"SELECT {call.format(pid=pid)}"))
        assert "forge sql refuses" in message
        assert other.execute("SELECT count(*) FROM tasks").fetchone() == (3,)
        assert other.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone() == (0,)


def test_sql_still_answers_ordinary_postgres_queries(pg_url):
    filled(pg_url)
    result = invoke("sql", "--db", pg_url, "--format", "csv",
                    "WITH t AS (SELECT status, count(*) AS n FROM tasks GROUP BY status) SELECT * FROM t")
    assert result.exit_code == 0, result.output
    assert result.stdout == "status,n\naccepted,3\n"
    plan = invoke("sql", "--db", pg_url, "EXPLAIN SELECT * FROM tasks")
    assert plan.exit_code == 0 and "Seq Scan" in plan.stdout


@pytest.mark.parametrize("statement", [
    "SELECT count(*) AS n FROM tasks;",
    "SELECT count(*) AS n FROM tasks -- a trailing comment",
    "  select count(*) as n from tasks  ;  ",
    "VALUES (3)",
])
def test_sql_accepts_trailing_semicolons_and_comments(db_url, statement):
    filled(db_url)
    result = invoke("sql", "--db", db_url, "--format", "csv", statement)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == ["3"]
