"""Crash leftovers: a run killed with SIGKILL is marked `interrupted` by the next run, and the scratch folders it
left are swept; live runs, other hosts' runs and folders that are not Forge's are never touched."""

from __future__ import annotations

import datetime as dt
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forge.catalog import Catalog, RunRow
from kit import scratch
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def iso(seconds_ago: float) -> str:
    return (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds_ago)).isoformat(timespec="seconds")


def test_process_alive_tells_dead_reused_and_live_pids_apart():
    assert scratch.process_alive(os.getpid())
    assert scratch.process_alive(os.getpid(), since=time.time())
    assert not scratch.process_alive(dead_pid())
    # This process started less than a day ago: a run recorded a day ago under its pid was another process's.
    assert not scratch.process_alive(os.getpid(), since=time.time() - 86_400)
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while Path(f"/proc/{zombie.pid}/stat").read_text().split(") ")[1][0] != "Z" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not scratch.process_alive(zombie.pid), "an exited, unreaped child is not a live run"
    zombie.wait()


def test_start_run_marks_this_hosts_dead_runs_interrupted(db_url):
    catalog = Catalog(db_url)
    host = socket.gethostname()
    rows = {  # name: (host, pid, started_at, status)
        "killed": (host, dead_pid(), iso(60), "running"),
        "reused pid": (host, os.getpid(), iso(86_400 * 30), "running"),
        "live": (host, os.getpid(), iso(0), "running"),
        "other host": ("elsewhere.example", dead_pid(), iso(60), "running"),
        "before 0005": (None, None, iso(60), "running"),
        "finished": (host, dead_pid(), iso(60), "finished"),
    }
    ids = {}
    with catalog.session() as session, session.begin():
        for name, (run_host, pid, started, status) in rows.items():
            row = RunRow(seed=0, requested=1, selection={"name": name}, out_dir="out", backend="offline",
                         started_at=started, counts={}, status=status, host=run_host, pid=pid)
            session.add(row)
            session.flush()
            ids[name] = row.id
    new = catalog.start_run(seed=1, requested=1, selection={}, out_dir="out", backend="offline")
    with catalog.session() as session:
        status = {row.id: (row.status, row.host, row.pid) for row in session.query(RunRow)}
    assert {name: status[i][0] for name, i in ids.items()} == {
        "killed": "interrupted", "reused pid": "interrupted", "live": "running", "other host": "running",
        "before 0005": "running", "finished": "finished"}
    assert status[new] == ("running", host, os.getpid())


def _dead_owners_folder(root: Path, kind: str) -> Path:
    """A folder made by `work_folder` in a process that then died without cleaning up (as with SIGKILL)."""
    code = ("import os, sys; from kit import scratch; "
            f"print(scratch.work_folder({kind!r}, sys.argv[1]), flush=True); os._exit(0)")
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def test_sweep_removes_only_folders_whose_owner_is_gone(tmp_path):
    host = scratch.host_tag()
    dead = {kind: _dead_owners_folder(tmp_path, kind) for kind in scratch.KINDS}
    assert all(Path(f"{f}.lock").is_file() for f in dead.values())
    mine = scratch.work_folder("work", tmp_path)  # held by this live process
    legacy_dead = tmp_path / f"forge-work-{host}-{dead_pid()}-old"  # no lock file: judged by its pid
    legacy_live = tmp_path / f"forge-work-{host}-{os.getpid()}-old"
    kept = [tmp_path / f"forge-work-0badc0de-{dead_pid()}-abc", tmp_path / "forge-work-abc",
            tmp_path / f"other-work-{host}-{dead_pid()}-abc", legacy_live]
    for folder in (legacy_dead, *kept):
        folder.mkdir()
    # What a hostile package leaves in a state: a read-only folder, a deep chain, a link out.
    state = dead["work"] / "forge-gate-x" / "state"
    (state / "locked").mkdir(parents=True)
    (state / "locked" / "file").write_text("x")
    (state / "locked").chmod(0o500)
    deep = state
    for _ in range(300):
        deep = deep / "d"
    deep.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("keep")
    (state / "link").symlink_to(outside)
    planted = tmp_path / f"forge-work-{host}-{dead_pid()}-link"
    planted.symlink_to(outside)  # a link named like a work folder is not a folder to sweep

    removed = scratch.sweep([str(tmp_path)])

    assert sorted(removed) == sorted([*dead.values(), legacy_dead])
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([*(k.name for k in kept), mine.name, f"{mine.name}.lock", "outside", planted.name])
    assert (outside / "keep").read_text() == "keep"
    scratch.remove(mine)
    assert not mine.exists() and not Path(f"{mine}.lock").exists()


def test_a_live_owner_in_another_process_keeps_its_folder(tmp_path):
    """The lock, not the pid, decides: a live owner whose pid this process cannot see (another PID namespace)
    would look dead by pid; its lock is still held."""
    code = ("import sys, time; from kit import scratch; "
            "print(scratch.work_folder('work', sys.argv[1]), flush=True); time.sleep(60)")
    owner = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        folder = Path(owner.stdout.readline().strip())  # type: ignore[union-attr]
        assert scratch.sweep([str(tmp_path)]) == [] and folder.is_dir()
    finally:
        owner.kill()
        owner.wait()
    assert scratch.sweep([str(tmp_path)]) == [folder] and not folder.exists()


def test_gate_runner_work_folder_names_its_owner(tmp_path, monkeypatch):
    from forge.workers import gate_runner
    from kit.sandbox import Sandbox

    monkeypatch.setenv("FORGE_SCRATCH", str(tmp_path))
    scratch.scratch_root.cache_clear()
    try:
        with gate_runner(Sandbox(enabled=False), 1) as (_, workdir):
            assert workdir.name.startswith(f"forge-work-{scratch.host_tag()}-{os.getpid()}-")
    finally:
        scratch.scratch_root.cache_clear()


# --- the reviewer's check: kill -9 a real `forge generate`, run again ----------------------------------------------

ARGS = ["generate", "--skill", "calc.sort.numeric_desc", "-n", "8", "--seed", "3", "--real-apps", "off"]


def _start(root: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "FORGE_SCRATCH": str(root / "scratch")}
    return subprocess.Popen([sys.executable, "-m", "forge", *ARGS, "--out", str(root / "out"), "--db",
                             str(root / "forge.db")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_kill_9_mid_run_then_rerun_leaves_no_running_row_and_no_scratch(tmp_path):
    (tmp_path / "scratch").mkdir()
    proc = _start(tmp_path)
    deadline = time.monotonic() + 600
    while not list((tmp_path / "out").glob("*/*/task.json")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)  # the main process only, as `kill -9 PID` does
    proc.wait()
    time.sleep(1)  # its sandboxed workers die with it (bwrap --die-with-parent)
    leftovers = list((tmp_path / "scratch").iterdir())
    assert leftovers and all(p.name.startswith(f"forge-work-{scratch.host_tag()}-{proc.pid}-") for p in leftovers)
    db = sqlite3.connect(tmp_path / "forge.db")
    assert db.execute("SELECT status, pid FROM runs").fetchall() == [("running", proc.pid)]
    db.close()

    again = _start(tmp_path)
    _, err = again.communicate(timeout=900)
    assert again.returncode == 0, err.decode()

    db = sqlite3.connect(tmp_path / "forge.db")
    assert db.execute("SELECT status FROM runs ORDER BY id").fetchall() == [("interrupted",), ("finished",)]
    assert db.execute("SELECT count(*) FROM runs WHERE status = 'running'").fetchone() == (0,)
    db.close()
    assert list((tmp_path / "scratch").iterdir()) == [], "scratch left behind"
