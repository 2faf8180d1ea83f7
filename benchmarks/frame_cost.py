"""What the closed-world frame costs the gate, against what the mutation stage costs, measured in one run.

Issue 37's bar: "the frame must not cost more than the mutation stage does". One default-mix plan (seed, n) is
generated and gated as Forge runs it, and the frame's share is timed inside that run:
- derivation: every call of the frame node's functions (`workflows.frame.frame_checks`, Thunderbird's), which apply
  the oracle in a scratch home and diff the canonical models, is timed in place;
- evaluation: for each accepted task, its oracle end state is rebuilt in-process and every rubric check run once on
  a fresh reader state, frame checks and goal checks timed apart; the frame's time is multiplied by the number of
  controls the gate ran on that task (no-op, oracle, near-misses, mutants: the `verifications` table), since the
  frame checks run in each.
The mutation stage's cost is its seconds in the same run's `verifications` table (the gate's own clock). Prints
both per task and their ratio, exits 1 when the frame costs more. Then, as evidence of what the frame buys, the same
plan is gated with the frame node patched to add no check: how many tasks the mutation control then rejects as lax.

    python benchmarks/frame_cost.py [-n 150] [--seed 1] [--no-unframed]
"""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from throughput import _outputs, _write, controls

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan_for
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from verifiers import checks

FRAME_FUNCTIONS = ("workflows.frame.frame_checks", "workflows.frame_tb.frame_checks",
                   "workflows.frame_tb.tb_frame_checks")


class Timed:
    """Wraps a function and adds up the seconds its calls take (calls may come from several gate threads)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function, self.seconds, self.lock = function, 0.0, threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.function(*args, **kwargs)
        finally:
            with self.lock:
                self.seconds += time.perf_counter() - start


def gate(task_ids: list, taxonomy: dict, root: Path) -> tuple[dict[str, int], Path]:
    db = root / "bench.db"
    counts = Generator(root / "out", Catalog(f"sqlite:///{db}"), sandbox=Sandbox(), taxonomy=taxonomy).run(task_ids)
    return dict(counts), db


def evaluation(task_ids: list, taxonomy: dict, db: Path, root: Path) -> tuple[float, float]:
    """Seconds of (frame checks, goal checks) over every control of every accepted task."""
    accepted = {row[0] for row in sqlite3.connect(db).execute("SELECT id FROM tasks WHERE status = 'accepted'")}
    runs = controls(db)
    frame = goals = 0.0
    for task_id in task_ids:
        if str(task_id) not in accepted:
            continue
        package, outputs = _outputs(task_id, taxonomy)
        home = root / str(task_id)
        _write(outputs, home)
        apply_ops(home, outputs["solutions"][0].ops)
        state = checks.State(home)
        for item in package.task["rubric"]:
            start = time.perf_counter()
            with contextlib.suppress(Exception):  # a check error is timed like a result
                checks.run_check(state, item["primitive"], item["args"])
            seconds = (time.perf_counter() - start) * runs[str(task_id)]
            if item["primitive"].endswith(".frame"):
                frame += seconds
            else:
                goals += seconds
    return frame, goals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=150, help="tasks of the default mix (default 150)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-unframed", action="store_true", help="skip the second, frameless gate run")
    args = parser.parse_args()
    taxonomy = load_taxonomy()
    task_ids = plan_for(taxonomy, Selection(), args.n, args.seed)
    with tempfile.TemporaryDirectory(prefix="forge-frame-cost-") as tmp:
        timers = {name: Timed(_resolve(name)) for name in FRAME_FUNCTIONS}
        with mock.patch.multiple("workflows.frame", frame_checks=timers[FRAME_FUNCTIONS[0]]), \
                mock.patch.multiple("workflows.frame_tb", frame_checks=timers[FRAME_FUNCTIONS[1]],
                                    tb_frame_checks=timers[FRAME_FUNCTIONS[2]]):
            start = time.perf_counter()
            counts, db = gate(task_ids, taxonomy, Path(tmp) / "framed")
            wall = time.perf_counter() - start
        mutation = sqlite3.connect(db).execute(
            "SELECT coalesce(sum(seconds), 0) FROM verifications WHERE verifier = 'mutation'").fetchone()[0]
        derive = sum(t.seconds for t in timers.values())
        frame_eval, goal_eval = evaluation(task_ids, taxonomy, db, Path(tmp) / "eval")
        n = len(task_ids)
        print(f"framed run: {counts}, {wall:.1f} s wall for {n} tasks")
        print(f"per task: frame derivation {derive / n * 1000:.0f} ms, frame checks over every control "
              f"{frame_eval / n * 1000:.0f} ms (goal checks {goal_eval / n * 1000:.0f} ms), mutation stage "
              f"{mutation / n * 1000:.0f} ms")
        ratio = (derive + frame_eval) / max(mutation, 1e-9)
        print(f"ratio frame / mutation stage: {ratio:.2f} (the bar: at most 1)")
        if not args.no_unframed:
            patches = [mock.patch(name, return_value=[]) for name in FRAME_FUNCTIONS]
            for patch in patches:
                patch.start()
            try:
                bare, _ = gate(task_ids, taxonomy, Path(tmp) / "unframed")
            finally:
                for patch in patches:
                    patch.stop()
            print(f"the same plan without the frame: {bare} (lax: the mutation control finds a damage only the "
                  f"frame sees)")
    return 0 if ratio <= 1 else 1


def _resolve(dotted: str) -> Callable[..., Any]:
    module, _, name = dotted.rpartition(".")
    return getattr(sys.modules[module] if module in sys.modules else __import__(module, fromlist=[name]), name)


if __name__ == "__main__":
    sys.exit(main())
