"""Throughput of the full gate vs the bare work, measured in one run on the same tasks.

Bare work = per task, in-process: build the workbook with the preparer, run the rubric checks on the
initial state and on the oracle's result (applying the oracle's ops), no packages on disk, no sandbox,
no gate bookkeeping. Full = `Generator.run`: workflow, package written, the whole gate (schema,
grounding, bwrap setup, no-op/oracle/near-miss controls, the mutation control, dedup) and the catalog row.

    python benchmarks/throughput.py [-n 200] [--seed 1] [--app libreoffice_calc]

Prints accepted tasks per second for both, their ratio, and the gate's per-stage time split.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from forge.catalog import Catalog
from forge.dag import NodeContext
from forge.generate import Generator, Selection, plan, select_skills
from forge.ids import TaskId
from forge.llm import OfflineBackend
from forge.package import build_package
from forge.sandbox import Sandbox
from forge.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from verifiers.rubric import evaluate_rubric
from workflows import get_family


def bare(task_ids: list[TaskId], taxonomy: dict, workdir: Path) -> float:
    start = time.perf_counter()
    for task_id in task_ids:
        skill = taxonomy[task_id.skill_id]
        workflow = get_family(skill.family)
        ctx = NodeContext(skill.params, task_id.seed, skill.id, task_id.index, OfflineBackend())
        outputs = workflow.run(ctx)
        package = build_package(task_id, skill, workflow, outputs, ctx.calls)
        home = workdir / str(task_id)
        for asset in outputs["assets"]:
            target = home / asset.dest.removeprefix("/home/user/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(asset.data)
        evaluate_rubric(package.task, home)
        apply_ops(home, outputs["solutions"][0].ops)
        evaluate_rubric(package.task, home)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--app", default="libreoffice_calc")
    args = parser.parse_args()
    taxonomy = load_taxonomy()
    task_ids = plan(select_skills(taxonomy, Selection(apps=(args.app,))), args.n, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bare_seconds = bare(task_ids, taxonomy, root / "bare")
        db = root / "bench.db"
        generator = Generator(root / "out", Catalog(f"sqlite:///{db}"), sandbox=Sandbox(), taxonomy=taxonomy)
        start = time.perf_counter()
        counts = generator.run(task_ids)
        full_seconds = time.perf_counter() - start
        stages = sqlite3.connect(db).execute(
            "SELECT CASE WHEN verifier LIKE 'near-miss%' THEN 'near-miss' ELSE verifier END AS stage, sum(seconds) "
            "FROM verifications GROUP BY stage ORDER BY sum(seconds) DESC").fetchall()
        generate_seconds = sqlite3.connect(db).execute("SELECT sum(seconds_generate) FROM tasks").fetchone()[0]
    accepted = counts.get("accepted", 0)
    bare_rate = len(task_ids) / bare_seconds
    full_rate = accepted / full_seconds
    print(f"tasks: {len(task_ids)} ({args.app}, seed {args.seed}); gate classes: {dict(counts)}")
    print(f"bare work:  {bare_rate:7.1f} tasks/s  ({bare_seconds:.2f} s)")
    print(f"full gate:  {full_rate:7.1f} accepted tasks/s  ({full_seconds:.2f} s)")
    print(f"ratio full/bare: {full_rate / bare_rate:.2f}")
    print("time split of the full run (s):")
    print(f"  {'generate (workflow + package build)':<36} {generate_seconds:7.2f}")
    for stage, seconds in stages:
        print(f"  {stage:<36} {seconds:7.2f}")


if __name__ == "__main__":
    main()
