"""Per-skill statistics of the student's attempts, as SQL views in the catalog and as Python values.

Views (created with the catalog's schema, so they exist before any result is ingested; query them with
`forge sql`; README "Catalog schema" documents their columns):
- `skill_round_stats`: one row per (skill, round);
- `skill_stats`: one row per skill over every round;
- `skill_failure_reasons`: (skill, round, failure_reason, attempts).
Infrastructure failures (a crash, no result.txt) count in `infra_failures` only: attempts, success rate,
mean score and mean steps are over the attempts that ran. `success_rate` = successes / attempts,
`mean_score` = the mean of the scores (fractional scores count as they are). Rates and means are cast to
DOUBLE PRECISION: PostgreSQL would otherwise return NUMERIC (printed `0E-20`, a string in JSON).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, inspect, text

if TYPE_CHECKING:
    from forge.catalog import Catalog

_COLUMNS = """
    skill_id,
    SUM(CASE WHEN infra THEN 0 ELSE 1 END) AS attempts,
    SUM(CASE WHEN infra THEN 0 WHEN success THEN 1 ELSE 0 END) AS successes,
    SUM(CASE WHEN infra THEN 1 ELSE 0 END) AS infra_failures,
    CAST(SUM(CASE WHEN infra THEN 0 WHEN success THEN 1 ELSE 0 END) AS DOUBLE PRECISION)
        / NULLIF(SUM(CASE WHEN infra THEN 0 ELSE 1 END), 0) AS success_rate,
    CAST(AVG(CASE WHEN infra THEN NULL ELSE score END) AS DOUBLE PRECISION) AS mean_score,
    CAST(AVG(CASE WHEN infra THEN NULL ELSE CAST(steps AS DOUBLE PRECISION) END) AS DOUBLE PRECISION) AS mean_steps
"""

VIEWS = {
    "skill_round_stats": f"SELECT round, {_COLUMNS} FROM student_results GROUP BY skill_id, round",
    "skill_stats": f"SELECT {_COLUMNS} FROM student_results GROUP BY skill_id",
    "skill_failure_reasons": "SELECT skill_id, round, failure_reason, COUNT(*) AS attempts FROM student_results "
                             "WHERE failure_reason IS NOT NULL GROUP BY skill_id, round, failure_reason",
}


def create_views(conn: Connection, *, refresh: bool = False) -> None:
    """Create the views that are missing (with `refresh`, drop and create all: a changed definition, e.g. after
    `forge db upgrade`). Runs in the caller's transaction (the schema lock when the catalog is created)."""
    present = set(inspect(conn).get_view_names())
    for name, query in VIEWS.items():
        if name in present and not refresh:
            continue
        if name in present:
            conn.execute(text(f"DROP VIEW {name}"))
        conn.execute(text(f"CREATE VIEW {name} AS {query}"))


def drop_views(conn: Connection) -> None:
    """Drop the statistics views (before a migration rebuilds the tables they read)."""
    for name in VIEWS:
        conn.execute(text(f"DROP VIEW IF EXISTS {name}"))


def views_missing(conn: Connection) -> bool:
    return not set(VIEWS) <= set(inspect(conn).get_view_names())


def ensure_views(catalog: Catalog) -> None:
    """Create any missing statistics view; safe to call every time."""
    with catalog.engine.connect() as conn:
        if not views_missing(conn):
            return
    from forge.database import schema_lock

    with schema_lock(catalog.engine) as conn:
        create_views(conn)


@dataclass(frozen=True)
class SkillStats:
    skill_id: str
    attempts: int
    successes: int
    infra_failures: int
    success_rate: float | None
    mean_score: float | None
    mean_steps: float | None
    failure_reasons: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"skill_id": self.skill_id, "attempts": self.attempts, "successes": self.successes,
                "infra_failures": self.infra_failures, "success_rate": self.success_rate,
                "mean_score": self.mean_score, "mean_steps": self.mean_steps,
                "failure_reasons": dict(self.failure_reasons)}


def skill_stats(catalog: Catalog, round_n: int | None = None) -> dict[str, SkillStats]:
    """Statistics per skill (of one round when `round_n` is given), by skill id. Read with the views' own
    queries, not through the views: `forge stats` opens the catalog read-only and must not create them."""
    where, args = ("WHERE round = :round", {"round": round_n}) if round_n is not None else ("", {})
    view = VIEWS["skill_round_stats" if round_n is not None else "skill_stats"]
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    with catalog.engine.connect() as conn:
        for skill_id, reason, count in conn.execute(text(
                f"SELECT skill_id, failure_reason, SUM(attempts) FROM ({VIEWS['skill_failure_reasons']}) AS v "
                f"{where} GROUP BY skill_id, failure_reason"), args):
            reasons[skill_id][reason] += int(count)
        rows = conn.execute(text(f"SELECT skill_id, attempts, successes, infra_failures, success_rate, mean_score, "
                                 f"mean_steps FROM ({view}) AS v {where} ORDER BY skill_id"), args).all()
    return {r[0]: SkillStats(r[0], int(r[1]), int(r[2]), int(r[3]), _num(r[4]), _num(r[5]), _num(r[6]),
                             dict(reasons[r[0]].most_common())) for r in rows}


def _num(value: Any) -> float | None:
    return None if value is None else round(float(value), 6)
