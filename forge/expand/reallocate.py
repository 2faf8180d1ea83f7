"""reallocate: the next round's budget moves toward the skills the student failed.

A skill's weight becomes 1 + 3 x (1 - success rate) of the previous round (1 for a fully solved skill, 4
for one never solved); skills without attempts keep theirs. `allocate` then spreads the budget over the
active skills in proportion to weight (systematic sampling from a seeded order, so it is deterministic),
40 % of it to multi-app skills (generate.MULTI_SHARE), 60 % to single-app ones; skills added this round get one
task each first (up to half of each share), so the next round has their statistics.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from forge.expand.retire import Decision
from forge.generate import MULTI_SHARE
from forge.stats import SkillStats
from kit.ids import TaskId, derive_seed
from kit.taxonomy import Skill

OPERATOR = "reallocate"
#: Below this, a changed weight is not worth a taxonomy_changes row.
_NOISE = 0.01


def decide(stats: Mapping[str, SkillStats], weights: Mapping[str, float], round_n: int,
           skip: Collection[str] = ()) -> list[Decision]:
    decisions = []
    for skill_id, s in sorted(stats.items()):
        old = weights.get(skill_id)
        if skill_id in skip or old is None or old <= 0 or s.success_rate is None:
            continue
        new = round(1.0 + 3.0 * (1.0 - s.success_rate), 4)
        if abs(new - old) > _NOISE:
            decisions.append(Decision(skill_id, "reweight", new,
                                      f"success {s.success_rate:.2f} over {s.attempts} attempts in round "
                                      f"{round_n - 1}: weight {old:.2f} -> {new:.2f}"))
    return decisions


def _systematic(skills: Sequence[Skill], weights: Mapping[str, float], n: int, rng: random.Random) -> dict[str, int]:
    """n draws spread over `skills` in proportion to weight: counts differ from n*w/W by less than one."""
    order = list(skills)
    rng.shuffle(order)
    total = sum(weights.get(s.id, 1.0) for s in order)
    counts: dict[str, int] = {}
    if n <= 0 or total <= 0:
        return counts
    step = total / n
    point, cumulative, drawn = rng.random() * step, 0.0, 0
    for skill in order:
        cumulative += weights.get(skill.id, 1.0)
        while point < cumulative and drawn < n:
            counts[skill.id] = counts.get(skill.id, 0) + 1
            point, drawn = point + step, drawn + 1
    return counts


def _with_fresh(pool: Sequence[Skill], weights: Mapping[str, float], n: int, rng: random.Random,
                fresh: Collection[str]) -> dict[str, int]:
    """`_systematic` over `pool`, after one task for each `fresh` skill of the pool (at most half of `n`, in a
    seeded order): a skill added this round is tried this round, so its statistics exist next round."""
    new = sorted(s.id for s in pool if s.id in fresh)
    rng.shuffle(new)
    first = new[:n // 2]
    counts = _systematic([s for s in pool if s.id not in first], weights, n - len(first), rng)
    return {**counts, **{sid: 1 for sid in first}}


def allocate(skills: Sequence[Skill], weights: Mapping[str, float], budget: int, seed: int, round_seed: int,
             fresh: Collection[str] = ()) -> list[TaskId]:
    """`budget` task ids over the active skills with weight > 0, in a deterministic plan order (the
    i-th task of every skill before the (i+1)-th of any). `fresh` skills (added this round) get one task each
    first, up to half of their pool (single-app or multi-app)."""
    active = [s for s in sorted(skills, key=lambda s: s.id) if s.status == "active" and weights.get(s.id, 1.0) > 0]
    multi = [s for s in active if len(s.apps) > 1]
    single = [s for s in active if len(s.apps) == 1]
    n_multi = round(budget * MULTI_SHARE) if multi and single else (budget if multi else 0)
    rng = random.Random(derive_seed(seed, round_seed, OPERATOR))
    if fresh:
        counts = {**_with_fresh(single, weights, budget - n_multi, rng, fresh),
                  **_with_fresh(multi, weights, n_multi, rng, fresh)}
    else:  # the plan as before fresh skills existed (same draws)
        counts = {**_systematic(single, weights, budget - n_multi, rng),
                  **_systematic(multi, weights, n_multi, rng)}
    ranked = sorted((index, skill_id) for skill_id, c in counts.items() for index in range(c))
    return [TaskId(skill_id, round_seed, index) for index, skill_id in ranked]
