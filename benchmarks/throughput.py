"""Throughput of the full gate against the bare work and the I/O floor, measured in one run on the same tasks.

Bare work = per task, in-process: build the package with the workflow, write its files, run the rubric checks on
the initial state and on the oracle's result (applying the oracle's ops); no sandbox, no gate bookkeeping.
Floor = the file work every verified task cannot avoid, timed with the same libraries the checks use: write the
initial files once, then read the state once per control the full gate ran on that task (no-op, oracle, each
near-miss, each mutant; counted from the full run's catalog): openpyxl for workbooks, python-docx, python-pptx,
Pillow for images, the JSONC reader for settings, the bytes of anything else. It is a lower bound: the gate also
parses the oracle's and mutants' changed files and runs the checks.
Full = `Generator.run`: workflow, package written, the whole gate (schema, grounding, bwrap setup, no-op/oracle/
near-miss controls, the mutation control with every mutant, dedup) and the catalog row.

Prints, per mix, accepted tasks per second for all three, `ratio full/floor` and `ratio full/bare` (wall clock, as
the targets are stated), the CPU time per task of the bare work and of the full run (this process and every
descendant: sandboxes and check workers; on a shared, loaded machine wall clocks stretch and CPU time far less),
the gate's per-stage time split, and a deliberately lax package (an accepted one with its rubric cut to one check)
gated again: it must be rejected, or the run exits non-zero (a faster gate must not be a weaker one).

    python benchmarks/throughput.py [-n 150] [--seed 1] [--mix calc|default|both]
"""

from __future__ import annotations

import argparse
import ctypes
import io
import json
import os
import resource
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pptx
from PIL import Image

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan_for, usable_cores
from forge.solve import LocalEnv
from forge.workers import gate_runner
from kit import scratch
from kit.dag import NodeContext
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.package import build_package
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from preparers.ops.json_doc import loads_jsonc
from verifiers.gate.mutation import table
from verifiers.gate.rubric import evaluate_rubric
from verifiers.gate.stages import Gate
from workflows import get_family

MIXES = {"calc": Selection(apps=("libreoffice_calc",)), "default": Selection()}
PR_SET_CHILD_SUBREAPER = 36
IMAGES = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp"}


def _outputs(task_id: TaskId, taxonomy: dict) -> tuple[Any, dict[str, Any]]:
    skill = taxonomy[task_id.skill_id]
    workflow = get_family(skill.family)
    ctx = NodeContext(skill.params, task_id.seed, skill.id, task_id.index, OfflineBackend())
    outputs = workflow.run(ctx)
    return build_package(task_id, skill, workflow, outputs, ctx.calls), outputs


def _write(outputs: dict[str, Any], home: Path) -> list[Path]:
    written = []
    for asset in outputs["assets"]:
        target = home / asset.dest.removeprefix("/home/user/").lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(asset.data)
        written.append(target)
    return written


def _read(path: Path) -> None:
    """Read one file the way a check must at least read it: parsed by its library, else its bytes."""
    data = path.read_bytes()
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        openpyxl.load_workbook(io.BytesIO(data))
    elif suffix == ".docx":
        docx.Document(io.BytesIO(data))
    elif suffix == ".pptx":
        pptx.Presentation(io.BytesIO(data))
    elif suffix in IMAGES:
        Image.open(io.BytesIO(data)).load()
    elif suffix == ".json":  # VS Code and Chrome settings may be JSON with comments
        loads_jsonc(data.decode("utf-8", "replace"))


def adopt_orphans() -> None:
    """Become the reaper of orphaned descendants: bubblewrap's outer process exits without reaping its inner init,
    so a closed check worker's CPU time would go to the host's init instead of `cpu_seconds()`."""
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_orphans(wait: float = 2.0) -> None:
    """Reap the adopted descendants (the check workers' inits, once their pool is closed)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # none left
        if pid == 0:
            time.sleep(0.05)


def cpu_seconds() -> float:
    """CPU time of this process and of every descendant it has reaped (the sandboxes, and the check workers once
    their pool is closed and reaped): on a loaded machine wall time stretches, CPU time much less."""
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def bare(task_ids: list[TaskId], taxonomy: dict, workdir: Path) -> float:
    start = time.perf_counter()
    for task_id in task_ids:
        package, outputs = _outputs(task_id, taxonomy)
        home = workdir / str(task_id)
        _write(outputs, home)
        evaluate_rubric(package.task, home)
        apply_ops(home, outputs["solutions"][0].ops)
        evaluate_rubric(package.task, home)
    return time.perf_counter() - start


def controls(db: Path) -> Counter[str]:
    """Per task id, how many controls the full gate ran on it (no-op, oracle, near-misses, mutants)."""
    counts: Counter[str] = Counter()
    for task_id, verifier, evidence in sqlite3.connect(db).execute(
            "SELECT task_id, verifier, evidence FROM verifications"):
        if verifier in ("no-op", "oracle") or verifier.startswith("near-miss"):
            counts[task_id] += 1
        elif verifier == "mutation":
            counts[task_id] += len(table(evidence))
    return counts


def floor(task_ids: list[TaskId], taxonomy: dict, workdir: Path, reads: Counter[str]) -> float:
    """Seconds of the floor's file work (the workflow runs outside the clock: it is not file work)."""
    seconds = 0.0
    for task_id in task_ids:
        _, outputs = _outputs(task_id, taxonomy)
        start = time.perf_counter()
        files = _write(outputs, workdir / str(task_id))
        for _ in range(max(reads[str(task_id)], 2)):  # at least the no-op and the oracle
            for path in files:
                _read(path)
        seconds += time.perf_counter() - start
    return seconds


def measure(name: str, selection: Selection, n: int, seed: int, root: Path) -> None:
    taxonomy = load_taxonomy()
    task_ids = plan_for(taxonomy, selection, n, seed)
    cpu = cpu_seconds()
    bare_seconds = bare(task_ids, taxonomy, root / "bare")
    bare_cpu, cpu = cpu_seconds() - cpu, cpu_seconds()
    db = root / "bench.db"
    generator = Generator(root / "out", Catalog(f"sqlite:///{db}"), sandbox=Sandbox(), taxonomy=taxonomy)
    start = time.perf_counter()
    counts = generator.run(task_ids)
    full_seconds = time.perf_counter() - start
    reap_orphans()
    full_cpu = cpu_seconds() - cpu
    floor_seconds = floor(task_ids, taxonomy, root / "floor", controls(db))
    stages = sqlite3.connect(db).execute(
        "SELECT CASE WHEN verifier LIKE 'near-miss%' THEN 'near-miss' ELSE verifier END AS stage, sum(seconds) "
        "FROM verifications GROUP BY stage ORDER BY sum(seconds) DESC").fetchall()
    generate_seconds = sqlite3.connect(db).execute("SELECT sum(seconds_generate) FROM tasks").fetchone()[0]
    accepted = counts.get("accepted", 0)
    bare_rate, floor_rate = len(task_ids) / bare_seconds, len(task_ids) / floor_seconds
    full_rate = accepted / full_seconds
    print(f"[{name}] tasks: {len(task_ids)} (seed {seed}); gate classes: {dict(counts)}")
    print(f"[{name}] floor:      {floor_rate:7.1f} tasks/s  ({floor_seconds:.2f} s)")
    print(f"[{name}] bare work:  {bare_rate:7.1f} tasks/s  ({bare_seconds:.2f} s)")
    print(f"[{name}] full gate:  {full_rate:7.1f} accepted tasks/s  ({full_seconds:.2f} s)")
    print(f"[{name}] ratio full/floor: {full_rate / floor_rate:.2f}")
    print(f"[{name}] ratio full/bare: {full_rate / bare_rate:.2f}")
    print(f"[{name}] CPU seconds per task: bare {bare_cpu / len(task_ids) * 1000:.0f} ms, full gate "
          f"{full_cpu / max(accepted, 1) * 1000:.0f} ms per accepted task (all processes; {usable_cores()} cores)")
    print(f"[{name}] time split of the full run (s):")
    print(f"  {'generate (workflow + package build)':<36} {generate_seconds:7.2f}")
    for stage, seconds in stages:
        print(f"  {stage:<36} {seconds:7.2f}")
    lax_control(name, db, root)


def lax_control(name: str, db: Path, root: Path) -> None:
    """No weaker gate: an accepted package of this run with its rubric cut to one check (the first that fails on
    the initial state, so the no-op still fails) goes through the same gate again; it must be rejected (a near-miss
    or a mutant passes the cut rubric). Exits non-zero if it is accepted."""
    paths = [Path(p) for (p,) in sqlite3.connect(db).execute(
        "SELECT path FROM tasks WHERE status = 'accepted' ORDER BY id")]
    package = next((p for p in paths if len(json.loads((p / "task.json").read_text())["rubric"]) >= 3), None)
    if package is None:
        print(f"[{name}] deliberately lax package: none of this run's packages has 3 checks to cut")
        return
    lax = root / "lax" / package.name
    shutil.copytree(package, lax)
    task = json.loads((lax / "task.json").read_text())
    home = root / "lax-initial"
    for asset in task["setup"]["assets"]:
        target = home / asset["dest"].removeprefix("/home/user/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lax / asset["file"], target)
    failing = [o.id for o in evaluate_rubric(task, home) if not o.passed]
    task["rubric"] = [item for item in task["rubric"] if item["id"] == failing[0]]
    (lax / "task.json").write_text(json.dumps(task, indent=2))
    sandbox = Sandbox()
    with gate_runner(sandbox) as (runner, workdir):
        verdict = Gate(LocalEnv(sandbox), runner=runner, workdir=workdir).verify(lax)
    print(f"[{name}] deliberately lax package ({package.name}, rubric cut to {failing[0]!r}): {verdict.status}: "
          f"{verdict.evidence}")
    if verdict.accepted:
        raise SystemExit(f"[{name}] the gate ACCEPTED a deliberately lax package: it got weaker")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mix", choices=(*MIXES, "both"), default="both")
    args = parser.parse_args()
    adopt_orphans()
    for name in MIXES if args.mix == "both" else (args.mix,):
        # as `Generator.run` does: the bare work and the floor get the same temp folder as the full run
        with scratch.temp_files_in_ram(), tempfile.TemporaryDirectory() as tmp:
            measure(name, MIXES[name], args.n, args.seed, Path(tmp))


if __name__ == "__main__":
    main()
