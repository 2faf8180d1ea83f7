"""compose: two skills of different apps in one task (family `compose.pair`) — new multi-app skills.

Which skills get composed is decided by the student: a seed skill is drawn with weight
1 + 4 x (1 - success rate) (untried skills count as half-learnt), so weak skills are practised in more
multi-app settings; its partner is drawn from the apps it does not touch. Deterministic: one
`random.Random` per (seed, round, operator). The pairing engine here is shared with `harder`, whose partner
shares an app instead (an extra step in the same app).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from forge.expand import Candidate, knob_key
from forge.ids import derive_seed
from forge.stats import SkillStats
from forge.taxonomy import Skill
from workflows.composite import NAME as COMPOSE
from workflows.composite import Part, part_ids, seed_parts

OPERATOR = "compose"
#: Longest composite id spelled out in full; longer ones end in a digest of the second part.
MAX_ID = 110
_TRIES = 30


@dataclass(frozen=True)
class Pressure:
    """How much a seed skill needs practice, from the statistics of the skills built on it."""

    attempts: int
    successes: float

    @property
    def rate(self) -> float | None:
        return None if self.attempts == 0 else self.successes / self.attempts

    def weight(self) -> float:
        return 1.0 + 4.0 * (1.0 - (0.5 if self.rate is None else self.rate))

    def describe(self) -> str:
        if self.rate is None:
            return "no attempts yet"
        return f"success {self.rate:.2f} over {self.attempts} attempts"


def pressure(stats: Mapping[str, SkillStats], taxonomy: Mapping[str, Skill]) -> dict[str, Pressure]:
    """Per seed skill: its own attempts plus those of every composite it is a part of (each part gets the
    composite's outcomes: failing a composite is evidence against both parts)."""
    totals: dict[str, list[float]] = {sid: [0, 0.0] for sid in seed_parts()}
    for skill_id, s in stats.items():
        skill = taxonomy.get(skill_id)
        if skill is None or s.attempts == 0:
            continue
        parts = part_ids(skill.family, skill.params) or [skill_id]
        for part in parts:
            if part in totals:
                totals[part][0] += s.attempts
                totals[part][1] += s.successes
    return {sid: Pressure(int(a), s) for sid, (a, s) in totals.items()}


def composite_id(first: str, second: str) -> str:
    """`cx.<first>__<second>`: readable, valid as a skill and task id (only [a-z0-9_.])."""
    from forge.ids import digest

    full = f"cx.{first}__{second}"
    return full if len(full) <= MAX_ID else f"cx.{first}__h{digest(second)[:12]}"


def composite_skill(first: Part, second: Part, *, operator: str, round_n: int, category: str) -> Skill:
    apps = tuple(dict.fromkeys([*first.apps, *second.apps]))
    return Skill(id=composite_id(first.id, second.id), family=COMPOSE, apps=apps,
                 params={"first": first.id, "second": second.id},
                 description=f"First {first.id}, then {second.id}, in one task.", difficulty="hard",
                 category=category, parent=first.id, origin=f"round-{round_n}", status="active",
                 source=f"round {round_n} {operator}")


def pairs(*, n: int, round_n: int, seed: int, operator: str, taken: set[str], pressures: Mapping[str, Pressure],
          related: Callable[[Part, Part], bool], reason: Callable[[Part, Part, Pressure], str],
          eligible: Callable[[str, Pressure], bool] = lambda sid, p: True,
          blocked: Collection[frozenset[str]] = ()) -> list[Candidate]:
    """Up to n new composites: the first part drawn by pressure among `eligible` seed skills, the partner
    uniformly among the seed skills `related` to it. `taken` (knob keys of existing skills, and ids refused
    before) grows as we go. Family pairs in `blocked` (their files collided in an earlier probe) are skipped."""
    rng = random.Random(derive_seed(seed, round_n, operator))
    pool = seed_parts()
    firsts = [sid for sid in pool if eligible(sid, pressures[sid])]
    if not firsts:
        return []
    weights = [pressures[sid].weight() for sid in firsts]
    partners: dict[str, list[str]] = {}
    out: list[Candidate] = []
    misses = 0
    while len(out) < n and misses < _TRIES * max(n, 1):
        first = pool[rng.choices(firsts, weights)[0]]
        if first.id not in partners:
            partners[first.id] = [sid for sid in pool if sid != first.id and related(first, pool[sid])]
        if not partners[first.id]:
            misses += 1
            continue
        second = pool[rng.choice(partners[first.id])]
        if frozenset((first.family, second.family)) in blocked:
            misses += 1
            continue
        skill = composite_skill(first, second, operator=operator, round_n=round_n,
                                category="multi_app" if len(set(first.apps) | set(second.apps)) > 1 else "harder")
        key = knob_key(skill)
        if key in taken or skill.id in taken:
            misses += 1
            continue
        taken.add(key)
        p = pressures[first.id]
        out.append(Candidate(skill, operator, reason(first, second, p),
                             {"part": first.id, "partner": second.id, "families": [first.family, second.family],
                              "attempts": p.attempts, "success_rate": p.rate}))
    return out


def propose(*, n: int, round_n: int, seed: int, taken: set[str], pressures: Mapping[str, Pressure],
            blocked: Collection[frozenset[str]] = ()) -> list[Candidate]:
    """n multi-app composites: parts that share no app."""

    def reason(first: Part, second: Part, p: Pressure) -> str:
        return (f"{first.id}: {p.describe()}; composed with {second.id} ({'/'.join(second.apps)}) so the skill is "
                f"practised inside a multi-app task ({'/'.join(first.apps)} + {'/'.join(second.apps)})")

    return pairs(n=n, round_n=round_n, seed=seed, operator=OPERATOR, taken=taken, pressures=pressures,
                 related=lambda a, b: not set(a.apps) & set(b.apps), reason=reason, blocked=blocked)
