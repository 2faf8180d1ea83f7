"""Three feedback rounds with the SIMULATED student (planted weaknesses), and what an all-pass student would get.

Each round: expand from the previous round's statistics (the statistics decide how many candidates; `--probe`
of them, a seeded sample keeping each operator's share, go through the real gate with k probe tasks), generate
`--budget` tasks, simulate the student (forge.student.PLANTED: hidden per-axis weaknesses that grow with
practice), ingest. Prints per round:
- the candidates the statistics call for, per operator, atomic skills and chains apart; how many were probed and
  admitted, and the projection (candidates x admission rate);
- (a) the share of the candidates aimed at the planted weaknesses (the student's own rule says the skill touches
  one; for a `decompose` step, the chain it comes from), against their base rate in the previous round's tasks;
- (b) the student's success on tasks its weaknesses touch, round over round;
then (c) round 2's expansion for an all-pass student over the same round 1 (a copy of the catalog), and totals.

    python benchmarks/rounds.py [--budget 60] [--probe 40] [--k 1] [--seed 1] [--rounds 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from forge.catalog import Catalog
from forge.expand import Candidate, catalog_taxonomy
from forge.expand.variant import seeds_by_family
from forge.feedback import ingest
from forge.generate import Generator
from forge.ids import TaskId
from forge.rounds import candidates, finish_round, prepare_round
from forge.sandbox import Sandbox
from forge.student import ALL_PASS, PLANTED, SimulatedStudent, outcomes, simulate, skill_params
from forge.taxonomy import Skill

TARGET_ATOMIC = 7000
TARGET_AIMED = 0.70


def aimed(student: SimulatedStudent, skill: Skill) -> bool:
    return bool(student.hits(skill.family, skill_params(skill)))


def aimed_candidate(student: SimulatedStudent, cand: Candidate) -> bool:
    """A candidate aims at a weakness when its skill touches one; a `decompose` step, when the chain it was taken
    from does (the step is practice for the chain the student fails)."""
    if cand.operator == "decompose":
        return any(aimed(student, s) for s in seeds_by_family().get(str(cand.stats.get("chain")), ()))
    return aimed(student, cand.skill)


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} = {n / d:.1%}" if d else "0/0"


def round_once(db: str, root: Path, number: int, args: argparse.Namespace, sandbox: Sandbox) -> dict[str, Any]:
    catalog = Catalog(db)
    found, _, _ = candidates(catalog, number, seed=args.seed, taxonomy=catalog_taxonomy(catalog))
    t0 = time.perf_counter()
    out = root / f"round{number}"
    plan = prepare_round(db, number, args.budget, args.seed, str(out), k=args.k, limit=args.probe, sandbox=sandbox)
    t1 = time.perf_counter()
    catalog = Catalog(db)
    counts = Generator(out, catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog)).run(
        [TaskId.parse(t) for t in plan])
    summary = finish_round(db, number, str(out), None)
    taxonomy = catalog_taxonomy(catalog)
    results = outcomes(catalog, number, student=PLANTED, seed=args.seed)
    simulate(catalog, number, root / f"results{number}", seed=args.seed, student=PLANTED)
    ingest(catalog, root / f"results{number}", number)
    t2 = time.perf_counter()
    expansion = summary["expansion"]
    atomic = [c for c in found if len(c.skill.apps) == 1]
    chains = [c for c in found if len(c.skill.apps) > 1]
    n_aimed = sum(aimed_candidate(PLANTED, c) for c in found)
    probed = expansion["candidates"]
    admitted = sum(expansion["added"].values())
    rate = admitted / probed if probed else 0.0
    ran = [o for o in results if o.kind != "crash"]
    touched = [o for o in ran if o.skill_id in taxonomy and aimed(PLANTED, taxonomy[o.skill_id])]
    base = len(touched) / len(ran) if ran else 0.0
    won = sum(o.kind == "success" for o in touched)
    print(f"\nround {number}: the statistics call for {len(found)} candidates "
          f"({len(atomic)} atomic, {len(chains)} chains) {dict(Counter(c.operator for c in found))}")
    print(f"  probed {probed} (k={args.k}), admitted {admitted} {expansion['added']} ({rate:.0%}); projected "
          f"additions {len(found) * rate:.0f} ({len(atomic) * rate:.0f} atomic)")
    print(f"  (a) aimed at the planted weaknesses: {_pct(n_aimed, len(found))} of the candidates; base rate in "
          f"round {number - 1 if number > 1 else 1}'s tasks {args.base_rate:.1%}" if number > 1 else
          f"  (a) round 1 explores (no statistics): {_pct(n_aimed, len(found))} of its candidates touch a weakness")
    print(f"  tasks {dict(counts)}; planted weaknesses touch {_pct(len(touched), len(ran))} of the tasks the "
          f"student ran")
    print(f"  (b) success on tasks the weaknesses touch: {_pct(won, len(touched))}; on the rest: "
          f"{_pct(sum(o.kind == 'success' for o in ran if o not in touched), len(ran) - len(touched))}")
    print(f"  time: expand+probe {t1 - t0:.0f} s, generate+student {t2 - t1:.0f} s")
    args.base_rate = base
    return {"wanted": len(found), "atomic": len(atomic), "aimed": n_aimed, "rate": rate,
            "won": won, "touched": len(touched), "ids": {c.skill.id for c in found}}


def all_pass_round_two(root: Path, seed: int) -> set[str]:
    """Round 2's candidates for an all-pass student over the same round 1 (a copy of the catalog before round 2,
    with the planted student's attempts replaced by the all-pass student's)."""
    copy = root / "all-pass.db"
    with sqlite3.connect(root / "round1-snapshot.db") as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM student_results")
    catalog = Catalog(f"sqlite:///{copy}")
    simulate(catalog, 1, root / "results-all-pass", seed=seed, student=ALL_PASS, model="all-pass")
    ingest(catalog, root / "results-all-pass", 1)
    found, _, _ = candidates(catalog, 2, seed=seed, taxonomy=catalog_taxonomy(catalog))
    catalog.engine.dispose()
    return {c.skill.id for c in found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=int, default=60, help="Tasks generated per round.")
    parser.add_argument("--probe", type=int, default=40, help="Candidates probed per round (a sample).")
    parser.add_argument("--k", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Keep the catalog and packages here (default: a temp folder).")
    args = parser.parse_args()
    args.base_rate = 0.0
    root = args.keep or Path(tempfile.mkdtemp(prefix="forge-rounds-"))
    root.mkdir(parents=True, exist_ok=True)
    db_path = root / "forge.db"
    db = f"sqlite:///{db_path}"
    sandbox = Sandbox()
    print(f"SIMULATED student {PLANTED.name!r}: weaknesses {[w.name for w in PLANTED.weaknesses]}; catalog {db}")
    rows = []
    start = time.perf_counter()
    for number in range(1, args.rounds + 1):
        if number == 2:
            with sqlite3.connect(db_path) as source, sqlite3.connect(root / "round1-snapshot.db") as target:
                source.backup(target)
        rows.append(round_once(db, root, number, args, sandbox))
    later = rows[1:]
    wanted = sum(r["wanted"] for r in later)
    projected_atomic = sum(r["atomic"] * r["rate"] for r in rows)
    print(f"\nrounds 2-{args.rounds}: {_pct(int(sum(r['aimed'] for r in later)), wanted)} of the candidates aimed at "
          f"the planted weaknesses (target {TARGET_AIMED:.0%})")
    per_round = ", ".join(f"{r['won'] / max(r['touched'], 1):.0%}" for r in rows)
    print(f"(b) success on weakness tasks per round: {per_round}")
    print(f"projected atomic additions over {args.rounds} rounds (candidates x admission rate): "
          f"{projected_atomic:.0f} (target {TARGET_ATOMIC})")
    if args.rounds >= 2:
        planted, easy = rows[1]["ids"], all_pass_round_two(root, args.seed)
        print(f"(c) round 2 for an all-pass student: {len(easy)} candidates (harder variants of what it passed), "
              f"against {len(planted)} for the planted student; {len(planted & easy)} in common")
    print(f"total {time.perf_counter() - start:.0f} s")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
