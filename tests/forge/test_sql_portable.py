"""Every SQL query a user is shown — in README.md, in any `--help` text, and the one `forge demo` prints — runs
on a real SQLite catalog and a real PostgreSQL one (tests/pgkit.py), and the statistics views return floats.

The queries are extracted, not copied: a query added to the README or a docstring is tested without touching
this file. Typical breakage this catches: `sum(boolean)` (SQLite only), `1.0 * x` (NUMERIC on PostgreSQL,
printed `0E-20`), a view that only exists after the first ingest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main

from forge.catalog import Catalog, LLMCallRow, RunRow, SkillRow, StudentResultRow, TaskRow, VerificationRow
from forge.cli import app
from forge.cli.generate import DEMO_QUERY
from forge.tables import VIEWS
from tests import pgkit
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)

README = Path(__file__).resolve().parents[2] / "README.md"
#: `forge sql [--db X] [--format F] "QUERY"`; the query may span lines (README code blocks) and holds no `"`.
_SQL = re.compile(r'forge sql(?:\s+--[\w-]+(?:\s+[^\s"]+)?)*\s+\\?"([^"\\]+)\\?"', re.DOTALL)


def _help_texts() -> Iterator[tuple[str, str]]:
    """(command path, help text) of every command and group of the CLI."""
    def walk(command, path: str) -> Iterator[tuple[str, str]]:
        yield path, command.help or ""
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, f"{path} {name}")

    yield from walk(typer.main.get_command(app), "forge")


def shown_queries() -> list[tuple[str, str]]:
    """(where, query) for every query the user is shown."""
    found = [(f"README.md:{README.read_text().count(chr(10), 0, m.start()) + 1}", m.group(1))
             for m in _SQL.finditer(README.read_text(encoding="utf-8"))]
    found += [(f"{path} --help", m.group(1)) for path, text in _help_texts() for m in _SQL.finditer(text)]
    found.append(("forge demo", DEMO_QUERY))
    return [(where, " ".join(query.split())) for where, query in found]


def test_the_extraction_finds_the_queries_users_see():
    queries = shown_queries()
    wheres = {where.split(":")[0] for where, _ in queries}
    assert {"README.md", "forge demo", "forge sql --help"} <= wheres, wheres
    assert len([w for w in wheres if w == "README.md"]) == 1
    assert sum(w.startswith("README.md") for w, _ in queries) >= 5


@pytest.fixture(params=["sqlite", "postgresql"])
def catalog(request: pytest.FixtureRequest, tmp_path) -> Iterator[Catalog]:
    """A catalog with a row in every table the queries read (a query over empty tables proves less)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'portable.db'}"
    else:
        url = pgkit.fresh_database(request.getfixturevalue("postgres_server"))
    catalog = Catalog(url)
    task = "calc.sort.numeric_desc--s1--00000"
    with catalog.session() as s, s.begin():
        s.add(SkillRow(id="calc.sort.numeric_desc", family="calc.sort", app="libreoffice_calc",
                       apps=["libreoffice_calc"], params={}, description="d", difficulty="easy"))
        s.add(RunRow(seed=1, requested=2, selection={}, out_dir="/x", backend="openai",
                     started_at="2026-01-01T00:00:00", finished_at="2026-01-01T00:01:00", counts={"accepted": 1},
                     status="finished"))
        s.flush()
        s.add(TaskRow(id=task, skill_id="calc.sort.numeric_desc", family="calc.sort", app="libreoffice_calc",
                      status="accepted", seed=1, idx=0, run_id=1, workflow_signature="sig", evidence=""))
        s.flush()
        s.add(VerificationRow(task_id=task, verifier="schema", passed=True, evidence="ok", seconds=0.1))
        s.add_all([LLMCallRow(task_id=task, node="instruction", backend="openai", prompt_tokens=10, completion_tokens=5,
                              cost_usd=0.001, cached=cached, model="m", run_id=1) for cached in (True, False)])
        s.add_all([StudentResultRow(attempt_key=f"k{i}", task_id=task, skill_id="calc.sort.numeric_desc", round=1,
                                    model="m", score=float(i % 2), success=bool(i % 2), steps=3, infra=False,
                                    failure_reason=None if i % 2 else "wrong cell", source="s") for i in range(3)])
    yield catalog
    catalog.engine.dispose()
    if request.param == "postgresql":
        pgkit.drop_database(url)


def test_every_shown_query_runs(catalog):
    failures = []
    for where, query in shown_queries():
        try:
            catalog.query(query)
        except Exception as exc:  # collect all, so one run names every broken query
            failures.append(f"{where}: {query}\n    {exc}")
    assert not failures, "\n".join(failures)


def test_views_exist_with_the_schema_and_rates_are_floats(catalog, tmp_path):
    empty = Catalog(f"sqlite:///{tmp_path / 'empty.db'}")  # no ingest ever ran: the views are still there
    for name in VIEWS:
        assert empty.query(f"SELECT * FROM {name}")[1] == []
    columns, rows = catalog.query("SELECT success_rate, mean_score, mean_steps FROM skill_stats")
    assert columns == ["success_rate", "mean_score", "mean_steps"]
    assert [type(v) for v in rows[0]] == [float, float, float], rows
    assert rows[0][0] == pytest.approx(1 / 3)


def test_numbers_print_as_numbers_on_both(catalog):
    """PostgreSQL's NUMERIC (avg of integers) is a float in `forge sql` output, never `0E-20` or a JSON string."""
    import json

    from typer.testing import CliRunner

    query = "SELECT avg(steps) AS mean_steps, avg(CASE WHEN success THEN 1 ELSE 0 END) AS rate FROM student_results"
    result = CliRunner().invoke(app, ["sql", "--db", catalog.url, "--format", "json", query])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert row == {"mean_steps": 3.0, "rate": pytest.approx(1 / 3)}
    table = CliRunner().invoke(app, ["sql", "--db", catalog.url, "SELECT avg(steps) * 0 AS zero FROM student_results"])
    assert "E-" not in table.stdout and "0.0" in table.stdout
