"""Three feedback rounds with the SIMULATED student (planted weaknesses), and what an all-pass student would get.

Each round: expand from the previous round's statistics (the statistics decide how many candidates), admit
candidates through the real gate with k probe tasks, generate `--budget` tasks, simulate the student
(forge.student.PLANTED: hidden per-axis weaknesses that grow with practice, family by family), ingest.

Two scales. The default is a quick look: `--probe` candidates (a seeded sample keeping each operator's share) are
probed and admitted, and the rest is a projection (candidates x admission rate). `--full` runs the loop at the
scale of issue 15's target: every candidate is considered, `--sample` of them per family x axis level group are
probed through the gate, the rest join on their group's sample (`forge.expand.probe`, the evidence is in each
`taxonomy_changes` row), and `--budget` defaults to 1,200 tasks a round, enough for the statistics to cover the
families. Prints per round:
- the candidates the statistics call for and the skills admitted, per operator, atomic skills and chains apart;
- (a) the share of the additions aimed at the planted weaknesses (the student's own rule says the skill touches
  one; for a `decompose` step, the chain it comes from), against their base rate in the previous round's tasks;
- (b) the student's success on tasks its weaknesses touch, round over round;
then (c) round 2's expansion for an all-pass student over the same round 1 (a copy of the catalog), and totals
against the targets (>= 7,000 atomic skills added in three rounds, >= 70 % of additions aimed at the weaknesses).

    python benchmarks/rounds.py [--budget 60] [--probe 40] [--k 1] [--seed 1] [--rounds 3] [--keep DIR]
    python benchmarks/rounds.py --full [--budget 1200] [--sample 1]
    python benchmarks/rounds.py --student PATH.py:Class   # any simulated student (README: Plug in a simulated student)

`--blind` also runs the blind loop: the same rounds, seed and budget fed an all-pass student's results, and prints
per round the share of its tasks the student's weakness touches, against the loop's own (the lift). `--json OUT`
writes per round: atomic skills and chains added, tasks, the weakness's share of tasks (and the blind loop's),
and the round's mined failure patterns with their effect sizes (`forge.mining`).

Each round also prints the probe confirmation of the previous round's mined patterns (the student answers the
probes while the round is prepared; a built-in student through its rule and chance before practice) and the tasks
steered toward each confirmed pattern, with the tries the rejection sampler took; `--json` carries both.

A plugged-in student's additions count as aimed when its optional `weak(task)` is true of a view of the skill
(no package: no instruction, no files), its tasks as touched when `weak` is true of the task's own view.
"""

from __future__ import annotations

import argparse
import json
import random
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
from forge.features import task_view
from forge.feedback import ingest
from forge.generate import Generator
from forge.rounds import candidates, finish_round, prepare_round
from forge.student import (
    ALL_PASS,
    SimulatedStudent,
    Student,
    outcomes,
    resolve_student,
    round_views,
    simulate,
    skill_params,
)
from kit.ids import TaskId, derive_seed
from kit.sandbox import Sandbox
from kit.taxonomy import Skill

TARGET_ATOMIC = 7000
TARGET_AIMED = 0.70


def aimed(student: SimulatedStudent | Student, skill: Skill) -> bool:
    if isinstance(student, SimulatedStudent):
        return bool(student.hits(skill.family, skill_params(skill)))
    weak = getattr(student, "weak", None)
    return bool(weak(task_view(skill.id, skill))) if callable(weak) else False


def aimed_candidate(student: SimulatedStudent | Student, cand: Candidate) -> bool:
    """A candidate aims at a weakness when its skill touches one; a `decompose` step, when the chain it was taken
    from does (the step is practice for the chain the student fails)."""
    if cand.operator == "decompose":
        return any(aimed(student, s) for s in seeds_by_family().get(str(cand.stats.get("chain")), ()))
    return aimed(student, cand.skill)


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} = {n / d:.1%}" if d else "0/0"


class Planted:
    """A built-in simulated student (`forge.student.SimulatedStudent`) answering a task view, for the confirmation
    probes: its rule over the view's family, knobs and axis levels, its chance before practice, drawn from the
    task's own seed (the rounds' outcomes come from `forge.student.outcomes` as before)."""

    def __init__(self, student: SimulatedStudent, seed: int) -> None:
        self.student, self.seed = student, seed

    def attempt(self, task: Any) -> bool:
        chance = self.student.chance(task.family, {**task.knobs, **task.axes}, {})
        return random.Random(derive_seed(self.seed, "probe", task.id)).random() < chance


def prober(student: SimulatedStudent | Student, seed: int) -> Student:
    return Planted(student, seed) if isinstance(student, SimulatedStudent) else student


def round_once(db: str, root: Path, number: int, args: argparse.Namespace, sandbox: Sandbox) -> dict[str, Any]:
    catalog = Catalog(db)
    found, _, _ = candidates(catalog, number, seed=args.seed, taxonomy=catalog_taxonomy(catalog))
    aimed_ids = {c.skill.id for c in found if aimed_candidate(args.student, c)}
    t0 = time.perf_counter()
    out = root / f"round{number}"
    plan = prepare_round(db, number, args.budget, args.seed, str(out), k=args.k, limit=args.probe, sandbox=sandbox,
                         sample=args.sample, student=prober(args.student, args.seed))
    t1 = time.perf_counter()
    catalog = Catalog(db)
    taxonomy = catalog_taxonomy(catalog)
    counts = Generator(out, catalog, sandbox=sandbox, taxonomy=taxonomy).run([TaskId.parse(t) for t in plan])
    summary = finish_round(db, number, str(out), None)
    results = outcomes(catalog, number, student=args.student, seed=args.seed)
    simulate(catalog, number, root / f"results{number}", seed=args.seed, student=args.student)
    ingest(catalog, root / f"results{number}", number)
    t2 = time.perf_counter()
    expansion = summary["expansion"]
    atomic = [c for c in found if len(c.skill.apps) == 1]
    added = [s for s in taxonomy.values() if s.origin == f"round-{number}"]
    added_atomic = sum(len(s.apps) == 1 for s in added)
    added_aimed = sum(s.id in aimed_ids or aimed(args.student, s) for s in added)
    probed = expansion["candidates"]
    rate = len(added) / probed if probed else 0.0
    ran = [o for o in results if o.kind != "crash"]
    from forge.mining import mine_round

    mined = [m.as_dict() for m in mine_round(Catalog(db), number) if m.significant][:10]
    if isinstance(args.student, SimulatedStudent):
        touched = [o for o in ran if o.skill_id in taxonomy and aimed(args.student, taxonomy[o.skill_id])]
    else:
        weak = getattr(args.student, "weak", None)
        hit = {v.id for v in round_views(catalog, number, taxonomy) if callable(weak) and weak(v)}
        touched = [o for o in ran if o.task_id in hit]
    won = sum(o.kind == "success" for o in touched)
    print(f"\nround {number}: the statistics call for {len(found)} candidates "
          f"({len(atomic)} atomic, {len(found) - len(atomic)} chains) {dict(Counter(c.operator for c in found))}")
    per_group = f", {args.sample} per family x axis level group" if args.sample else ""
    on_sample = f" ({expansion.get('added_on_sample', 0)} on their group's sample)" if args.sample else ""
    print(f"  considered {probed}, {expansion['probe_tasks']} probe tasks (k={args.k}{per_group}); admitted "
          f"{len(added)}: {added_atomic} atomic, {len(added) - added_atomic} chains {expansion['added']}{on_sample}")
    if args.probe is not None and probed < len(found):
        print(f"  projected additions (candidates x admission rate {rate:.0%}): {len(found) * rate:.0f} "
              f"({len(atomic) * rate:.0f} atomic)")
    if number > 1:
        print(f"  (a) additions aimed at the planted weaknesses: {_pct(added_aimed, len(added))}; candidates "
              f"{_pct(len(aimed_ids), len(found))}; base rate in round {number - 1}'s tasks {args.base_rate:.1%}")
    else:
        print(f"  (a) round 1 explores (no statistics): {_pct(added_aimed, len(added))} of its additions touch "
              "a weakness")
    print(f"  tasks {dict(counts)}; planted weaknesses touch {_pct(len(touched), len(ran))} of the tasks the "
          f"student ran")
    print(f"  (b) success on tasks the weaknesses touch: {_pct(won, len(touched))}; on the rest: "
          f"{_pct(sum(o.kind == 'success' for o in ran if o not in touched), len(ran) - len(touched))}")
    print(f"  time: expand+probe {t1 - t0:.0f} s, generate+student {t2 - t1:.0f} s", flush=True)
    args.base_rate = len(touched) / len(ran) if ran else 0.0
    projected = len(atomic) * rate if args.probe is not None and probed < len(found) else added_atomic
    if mined:
        top = mined[0]
        print(f"  mined: {len(mined)} significant patterns; top {top['pattern']!r}: fails {top['fail_rate_with']:.0%} "
              f"of {top['tasks_with']} tasks vs {top['fail_rate_without']:.0%} without, odds ratio "
              f"{top['odds_ratio']:.1f}, q {top['q']:.2g}")
    else:
        print("  mined: no failure pattern beyond chance (the next round adds nothing)")
    for c in expansion.get("confirmation", []):
        p_value = "-" if c["p"] is None else f"{c['p']:.2g}"
        print(f"  probe confirmation of round {c['mined_round']}'s {c['pattern']!r}: {c['status']} "
              f"({c['probes_failed_carrying']}/{c['probes_carrying']} probes carrying it failed vs "
              f"{c['probes_failed_other']}/{c['probes_other']} without; p {p_value})")
    for st in expansion.get("steering", []):
        print(f"  steered {st['tasks']} of {st['wanted']} tasks toward {st['pattern']!r} in {st['tries']} tries "
              f"({st['tries_per_task']} a task, {st['exhausted']} ran out of tries)")
    return {"wanted": len(found), "atomic": added_atomic, "projected_atomic": projected, "added": len(added),
            "chains": len(added) - added_atomic, "aimed": added_aimed, "won": won, "touched": len(touched),
            "tasks": len(ran), "ids": {c.skill.id for c in found}, "patterns": mined,
            "confirmation": [{k: v for k, v in c.items() if not k.endswith("_ids")}
                             for c in expansion.get("confirmation", [])],
            "steering": expansion.get("steering", [])}


def weak_share(student: SimulatedStudent | Student, catalog: Catalog, number: int) -> float:
    """The share of round `number`'s accepted tasks the student's weakness touches (its rule for a built-in
    student, its `weak(task)` for a plugged-in one; 0 when it has none)."""
    taxonomy = catalog_taxonomy(catalog)
    views = round_views(catalog, number, taxonomy)
    if isinstance(student, SimulatedStudent):
        hit = sum(aimed(student, taxonomy[v.skill]) for v in views)
    else:
        weak = getattr(student, "weak", None)
        hit = sum(bool(weak(v)) for v in views) if callable(weak) else 0
    return hit / len(views) if views else 0.0


def blind_loop(root: Path, args: argparse.Namespace, sandbox: Sandbox) -> list[float]:
    """The blind loop: the same rounds, seed and budget, fed an all-pass student's results; returns, per round,
    the share of its tasks the student under test's weakness touches."""
    db = f"sqlite:///{root / 'blind.db'}"
    shares = []
    for number in range(1, args.rounds + 1):
        out = root / f"blind{number}"
        plan = prepare_round(db, number, args.budget, args.seed, str(out), k=args.k, limit=args.probe,
                             sandbox=sandbox, sample=args.sample)
        catalog = Catalog(db)
        Generator(out, catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog)).run(
            [TaskId.parse(t) for t in plan])
        finish_round(db, number, str(out), None)
        simulate(catalog, number, root / f"blind-results{number}", seed=args.seed, student=ALL_PASS, model="all-pass")
        ingest(catalog, root / f"blind-results{number}", number)
        shares.append(weak_share(args.student, catalog, number))
    return shares


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
    parser.add_argument("--full", action="store_true",
                        help="Issue 15's scale: consider every candidate, probe a sample per family x axis level.")
    parser.add_argument("--budget", type=int, help="Tasks generated per round (default 60; --full: 1200).")
    parser.add_argument("--probe", type=int, help="Candidates considered per round, a sample (default 40; --full: "
                        "all).")
    parser.add_argument("--sample", type=int, help="Probed candidates per family x axis level group (--full: 1).")
    parser.add_argument("--k", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--student", default="planted", help="The simulated student: 'planted', 'all-pass' or "
                        "PATH.py:Class (any class whose no-argument instances have attempt(task)).")
    parser.add_argument("--blind", action="store_true", help="Also run the blind loop (all-pass results, same "
                        "budget) and print the weakness's share of tasks against it.")
    parser.add_argument("--json", type=Path, help="Write the per-round numbers here (JSON).")
    parser.add_argument("--keep", type=Path, help="Keep the catalog and packages here (default: a temp folder).")
    args = parser.parse_args()
    args.budget = args.budget or (1200 if args.full else 60)
    args.probe = args.probe if args.probe is not None or args.full else 40
    args.sample = args.sample or (1 if args.full else None)
    args.base_rate = 0.0
    args.student = resolve_student(args.student)
    name = getattr(args.student, "name", type(args.student).__name__)
    planted = [w.name for w in args.student.weaknesses] if isinstance(args.student, SimulatedStudent) else "hidden"
    root = args.keep or Path(tempfile.mkdtemp(prefix="forge-rounds-"))
    root.mkdir(parents=True, exist_ok=True)
    db_path = root / "forge.db"
    db = f"sqlite:///{db_path}"
    sandbox = Sandbox()
    print(f"SIMULATED student {name!r}: weaknesses {planted}; catalog {db}; "
          f"budget {args.budget} tasks a round, {'all' if args.probe is None else args.probe} candidates considered"
          f"{f', {args.sample} probed per family x axis level group' if args.sample else ''}")
    rows = []
    start = time.perf_counter()
    for number in range(1, args.rounds + 1):
        if number == 2:
            with sqlite3.connect(db_path) as source, sqlite3.connect(root / "round1-snapshot.db") as target:
                source.backup(target)
        rows.append(round_once(db, root, number, args, sandbox))
        rows[-1]["weak_share"] = weak_share(args.student, Catalog(db), number)
    later = rows[1:]
    print(f"\natomic skills added per round: {[r['atomic'] for r in rows]} = {sum(r['atomic'] for r in rows)} "
          f"(target {TARGET_ATOMIC}); chains added per round: {[r['chains'] for r in rows]}")
    if args.probe is not None:
        print(f"projected atomic additions over {args.rounds} rounds (candidates x admission rate): "
              f"{sum(r['projected_atomic'] for r in rows):.0f}")
    print(f"(a) rounds 2-{args.rounds}: {_pct(int(sum(r['aimed'] for r in later)), sum(r['added'] for r in later))} "
          f"of the additions aimed at the planted weaknesses (target {TARGET_AIMED:.0%})")
    per_round = ", ".join(f"{r['won'] / max(r['touched'], 1):.0%}" for r in rows)
    print(f"(b) success on weakness tasks per round: {per_round}")
    if args.rounds >= 2:
        planted, easy = rows[1]["ids"], all_pass_round_two(root, args.seed)
        print(f"(c) round 2 for an all-pass student: {len(easy)} candidates (harder variants of what it passed), "
              f"against {len(planted)} for the planted student; {len(planted & easy)} in common")
    blind = blind_loop(root, args, sandbox) if args.blind else [None] * len(rows)
    for number, (row, other) in enumerate(zip(rows, blind, strict=True), start=1):
        lift = f", blind loop {other:.1%} (lift {row['weak_share'] / other:.1f}x)" if other else (
            f", blind loop {other:.1%}" if other is not None else "")
        print(f"round {number}: the weakness touches {row['weak_share']:.1%} of the tasks{lift}")
    if args.json:
        args.json.write_text(json.dumps([
            {"round": n, "atomic_added": r["atomic"], "chains_added": r["chains"], "tasks": r["tasks"],
             "weak_share": r["weak_share"], "blind_weak_share": b, "patterns": r["patterns"],
             "confirmation": r["confirmation"], "steering": r["steering"]}
            for n, (r, b) in enumerate(zip(rows, blind, strict=True), start=1)], indent=2))
    print(f"total {time.perf_counter() - start:.0f} s")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
