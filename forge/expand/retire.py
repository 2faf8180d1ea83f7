"""retire: saturated skills first lose weight, then leave the taxonomy.

A skill the student solved at a rate >= SATURATED (over >= MIN_ATTEMPTS attempts) is halved in weight; one
already down-weighted (weight <= 0.5) that the student still solved every time is retired (status
`retired`, weight 0): it no longer gets tasks, but stays in the catalog with its lineage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from forge.expand import MIN_ATTEMPTS, SATURATED
from forge.stats import SkillStats

OPERATOR = "retire"


@dataclass(frozen=True)
class Decision:
    skill_id: str
    action: str  # reweight | retire
    weight: float
    reason: str


def decide(stats: Mapping[str, SkillStats], weights: Mapping[str, float], round_n: int) -> list[Decision]:
    """Decisions for the saturated skills among `stats` (the previous round's), by skill id."""
    decisions = []
    for skill_id, s in sorted(stats.items()):
        old = weights.get(skill_id)
        if old is None or old <= 0 or s.success_rate is None or s.attempts < MIN_ATTEMPTS:
            continue
        if s.success_rate < SATURATED:
            continue
        seen = f"success {s.success_rate:.2f} over {s.attempts} attempts in round {round_n - 1}"
        if old <= 0.5 and s.success_rate >= 1.0:
            decisions.append(Decision(skill_id, "retire", 0.0, f"still saturated after being down-weighted ({seen})"))
        else:
            decisions.append(Decision(skill_id, "reweight", round(old * 0.5, 4),
                                      f"saturated ({seen} >= {SATURATED}): weight {old:.2f} -> {old * 0.5:.2f}"))
    return decisions
