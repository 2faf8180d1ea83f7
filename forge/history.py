"""Taxonomy history: which skills existed in which round, per app, and a skill's lineage with reasons."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from forge.catalog import Catalog
from forge.database import shown
from kit.errors import UnknownNameError, did_you_mean


def per_round(catalog: Catalog) -> list[dict[str, Any]]:
    """For round 0 (the seed) and every recorded round: skills that existed at its end (atomic single-app skills
    and multi-app chains apart), added (the same split) and retired in it, and the existing skills per app (a
    multi-app skill counts under `multi_apps`)."""
    skills, retired, recorded = catalog.skill_rounds()
    rounds = sorted({0, *recorded, *(r for _, _, r in skills)})
    table = []
    for number in rounds:
        existing = [(sid, app) for sid, app, r in skills if r <= number]
        added = [app for _, app, r in skills if r == number]
        chains = sum(app == "multi_apps" for _, app in existing)
        table.append({"round": number, "skills": len(existing), "added": len(added),
                      "retired": retired.get(number, 0),
                      # atomic = single-app skills; chains = multi-app skills (steps that pass data on)
                      "atomic": len(existing) - chains, "chains": chains,
                      "added_atomic": sum(app != "multi_apps" for app in added),
                      "added_chains": sum(app == "multi_apps" for app in added),
                      "multi_app": chains,
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
    current: str | None = skill_id
    while current is not None and len(steps) < 50:
        row = catalog.skill(current)
        if row is None:
            if not steps:
                hint = did_you_mean(skill_id, catalog.skill_ids())
                raise UnknownNameError(f"unknown skill {skill_id!r} in {shown(catalog.url)}.{hint} "
                                       "List them with `forge sql \"SELECT id FROM skills\"`.")
            break
        changes = [{"round": c.round, "operator": c.operator, "action": c.action, "reason": c.reason,
                    "stats": c.stats} for c in catalog.changes(current)]
        steps.append(Step(row.id, row.origin, row.round, row.operator, row.parent, dict(row.params), changes))
        current = row.parent if row.parent != row.id else None
    return steps
