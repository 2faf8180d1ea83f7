"""The catalog on SQLite and on a real PostgreSQL server: record/query, read-only `forge sql`, schema migrations
(fresh create at head, in-place upgrade of a 907e9bc catalog, models = migrations), concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from typer.testing import CliRunner

from forge import database
from forge.catalog import TABLES, Base, Catalog, TaskRow
from forge.cli import app
from kit.dag import LLMCall
from kit.errors import CatalogError
from kit.taxonomy import Skill
from tests import pgkit
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)
from verifiers.gate.stages import Stage

runner = CliRunner()
SKILL = "calc.sort.numeric_desc"
#: Skills as the taxonomy loader makes them (loading the real taxonomy takes seconds; these rows are what matter).
SKILLS = [Skill(id=f"calc.sort.k{i:03d}", family="calc.sort", apps=("libreoffice_calc",), params={"k": i},
                description=f"Sort by key {i}.", difficulty="easy") for i in range(300)]


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def write_tasks(catalog: Any, row_type: Any, run_id: int, seed: int, n: int, commit_every: int = 5) -> None:
    """Record n accepted tasks the way the generator does: one session, a commit every few tasks."""
    stages = [Stage("schema", True, "valid", 0.01), Stage("oracle", True, "rubric passed", 0.02)]
    calls = [LLMCall("instruction", "offline", 10, 5, 0.0, False)]
    session = catalog.session()
    for i in range(n):
        row = row_type(id=f"{SKILL}--s{seed}--{i:05d}", skill_id=SKILL, family="calc.sort", app="libreoffice_calc",
                       status="accepted", seed=seed, idx=i, run_id=run_id, workflow_signature="sig",
                       dedup_key=f"{seed}-{i}", evidence="", path=None, instruction="Sort the rows.")
        catalog.record(session, row, stages, calls)
        if (i + 1) % commit_every == 0:
            session.commit()
    session.commit()
    session.close()


def count(url: str, table: str) -> int:
    return int(Catalog(url).query(f"SELECT count(*) FROM {table}")[1][0][0])


def test_fresh_catalog_is_created_at_head(db_url):
    catalog = Catalog(db_url)
    with catalog.engine.connect() as conn:
        assert database.current(conn) == database.head()
        assert set(inspect(conn).get_table_names()) == {*TABLES, "alembic_version"}
    Catalog(db_url)  # opening it again changes nothing
    result = invoke("db", "current", "--db", db_url)
    assert result.exit_code == 0 and f"{database.head()} (head)" in result.output


def test_record_then_query(db_url):
    catalog = Catalog(db_url)
    catalog.sync_skills(SKILLS)
    catalog.sync_skills(SKILLS)  # an upsert: the second sync updates, it does not collide
    run_id = catalog.start_run(seed=3, requested=4, selection={"skills": [SKILL]}, out_dir="out", backend="offline")
    write_tasks(catalog, TaskRow, run_id, seed=3, n=4)
    catalog.finish_run(run_id, {"accepted": 4})
    assert catalog.task(f"{SKILL}--s3--00002").instruction == "Sort the rows."
    assert [v.verifier for v in catalog.verifications(f"{SKILL}--s3--00002")] == ["schema", "oracle"]
    columns, rows = catalog.query("SELECT t.status, count(*) AS n, sum(v.seconds) AS s FROM tasks t "
                                  "JOIN verifications v ON v.task_id = t.id GROUP BY t.status")
    assert columns == ["status", "n", "s"] and rows[0][:2] == ("accepted", 8) and rows[0][2] == pytest.approx(0.12)
    assert catalog.query("SELECT count(*), sum(weight) FROM skills")[1] == [(300, 300.0)]
    result = invoke("sql", "--db", db_url, "SELECT status, counts FROM runs", "--format", "json")
    assert result.exit_code == 0, result.output
    assert [(r["status"], json.loads(r["counts"]) if isinstance(r["counts"], str) else r["counts"])
            for r in json.loads(result.output)] == [("finished", {"accepted": 4})]


@pytest.mark.parametrize("statement", [
    "DELETE FROM tasks",
    "delete from tasks",
    "  UPDATE tasks SET status = 'x'",
    "DROP TABLE tasks",
    "WITH x AS (SELECT 1) DELETE FROM tasks",
    "SELECT 1; DELETE FROM tasks",
    "PRAGMA query_only = OFF",
    "INSERT INTO runs (seed) VALUES (1)",
    "SELECT 1; COMMIT; DELETE FROM tasks",  # would leave a plain read-only transaction on PostgreSQL
    "WITH d AS (DELETE FROM tasks RETURNING 1) SELECT count(*) FROM d",
])
def test_sql_refuses_writes_and_changes_nothing(db_url, statement):
    catalog = Catalog(db_url)
    write_tasks(catalog, TaskRow, None, seed=1, n=3)  # type: ignore[arg-type]
    result = invoke("sql", "--db", db_url, statement)
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert count(db_url, "tasks") == 3 and count(db_url, "verifications") == 6


def _old_catalog_with_rows(url: str) -> None:
    """A catalog made and filled by Forge as of commit 907e9bc (its own models and create_all)."""
    from tests.forge import catalog_907e9bc as old

    catalog = old.Catalog(url)
    catalog.sync_skills(SKILLS[:20])
    run_id = catalog.start_run(seed=1, requested=3, selection={}, out_dir="out", backend="offline")
    write_tasks(catalog, old.TaskRow, run_id, seed=1, n=3)
    catalog.finish_run(run_id, {"accepted": 3})
    catalog.engine.dispose()


def test_catalog_from_907e9bc_upgrades_in_place(db_url):
    _old_catalog_with_rows(db_url)
    with pytest.raises(CatalogError, match=r"revision 0001, this Forge needs .*run `forge db upgrade --db "):
        Catalog(db_url)
    current = invoke("db", "current", "--db", db_url)
    assert current.exit_code == 1 and "0001, the newest is" in current.output
    result = invoke("db", "upgrade", "--db", db_url)
    assert result.exit_code == 0, result.output
    assert f": 0001 -> {database.head()} (head)" in result.output
    assert "already at" in invoke("db", "upgrade", "--db", db_url).output

    catalog = Catalog(db_url)
    _, rows = catalog.query("SELECT t.id, t.round, c.model, c.attempts, c.ok FROM tasks t "
                            "JOIN llm_calls c ON c.task_id = t.id ORDER BY t.id")
    assert [r[0] for r in rows] == [f"{SKILL}--s1--{i:05d}" for i in range(3)]
    assert {tuple(r[1:]) for r in rows} == {(0, "", 1, True)}  # the new columns' defaults on old rows
    assert catalog.query("SELECT count(*), min(weight), max(weight) FROM skills")[1] == [(20, 1.0, 1.0)]
    run_id = catalog.start_run(seed=2, requested=2, selection={}, out_dir="out", backend="offline")
    write_tasks(catalog, TaskRow, run_id, seed=2, n=2)
    assert count(db_url, "tasks") == 5
    with catalog.engine.connect() as conn:  # the upgraded schema is the models' schema
        assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata) == []


def test_migrations_build_exactly_the_models(db_url):
    """Drift guard: a new column in forge/tables.py needs a migration. Write one with
    `python -m forge.database revision "what changed"` (see README: PostgreSQL and migrations)."""
    engine = database.open_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(database.alembic_config(conn), "head")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    assert diff == [], f"models and migrations differ; add a migration: {diff}"
    with engine.begin() as conn:  # and every revision can be undone
        command.downgrade(database.alembic_config(conn), "base")
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) == {"alembic_version"}
    engine.dispose()


def test_catalog_from_a_newer_forge_is_refused(db_url):
    catalog = Catalog(db_url)
    with catalog.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(CatalogError, match="made by a newer Forge; upgrade Forge"):
        Catalog(db_url)


def test_unreachable_server_is_one_line_without_the_password():
    result = invoke("sql", "--db", "postgresql+psycopg://forge:s3cret@127.0.0.1:1/forge", "SELECT 1")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert result.output.startswith("Error: cannot open catalog postgresql+psycopg://forge:***@127.0.0.1:1/forge")
    assert "s3cret" not in result.output


def _writer(url: str, seed: int, n: int, barrier: Any) -> None:
    barrier.wait()  # both processes open the new catalog, sync skills and write at the same moment
    catalog = Catalog(url)
    catalog.sync_skills(SKILLS)
    run_id = catalog.start_run(seed=seed, requested=n, selection={}, out_dir="out", backend="offline")
    write_tasks(catalog, TaskRow, run_id, seed=seed, n=n)
    catalog.finish_run(run_id, {"accepted": n})


@pytest.mark.slow
def test_two_processes_writing_at_once_lose_nothing(db_url):
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    writers = [context.Process(target=_writer, args=(db_url, seed, 60, barrier)) for seed in (1, 2)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(timeout=180)
    assert [w.exitcode for w in writers] == [0, 0]
    assert (count(db_url, "tasks"), count(db_url, "verifications"), count(db_url, "llm_calls")) == (120, 240, 120)
    assert Catalog(db_url).query("SELECT status, count(*) FROM runs GROUP BY status")[1] == [("finished", 2)]
    assert count(db_url, "skills") == len(SKILLS)


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:  # noqa: F811  (the fixture imported above)
    url = pgkit.fresh_database(postgres_server)
    yield url
    pgkit.drop_database(url)


@pytest.mark.slow
def test_two_forge_generate_at_once_on_one_postgresql_catalog(pg_url, tmp_path):
    """What a reviewer does: two `forge generate` with different seeds, one PostgreSQL catalog, at the same time
    (SQLite: test_two_processes_writing_at_once_lose_nothing)."""
    db_url = pg_url
    out = tmp_path / "out"
    args = ["--skill", SKILL, "--skill", "calc.sort.text_asc", "--register", "explicit", "-n", "4", "--out", str(out),
            "--db", db_url, "--real-apps", "off"]
    procs = [subprocess.Popen([sys.executable, "-c", "from forge.cli import main; main()", "generate", *args,
                               "--seed", str(seed)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for seed in (1, 2)]
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    catalog = Catalog(db_url)
    _, rows = catalog.query("SELECT seed, status, count(*) FROM tasks GROUP BY seed, status ORDER BY seed")
    assert rows == [(1, "accepted", 4), (2, "accepted", 4)]
    assert sorted(p.name for p in (out / "libreoffice_calc").iterdir()) == sorted(
        f"{skill}--s{seed}--{i:05d}" for skill in (SKILL, "calc.sort.text_asc") for seed in (1, 2) for i in (0, 1))
    assert catalog.query("SELECT count(*) FROM runs WHERE status = 'finished'")[1] == [(2,)]
    shown = invoke("show", f"{SKILL}--s2--00001", "--db", db_url)
    assert shown.exit_code == 0 and "status=accepted" in shown.output
