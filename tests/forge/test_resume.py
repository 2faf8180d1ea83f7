"""Crash-safe resume: `forge generate` killed with SIGKILL at random moments, then rerun with the same command,
ends with the same catalog and the same package files as a run that was never interrupted."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ARGS = ["generate", "-n", "36", "--seed", "5", "--real-apps", "off"]


def _generate(root: Path, kill_at: int | None = None) -> int | None:
    """Run the real CLI in its own process; with `kill_at`, SIGKILL it (and its sandboxed workers) as soon as
    that many packages are on disk. Returns the exit code, or None when it was killed."""
    cmd = [sys.executable, "-m", "forge", *ARGS, "--out", str(root / "out"), "--db", str(root / "forge.db")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 600
    while proc.poll() is None and time.monotonic() < deadline:
        if kill_at is not None and len(list((root / "out").glob("*/*/task.json"))) >= kill_at:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None
        time.sleep(0.02)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"{cmd} did not finish in 600 s")
    return proc.returncode


def _tasks(root: Path) -> list[tuple]:
    db = sqlite3.connect(root / "forge.db")
    rows = db.execute("SELECT id, skill_id, status, path, dedup_key, instruction FROM tasks ORDER BY id").fetchall()
    checks = db.execute("SELECT task_id, verifier, passed FROM verifications ORDER BY task_id, id").fetchall()
    db.close()
    out = str(root / "out")
    return [(i, s, st, p.removeprefix(out) if p else None, k, ins) for i, s, st, p, k, ins in rows] + checks


def _files(root: Path) -> dict[str, str]:
    out = root / "out"
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


def test_sigkill_at_random_points_then_rerun_equals_an_uninterrupted_run(tmp_path):
    clean = tmp_path / "clean"
    assert _generate(clean) == 0

    crashed = tmp_path / "crashed"
    points = sorted(random.Random(7).sample(range(1, 30), 3))  # packages on disk (accepted + rejected) at each kill
    for point in points:
        assert _generate(crashed, kill_at=point) is None, f"the run finished before {point} packages were written"
        for package in (crashed / "out").glob("*/*"):
            if package.is_dir() and not package.name.startswith("."):
                assert (package / "task.json").is_file(), f"half-written package visible after a kill: {package}"
    assert _generate(crashed) == 0

    assert _tasks(crashed) == _tasks(clean)
    assert _files(crashed) == _files(clean)
    assert not [p for p in (crashed / "out").rglob(".*")], "a killed run's temp folders were not swept"


def test_rerun_of_a_finished_run_skips_everything_and_changes_nothing(tmp_path):
    assert _generate(tmp_path) == 0
    before_tasks, before_files = _tasks(tmp_path), _files(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "forge", *ARGS, "--out", str(tmp_path / "out"), "--db",
                           str(tmp_path / "forge.db")], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert _tasks(tmp_path) == before_tasks
    assert _files(tmp_path) == before_files
    runs = sqlite3.connect(tmp_path / "forge.db").execute("SELECT counts FROM runs ORDER BY id").fetchall()
    assert len(runs) == 2 and runs[0] == runs[1]
