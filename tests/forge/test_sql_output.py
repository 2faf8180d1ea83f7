"""`forge sql` prints one catalog the same way on SQLite and PostgreSQL (JSON columns, booleans, timestamps), CSV
with LF line ends; timestamps are typed on PostgreSQL so date arithmetic works; and --max-bytes bounds what is
fetched, not only what is printed: rows past the cap are never computed for the client (real catalogs of both
kinds, tests/pgkit.py)."""

from __future__ import annotations

import json
from typing import Any

from alembic import command
from sqlalchemy import text
from typer.testing import CliRunner

from forge import database
from forge.catalog import Catalog, RunRow, StudentResultRow, TaskRow
from forge.cli import app
from tests import pgkit
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)

runner = CliRunner()
QUERY = ("SELECT r.id, r.selection, r.counts, r.started_at, r.finished_at, s.success, s.failed_checks, s.infra "
         "FROM runs r JOIN student_results s ON s.round = r.id ORDER BY r.id")


def fill(url: str) -> Catalog:
    catalog = Catalog(url)
    with catalog.session() as session, session.begin():
        session.add(RunRow(id=1, seed=3, requested=2, selection={"apps": ["os"], "n": 2, "note": "é \"q\""},
                           out_dir="out", backend="offline", started_at="2026-12-07T10:00:00+00:00",
                           finished_at="2026-12-07T10:05:30+00:00", counts={"accepted": 2}, status="finished"))
        session.add(TaskRow(id="os.copy.file_bak--s1--00000", skill_id="os.copy.file_bak", family="os.copy",
                            app="os", status="accepted", seed=1, idx=0, workflow_signature="sig"))
        session.add(StudentResultRow(attempt_key="k1", task_id="os.copy.file_bak--s1--00000",
                                     skill_id="os.copy.file_bak", round=1, model="m", score=0.0, success=False,
                                     infra=False, source="r.jsonl:1", failed_checks=["c1", "c2"]))
    return catalog


def sql(url: str, *args: str) -> Any:
    result = runner.invoke(app, ["sql", "--db", url, *args])
    assert result.exit_code == 0, result.output
    return result


def test_one_catalog_prints_the_same_on_sqlite_and_postgresql(tmp_path, postgres_server):  # noqa: F811
    sqlite_url = f"sqlite:///{tmp_path / 'forge.db'}"
    pg_url = pgkit.fresh_database(postgres_server)
    try:
        for url in (sqlite_url, pg_url):
            fill(url).close()
        for fmt in ("csv", "json", "table"):
            outputs = [sql(url, "--format", fmt, QUERY).stdout for url in (sqlite_url, pg_url)]
            assert outputs[0] == outputs[1], fmt
        csv_out = sql(sqlite_url, "--format", "csv", QUERY).stdout
        assert "\r" not in csv_out and csv_out.endswith("\n")
        assert csv_out.splitlines()[1] == ('1,"{""apps"": [""os""], ""n"": 2, ""note"": ""é \\""q\\""""}",'
                                           '"{""accepted"": 2}",2026-12-07T10:00:00+00:00,2026-12-07T10:05:30+00:00,'
                                           'False,"[""c1"", ""c2""]",False')
        row = json.loads(sql(pg_url, "--format", "json", QUERY).stdout)[0]
        assert row["selection"] == {"apps": ["os"], "n": 2, "note": 'é "q"'} and row["failed_checks"] == ["c1", "c2"]
        assert row["success"] is False and row["started_at"] == "2026-12-07T10:00:00+00:00"
    finally:
        pgkit.drop_database(pg_url)


def test_date_arithmetic_on_both_backends(db_url):
    fill(db_url).close()
    if db_url.startswith("postgresql"):
        took = "SELECT extract(epoch FROM finished_at - started_at) AS s FROM runs WHERE started_at > " \
               "TIMESTAMPTZ '2026-12-01' AND finished_at < now() + interval '1 day'"
    else:
        took = "SELECT round((julianday(finished_at) - julianday(started_at)) * 86400) AS s FROM runs"
    assert float(sql(db_url, "--format", "csv", took).stdout.splitlines()[1]) == 330.0
    catalog = Catalog(db_url)
    with catalog.session() as session:
        run = session.get(RunRow, 1)
        assert run is not None and (run.started_at, run.finished_at) == ("2026-12-07T10:00:00+00:00",
                                                                         "2026-12-07T10:05:30+00:00")
    catalog.close()


def test_upgrade_types_the_text_timestamps_of_an_older_postgresql_catalog(postgres_server):  # noqa: F811
    url = pgkit.fresh_database(postgres_server)
    try:
        engine = database.open_engine(url)
        with engine.begin() as conn:
            command.upgrade(database.alembic_config(conn), "0006")
            conn.execute(text("INSERT INTO runs (seed, requested, selection, out_dir, backend, started_at, "
                              "finished_at, counts, status, kind) VALUES (1, 1, '{}', 'o', 'offline', "
                              "'2026-12-07T10:00:00+00:00', NULL, '{}', 'running', 'generate')"))
        before, after = database.upgrade(engine)
        assert (before, after) == ("0006", database.head())
        with engine.connect() as conn:
            kinds = dict(conn.execute(text("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                           "table_name = 'runs' AND column_name LIKE '%_at'")).all())
        assert kinds == {"started_at": "timestamp with time zone", "finished_at": "timestamp with time zone"}
        engine.dispose()
        assert sql(url, "--format", "csv", "SELECT started_at, finished_at FROM runs").stdout.splitlines()[1] == \
            "2026-12-07T10:00:00+00:00,"
    finally:
        pgkit.drop_database(url)


def _rows(url: str, bytes_per_row: int, poisoned: int) -> str:
    """16 rows of `bytes_per_row` characters (two columns); computing row `poisoned` is an error (sqlite3 steps one
    row ahead of the one it returns, so the poisoned row is two past the last one fetched)."""
    half = bytes_per_row // 2
    if url.startswith("postgresql"):
        return (f"SELECT repeat('x', {half}) AS a, repeat('y', {half}) || CASE WHEN i = {poisoned} THEN "
                f"(1 / (i - {poisoned}))::text ELSE '' END AS b FROM generate_series(1, 16) AS g(i)")
    return ("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 16) SELECT "
            f"hex(zeroblob({half // 2})) AS a, hex(zeroblob({half // 2})) || CASE WHEN i = {poisoned} THEN "
            "abs(-9223372036854775807 - 1) ELSE '' END AS b FROM c")


def test_a_first_row_past_max_bytes_is_one_line_and_nothing_more_is_computed(db_url):
    fill(db_url).close()
    result = runner.invoke(app, ["sql", "--db", db_url, "--max-bytes", "1000000", _rows(db_url, 1_200_000, 3)])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output[-500:]
    assert result.output.startswith("Error: the first row alone is larger than 1,000,000 bytes (--max-bytes)")


def test_rows_stop_at_max_bytes_before_the_next_is_fetched(db_url):
    fill(db_url).close()
    result = sql(db_url, "--max-bytes", "1000000", "--format", "csv", _rows(db_url, 400_000, 5))
    assert len(result.stdout.splitlines()) == 1 + 2
    assert "only the first 2 rows are shown: the next would pass 1,000,000 bytes (--max-bytes)" in result.stderr
    every = sql(db_url, "--max-bytes", "100000000", "--format", "csv", _rows(db_url, 400_000, 99))
    assert len(every.stdout.splitlines()) == 1 + 16


def test_json_nested_too_deeply_for_python_prints_as_text(db_url):
    catalog = fill(db_url)
    deep = "[" * 5000 + "]" * 5000
    with catalog.engine.begin() as conn:
        conn.execute(text("UPDATE runs SET selection = :deep"), {"deep": deep})
    catalog.close()
    for fmt in ("json", "csv", "table"):
        result = runner.invoke(app, ["sql", "--db", db_url, "--format", fmt, "SELECT id, selection FROM runs"])
        assert result.exit_code == 0, result.output[-300:]
        assert "[[[[" in result.output and "Traceback" not in result.output
