"""The warm check workers: a pool's workers are forked in one sandbox from one Python that imported everything, and
a stuck one is killed and replaced while its sibling keeps serving."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from forge import workers
from forge.workers import WorkerPool
from kit.sandbox import Sandbox


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return sorted(found)


def _tree(pid: int) -> list[int]:
    out = [pid]
    for child in _children(pid):
        out += _tree(child)
    return out


def _pythons(pid: int, count: int = 3) -> list[int]:
    """The `count` Python processes under `pid` (waiting for the group to import and fork), in the order made."""
    for _ in range(200):
        found = [p for p in _tree(pid) if Path(f"/proc/{p}/comm").read_text().strip().startswith("python")]
        if len(found) == count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{len(found)} Python processes under {pid}, not {count}")


def _gone(pid: int) -> bool:
    """Does `pid` end (or stay only as a zombie) within 10 s? The group kills a worker when told, asynchronously."""
    for _ in range(200):
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def _ask(pool: WorkerPool, state: Path) -> workers.Control:
    return pool.control({"initial": None, "state": str(state), "ops": None, "rubric": []})


@pytest.fixture
def pool(tmp_path):
    work = tmp_path / "work"
    (work / "state").mkdir(parents=True)
    pool = WorkerPool(Sandbox(), work, 2)
    pool.prepare(work / "state")
    yield pool
    pool.close()


def test_the_workers_of_a_pool_are_forked_from_one_python(pool):
    first, second = pool._idle
    assert first.group is second.group
    assert not _ask(pool, pool.workdir / "state").infra
    zygote, *forked = _pythons(first.group.proc.pid)
    assert all(_children(zygote).count(p) for p in forked)  # children of the one that imported


def test_a_stuck_worker_is_killed_and_replaced_and_its_sibling_keeps_serving(pool, monkeypatch):
    monkeypatch.setattr(workers, "REQUEST_SECONDS", 3.0)
    stuck, sibling = pool._idle
    zygote, first, second = _pythons(stuck.group.proc.pid)
    os.kill(first, signal.SIGSTOP)  # slot 0, the first idle worker: the next request goes to it
    control = _ask(pool, pool.workdir / "state")
    assert control.infra and "timed out" in control.error, control
    assert _gone(first), "the stuck worker still runs"
    answers = [_ask(pool, pool.workdir / "state") for _ in range(4)]  # the sibling and the replacement
    assert not any(a.infra for a in answers), answers
    assert sibling in pool._idle and stuck not in pool._idle
    assert Path(f"/proc/{second}").exists()  # the sibling was never touched


def _waiting_take(pool, task, waiting):
    """Ask for a worker for `task` in a thread; returns once the request waits (the `waiting`-th in line)."""
    got = {}
    thread = threading.Thread(target=lambda: got.setdefault("worker", pool._take(task)), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while len(pool._waiting) < waiting and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(pool._waiting) == waiting
    return thread, got


def test_a_freed_worker_takes_a_control_of_a_task_it_served_before_an_older_one_it_did_not(pool):
    """The worker that parsed a task's initial files gets its next control, if one waits; else the oldest waiting
    control, whoever served its task: no worker stays idle while a control waits."""
    first = pool._take("task-x")
    second = pool._take("task-y")
    assert first is not second and pool._idle == []
    y_thread, y_got = _waiting_take(pool, "task-y", 1)  # waits first, but `second` has task y's parses
    x_thread, x_got = _waiting_take(pool, "task-x", 2)
    pool._give(first)
    x_thread.join(5)
    assert x_got == {"worker": first} and y_got == {}
    _, z_got = _waiting_take(pool, "task-y", 2)  # only task y's controls wait now
    pool._give(first)  # freed again: it takes the oldest, task y's, rather than stay idle
    y_thread.join(5)
    assert y_got == {"worker": first}
    pool._give(second)
    deadline = time.monotonic() + 5
    while not z_got and time.monotonic() < deadline:
        time.sleep(0.01)
    assert z_got == {"worker": second}
    pool._give(first)
    pool._give(second)
