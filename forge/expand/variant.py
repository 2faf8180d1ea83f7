"""Atomic skills along the difficulty axes: `explore` (round 1), `variant` (toward failures, or harder), and the
chain steps `decompose` and `chain` use.

An atomic skill is a seed skill (one family, one knob combination) plus axis levels: its id is the seed's id
with the non-default levels appended (`calc.sort.date_desc.location_deep.rows_32_40`), its parent the seed, its
description the seed's plus the levels in words. The operators decide which levels, from `analysis.Analysis`:
- `explore` (no statistics yet): every non-default level of every axis once per family, on a seeded knob
  combination, so the first round's tasks show where the student fails;
- `variant`, where a family failed: every knob combination of the family at the failing levels (a level fails
  when its success rate is at most WEAK), alone and combined, and where the failure is confirmed (two attempts, or
  the same level failing across families) each with one other axis moved — practice around what the student
  cannot do; levels the student passed are skipped (they are no practice of a failure);
- `variant`, where a skill passed (success rate at least SATURATED): one step harder along its least advanced axis
  (one step beyond what passes); a student that passes everything gets only these.
How many skills a round adds is what these rules give for the statistics; nothing sets a count.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from forge.expand import SATURATED, WEAK, Candidate, knob_key, seed_taxonomy
from forge.expand.analysis import Analysis, Tally
from kit.axes import axis_params, describe, index, step
from kit.ids import derive_seed
from kit.taxonomy import Skill
from workflows.composite import BUILT

EXPLORE = "explore"
VARIANT = "variant"


@cache
def atomic_families() -> dict[str, Any]:
    """The families an atomic skill can belong to: every registered family but the composite ones."""
    from workflows import families

    return {name: wf for name, wf in families().items() if name not in BUILT}


@cache
def seeds_by_family() -> dict[str, tuple[Skill, ...]]:
    """The seed skills of each family (one per knob combination), by id."""
    out: dict[str, list[Skill]] = {}
    for skill in seed_taxonomy().values():
        if skill.family in atomic_families():
            out.setdefault(skill.family, []).append(skill)
    return {family: tuple(skills) for family, skills in sorted(out.items())}


def base_of(skill: Skill) -> Skill | None:
    """The seed skill with the same family and knob values (`skill` itself for a seed)."""
    family = atomic_families().get(skill.family)
    if family is None:
        return None
    knobs = {k: v for k, v in skill.params.items() if k in family.knobs}
    return next((s for s in seeds_by_family().get(skill.family, ()) if dict(s.params) == knobs), None)


def _slug(value: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(value).lower()).strip("_") or "x"


def atomic_skill(base: Skill, levels: Mapping[str, Any], *, round_n: int, operator: str) -> Skill:
    """The atomic skill `base` (a seed skill) at `levels` (defaults dropped: they are the seed's)."""
    axes = atomic_families()[base.family].axes
    moved = {a: lv for a, lv in sorted(levels.items()) if a in axes and lv != axes[a][0]}
    suffix = ".".join(f"{_slug(a)}_{_slug(lv)}" for a, lv in moved.items())
    return Skill(id=f"{base.id}.{suffix}" if suffix else base.id, family=base.family, apps=base.apps,
                 params={**base.params, **moved}, description=describe(base.description, moved, axes),
                 difficulty="hard" if len(moved) > 1 or any(index(axes[a], lv) > 1 for a, lv in moved.items())
                 else "medium", category=base.category, parent=base.id, origin=f"round-{round_n}",
                 source=f"round {round_n} {operator}")


def new_candidate(base: Skill, levels: Mapping[str, Any], round_n: int, operator: str, reason: str,
               stats: Mapping[str, Any], taken: set[str]) -> Candidate | None:
    skill = atomic_skill(base, levels, round_n=round_n, operator=operator)
    key = knob_key(skill)
    if skill.id == base.id or key in taken or skill.id in taken:
        return None
    taken.add(key)
    return Candidate(skill, operator, reason, dict(stats))


def explore(*, round_n: int, seed: int, taken: set[str]) -> list[Candidate]:
    """Round 1 (no statistics): one skill per family x axis x non-default level, on a seeded knob combination."""
    out = []
    for family, seeds in seeds_by_family().items():
        rng = random.Random(derive_seed(seed, round_n, EXPLORE, family))
        for axis, levels in sorted(atomic_families()[family].axes.items()):
            for level in levels[1:]:
                base = rng.choice(seeds)
                cand = new_candidate(base, {axis: level}, round_n, EXPLORE,
                                  f"no statistics yet: {family} at {axis}={level} shows whether the student copes "
                                  "with this level", {"family": family, "axis": axis, "level": level}, taken)
                if cand:
                    out.append(cand)
    return out


def judged(analysis: Analysis, family: str, axis: str, level: Any, default: bool) -> Tally | None:
    """The tally a level is judged on: a default level on the skills at every default (a skill failed at a deep
    folder says nothing against the default row count), a moved level on the attempts where it is the only moved
    axis (`Analysis.alone`: a skill failed at two moved levels says nothing about which one). One attempt is
    evidence enough to practise the level alone (round 1 explores each level once); `confirmed` decides more."""
    return analysis.plain.get(family) if default else analysis.alone.get((family, axis, level))


def failing_levels(analysis: Analysis, family: str, *, sure: bool = False) -> dict[str, list[Any]]:
    """Per axis of `family`, the levels whose success rate is at most WEAK (in axis order); with `sure`, only those
    whose failure is `confirmed`."""
    axes = atomic_families()[family].axes
    out: dict[str, list[Any]] = {}
    for axis, levels in axes.items():
        bad = [lv for lv in levels if (t := judged(analysis, family, axis, lv, lv == levels[0])) is not None
               and t.rate is not None and t.rate <= WEAK
               and (not sure or confirmed(analysis, t, axis, lv, lv == levels[0]))]
        if bad:
            out[axis] = bad
    return out


#: attempts at one level of one family that confirm its failure on their own
CONFIRM = 2


def confirmed(analysis: Analysis, tally: Tally, axis: str, level: Any, default: bool) -> bool:
    """Is a failing level's failure evidence of a weakness rather than chance? Yes with CONFIRM attempts in the
    family (a default level is judged on all its plain skills), or when the same axis level fails across the families
    that have it (their pooled success rate at most WEAK, with attempts beyond this family's). A student that passes
    19 tasks in 20 fails a level once by chance as often as a weak one fails it: expanding every such level sent a
    third of round 2's additions to families the student had no trouble with (measured with the planted student at
    a fifth of round 1's tasks: 65.7 % aimed)."""
    if default or tally.attempts >= CONFIRM:
        return True
    pooled = analysis.pooled.get((axis, level))
    return bool(pooled and pooled.attempts > tally.attempts and pooled.rate is not None and pooled.rate <= WEAK)


def around_failures(analysis: Analysis, *, round_n: int, taken: set[str]) -> list[Candidate]:
    """Every knob combination of each failing family along its failing axes: each such axis from its default up
    to one step beyond its hardest failing level, skipping the levels it passed, axes alone and combined; and each
    combination that holds a `confirmed` failing level again with one other axis at each of its levels (skills
    around what the student cannot do; a family failed at its default levels gets the next level of each failing
    axis). Measured on `benchmarks/rounds.py --full`'s round 1 (planted weaknesses in 20.7 % of the tasks): the
    ladder of passed levels made a third of round 2's candidates miss the weaknesses (65.7 % aimed); without it,
    and with confirmed failures practised in other conditions, 86.3 % of them are aimed."""
    out = []
    for family in sorted(analysis.families):
        if family not in atomic_families():
            continue
        bad = failing_levels(analysis, family)
        if not bad:
            continue
        axes = atomic_families()[family].axes
        choices = []
        for axis in sorted(axes):
            levels = axes[axis]
            reach = max((index(levels, lv) for lv in bad.get(axis, ())), default=-1)
            upto = min(reach + 1, len(levels) - 1) if reach >= 0 else 0
            choices.append([(axis, lv) for i, lv in enumerate(levels[:upto + 1])
                            if i == 0 or lv in bad.get(axis, ()) or not passes(analysis, family, axis, lv)])
        fam = analysis.families[family]
        where = [f"{a}={lv}" for a, lvs in sorted(bad.items()) for lv in lvs]
        reason = (f"{family} fails at {', '.join(where)} (family success {fam.rate or 0:.2f} over {fam.attempts} "
                  "attempts): practise around the failing levels")
        evidence = {f"{a}={lv}": t.as_dict() for a, lvs in bad.items() for lv in lvs
                    if (t := judged(analysis, family, a, lv, lv == axes[a][0])) is not None}
        combos = [dict(c) for c in itertools.product(*choices)]
        # each combination that holds a confirmed failing level, also with one other axis moved: the failure
        # practised in other conditions (a bigger table in the deep folder), not only at that axis's default
        sure = failing_levels(analysis, family, sure=True)
        failing = [c for c in combos if any(lv in sure.get(a, ()) for a, lv in c.items())]
        combos += [{**c, axis: lv} for c in failing for axis in sorted(axes) if axis not in bad
                   for lv in axes[axis][1:]]
        for base in seeds_by_family().get(family, ()):
            for combo in combos:
                cand = new_candidate(base, combo, round_n, VARIANT, reason,
                                  {"family": family, "failing": where, "levels": evidence}, taken)
                if cand:
                    out.append(cand)
    return out


def harder(analysis: Analysis, taxonomy: Mapping[str, Skill], *, round_n: int, taken: set[str]) -> list[Candidate]:
    """One step harder, along its least advanced axis, for every skill the student passed (rate >= SATURATED)."""
    out = []
    for skill_id, tally in sorted(analysis.skills.items()):
        skill = taxonomy.get(skill_id)
        if skill is None or tally.rate is None or tally.rate < SATURATED or skill.family not in atomic_families():
            continue
        base = base_of(skill)
        axes = atomic_families()[skill.family].axes
        if base is None or not axes:
            continue
        levels = axis_params(skill.params, axes)
        for axis in sorted(axes, key=lambda a: (index(axes[a], levels[a]), a)):
            nxt = step(axes[axis], levels[axis])
            if nxt is None:
                continue
            cand = new_candidate(base, {**levels, axis: nxt}, round_n, VARIANT,
                              f"{skill_id} passed ({tally.successes}/{tally.attempts}): one step beyond, "
                              f"{axis} {levels[axis]} -> {nxt}",
                              {"from": skill_id, "axis": axis, "level": nxt, **tally.as_dict()}, taken)
            if cand:
                out.append(cand)
                break
    return out


def passes(analysis: Analysis, family: str, axis: str, level: Any) -> bool:
    """Did the student pass this (moved) level of the family (success rate above WEAK)? Such a level is no practice
    of a failure: the variants around a failure skip it (one step beyond what passes is the next level up)."""
    tally = analysis.alone.get((family, axis, level))
    return bool(tally and tally.rate is not None and tally.rate > WEAK)


def is_weak(analysis: Analysis, family: str) -> bool:
    t = analysis.families.get(family)
    return bool(t and t.rate is not None and (t.rate <= WEAK or failing_levels(analysis, family)))
