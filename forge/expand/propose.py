"""propose: new variants of existing families — knob values no skill uses yet.

The proposer answers through a `forge.llm.Backend` (node `taxonomy_propose`): a model may suggest
`{family, params, description}` items; offline, a deterministic proposer enumerates each single-app or
multi-app family's knob space (sorted, seeded shuffle) and returns the combinations no skill uses. Every
proposal is validated against its family's knobs (`Workflow.check_params`) before it becomes a candidate;
invalid ones are returned as refusals with the family's own message.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Mapping
from typing import Any

from forge.expand import Candidate, knob_key
from forge.ids import derive_seed
from forge.llm import Backend, LLMRequest, OfflineBackend
from forge.taxonomy import Skill
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
PROMPT = ("Propose up to {n} new desktop skills for a task generator. Each maps onto one existing workflow family "
          "and sets every knob of that family to an allowed value; a proposal must not repeat the knob values of "
          "an existing skill. Families and their knobs (JSON): {families}\nAnswer as JSON: "
          '{{"proposals": [{{"family": ..., "params": {{...}}, "description": ...}}]}}')


def unused_combinations(taxonomy: Mapping[str, Skill]) -> list[dict[str, Any]]:
    """Knob combinations of the non-composite families that no skill of `taxonomy` has, sorted."""
    from workflows import families

    used = {knob_key(s) for s in taxonomy.values()}
    found = []
    for name, family in sorted(families().items()):
        if name in BUILT:
            continue
        keys = sorted(family.knobs)
        for values in itertools.product(*(family.knobs[k] for k in keys)):
            params = dict(zip(keys, values, strict=True))
            probe = Skill(id="?", family=name, apps=family.apps, params=params, description="", difficulty="medium")
            if knob_key(probe) not in used:
                knobs = ", ".join(f"{k}={v}" for k, v in params.items())
                found.append({"family": name, "params": params, "description": f"{family.description} ({knobs})"})
    return found


def _skill_id(family: str, params: Mapping[str, Any], taken: set[str]) -> str:
    stem = family + "." + "_".join(re.sub(r"[^a-z0-9]+", "_", str(v).lower()).strip("_") or "x"
                                   for _, v in sorted(params.items()))
    skill_id, n = stem, 2
    while skill_id in taken:
        skill_id, n = f"{stem}_v{n}", n + 1
    return skill_id


def propose(*, n: int, round_n: int, seed: int, taxonomy: Mapping[str, Skill], backend: Backend | None = None
            ) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """Up to n candidates, plus refusals (proposal label, problem) for proposals that do not fit a family."""
    from workflows import families

    if n <= 0:
        return [], []
    offline = unused_combinations(taxonomy)
    rng = random.Random(derive_seed(seed, round_n, OPERATOR))
    known = families()
    catalogue = {name: {k: list(v) for k, v in f.knobs.items()}
                 for name, f in sorted(known.items()) if name not in BUILT}
    request = LLMRequest(NODE, PROMPT.format(n=n, families=json.dumps(catalogue, sort_keys=True)), SCHEMA,
                         lambda r: {"proposals": r.sample(offline, min(n, len(offline)))}, rng)
    response = (backend or OfflineBackend()).complete(request)
    try:
        proposals = json.loads(response.text)["proposals"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        return [], [(NODE, f"answer is not the proposals JSON ({exc}); raw: {response.text[:200]!r}")]
    candidates, refusals = [], []
    ids = set(taxonomy)
    for i, item in enumerate(proposals[:n]):
        label = f"proposal {i}"
        family = known.get(item.get("family", "")) if isinstance(item, dict) else None
        if family is None or family.name in BUILT:
            refusals.append((label, f"family {item.get('family') if isinstance(item, dict) else item!r} "
                                    "is not a proposable family"))
            continue
        params = item.get("params") or {}
        problem = family.check_params(params)
        if problem:
            refusals.append((f"{label} ({family.name})", problem))
            continue
        skill_id = _skill_id(family.name, params, ids)
        ids.add(skill_id)
        skill = Skill(id=skill_id, family=family.name, apps=family.apps, params=dict(params),
                      description=str(item.get("description", family.description)), difficulty="medium",
                      category="proposed", origin=f"round-{round_n}", source=f"round {round_n} {OPERATOR}")
        candidates.append(Candidate(skill, OPERATOR, f"{'offline proposer' if backend is None else backend.name}"
                                    f": knob values {dict(params)} of {family.name} that no skill covers yet",
                                    {"unused_combinations": len(offline)}))
    return candidates, refusals
