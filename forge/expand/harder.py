"""harder: a weak or saturated skill gets harder — an extra step in one of its own apps, or look-alike
copies of its working file beside it.

Saturated skills (the student has learnt them) become harder so they still teach something; weak ones get
a variant that practises them under more pressure. Either way the new skill differs in what is checked:
the extra step is a whole other skill of the same app (family `compose.pair`), the copies add "each copy is
unchanged" checks (family `variant.distractors`, knob `copies`). A third of the candidates are distractor
variants. When no skill has statistics yet (the first round) every seed skill is eligible, drawn by the
same pressure weights as `compose`.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

from forge.expand import MIN_ATTEMPTS, SATURATED, WEAK, Candidate, knob_key
from forge.expand.compose import Pressure, pairs
from forge.ids import derive_seed
from forge.taxonomy import Skill
from workflows.composite import Part, seed_parts
from workflows.distractors import NAME as DISTRACTORS

OPERATOR = "harder"
_TRIES = 30


def _why(p: Pressure) -> str:
    rate = p.rate
    return ("untried (no statistics yet)" if rate is None else
            f"saturated ({p.describe()} >= {SATURATED})" if rate >= SATURATED else
            f"weak ({p.describe()} <= {WEAK})" if rate <= WEAK else p.describe())


def distractor_skill(base: Part, copies: int, round_n: int) -> Skill:
    return Skill(id=f"vd.{base.id}.c{copies}", family=DISTRACTORS, apps=base.apps,
                 params={"base": base.id, "copies": copies},
                 description=f"{base.id} with {copies} look-alike older {'copy' if copies == 1 else 'copies'} of "
                             "its working file beside it, to be left unchanged.",
                 difficulty="hard", category="harder", parent=base.id, origin=f"round-{round_n}",
                 source=f"round {round_n} {OPERATOR}")


def distractors(*, n: int, round_n: int, seed: int, taken: set[str], pressures: Mapping[str, Pressure],
                firsts: list[str]) -> list[Candidate]:
    rng = random.Random(derive_seed(seed, round_n, OPERATOR, DISTRACTORS))
    weights = [pressures[sid].weight() for sid in firsts]
    out: list[Candidate] = []
    misses = 0
    while firsts and len(out) < n and misses < _TRIES * max(n, 1):
        base = seed_parts()[rng.choices(firsts, weights)[0]]
        skill = distractor_skill(base, rng.choice((1, 2)), round_n)
        key = knob_key(skill)
        if key in taken or skill.id in taken:
            misses += 1
            continue
        taken.add(key)
        p = pressures[base.id]
        copies = "1 look-alike copy" if skill.params["copies"] == 1 else f"{skill.params['copies']} look-alike copies"
        out.append(Candidate(skill, OPERATOR, f"{base.id} is {_why(p)}: harder variant with {copies} of its "
                             "working file beside it, to leave alone",
                             {"part": base.id, "attempts": p.attempts, "success_rate": p.rate}))
    return out


def propose(*, n: int, round_n: int, seed: int, taken: set[str], pressures: Mapping[str, Pressure],
            blocked: Collection[frozenset[str]] = ()) -> list[Candidate]:
    """n harder variants of weak or saturated seed skills (of any seed skill before there are statistics)."""
    any_stats = any(p.attempts for p in pressures.values())

    def eligible(skill_id: str, p: Pressure) -> bool:
        if not any_stats:
            return True
        rate = p.rate
        return rate is not None and p.attempts >= MIN_ATTEMPTS and (rate <= WEAK or rate >= SATURATED)

    def reason(first: Part, second: Part, p: Pressure) -> str:
        return f"{first.id} is {_why(p)}: harder variant with an extra {'/'.join(second.apps)} step ({second.id})"

    firsts = [sid for sid in seed_parts() if eligible(sid, pressures[sid])]
    copies = distractors(n=n // 3, round_n=round_n, seed=seed, taken=taken, pressures=pressures, firsts=firsts)
    steps = pairs(n=n - len(copies), round_n=round_n, seed=seed, operator=OPERATOR, taken=taken,
                  pressures=pressures, related=lambda a, b: bool(set(a.apps) & set(b.apps)), reason=reason,
                  eligible=eligible, blocked=blocked)
    return [*copies, *steps]
