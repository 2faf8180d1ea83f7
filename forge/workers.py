"""Warm, sandboxed worker processes that apply solutions and run rubric checks for the gate.

Package files are untrusted input to our parsers (a crafted xlsx or mbox), and solution ops write files,
so this code runs in long-lived Python processes inside bubblewrap: read-only system and Python, the
gate's work folder as the only writable place, no network, no host home, no capabilities (as root it
runs as nobody), and a memory limit. Every request names a state root inside that folder and the ops and
checks refuse paths outside the root (`preparers.ops.resolve`). The interpreter and imports are paid for
once per worker, not per check.

Protocol: one JSON object per line on stdin; one JSON answer per line on stdout.
    {"initial": dir|null, "state": dir, "ops": [...]|null, "rubric": [...]}
copies `initial` to `state` (when given), applies `ops` (when given) and evaluates the rubric on `state`:
    {"applied": bool, "error": str, "outcomes": [{id, criterion, passed, evidence}], "seconds": float}
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from forge import parsecache, scratch
from forge.errors import SandboxError
from forge.sandbox import NOBODY, Sandbox, chown_tree

#: Seconds one request may take before its worker is killed and replaced.
REQUEST_SECONDS = 120.0


@dataclass(frozen=True)
class Control:
    """What one control (initial state -> optional solution -> rubric) produced."""

    applied: bool
    error: str = ""
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    infra: bool = False  # the worker died or hung: says nothing about the task

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Control:
        return cls(bool(data["applied"]), str(data.get("error", "")), list(data.get("outcomes", [])),
                   float(data.get("seconds", 0.0)), bool(data.get("infra", False)))


def run_control(request: dict[str, Any], *, confine: Path | None = None) -> dict[str, Any]:
    """Do one control in this process (the worker's loop body, also the in-process runner)."""
    from preparers.ops import OpError, apply_ops
    from verifiers.gate import evaluate_rubric

    start = time.perf_counter()
    state = Path(request["state"])
    initial = Path(request["initial"]) if request.get("initial") else None
    if confine is not None:
        for path in (state, initial):
            if path is not None and confine.resolve() not in path.resolve().parents:
                return {"applied": False, "error": f"{path} is outside the worker's folder {confine}"}
    if initial is not None:
        shutil.copytree(initial, state, symlinks=True)
    applied, error, outcomes = True, "", []
    with parsecache.hot(initial.rglob("*") if initial is not None else ()):
        if request.get("ops") is not None:
            try:
                apply_ops(state, request["ops"])
            except (OpError, OSError, ValueError) as exc:
                applied, error = False, str(exc)
        if applied:
            stop = bool(request.get("stop_on_fail", False))
            try:
                outcomes = [o.__dict__ for o in evaluate_rubric({"rubric": request["rubric"]}, state,
                                                                stop_on_fail=stop)]
            except Exception as exc:  # a check bug is infrastructure, never evidence for or against the task
                return {"applied": False, "infra": True, "error": f"a check crashed: {type(exc).__name__}: {exc}"}
    return {"applied": applied, "error": error, "outcomes": outcomes, "seconds": time.perf_counter() - start}


class InProcess:
    """Runs controls in the calling process (for `--no-sandbox` and library use without bwrap)."""

    size = 1

    def control(self, request: dict[str, Any]) -> Control:
        return Control.from_json(run_control(request))

    def prepare(self, folder: Path) -> None:
        pass

    def close(self) -> None:
        pass


class _Worker:
    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env, start_new_session=True, text=True, bufsize=1)
        self.answers: queue.Queue[str] = queue.Queue()
        self._reader = _LineReader(self.proc.stdout, self.answers)

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.answers.get(timeout=timeout)
        if not line:
            raise EOFError("worker exited")
        return json.loads(line)  # type: ignore[no-any-return]

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, 9)
        self.proc.wait()


class _LineReader:
    def __init__(self, stream: IO[str] | None, sink: queue.Queue[str]) -> None:
        import threading

        self.stream, self.sink = stream, sink
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        assert self.stream is not None
        for line in self.stream:
            self.sink.put(line)
        self.sink.put("")


class WorkerPool:
    """`size` warm workers in bubblewrap; `control()` is thread-safe (one request per worker at a time)."""

    def __init__(self, sandbox: Sandbox, workdir: Path, size: int = 2) -> None:
        if not sandbox.enabled:
            raise SandboxError("worker pools run inside bubblewrap; use InProcess with --no-sandbox")
        self.sandbox = sandbox
        self.workdir = workdir.resolve()
        self.size = size
        self._idle: queue.Queue[_Worker] = queue.Queue()
        if sandbox.as_root:
            os.chown(self.workdir, NOBODY, NOBODY)
        for _ in range(size):
            self._idle.put(self._start())

    def _start(self) -> _Worker:
        work = str(self.workdir)
        binds = [(entry, entry, False) for entry in _python_dirs() if not work.startswith(entry + "/")]
        binds.append((work, work, True))
        args = self.sandbox.bwrap_args(binds)
        memory = self.sandbox.limits.memory_mb * 1024
        root = Path(__file__).resolve().parent.parent  # the same checkout as this process, whatever is installed
        inner = (f"ulimit -v {memory} || exit 126; "
                 f"exec env PYTHONPATH={shlex.quote(str(root))} {sys.executable} -m forge.workers {self.workdir}")
        return _Worker([*args, "bash", "-c", inner], {"PATH": "/usr/bin:/bin"})

    def prepare(self, folder: Path) -> None:
        """Make `folder` (inside workdir) writable by the workers."""
        if self.sandbox.as_root:
            chown_tree(folder)

    def control(self, request: dict[str, Any]) -> Control:
        worker = self._idle.get()
        try:
            answer = worker.ask(request, REQUEST_SECONDS)
        except (queue.Empty, EOFError, BrokenPipeError, json.JSONDecodeError) as exc:
            worker.kill()
            worker = self._start()
            reason = "timed out" if isinstance(exc, queue.Empty) else f"died ({type(exc).__name__})"
            return Control(False, f"check worker {reason} on this state; it was replaced", infra=True)
        finally:
            self._idle.put(worker)
        return Control.from_json(answer)

    def close(self) -> None:
        while not self._idle.empty():
            worker = self._idle.get_nowait()
            with contextlib.suppress(OSError):
                if worker.proc.stdin:
                    worker.proc.stdin.close()
            worker.kill()


@contextlib.contextmanager
def gate_runner(sandbox: Sandbox, size: int = 2) -> Iterator[tuple[InProcess | WorkerPool, Path]]:
    """A temp work folder and the runner for it: a warm worker pool, or in-process without the sandbox."""
    workdir = Path(tempfile.mkdtemp(prefix="forge-work-", dir=scratch.scratch_root()))
    runner = WorkerPool(sandbox, workdir, size) if sandbox.enabled else InProcess()
    try:
        yield runner, workdir
    finally:
        runner.close()
        shutil.rmtree(workdir, ignore_errors=True)


def _python_dirs() -> list[str]:
    """Folders the worker's Python needs read-only: the interpreter prefix and every import root."""
    roots = {sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parent.parent)}
    roots |= {p for p in sys.path if ("site-packages" in p or "dist-packages" in p) and Path(p).is_dir()}
    kept = sorted(r for r in roots if not r.startswith(("/usr/", "/etc/", "/opt/")) and r not in ("/usr",))
    return [r for r in kept if not any(r != o and r.startswith(o + "/") for o in kept)]


def serve(workdir: Path) -> None:
    """The worker loop: answer requests until stdin closes."""
    import verifiers.checks
    from preparers.ops import registry

    registry()
    verifiers.checks.registry()
    for line in sys.stdin:
        try:
            answer = run_control(json.loads(line), confine=workdir)
        except Exception as exc:  # one bad request must not end the worker
            answer = {"applied": False, "infra": True, "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
