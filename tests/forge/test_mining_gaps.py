"""Issue 39 item 4: failures no mined pattern explains are reported as candidate capabilities (a failed check, or a
family, with the instruction words its failures share), ranked."""

from __future__ import annotations

import random

from forge.mining import Record, gaps, mine, primary


def records() -> list[Record]:
    """300 attempts: a planted feature (f4=1) explains most failures; seven more fail one check that no feature
    predicts, spread over families, all asking for a pivot table; and a few background failures."""
    rng = random.Random(5)
    out = []
    for i in range(300):
        feats = {f"f{j}={rng.randint(0, 2)}" for j in range(10)} | {f"family=fam{i % 12}"}
        checks: tuple[str, ...] = ()
        failed, text = rng.random() < (0.85 if "f4=1" in feats else 0.02), "Sort the table by price."
        if i % 40 == 7:
            failed, checks, text = True, ("calc.pivot",), f"Summarise sheet {i} in a pivot table grouped by region."
        out.append(Record(str(i), frozenset(feats), failed, checks, text))
    return out


def test_unexplained_failures_rank_as_gaps_with_the_words_they_share():
    rs = records()
    patterns = mine(rs)
    kept, explained = primary(rs, patterns)
    assert kept[0].name == "f4=1" and "calc.pivot" not in {c for p in kept for c in p.features}
    found = gaps(rs, patterns)
    top = found[0]
    assert top.key == "check=calc.pivot" and top.unexplained >= 5, [g.as_dict() for g in found[:3]]
    assert {"pivot", "table", "region", "grouped"} <= set(top.words) and "sort" not in top.words
    assert not {r.task_id for r in rs if r.task_id in explained} & set(top.examples)
    # what the planted feature explains is no gap: no family group holds more unexplained failures than chance
    assert all(g.unexplained <= 4 for g in found if g.key.startswith("family="))


def test_no_failures_no_gaps():
    assert gaps([Record(str(i), frozenset({"family=x"}), False) for i in range(20)]) == []
