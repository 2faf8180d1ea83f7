"""The family contract, over every family in the registry and every combination of its knobs: a task of each
combination passes the real gate (schema, grounding, setup, no-op fails, oracle passes, every near-miss fails,
mutants, dedup) with "all stages passed".

This one test replaces the per-family files that only ran `gate_family` over a family's knobs; a new family is
covered as soon as it is registered. Families built from seed skills (`compose.pair`, `variant.distractors`,
whose knobs are skill ids) are gated with the params of their skills in the shipped taxonomy instead of the
product of their knobs. Difficulty axes stay at their default level here (their own tests move them).

One task per combination, its seed derived from the family and the combination (`seed_of`), so the combinations
of a family draw different content and the suite explores other seeds than tests/test_contract.py's seed 9.
Measured: 783 combinations in 17-20 min on the shared 2-core machine under load (~1.3 s a task; sampling the
mutants saves under 5 %), so it is marked `slow` (the README's `python3 -m pytest` and .ci/run still run it).
With 140+ families the product passed 1,000 combinations: each run gates at most PER_FAMILY of a family's
combinations, spread over them in knob order (the first and the last always among them), so CI stays inside its
limit as families grow; `FORGE_ALL_COMBINATIONS=1` gates every one.
"""

from __future__ import annotations

import os
from itertools import product
from typing import Any

import pytest

from kit.dag import Workflow
from kit.ids import derive_seed
from kit.taxonomy import load_taxonomy
from tests.gatekit import gate_family
from workflows import families
from workflows.composite import BUILT


def combinations(workflow: Workflow) -> list[dict[str, Any]]:
    """Every knob combination the family accepts (`check_params`), in knob order; for a family built from seed
    skills, the params of its skills in the taxonomy (the product of all skill ids would be ~10^5 tasks)."""
    if workflow.name in BUILT:
        return [dict(s.params) for s in load_taxonomy().values() if s.family == workflow.name]
    sets = [dict(zip(workflow.knobs, values, strict=True)) for values in product(*workflow.knobs.values())]
    return [params for params in sets if workflow.check_params(params) is None]


def seed_of(family: str, params: dict[str, Any]) -> int:
    """One seed per combination, derived from it, so the combinations of a family do not all draw seed 1."""
    return derive_seed(family, repr(sorted(params.items()))) % 1000 + 1


#: combinations of one family gated per run (all with FORGE_ALL_COMBINATIONS=1)
PER_FAMILY = 6


def spread(items: list[Any], n: int = PER_FAMILY) -> list[Any]:
    """At most `n` of `items`, evenly spaced, the first and the last included."""
    if len(items) <= n or os.environ.get("FORGE_ALL_COMBINATIONS") == "1":
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


CASES = [(name, params) for name, workflow in sorted(families().items()) for params in spread(combinations(workflow))]


@pytest.mark.slow
@pytest.mark.parametrize(("family", "params"), CASES,
                         ids=[f"{name}[{'-'.join(map(str, p.values()))}]" for name, p in CASES])
def test_every_knob_combination_passes_the_gate(tmp_path, family, params):
    seed = seed_of(family, params)
    verdicts = gate_family(families()[family], params, tmp_path, seeds=range(seed, seed + 1))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")], [
        (s.name, s.evidence) for v in verdicts for s in v.stages if not s.passed]


def test_every_family_has_combinations_to_gate():
    empty = [name for name, workflow in families().items() if not combinations(workflow)]
    assert not empty, f"families with no knob combination (or no taxonomy skill) to gate: {empty}"
