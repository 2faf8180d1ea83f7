"""Warm, sandboxed worker processes that run the gate's controls (`verifiers.gate.controls`: apply a solution, run
the rubric).

Package files are untrusted input to our parsers (a crafted xlsx or mbox), and solution ops write files,
so this code runs in long-lived Python processes inside bubblewrap: read-only system and Python, the
gate's work folder as the only writable place, no network, no host home, no capabilities (as root it
runs as nobody), and limits: address space (`Limits.worker_memory_mb`: a parser on a bomb gets MemoryError,
a failed check), file size, open files, CPU seconds per request (SIGXCPU raises in the running check) and a
disk budget per state (measured after every op). Every request names a state root inside that folder and
the ops and checks resolve paths inside the root only (`preparers.ops.resolve`: links never lead out). A
limit hit (`kit.bounded.LimitExceeded`) is reported as `"unsafe": true` with its evidence. The interpreter
and imports are paid for once per worker, not per check.

Protocol: one JSON request per line on stdin, one JSON answer per line on stdout; what a request asks
and what its answer holds is `verifiers.gate.controls` (the same `run_control` runs in-process with `InProcess`).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import queue
import resource
import shlex
import signal
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kit import bounded, scratch
from kit.errors import SandboxError
from kit.sandbox import NOBODY, Sandbox, chown_tree
from preparers import ops
from verifiers import checks, mutants
from verifiers.gate.controls import Control, InProcess, run_control

#: Seconds one request may take before its worker is killed and replaced.
REQUEST_SECONDS = 120.0
#: Seconds a closing worker gets to leave its loop before it is killed.
CLOSE_SECONDS = 2.0
#: Controls a pool takes at once per worker: those beyond its workers wait in the pool, which hands each freed
#: worker the one it is best placed for (`WorkerPool._dispatch`)
QUEUED = 4
#: New container objects between two garbage collections in a worker (Python's default: 700). The garbage a
#: worker holds at most grows by a few MB (a mutant's workbook is ~5,000 objects); requests run under a 1 GB cap
GC_THRESHOLD = 5000
#: Tasks whose worker a pool remembers (more than the gates that run at once)
SERVED_TASKS = 64


class _Group:
    """One bubblewrap sandbox whose Python imports the ops and checks once, then forks a worker per slot (each
    answering on a pair of pipes of its own, `serve`); a group of one serves in that Python itself. Importing is
    ~0.8 s of CPU: paid once per group, not once per worker. Its stdin takes "kill <slot>" lines."""

    def __init__(self, cmd: list[str], env: dict[str, str], size: int) -> None:
        pipes = [(os.pipe(), os.pipe()) for _ in range(size)]  # per slot: (requests, answers), each (read, write)
        theirs = [fd for requests, answers in pipes for fd in (requests[0], answers[1])]
        try:
            self.proc = subprocess.Popen([*cmd, ",".join(map(str, theirs))], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                         start_new_session=True, text=True, bufsize=1, pass_fds=theirs)
        finally:
            for fd in theirs:
                os.close(fd)
        self._lock = threading.Lock()
        self._alive = size
        self.workers = [_Worker(self, slot, requests[1], answers[0]) for slot, (requests, answers) in enumerate(pipes)]

    def kill(self, slot: int) -> None:
        """End one worker (stuck or dead); the whole group once none is left."""
        with self._lock:
            self._alive -= 1
            last = self._alive == 0
            with contextlib.suppress(OSError, ValueError):  # the group may be gone already
                assert self.proc.stdin is not None
                if not last:
                    self.proc.stdin.write(f"kill {slot}\n")
                    self.proc.stdin.flush()
        if last:
            self.end(0.0)

    def end(self, wait: float) -> None:
        """No more commands: the group reaps its workers (whose request pipes are closed) and leaves; killed if it
        has not within `wait` seconds."""
        with contextlib.suppress(OSError, ValueError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=wait)
        if self.proc.poll() is None:  # a reaped group's pid may already name another process group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, 9)
        self.proc.wait()


class _Worker:
    """One slot of a `_Group`: requests written to its pipe, answers read from its own."""

    def __init__(self, group: _Group, slot: int, requests: int, answers: int) -> None:
        self.group, self.slot = group, slot
        self.requests = os.fdopen(requests, "w", buffering=1)
        self.answers: queue.Queue[str] = queue.Queue()
        self._reader = LineReader(os.fdopen(answers, "r"), self.answers)

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.requests.write(json.dumps(request) + "\n")
        self.requests.flush()
        line = self.answers.get(timeout=timeout)
        if not line:
            raise EOFError("worker exited")
        return json.loads(line)  # type: ignore[no-any-return]

    def close(self) -> None:
        """No more requests: the worker leaves its loop."""
        with contextlib.suppress(OSError):
            self.requests.close()

    def kill(self) -> None:
        self.close()
        self.group.kill(self.slot)


class LineReader:
    def __init__(self, stream: IO[str] | None, sink: queue.Queue[str]) -> None:
        self.stream, self.sink = stream, sink
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        assert self.stream is not None
        for line in self.stream:
            self.sink.put(line)
        self.sink.put("")


@dataclass
class _Waiter:
    """A control waiting for a worker: its task's gate folder, and the worker once one is handed to it."""

    task: str
    worker: _Worker | None = None


class WorkerPool:
    """`size` warm workers in bubblewrap; `control()` is thread-safe (one request per worker at a time; up to
    `parallel` callers at once, the rest of them waiting here for a worker)."""

    def __init__(self, sandbox: Sandbox, workdir: Path, size: int = 2) -> None:
        if not sandbox.enabled:
            raise SandboxError("worker pools run inside bubblewrap; use InProcess with --no-sandbox")
        self.sandbox = sandbox
        self.workdir = workdir.resolve()
        self.size = size
        self.parallel = size * QUEUED
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._waiting: list[_Waiter] = []  # oldest first
        self._served: OrderedDict[str, _Worker] = OrderedDict()  # a task's folder -> the worker that has its parses
        if sandbox.as_root:
            os.chown(self.workdir, NOBODY, NOBODY)
        self._idle += self._start(size)

    def _start(self, size: int = 1) -> list[_Worker]:
        """`size` workers, forked in one sandbox from one Python that imported everything (`_Group`)."""
        work = str(self.workdir)
        binds = [(entry, entry, False) for entry in _python_dirs() if not work.startswith(entry + "/")]
        binds.append((work, work, True))
        args = self.sandbox.bwrap_args(binds)
        lim = self.sandbox.limits
        root = Path(__file__).resolve().parent.parent  # the same checkout as this process, whatever is installed
        # Address space bounds a parser on a bomb (MemoryError, a failed check, not a dead machine); file size
        # and open files bound what one write or walk can do; CPU is set per request inside (serve).
        limits = "; ".join(f"ulimit {flag} {value} || exit 126" for flag, value in (
            ("-v", lim.worker_memory_mb * 1024), ("-f", lim.file_mb * 1024), ("-n", lim.open_files)))
        # one BLAS thread: no thread may run in the group's Python when it forks (and checks need no more)
        inner = (f"{limits}; exec env PYTHONPATH={shlex.quote(str(root))} OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "
                 f"{shlex.quote(sys.executable)} -m forge.workers {shlex.quote(str(self.workdir))} "
                 f"{lim.worker_cpu_seconds} {lim.disk_mb << 20} \"$0\"")
        return _Group([*args, "bash", "-c", inner], {"PATH": "/usr/bin:/bin"}, size).workers

    def prepare(self, folder: Path) -> None:
        """Make `folder` (inside workdir) writable by the workers."""
        if self.sandbox.as_root:
            chown_tree(folder)

    def control(self, request: dict[str, Any]) -> Control:
        worker = self._take(str(Path(request["state"]).parent))
        try:
            answer = worker.ask(request, REQUEST_SECONDS)
        except (queue.Empty, EOFError, BrokenPipeError, json.JSONDecodeError) as exc:
            worker.kill()
            worker = self._start()[0]
            reason = "timed out" if isinstance(exc, queue.Empty) else f"died ({type(exc).__name__})"
            return Control(False, f"check worker {reason} on this state; it was replaced", infra=True)
        finally:
            self._give(worker)
        return Control.from_json(answer)

    def _take(self, task: str) -> _Worker:
        """A worker for a control of the task whose gate folder is `task`, as soon as `_dispatch` hands one over."""
        waiter = _Waiter(task)
        with self._lock:
            self._waiting.append(waiter)
            self._dispatch()
            while waiter.worker is None:
                self._lock.wait()
            return waiter.worker

    def _give(self, worker: _Worker) -> None:
        with self._lock:
            self._idle.append(worker)
            self._dispatch()

    def _dispatch(self) -> None:
        """Hand the free workers to waiting controls (the lock held). A worker takes the oldest control of a task
        it served before, or of a task nobody served yet, else the oldest: a task's controls go to one worker where
        they can, so the parses it keeps of the task's initial files (`kit.parsecache`) are reused instead of made
        again in the other worker, and no worker ever waits while a control does."""
        while self._idle and self._waiting:
            worker = self._idle.pop(0)
            waiter = next((w for w in self._waiting if self._served.get(w.task, worker) is worker), self._waiting[0])
            self._waiting.remove(waiter)
            self._served.setdefault(waiter.task, worker)
            self._served.move_to_end(waiter.task)
            while len(self._served) > SERVED_TASKS:
                self._served.popitem(last=False)
            waiter.worker = worker
            self._lock.notify_all()

    def close(self) -> None:
        """End every worker: its request pipe closed, then its group a short wait to reap it and leave (so their CPU
        time reaches this process's RUSAGE_CHILDREN through bwrap, which `benchmarks/throughput.py` counts), then
        killed."""
        groups: dict[int, _Group] = {}
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()
            groups[id(worker.group)] = worker.group
        for group in groups.values():
            group.end(CLOSE_SECONDS)


@contextlib.contextmanager
def gate_runner(sandbox: Sandbox, size: int = 2) -> Iterator[tuple[InProcess | WorkerPool, Path]]:
    """A temp work folder and the runner for it: a warm worker pool, or in-process without the sandbox.
    First sweeps the scratch folders that killed runs left behind (`kit.scratch.sweep`)."""
    scratch.sweep()
    workdir = scratch.work_folder("work")
    runner = WorkerPool(sandbox, workdir, size) if sandbox.enabled else InProcess()
    try:
        yield runner, workdir
    finally:
        runner.close()
        scratch.remove(workdir)  # any depth (shutil.rmtree recurses: a 1500-deep chain would leak the folder)


def _python_dirs() -> list[str]:
    """Folders the worker's Python needs read-only: the interpreter prefix and every import root."""
    roots = {sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parent.parent)}
    roots |= {p for p in sys.path if ("site-packages" in p or "dist-packages" in p) and Path(p).is_dir()}
    kept = sorted(r for r in roots if not r.startswith(("/usr/", "/etc/", "/opt/")) and r not in ("/usr",))
    return [r for r in kept if not any(r != o and r.startswith(o + "/") for o in kept)]


def serve(workdir: Path, cpu_seconds: int, disk_bytes: int, requests: IO[str], answers: IO[str]) -> None:
    """The worker loop: answer requests until the request pipe closes.

    Each request may use `cpu_seconds` of CPU (RLIMIT_CPU's soft limit, moved forward per request; SIGXCPU
    raises `LimitExceeded` in whatever check or op is running) and leave at most `disk_bytes` in its state."""
    def over_cpu(signum: int, frame: object) -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        raise bounded.LimitExceeded(f"used more than {cpu_seconds} s of CPU on this state")

    signal.signal(signal.SIGXCPU, over_cpu)
    for line in requests:
        if cpu_seconds:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            soft = int(usage.ru_utime + usage.ru_stime) + cpu_seconds + 1
            resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))
        try:
            request = json.loads(line)
            if disk_bytes:
                request.setdefault("disk_bytes", disk_bytes)
            answer = run_control(request, confine=workdir)
        except bounded.LimitExceeded as exc:  # the CPU limit fired outside a check (copying, scanning)
            answer = {"applied": False, "unsafe": True, "error": f"limit hit: {exc}"}
        except Exception as exc:  # one bad request must not end the worker
            answer = {"applied": False, "infra": True, "error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer, default=str) + "\n")
        answers.flush()


def group(workdir: Path, cpu_seconds: int, disk_bytes: int, fds: list[int]) -> None:
    """A `_Group`'s Python: import every op, check and mutator module once, then serve each slot's pipes (request
    read end, answer write end) in a forked worker; "kill <slot>" on stdin ends one. Returns when stdin closes and
    every worker has left.

    What the imports made lives as long as the workers, so it is frozen out of the cyclic garbage collector
    (`gc.freeze`) before the fork, and a collection waits for `GC_THRESHOLD` new objects instead of 700: parsed
    workbooks are made of reference cycles, so a worker collects often, and each collection walked the ~70,000
    objects of the imported modules too. Measured on 150 Calc tasks' controls run the workers' way
    (`run_control`, one process): garbage collection 3.9-4.9 -> 2.0-2.2 ms a task."""
    ops.registry()  # before the fork: each worker starts with them imported, and the first request's clock too
    checks.registry()
    mutants.registry()
    gc.set_threshold(GC_THRESHOLD)
    gc.freeze()
    slots = [(fds[i], fds[i + 1]) for i in range(0, len(fds), 2)]
    if len(slots) == 1:
        with os.fdopen(slots[0][0], "r") as requests, os.fdopen(slots[0][1], "w") as answers:
            serve(workdir, cpu_seconds, disk_bytes, requests, answers)
        return
    workers: dict[int, int] = {}
    for slot, (read, write) in enumerate(slots):
        pid = os.fork()
        if pid == 0:
            for other in fds:
                if other not in (read, write):
                    os.close(other)
            os.close(0)  # the group's commands are not this worker's
            serve(workdir, cpu_seconds, disk_bytes, os.fdopen(read, "r"), os.fdopen(write, "w"))
            os._exit(0)
        workers[slot] = pid
    for fd in fds:
        os.close(fd)
    for line in sys.stdin:
        command, _, which = line.partition(" ")
        doomed = workers.pop(int(which), None) if command == "kill" and which.strip().isdigit() else None
        if doomed is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(doomed, signal.SIGKILL)
            os.waitpid(doomed, 0)
    for pid in workers.values():
        os.waitpid(pid, 0)


if __name__ == "__main__":
    group(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), [int(fd) for fd in sys.argv[4].split(",")])
    os._exit(0)  # nothing to flush or keep, so skip the interpreter's teardown (0.2-0.4 s under load)
