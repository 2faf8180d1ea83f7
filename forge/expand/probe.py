"""Admission of candidate skills: the duplicate rule, then k probe tasks through the real gate.

`admit` refuses a candidate that has the same family, knob values and axis levels as an existing skill (or an earlier
candidate), or that was already refused by an earlier round; the others are probed together in one
`Generator` run into a temporary folder and a temporary catalog (probe tasks are evidence, not dataset).
A candidate joins — a `skills` row with origin `round-N`, its parent, operator and round, plus an `add`
change — only when all k of its probe tasks are accepted; otherwise a `refuse` change keeps the gate's
evidence for the first rejected probe.

At scale (`sample`), not every candidate is probed: the candidates are grouped by family x axis level (a candidate
at rows=40-60 and location=deep belongs to both groups; one at every default level to its family's `plain` group),
a seeded sample of `sample` candidates per group is probed (a candidate probed for one group counts for each of
its groups), and an unprobed candidate joins only when every probed candidate of each of its groups passed. Its
`add` row says so: probes 0, `sampled` names the probed skills per group, and the reason says it was not probed
itself. A group whose probe failed refuses its unprobed candidates, naming the failed probe.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from forge.catalog import Catalog
from forge.expand import Candidate, change, knob_key, record
from forge.generate import Generator, Outcome
from kit.axes import axis_params
from kit.ids import TaskId, derive_seed
from kit.sandbox import Sandbox
from kit.scratch import owned_folder, scratch_root
from kit.taxonomy import Skill

DEFAULT_K = 3


@dataclass
class Admission:
    added: list[Candidate] = field(default_factory=list)
    refused: list[tuple[Candidate, str]] = field(default_factory=list)
    probe_tasks: int = 0
    sampled: int = 0  # added on their groups' sampled probes, not probed themselves


def refused_before(catalog: Catalog) -> set[str]:
    return catalog.refused_skill_ids()


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
        catalog.close()
    return dict(accepted), evidence, counts


def groups_of(skill: Skill) -> list[str]:
    """The family x axis level groups a candidate belongs to: one per axis it moves off the default, else its
    family's `plain` group."""
    from workflows import families

    family = families().get(skill.family)
    axes = family.axes if family is not None else {}
    moved = [f"{skill.family} {a}={lv}" for a, lv in sorted(axis_params(skill.params, axes).items())
             if lv != axes[a][0]]
    return moved or [f"{skill.family} plain"]


def sample_probes(candidates: Sequence[Candidate], per_group: int, seed: int) -> list[Candidate]:
    """A seeded sample that puts at least `per_group` probed candidates (or all it has) in every family x axis
    level group; groups in sorted order, so the sample is deterministic."""
    members: dict[str, list[Candidate]] = defaultdict(list)
    for cand in candidates:
        for group in groups_of(cand.skill):
            members[group].append(cand)
    chosen: dict[str, Candidate] = {}
    for group, cands in sorted(members.items()):
        have = sum(c.skill.id in chosen for c in cands)
        rest = sorted((c for c in cands if c.skill.id not in chosen), key=lambda c: c.skill.id)
        rng = random.Random(derive_seed(seed, "sample", group))
        for cand in rng.sample(rest, min(max(per_group - have, 0), len(rest))):
            chosen[cand.skill.id] = cand
    return sorted(chosen.values(), key=lambda c: c.skill.id)


def _by_sample(cand: Candidate, probed: Mapping[str, list[str]], passed: set[str], evidence: Mapping[str, str],
               k: int) -> tuple[bool, str, dict[str, list[str]]]:
    """Whether an unprobed candidate joins on its groups' samples: (joins, why, up to three probed skills per group
    as evidence). Every probed candidate of every one of its groups must have passed."""
    groups = {g: probed.get(g, []) for g in groups_of(cand.skill)}
    sampled = {g: ids[:3] for g, ids in groups.items()}
    for group, ids in groups.items():
        if not ids:
            return False, f"no candidate of group {group!r} was probed", sampled
        failed = [i for i in ids if i not in passed]
        if failed:
            return False, (f"not probed itself; the sampled probe of its group {group!r}, {failed[0]}, failed: "
                           f"{evidence.get(failed[0], 'no evidence')}"), sampled
    where = "; ".join(f"{g}: {len(ids)} probed, e.g. {', '.join(ids[:3])}" for g, ids in groups.items())
    return True, (f"not probed itself: every sampled candidate of each of its family x axis level groups passed "
                  f"{k}/{k} probe tasks ({where})"), sampled


def admit(catalog: Catalog, candidates: Sequence[Candidate], taxonomy: Mapping[str, Skill], *, round_n: int,
          k: int = DEFAULT_K, seed: int, sandbox: Sandbox, workdir: Path | None = None,
          sample: int | None = None) -> Admission:
    """Apply the duplicate rule, probe the rest (with `sample`: a seeded sample of that many per family x axis
    level group, see the module docstring), and record every add and refusal."""
    if k < 1:
        raise ValueError(f"{k=}, but a new skill needs at least one probe task")
    if sample is not None and sample < 1:
        raise ValueError(f"{sample=}, but a sampled group needs at least one probed candidate")
    result = Admission()
    fresh, dupes = duplicates(candidates, taxonomy, refused_before(catalog))
    result.refused.extend(dupes)
    probes = fresh if sample is None else sample_probes(fresh, sample, seed)
    accepted, evidence, counts = probe(probes, taxonomy, k=k, seed=seed, sandbox=sandbox, workdir=workdir)
    result.probe_tasks = sum(counts.values())
    probed_ids = {c.skill.id for c in probes}
    passed = {sid for sid in probed_ids if accepted.get(sid, 0) >= k}
    probed: dict[str, list[str]] = defaultdict(list)
    for cand in probes:
        for group in groups_of(cand.skill):
            probed[group].append(cand.skill.id)
    changes = []
    for cand in fresh:
        if cand.skill.id in probed_ids:
            if cand.skill.id in passed:
                result.added.append(cand)
                changes.append(change(cand.operator, "add", cand.skill.id,
                                      f"{cand.reason}; {k}/{k} probe tasks passed the gate", parent=cand.skill.parent,
                                      stats={**cand.stats, "probes": k}))
            else:
                result.refused.append((cand, f"{accepted.get(cand.skill.id, 0)}/{k} probe tasks accepted; "
                                             f"{evidence.get(cand.skill.id, 'no evidence')}"))
            continue
        joins, why, sampled = _by_sample(cand, probed, passed, evidence, k)
        if joins:
            result.added.append(cand)
            result.sampled += 1
            changes.append(change(cand.operator, "add", cand.skill.id, f"{cand.reason}; {why}",
                                  parent=cand.skill.parent, stats={**cand.stats, "probes": 0, "sampled": sampled}))
        else:
            result.refused.append((cand, why))
    changes += [change(c.operator, "refuse", c.skill.id, f"{c.reason}; refused: {why}", parent=c.skill.parent,
                       stats=dict(c.stats)) for c, why in result.refused]
    catalog.add_round_skills(round_n, [(c.skill, c.operator) for c in result.added])
    record(catalog, round_n, changes)
    return result
