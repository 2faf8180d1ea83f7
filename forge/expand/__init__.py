"""Taxonomy expansion across feedback rounds: operators turn the student's statistics into new skills.

One module per operator — `reallocate` (weights toward weak skills), `harder` (a weak or saturated skill
plus an extra same-app step, or with look-alike copies of its working file), `compose` (two skills of
different apps in one task: multi-app), `propose` (new knob values of an existing family: an offline
deterministic proposer, or an LLM through a Backend), `retire` (down-weight, then retire, saturated
skills) — plus `probe` (a candidate joins only when k probe tasks of it pass the real gate) and the
duplicate rule here: a skill that has the same family and the same knob values as an existing one (order of
composite parts ignored) is a duplicate, never added.

Every decision writes a `taxonomy_changes` row (operator, action add | reweight | retire | refuse, skill,
parent, the reason in words and the statistics behind it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import select

from forge.catalog import Catalog, SkillRow, TaxonomyChangeRow
from forge.errors import TaxonomyError
from forge.taxonomy import Skill, load_taxonomy
from workflows.composite import NAME as COMPOSE

#: A skill with at least this many attempts and a success rate at or below WEAK is weak...
WEAK = 0.5
#: ...at or above SATURATED is saturated (the student has learnt it).
SATURATED = 0.9
MIN_ATTEMPTS = 2


@dataclass(frozen=True)
class Candidate:
    """A proposed skill and why: what `probe.admit` checks (duplicate rule, then k gate-passing tasks)."""

    skill: Skill
    operator: str
    reason: str
    stats: Mapping[str, Any] = field(default_factory=dict)


def knob_key(skill: Skill) -> str:
    """What makes two skills the same: family + knob values (a composite's parts as a set, not in order)."""
    params: Any = dict(skill.params)
    if skill.family == COMPOSE:
        params = sorted(str(v) for v in params.values())
    return json.dumps([skill.family, params], sort_keys=True, default=str)


def _row_skill(row: SkillRow) -> Skill:
    return Skill(id=row.id, family=row.family, apps=tuple(row.apps), params=dict(row.params),
                 description=row.description, difficulty=row.difficulty, category=row.category, parent=row.parent,
                 origin=row.origin, status=row.status, source=f"catalog skills row {row.id}")


@cache
def seed_taxonomy() -> dict[str, Skill]:
    """The shipped seed taxonomy, loaded and validated once per process (parsing it takes seconds).
    Callers copy the dict before changing it; the skills themselves are frozen."""
    return load_taxonomy()


def catalog_taxonomy(catalog: Catalog) -> dict[str, Skill]:
    """The seed skills (with the status the catalog gives them: a seed skill may be retired) plus every skill
    rounds added, by id. Each one's family exists and its params fit: `Generator(taxonomy=...)` can run it."""
    from workflows import families

    skills = dict(seed_taxonomy())
    known = families()
    with catalog.session() as session:
        rows = list(session.scalars(select(SkillRow)))
    for row in rows:
        if row.id in skills:
            skills[row.id] = _replace_status(skills[row.id], row.status)
            continue
        skill = _row_skill(row)
        family = known.get(skill.family)
        problem = "unknown family" if family is None else family.check_params(skill.params)
        if problem:
            raise TaxonomyError(f"{skill.source}: params: {problem}; the catalog holds a skill this code cannot "
                                "generate (was it made by another version of Forge?)")
        skills[row.id] = skill
    return dict(sorted(skills.items()))


def _replace_status(skill: Skill, status: str) -> Skill:
    from dataclasses import replace

    return skill if skill.status == status else replace(skill, status=status)


def weights(catalog: Catalog) -> dict[str, float]:
    with catalog.session() as session:
        return {row.id: row.weight for row in session.execute(select(SkillRow.id, SkillRow.weight))}


def record(catalog: Catalog, round_n: int, changes: Iterable[TaxonomyChangeRow]) -> int:
    """Write change rows (their `round` is set here); returns how many."""
    rows = list(changes)
    with catalog.session() as session, session.begin():
        for row in rows:
            row.round = round_n
            session.add(row)
    return len(rows)


def change(operator: str, action: str, skill_id: str, reason: str, *, parent: str | None = None,
           stats: Mapping[str, Any] | None = None) -> TaxonomyChangeRow:
    return TaxonomyChangeRow(round=0, operator=operator, action=action, skill_id=skill_id, parent=parent,
                             reason=reason, stats=dict(stats or {}))
