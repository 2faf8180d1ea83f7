"""Per-skill statistics views against hand arithmetic, on a real SQLite catalog and a real PostgreSQL one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from forge.catalog import Catalog, StudentResultRow
from forge.stats import ensure_views, skill_stats
from forge.tables import VIEWS
from tests import pgkit
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)


def attempt(n: int, skill: str, round_n: int, score: float | None, *, steps: int | None = None, infra: bool = False,
            reason: str | None = None) -> StudentResultRow:
    return StudentResultRow(attempt_key=f"k{n}", task_id=f"{skill}--s1--{n:05d}", skill_id=skill, round=round_n,
                            model="m", score=score, success=None if score is None else score >= 1.0, steps=steps,
                            infra=infra, failure_reason=reason, source=f"hand {n}")


@pytest.fixture(params=["sqlite", "postgresql"])
def catalog(request: pytest.FixtureRequest, tmp_path) -> Iterator[Catalog]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'stats.db'}"
    else:
        url = pgkit.fresh_database(request.getfixturevalue("postgres_server"))
    catalog = Catalog(url)
    with catalog.session() as session, session.begin():
        session.add_all([
            attempt(1, "a", 1, 1.0, steps=4), attempt(2, "a", 1, 0.0, steps=8, reason="wrong cell"),
            attempt(3, "a", 1, 0.5, steps=6, reason="wrong cell"), attempt(4, "a", 2, 1.0, steps=2),
            attempt(5, "a", 2, None, infra=True, reason="crash: vm"),
            attempt(6, "b", 2, None, infra=True, reason="no result.txt (the run did not finish)"),
        ])
    yield catalog
    catalog.engine.dispose()
    if request.param == "postgresql":
        pgkit.drop_database(url)


def test_all_rounds(catalog):
    stats = skill_stats(catalog)
    a, b = stats["a"], stats["b"]
    # a: 4 attempts that ran (1, 0, 0.5, 1) -> 2 successes, rate 0.5, mean score 2.5/4, steps (4+8+6+2)/4; 1 crash.
    assert (a.attempts, a.successes, a.success_rate, a.mean_score, a.mean_steps, a.infra_failures) == (
        4, 2, 0.5, 0.625, 5.0, 1)
    assert a.failure_reasons == {"wrong cell": 2, "crash: vm": 1}
    # b only crashed: nothing to compute a rate from.
    assert (b.attempts, b.successes, b.success_rate, b.mean_score, b.infra_failures) == (0, 0, None, None, 1)


def test_one_round(catalog):
    stats = skill_stats(catalog, 1)
    assert set(stats) == {"a"}
    a = stats["a"]
    assert (a.attempts, a.successes, a.success_rate, a.mean_score, a.mean_steps) == (3, 1, 0.333333, 0.5, 6.0)
    assert skill_stats(catalog, 2)["a"].failure_reasons == {"crash: vm": 1}
    assert skill_stats(catalog, 7) == {}


def test_views_are_queryable_and_created_once(catalog):
    ensure_views(catalog)
    ensure_views(catalog)  # idempotent
    for name in VIEWS:
        columns, rows = catalog.query(f"SELECT * FROM {name}")
        assert rows, name
    columns, rows = catalog.query("SELECT skill_id, round, attempts, successes FROM skill_round_stats "
                                  "ORDER BY skill_id, round")
    assert rows == [("a", 1, 3, 1), ("a", 2, 1, 1), ("b", 2, 0, 0)]
