"""Admission of candidate skills: the duplicate rule, then k probe tasks through the real gate.

`admit` refuses a candidate that has the same family, knob values and axis levels as an existing skill (or an earlier
candidate), or that was already refused by an earlier round; the others are probed together in one
`Generator` run into a temporary folder and a temporary catalog (probe tasks are evidence, not dataset).
A candidate joins — a `skills` row with origin `round-N`, its parent, operator and round, plus an `add`
change — only when all k of its probe tasks are accepted; otherwise a `refuse` change keeps the gate's
evidence for the first rejected probe.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from forge.catalog import Catalog, SkillRow, TaxonomyChangeRow
from forge.expand import Candidate, change, knob_key, record
from forge.generate import Generator, Outcome
from forge.ids import TaskId
from forge.sandbox import Sandbox
from forge.scratch import owned_folder, scratch_root
from forge.taxonomy import Skill

DEFAULT_K = 3


@dataclass
class Admission:
    added: list[Candidate] = field(default_factory=list)
    refused: list[tuple[Candidate, str]] = field(default_factory=list)
    probe_tasks: int = 0
    probe_counts: Counter[str] = field(default_factory=Counter)


def refused_before(catalog: Catalog) -> set[str]:
    with catalog.session() as session:
        return set(session.scalars(select(TaxonomyChangeRow.skill_id).where(TaxonomyChangeRow.action == "refuse")))


def duplicates(candidates: Sequence[Candidate], taxonomy: Mapping[str, Skill], refused: set[str]
               ) -> tuple[list[Candidate], list[tuple[Candidate, str]]]:
    """Split candidates into (new, refused with reason) by the duplicate rule."""
    owners = {knob_key(s): s.id for s in taxonomy.values()}
    fresh, out = [], []
    for cand in candidates:
        key = knob_key(cand.skill)
        if cand.skill.id in taxonomy or key in owners:
            other = owners.get(key, cand.skill.id)
            out.append((cand, f"duplicate of {other}: same family {cand.skill.family} and knob values "
                              f"{dict(cand.skill.params)} (a new skill must differ in what is checked or in knobs)"))
        elif cand.skill.id in refused:
            out.append((cand, "refused in an earlier round (see its earlier taxonomy_changes row)"))
        else:
            owners[key] = cand.skill.id
            fresh.append(cand)
    return fresh, out


def probe(candidates: Sequence[Candidate], taxonomy: Mapping[str, Skill], *, k: int, seed: int,
          sandbox: Sandbox, workdir: Path | None = None) -> tuple[dict[str, int], dict[str, str], Counter[str]]:
    """k probe tasks per candidate through the gate: (accepted per skill, first rejection evidence, classes)."""
    accepted: dict[str, int] = defaultdict(int)
    evidence: dict[str, str] = {}
    if not candidates or k < 1:
        return dict(accepted), evidence, Counter()
    with owned_folder("probe", workdir or scratch_root()) as tmp:
        catalog = Catalog(f"sqlite:///{tmp}/probe.db")
        skills = {**taxonomy, **{c.skill.id: c.skill for c in candidates}}
        generator = Generator(Path(tmp) / "out", catalog, sandbox=sandbox, taxonomy=skills)
        ids = [TaskId(c.skill.id, seed, i) for i in range(k) for c in candidates]

        def seen(outcome: Outcome) -> None:
            skill_id = TaskId.parse(outcome.task_id).skill_id
            if outcome.status == "accepted":
                accepted[skill_id] += 1
            else:
                evidence.setdefault(skill_id, f"probe {outcome.task_id}: {outcome.status}: {outcome.evidence[:400]}")

        counts = generator.run(ids, seen)
        catalog.engine.dispose()
    return dict(accepted), evidence, counts


def admit(catalog: Catalog, candidates: Sequence[Candidate], taxonomy: Mapping[str, Skill], *, round_n: int,
          k: int = DEFAULT_K, seed: int, sandbox: Sandbox, workdir: Path | None = None) -> Admission:
    """Apply the duplicate rule, probe the rest, and record every add and refusal."""
    if k < 1:
        raise ValueError(f"{k=}, but a new skill needs at least one probe task")
    result = Admission()
    fresh, dupes = duplicates(candidates, taxonomy, refused_before(catalog))
    result.refused.extend(dupes)
    accepted, evidence, counts = probe(fresh, taxonomy, k=k, seed=seed, sandbox=sandbox, workdir=workdir)
    result.probe_tasks, result.probe_counts = sum(counts.values()), counts
    for cand in fresh:
        if accepted.get(cand.skill.id, 0) >= k:
            result.added.append(cand)
        else:
            result.refused.append((cand, f"{accepted.get(cand.skill.id, 0)}/{k} probe tasks accepted; "
                                         f"{evidence.get(cand.skill.id, 'no evidence')}"))
    changes = [change(c.operator, "add", c.skill.id, f"{c.reason}; {k}/{k} probe tasks passed the gate",
                      parent=c.skill.parent, stats={**c.stats, "probes": k}) for c in result.added]
    changes += [change(c.operator, "refuse", c.skill.id, f"{c.reason}; refused: {why}", parent=c.skill.parent,
                       stats=dict(c.stats)) for c, why in result.refused]
    with catalog.session() as session, session.begin():
        for cand in result.added:
            s = cand.skill
            session.merge(SkillRow(id=s.id, family=s.family, app=s.app, apps=list(s.apps), category=s.category,
                                   params=dict(s.params), description=s.description, difficulty=s.difficulty,
                                   parent=s.parent, origin=f"round-{round_n}", status="active", weight=1.0,
                                   round=round_n, operator=cand.operator))
    record(catalog, round_n, changes)
    return result
