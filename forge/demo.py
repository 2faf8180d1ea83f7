"""What `forge demo` generates: a tour of every workflow family.

The demo is the default mix's plan (`forge.generate.plan_for`), whose first tasks take one skill of every family
in a seeded order; by default the demo makes exactly that many tasks, so every family is shown once.
"""

from __future__ import annotations

from collections.abc import Mapping

from forge.generate import Selection, plan_for
from kit.errors import ForgeError
from kit.ids import TaskId
from kit.taxonomy import Skill


def representatives(taxonomy: Mapping[str, Skill]) -> list[Skill]:
    """One active skill per family (the first by id), ordered so apps alternate: [calc, writer, os, ..., calc ...]."""
    chosen: dict[str, Skill] = {}
    for skill in sorted(taxonomy.values(), key=lambda s: s.id):
        if skill.status == "active":
            chosen.setdefault(skill.family, skill)
    by_app: dict[str, list[Skill]] = {}
    for skill in sorted(chosen.values(), key=lambda s: s.id):
        by_app.setdefault(skill.app, []).append(skill)
    ranked = [(i, app, skill) for app, group in by_app.items() for i, skill in enumerate(group)]
    return [skill for _, _, skill in sorted(ranked, key=lambda r: (r[0], r[1]))]


def demo_plan(taxonomy: Mapping[str, Skill], n: int | None, seed: int) -> list[TaskId]:
    """n task ids of the default mix (default: as many as there are families, so one task of each)."""
    families = {s.family for s in taxonomy.values() if s.status == "active"}
    if not families:
        raise ForgeError("the taxonomy has no active skill; check skills_taxonomy/")
    return plan_for(dict(taxonomy), Selection(), len(families) if n is None else n, seed)
