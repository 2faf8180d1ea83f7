"""Three feedback rounds with the simulated student, at a fraction of full scale, with a projection.

Full scale: each round probes GROW new skill candidates (k probe tasks each, through the real gate) and
generates BUDGET tasks; three rounds take the seed (777 skills) past 7,000 probed skills. `--scale 0.01`
runs 1 % of that (the same code path) and projects the full run from the measured rates.

    python benchmarks/rounds.py [--scale 0.01] [--grow 2400] [--k 3] [--seed 1] [--rounds 3] [--keep DIR]

With --keep DIR the run can be stopped and rerun: rounds the catalog already holds are not probed again (their
counts are printed from the catalog and left out of the rate), and a half-generated round resumes.

Prints per round: skills added (per operator) and refused, taxonomy size and multi-app share, tasks
accepted and their multi-app share, the student's success rate, and how the round's allocation treats the
skills the student failed in the previous round (share of the weight and of the planned tasks, per skill);
then the time taken and the projected full-scale time and taxonomy size.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from forge.catalog import Catalog
from forge.expand import catalog_taxonomy, reallocate, seed_taxonomy, weights
from forge.feedback import ingest
from forge.generate import Generator
from forge.ids import TaskId
from forge.rounds import finish_round, prepare_round, round_seed
from forge.sandbox import Sandbox
from forge.stats import skill_stats
from forge.student import simulate

#: Candidates per round at full scale. About 9 % of them are refused (round 1 at full scale: 282 of 2,200 --
#: mostly same-app composites whose parts write the same file, then lax/unsolvable probes), so 2,400 per round
#: are needed for three rounds to pass 7,000 skills.
GROW = 2400
BUDGET = 2000
TARGET_SKILLS = 7000


def failed_share(catalog: Catalog, round_n: int, plan: list[str], seed: int) -> str:
    """How round N's allocation treats the skills the student failed in round N-1 (success rate < 0.5) and
    the ones it passed: mean weight and planned tasks per skill, in this run's plan and in the plan the same
    weights give a full-scale budget (a small plan leaves most skills at 0 or 1 task)."""
    stats = skill_stats(catalog, round_n - 1)
    failed = {s for s, st in stats.items() if st.success_rate is not None and st.success_rate < 0.5}
    passed = {s for s, st in stats.items() if st.success_rate is not None and st.success_rate >= 0.5}
    if not failed or not passed:
        return "no failed/passed skills to compare"
    w = weights(catalog)
    full = reallocate.allocate(list(catalog_taxonomy(catalog).values()), w, BUDGET, seed, round_seed(seed, round_n))
    here, there = Counter(TaskId.parse(t).skill_id for t in plan), Counter(t.skill_id for t in full)

    def mean(group: set[str], values: dict[str, float] | Counter[str]) -> float:
        return sum(values.get(s, 0) for s in group) / len(group)

    return (f"failed skills ({len(failed)}): weight {mean(failed, w):.2f}, tasks each {mean(failed, here):.2f} "
            f"(at budget {BUDGET}: {mean(failed, there):.2f}); passed skills ({len(passed)}): weight "
            f"{mean(passed, w):.2f}, tasks each {mean(passed, here):.2f} "
            f"(at budget {BUDGET}: {mean(passed, there):.2f})")


def _prepared(db: str, number: int) -> bool:
    """Whether an earlier run (same --keep folder) already expanded and planned round `number`."""
    from forge.catalog import RoundRow

    catalog = Catalog(db)
    with catalog.session() as session:
        row = session.get(RoundRow, number)
        return row is not None and "plan" in (row.counts or {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument("--grow", type=int, default=GROW, help="Candidates per round at full scale.")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Keep the catalog and packages here (default: a temp folder).")
    args = parser.parse_args()
    grow, budget = max(1, round(args.grow * args.scale)), max(5, round(BUDGET * args.scale))
    root = args.keep or Path(tempfile.mkdtemp(prefix="forge-rounds-"))
    root.mkdir(parents=True, exist_ok=True)
    db = f"sqlite:///{root / 'forge.db'}"
    sandbox = Sandbox()
    seed_size = len(seed_taxonomy())
    print(f"scale {args.scale}: per round {grow} candidates x {args.k} probes, {budget} tasks; catalog {db}")
    totals = Counter[str]()
    added_total = 0
    start_all = time.perf_counter()
    for number in range(1, args.rounds + 1):
        out = root / f"round{number}"
        t0 = time.perf_counter()
        resumed = _prepared(db, number)
        plan = prepare_round(db, number, budget, args.seed, str(out), k=args.k, grow=grow, sandbox=sandbox)
        t1 = time.perf_counter()
        catalog = Catalog(db)
        generator = Generator(out, catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog))
        counts = generator.run([TaskId.parse(t) for t in plan])
        t2 = time.perf_counter()
        summary = finish_round(db, number, str(out), None)
        sim = simulate(catalog, number, root / f"results{number}", seed=args.seed)
        report = ingest(catalog, root / f"results{number}", number)
        t3 = time.perf_counter()
        expansion = summary["expansion"]
        taxonomy = catalog_taxonomy(catalog)
        multi_skills = sum(len(s.apps) > 1 for s in taxonomy.values())
        accepted = summary["tasks"].get("accepted", 0)
        stats = skill_stats(catalog, number)
        attempts = sum(s.attempts for s in stats.values())
        added = sum(expansion["added"].values())
        added_total += added
        if not resumed:
            totals.update({"probe_tasks": expansion["probe_tasks"], "tasks": sum(counts.values()),
                           "probe_s": round(t1 - t0), "generate_s": round(t2 - t1), "student_s": round(t3 - t2)})
        else:
            print(f"\nround {number} was prepared by an earlier run (--keep): its counts come from the catalog, "
                  "its times are not this run's and are left out of the rate")
        print(f"\nround {number}: +{added} skills {json.dumps(expansion['added'])}, {expansion['refused']} refused, "
              f"{expansion['reweighted']} reweighted, {expansion['retired']} retired")
        print(f"  taxonomy {len(taxonomy)} skills, {multi_skills / len(taxonomy):.1%} multi-app")
        print(f"  tasks {dict(counts)}; accepted multi-app {summary['accepted_multi_app']}/{accepted} "
              f"= {summary['accepted_multi_app'] / max(accepted, 1):.1%}")
        print(f"  simulated student {dict(sim)}; ingested {report.added} ({report.infra} infra); success rate "
              f"{sum(s.successes for s in stats.values()) / max(attempts, 1):.1%}")
        if number > 1:
            print(f"  allocation vs round {number - 1}: {failed_share(catalog, number, plan, args.seed)}")
        print(f"  time: expand+probe {t1 - t0:.0f} s ({expansion['probe_tasks']} probe tasks), generate "
              f"{t2 - t1:.0f} s ({sum(counts.values())} tasks), export+student+ingest {t3 - t2:.0f} s")
    took = time.perf_counter() - start_all
    gate_tasks = totals["probe_tasks"] + totals["tasks"]
    rate = gate_tasks / max(totals["probe_s"] + totals["generate_s"], 1e-9)
    full_tasks = args.rounds * (args.grow * args.k + BUDGET)
    projected_skills = seed_size + added_total / args.scale
    print(f"\ntotal: {took:.0f} s for {gate_tasks} gated tasks ({rate:.2f} tasks/s including expansion), "
          f"{added_total} skills added")
    verdict = "met" if projected_skills >= TARGET_SKILLS else "NOT met"
    print(f"projected full scale ({args.rounds} x ({args.grow} candidates x {args.k} probes + {BUDGET} tasks) = "
          f"{full_tasks} gated tasks): {full_tasks / rate / 3600:.1f} h at this rate; taxonomy "
          f"{projected_skills:.0f} skills (target {TARGET_SKILLS}: {verdict})")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
