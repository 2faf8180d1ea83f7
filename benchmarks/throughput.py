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

    python benchmarks/throughput.py [-n 150] [--seed 1] [--mix calc|default|both]

Prints, per mix, accepted tasks per second for all three, `ratio full/floor` and `ratio full/bare`, and the gate's
per-stage time split.
"""

from __future__ import annotations

import argparse
import io
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
from forge.dag import NodeContext
from forge.generate import Generator, Selection, plan_for
from forge.ids import TaskId
from forge.llm import OfflineBackend
from forge.package import build_package
from forge.sandbox import Sandbox
from forge.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from preparers.ops.json_doc import loads_jsonc
from verifiers.mutation import table
from verifiers.rubric import evaluate_rubric
from workflows import get_family

MIXES = {"calc": Selection(apps=("libreoffice_calc",)), "default": Selection()}
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
    bare_seconds = bare(task_ids, taxonomy, root / "bare")
    db = root / "bench.db"
    generator = Generator(root / "out", Catalog(f"sqlite:///{db}"), sandbox=Sandbox(), taxonomy=taxonomy)
    start = time.perf_counter()
    counts = generator.run(task_ids)
    full_seconds = time.perf_counter() - start
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
    print(f"[{name}] time split of the full run (s):")
    print(f"  {'generate (workflow + package build)':<36} {generate_seconds:7.2f}")
    for stage, seconds in stages:
        print(f"  {stage:<36} {seconds:7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mix", choices=(*MIXES, "both"), default="both")
    args = parser.parse_args()
    for name in MIXES if args.mix == "both" else (args.mix,):
        with tempfile.TemporaryDirectory() as tmp:
            measure(name, MIXES[name], args.n, args.seed, Path(tmp))


if __name__ == "__main__":
    main()
