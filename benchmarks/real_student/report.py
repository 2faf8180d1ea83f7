"""Score table of the reference-student experiment from `forge student answers` result folders.

    python benchmarks/real_student/report.py --round1 R/res2 --heldout R/res_heldout --tasks R

Round 1: each model's success on the fresh round-0 tasks, per family; the families where no round-1 model passed a
task are "round 1's weak categories". Round 2: success of each held-out model (`rs2-<set>-s<seed>`) overall and on
those categories, as the mean and the spread (sample standard deviation, min-max) over seeds, per training set.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
from pathlib import Path


def results(folder: str) -> dict[str, dict[str, bool]]:
    """model -> task id -> passed."""
    out: dict[str, dict[str, bool]] = collections.defaultdict(dict)
    for path in Path(folder).glob("shell/terminal/*/*/*/result.txt"):
        out[path.parts[-4]][path.parts[-2]] = float(path.read_text()) == 1.0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--round1", required=True)
    ap.add_argument("--heldout", required=True)
    ap.add_argument("--tasks", required=True, help="a folder whose */*/*/task.json are the tasks scored")
    args = ap.parse_args()
    family = {(t := json.loads(p.read_text()))["id"]: t["family"] for p in Path(args.tasks).glob("*/*/*/task.json")}
    first = results(args.round1)
    passed_by_family: collections.Counter[str] = collections.Counter()
    tried: set[str] = set()
    for model, tasks in sorted(first.items()):
        print(f"round 1 {model}: {sum(tasks.values())}/{len(tasks)}")
        for task_id, ok in tasks.items():
            tried.add(family[task_id])
            passed_by_family[family[task_id]] += ok
    weak = sorted(f for f in tried if passed_by_family[f] == 0)
    print(f"round 1's weak categories (no model passed a task): {len(weak)} of {len(tried)}: {', '.join(weak)}")
    by_set: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
    for model, tasks in sorted(results(args.heldout).items()):
        on_weak = [ok for task_id, ok in tasks.items() if family[task_id] in weak]
        overall, weak_rate = 100 * sum(tasks.values()) / len(tasks), 100 * sum(on_weak) / max(1, len(on_weak))
        print(f"held-out {model}: {sum(tasks.values())}/{len(tasks)} overall, {sum(on_weak)}/{len(on_weak)} weak")
        by_set[model.removeprefix("rs2-").rsplit("-s", 1)[0]].append((overall, weak_rate))
    print("| set | seeds | success overall, % (mean ± sd, min-max) | success on round 1's weak categories, % |")
    print("| --- | --- | --- | --- |")
    for name, runs in sorted(by_set.items()):
        cells = []
        for values in zip(*runs, strict=True):
            sd = statistics.stdev(values) if len(values) > 1 else 0.0
            cells.append(f"{statistics.mean(values):.1f} ± {sd:.1f} ({min(values):.1f}-{max(values):.1f})")
        print(f"| {name} | {len(runs)} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
