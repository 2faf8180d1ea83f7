"""Taxonomy history: which skills existed in which round, per app, and a skill's lineage with reasons."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from forge.catalog import Catalog, RoundRow, SkillRow, TaxonomyChangeRow
from forge.database import shown
from forge.errors import UnknownNameError, did_you_mean


def per_round(catalog: Catalog) -> list[dict[str, Any]]:
    """For round 0 (the seed) and every recorded round: skills that existed at its end, added and retired in
    it, and the existing skills per app (a multi-app skill counts under `multi_apps`)."""
    with catalog.session() as session:
        skills = list(session.execute(select(SkillRow.id, SkillRow.app, SkillRow.round)))
        retired = Counter(session.scalars(select(TaxonomyChangeRow.round).where(TaxonomyChangeRow.action == "retire")))
        rounds = sorted({0, *session.scalars(select(RoundRow.id)), *(r for _, _, r in skills)})
    table = []
    for number in rounds:
        existing = [(sid, app) for sid, app, r in skills if r <= number]
        table.append({"round": number, "skills": len(existing), "added": sum(r == number for _, _, r in skills),
                      "retired": retired.get(number, 0),
                      "multi_app": sum(app == "multi_apps" for _, app in existing),
                      "by_app": dict(sorted(Counter(app for _, app in existing).items()))})
    return table


@dataclass(frozen=True)
class Step:
    skill_id: str
    origin: str
    round: int
    operator: str | None
    parent: str | None
    params: dict[str, Any]
    changes: list[dict[str, Any]]


def lineage(catalog: Catalog, skill_id: str) -> list[Step]:
    """The skill, then its parent, grandparent ... back to a seed skill; each with every change made to it."""
    steps: list[Step] = []
    with catalog.session() as session:
        current: str | None = skill_id
        while current is not None and len(steps) < 50:
            row = session.get(SkillRow, current)
            if row is None:
                if not steps:
                    known = list(session.scalars(select(SkillRow.id)))
                    hint = did_you_mean(skill_id, known)
                    raise UnknownNameError(f"unknown skill {skill_id!r} in {shown(catalog.url)}.{hint} "
                                           "List them with `forge sql \"SELECT id FROM skills\"`.")
                break
            changes = [{"round": c.round, "operator": c.operator, "action": c.action, "reason": c.reason,
                        "stats": c.stats} for c in session.scalars(
                            select(TaxonomyChangeRow).where(TaxonomyChangeRow.skill_id == current)
                            .order_by(TaxonomyChangeRow.id))]
            steps.append(Step(row.id, row.origin, row.round, row.operator, row.parent, dict(row.params), changes))
            current = row.parent if row.parent != row.id else None
    return steps
