"""propose: a model (or its offline stand-in) proposes skills around a failure cluster — new knob values and
axis levels of the failing family.

A cluster is one (family, axis, failing level) with the checks that failed there (`analysis`). The proposer
answers through a `forge.llm.Backend` (node `taxonomy_propose`) given the clusters, each family's knobs and axes:
`{family, params, description}` items. Offline, a deterministic proposer returns, per cluster, knob combinations
of the family at the failing level that no skill has yet (seeded order). Every proposal is validated against
its family (`Workflow.check_params`: knobs and axis levels) before it becomes a candidate, and is probed through
the gate like every other; invalid ones are returned as refusals with the family's own message. How many: PER
cluster, so the number follows the statistics.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.expand import Candidate, knob_key
from forge.expand.analysis import Analysis
from kit.ids import derive_seed
from kit.llm import Backend, LLMRequest, OfflineBackend
from kit.taxonomy import Skill
from workflows.composite import BUILT

OPERATOR = "propose"
NODE = "taxonomy_propose"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["proposals"],
    "properties": {"proposals": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["family", "params", "description"],
        "properties": {"family": {"type": "string"}, "params": {"type": "object"},
                       "description": {"type": "string", "minLength": 10}}}}},
}
PROMPT = ("A student fails these desktop tasks (failure clusters: family, difficulty axis, failing level, success "
          "rate, failed checks; JSON): {clusters}\nPropose up to {n} new skills that practise around these failures. "
          "Each maps onto one of these workflow families, sets every knob to an allowed value and may set axes to "
          "allowed levels; it must not repeat an existing skill. Families, knobs and axes (JSON): {families}\n"
          'Answer as JSON: {{"proposals": [{{"family": ..., "params": {{...}}, "description": ...}}]}}')


PER = 2


def clusters(analysis: Analysis) -> list[dict[str, Any]]:
    """The failure clusters: (family, axis, failing level) with their tallies and top failed checks, worst first."""
    from forge.expand.variant import atomic_families, failing_levels, judged

    out = []
    for family in sorted(analysis.families):
        if family not in atomic_families():
            continue
        axes = atomic_families()[family].axes
        for axis, levels in sorted(failing_levels(analysis, family).items()):
            for level in levels:
                tally = judged(analysis, family, axis, level, level == axes[axis][0])
                if tally is not None and level != axes[axis][0]:  # a default level is no new level to propose
                    out.append({"family": family, "axis": axis, "level": level, **tally.as_dict()})
    return sorted(out, key=lambda c: (c["success_rate"] or 0.0, -c["attempts"], c["family"], c["axis"]))


def offline_proposals(found: list[dict[str, Any]], taxonomy: Mapping[str, Skill], rng: random.Random
                      ) -> list[dict[str, Any]]:
    """Per cluster, up to PER knob combinations of its family at its level that no skill has (seeded order)."""
    from forge.expand.variant import atomic_skill, seeds_by_family

    used = {knob_key(s) for s in taxonomy.values()}
    out = []
    for cluster in found:
        seeds = list(seeds_by_family().get(cluster["family"], ()))
        rng.shuffle(seeds)
        picked = 0
        for base in seeds:
            skill = atomic_skill(base, {cluster["axis"]: cluster["level"]}, round_n=0, operator=OPERATOR)
            key = knob_key(skill)
            if key in used or skill.id == base.id:
                continue
            used.add(key)
            out.append({"family": skill.family, "params": dict(skill.params), "description": skill.description})
            picked += 1
            if picked == PER:
                break
    return out


def propose(*, analysis: Analysis, round_n: int, seed: int, taxonomy: Mapping[str, Skill],
            backend: Backend | None = None) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """Candidates around the failure clusters, plus refusals (proposal label, problem) for proposals that do not
    fit a family."""
    from forge.expand.variant import atomic_skill, base_of
    from workflows import families

    found = clusters(analysis)
    n = PER * len(found)
    if n <= 0:
        return [], []
    rng = random.Random(derive_seed(seed, round_n, OPERATOR))
    known = families()
    catalogue = {c["family"]: {"knobs": {k: list(v) for k, v in known[c["family"]].knobs.items()},
                               "axes": {k: list(v) for k, v in known[c["family"]].axes.items()}} for c in found}
    request = LLMRequest(NODE, PROMPT.format(n=n, clusters=json.dumps(found, sort_keys=True, default=str),
                                             families=json.dumps(catalogue, sort_keys=True)), SCHEMA,
                         lambda r: {"proposals": offline_proposals(found, taxonomy, r)}, rng)
    response = (backend or OfflineBackend()).complete(request)
    try:
        proposals = json.loads(response.text)["proposals"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        return [], [(NODE, f"answer is not the proposals JSON ({exc}); raw: {response.text[:200]!r}")]
    candidates, refusals = [], []
    for i, item in enumerate(proposals[:n]):
        label = f"proposal {i}"
        family = known.get(item.get("family", "")) if isinstance(item, dict) else None
        if family is None or family.name in BUILT:
            refusals.append((label, f"family {item.get('family') if isinstance(item, dict) else item!r} "
                                    "is not a proposable family"))
            continue
        params = item.get("params") if isinstance(item.get("params"), dict) else {}
        problem = family.check_params(params)
        probe = Skill(id="?", family=family.name, apps=family.apps, params=dict(params), description="",
                      difficulty="medium")
        base = None if problem else base_of(probe)
        if problem or base is None:
            refusals.append((f"{label} ({family.name})", problem or "no seed skill has these knob values"))
            continue
        levels = {k: v for k, v in params.items() if k in family.axes}
        skill = atomic_skill(base, levels, round_n=round_n, operator=OPERATOR)
        if isinstance(item.get("description"), str) and backend is not None:
            skill = replace(skill, description=item["description"][:300])
        candidates.append(Candidate(skill, OPERATOR, f"{'offline proposer' if backend is None else backend.name}"
                                    f": {dict(params)} of {family.name}, around the failure clusters "
                                    f"{[(c['family'], c['axis'], c['level']) for c in found[:3]]}",
                                    {"clusters": found[:5]}))
    return candidates, refusals
