"""Score table of the reference-student experiment from `forge student answers` result folders.

    python benchmarks/real_student/report.py --round1 R/res1 --heldout R/res_heldout --tasks R \
        --heldout-skills benchmarks/real_student/data/heldout_skills.txt

Round 1: each model's success on the fresh round-0 tasks, per family; the families whose success (every round-1
model pooled) is below `--weak-below` are "round 1's weak categories". Held-out: the success of each model
(`<set>-s<seed>`, e.g. base-s1, targeted-s2) overall, on those categories and on the skills no training set held,
as the mean and the spread (sample standard deviation, min-max) over seeds, per training set.
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


def spread(values: list[float]) -> str:
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{statistics.mean(values):.1f} ± {sd:.1f} ({min(values):.1f}-{max(values):.1f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--round1", required=True)
    ap.add_argument("--heldout", required=True)
    ap.add_argument("--tasks", required=True, help="a folder whose */*/*/task.json are the tasks scored")
    ap.add_argument("--heldout-skills", help="skills no training set held (sets.py base writes the file)")
    ap.add_argument("--weak-below", type=float, default=0.5, help="round-1 success under which a family is weak")
    args = ap.parse_args()
    tasks = {(t := json.loads(p.read_text()))["id"]: t for p in Path(args.tasks).glob("*/*/*/task.json")}
    unseen = set(Path(args.heldout_skills).read_text().split()) if args.heldout_skills else set()
    passed: collections.Counter[str] = collections.Counter()
    tried: collections.Counter[str] = collections.Counter()
    for model, outcome in sorted(results(args.round1).items()):
        print(f"round 1 {model}: {sum(outcome.values())}/{len(outcome)}")
        for task_id, ok in outcome.items():
            tried[tasks[task_id]["family"]] += 1
            passed[tasks[task_id]["family"]] += ok
    for name in sorted(tried, key=lambda f: passed[f] / tried[f]):
        print(f"  {name}: {passed[name]}/{tried[name]}")
    weak = {f for f in tried if passed[f] < args.weak_below * tried[f]}
    print(f"round 1's weak categories (success under {args.weak_below:.0%}): {len(weak)} of {len(tried)}: "
          f"{', '.join(sorted(weak))}")
    by_set: dict[str, list[tuple[float, ...]]] = collections.defaultdict(list)
    size: dict[str, tuple[int, ...]] = {}
    for model, outcome in sorted(results(args.heldout).items()):
        parts = {
            "all": list(outcome.values()),
            "weak": [ok for t, ok in outcome.items() if tasks[t]["family"] in weak],
            "unseen": [ok for t, ok in outcome.items() if tasks[t]["skill_id"] in unseen],
        }
        print(f"held-out {model}: " + ", ".join(f"{sum(v)}/{len(v)} {k}" for k, v in parts.items()))
        by_set[model.rsplit("-s", 1)[0]].append(tuple(100 * sum(v) / max(1, len(v)) for v in parts.values()))
        size[model.rsplit("-s", 1)[0]] = tuple(len(v) for v in parts.values())
    print("| set | seeds | success overall, % | on round 1's weak families, % | on held-out skills, % |")
    print("| --- | --- | --- | --- | --- |")
    for name, runs in sorted(by_set.items()):
        cells = [f"{spread(list(v))} of {n}" for v, n in zip(zip(*runs, strict=True), size[name], strict=True)]
        print(f"| {name} | {len(runs)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
