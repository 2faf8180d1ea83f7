"""Taxonomy expansion across feedback rounds: the student's statistics decide which skills exist next round.

`analysis` groups a round's attempts by family x axis level x failed check. The operators read it, one module
each: `variant` (an atomic skill, a seed skill at other difficulty-axis levels: around the levels a family fails,
one step harder where a skill passes; `explore` samples every level in round 1, before there are statistics),
`chain` (`decompose`: the steps of a failed chain as skills; `chain`: a multi-app chain whose steps all pass),
`propose` (an LLM, or its offline stand-in, picks new knob values and axis levels around a failure cluster),
`reallocate` (weights toward weak skills) and `retire` (down-weight, then retire, saturated skills); `probe`
admits a candidate only when k probe tasks of it pass the real gate, and the duplicate rule here refuses a
skill that has the same family, knob values and axis levels as an existing one. How many skills a round adds
follows from the statistics; nothing sets a count. The composite families (`compose.pair`,
`variant.distractors`) stay loadable for catalogs that hold them, but no operator adds unrelated pairs any more.

Every decision writes a `taxonomy_changes` row (operator, action add | reweight | retire | refuse, skill,
parent, the reason in words and the statistics behind it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from forge.catalog import Catalog, SkillRow, TaxonomyChangeRow
from kit.errors import TaxonomyError
from kit.taxonomy import Skill, load_taxonomy
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
    """What makes two skills the same: family + knob values + axis levels (an axis at its default level is the
    same skill as one that does not name it; a composite's parts as a set, not in order)."""
    from workflows import families

    params: Any = dict(skill.params)
    family = families().get(skill.family)
    if family is not None:
        params = {k: v for k, v in params.items() if k not in family.axes or v != family.axes[k][0]}
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
    for row in catalog.skill_rows():
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
    return catalog.skill_weights()


def record(catalog: Catalog, round_n: int, changes: Iterable[TaxonomyChangeRow]) -> int:
    """Write change rows (their `round` is set here); returns how many."""
    return catalog.record_changes(round_n, changes)


def change(operator: str, action: str, skill_id: str, reason: str, *, parent: str | None = None,
           stats: Mapping[str, Any] | None = None) -> TaxonomyChangeRow:
    return TaxonomyChangeRow(round=0, operator=operator, action=action, skill_id=skill_id, parent=parent,
                             reason=reason, stats=dict(stats or {}))
