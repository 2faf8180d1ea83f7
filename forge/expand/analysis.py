"""Failure analysis: the student's attempts of one round, grouped by family x axis level x failed check.

What the operators read. An attempt counts for its skill's family, for every axis level its skill has (the
family's defaults filled in: a seed skill is at the first level of every axis), for every knob value, and for
each rubric check it failed (`student_results.failed_checks`, from JSONL, from `forge student run`, or from the
rubric re-run on a final state: `forge feedback ingest --states`). Infrastructure failures are left out: a crashed
VM says nothing about the skill. Skills the code no longer knows are skipped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from forge.catalog import Catalog
from kit.axes import axis_params
from kit.taxonomy import Skill


@dataclass
class Tally:
    """Attempts and successes of one group; `checks` counts the failed rubric checks by id."""

    attempts: int = 0
    successes: int = 0
    checks: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float | None:
        return None if self.attempts == 0 else self.successes / self.attempts

    def add(self, success: bool, failed: list[str] | None) -> None:
        self.attempts += 1
        self.successes += bool(success)
        for check in failed or ():
            self.checks[check] = self.checks.get(check, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        top = sorted(self.checks.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        return {"attempts": self.attempts, "successes": self.successes,
                "success_rate": None if self.rate is None else round(self.rate, 4), "failed_checks": dict(top)}


@dataclass
class Analysis:
    """One round's statistics: per family, per (family, axis, level), per (family, knob, value), per skill."""

    families: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    #: per family, the attempts at skills with every axis at its default level (what a default level's failure
    #: is judged on: a skill failed at a deep folder says nothing against the default row count)
    plain: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    levels: dict[tuple[str, str, Any], Tally] = field(default_factory=lambda: defaultdict(Tally))
    knobs: dict[tuple[str, str, Any], Tally] = field(default_factory=lambda: defaultdict(Tally))
    skills: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    #: per (family, axis, level), the attempts at skills where that axis is the only one moved: what a moved level
    #: is judged on. A skill at two moved levels that fails blames both, and after a round that practised a failing
    #: level with other axes moved (`variant.around_failures`), every level it was paired with would look failing
    alone: dict[tuple[str, str, Any], Tally] = field(default_factory=lambda: defaultdict(Tally))
    #: per (axis, level), those attempts of every family: one failed attempt at a level in one family is as likely
    #: chance as a weakness; the same level failing across families (big tables, deep folders) is not
    pooled: dict[tuple[str, Any], Tally] = field(default_factory=lambda: defaultdict(Tally))
    #: the significant failure patterns `forge.mining` found below the skill (issue 39), when the round was mined,
    #: and why nothing grows when none is (set by `forge.rounds.candidates`)
    patterns: list[Any] = field(default_factory=list)
    no_growth: str | None = None

    @property
    def attempts(self) -> int:
        return sum(t.attempts for t in self.families.values())

    def rows(self) -> list[dict[str, Any]]:
        """Per family x axis level, with the checks that failed there: what `forge skills failures` prints."""
        return [{"family": f, "axis": a, "level": lv, **t.as_dict()}
                for (f, a, lv), t in sorted(self.levels.items(), key=lambda kv: (kv[0][0], kv[0][1], str(kv[0][2])))]


def analyse(attempts: list[tuple[str, bool, list[str] | None]], taxonomy: Mapping[str, Skill]) -> Analysis:
    """Group (skill id, success, failed checks) attempts; see the module docstring."""
    from workflows import families

    known = families()
    out = Analysis()
    for skill_id, success, failed in attempts:
        skill = taxonomy.get(skill_id)
        family = known.get(skill.family) if skill else None
        if skill is None or family is None:
            continue
        out.families[skill.family].add(success, failed)
        out.skills[skill_id].add(success, failed)
        levels = axis_params(skill.params, family.axes)
        moved = [axis for axis, level in levels.items() if level != family.axes[axis][0]]
        for axis, level in levels.items():
            out.levels[skill.family, axis, level].add(success, failed)
        if len(moved) == 1:
            out.alone[skill.family, moved[0], levels[moved[0]]].add(success, failed)
            out.pooled[moved[0], levels[moved[0]]].add(success, failed)
        if not moved:
            out.plain[skill.family].add(success, failed)
        for knob in family.knobs:
            if knob in skill.params:
                out.knobs[skill.family, knob, skill.params[knob]].add(success, failed)
    return out


def round_attempts(catalog: Catalog, round_n: int) -> list[tuple[str, bool, list[str] | None]]:
    """(skill id, success, failed checks) of every attempt of round `round_n` that ran (no infra failures)."""
    return catalog.round_attempts(round_n)


def analyse_round(catalog: Catalog, round_n: int, taxonomy: Mapping[str, Skill]) -> Analysis:
    return analyse(round_attempts(catalog, round_n), taxonomy)
