"""Per-skill statistics of the student's attempts, read from the catalog's statistics views (`forge.tables.VIEWS`,
whose docstring defines the columns: infrastructure failures apart, success = a score of 1).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text

from forge.catalog import Catalog
from forge.database import schema_lock
from forge.tables import VIEWS, create_views, views_missing


def ensure_views(catalog: Catalog) -> None:
    """Create any missing statistics view; safe to call every time."""
    with catalog.engine.connect() as conn:
        if not views_missing(conn):
            return
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
