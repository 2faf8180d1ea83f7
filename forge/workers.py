"""Warm, sandboxed worker processes that apply solutions and run rubric checks for the gate.

Package files are untrusted input to our parsers (a crafted xlsx or mbox), and solution ops write files,
so this code runs in long-lived Python processes inside bubblewrap: read-only system and Python, the
gate's work folder as the only writable place, no network, no host home, no capabilities (as root it
runs as nobody), and limits: address space (`Limits.worker_memory_mb`: a parser on a bomb gets MemoryError,
a failed check), file size, open files, CPU seconds per request (SIGXCPU raises in the running check) and a
disk budget per state (measured after every op). Every request names a state root inside that folder and
the ops and checks resolve paths inside the root only (`preparers.ops.resolve`: links never lead out). A
limit hit (`forge.bounded.LimitExceeded`) is reported as `"unsafe": true` with its evidence. The interpreter
and imports are paid for once per worker, not per check.

Protocol: one JSON object per line on stdin; one JSON answer per line on stdout.
    {"initial": dir|null, "state": dir, "ops": [...]|null, "rubric": [...]}
copies `initial` to `state` (when given), applies `ops` (when given) and evaluates the rubric on `state`:
    {"applied": bool, "error": str, "outcomes": [{id, criterion, passed, evidence}], "seconds": float}
The oracle's request also carries `"mutate": {"task": task.json, "initial": dir}`: when every check passed, the
worker runs the mutation control on the oracle state (`verifiers.mutation`) and adds `"mutation": {...}`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from forge import bounded, parsecache, scratch
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
    mutation: dict[str, Any] | None = None  # the mutation control's answer, when the request asked for it
    unsafe: bool = False  # the state or solution tripped a limit (bomb, disk, CPU): the package is hostile

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Control:
        return cls(bool(data["applied"]), str(data.get("error", "")), list(data.get("outcomes", [])),
                   float(data.get("seconds", 0.0)), bool(data.get("infra", False)),
                   unsafe=bool(data.get("unsafe", False)), mutation=data.get("mutation"))


def run_control(request: dict[str, Any], *, confine: Path | None = None) -> dict[str, Any]:
    """Do one control in this process (the worker's loop body, also the in-process runner)."""
    from preparers.ops import OpError, apply_ops
    from verifiers.gate import evaluate_rubric

    start = time.perf_counter()
    bounded.harden_parsers()
    state = Path(request["state"])
    initial = Path(request["initial"]) if request.get("initial") else None
    mutate = request.get("mutate")
    pristine = Path(mutate["initial"]) if mutate else None
    if confine is not None:
        for path in (state, initial, pristine):
            if path is not None and confine.resolve() not in (path.resolve(), *path.resolve().parents):
                return {"applied": False, "error": f"{path} is outside the worker's folder {confine}"}
    if initial is not None:
        shutil.copytree(initial, state, symlinks=True)
    applied, error, outcomes = True, "", []
    bounded.take_hits()  # only this request's limit hits count
    with parsecache.hot(initial.rglob("*") if initial is not None else ()):
        if request.get("ops") is not None:
            try:
                apply_ops(state, request["ops"], disk_bytes=request.get("disk_bytes"))
            except (OpError, OSError, ValueError) as exc:
                if _infra_errno(exc):
                    return {"applied": False, "infra": True, "error": f"the scratch disk is full: {exc}"}
                applied, error = False, str(exc)
            disk = request.get("disk_bytes")
            try:
                if applied and disk and bounded.tree_bytes(state, disk) > disk:
                    applied, error = False, f"the solution wrote more than {disk >> 20} MB into the state"
                    bounded.note(error)
            except (bounded.LimitExceeded, OSError) as exc:  # noted by LimitExceeded itself
                applied, error = False, f"the state cannot be measured: {exc}"
        if applied:
            stop = bool(request.get("stop_on_fail", False))
            # before the mutation control, the oracle's own documents are kept parsed: every mutant starts from them
            keep = parsecache.hot(p for p in state.rglob("*") if p.is_file() and p.stat().st_size <= 16 << 20
                                  ) if mutate else contextlib.nullcontext()
            try:
                with keep:
                    outcomes = [o.__dict__ for o in evaluate_rubric({"rubric": request["rubric"]}, state,
                                                                    stop_on_fail=stop)]
            except Exception as exc:  # a check bug is infrastructure, never evidence for or against the task
                return {"applied": False, "infra": True, "error": f"a check crashed: {type(exc).__name__}: {exc}"}
    answer = {"applied": applied, "error": error, "outcomes": outcomes, "seconds": time.perf_counter() - start}
    hits = bounded.take_hits()
    if hits:  # a bomb, a disk flood or a CPU hog in the state: reported, whatever the checks said
        answer |= {"unsafe": True, "error": f"{error + '; ' if error else ''}limit hit: {hits[0]}"}
    if mutate and pristine is not None and applied and not hits and all(o["passed"] for o in outcomes):
        from verifiers.mutation import run_mutants

        with parsecache.hot(pristine.rglob("*")):
            answer["mutation"] = run_mutants(mutate["task"], pristine, state, state.parent / f"{state.name}-mutants",
                                             mutate.get("budget"))
    return answer


def _infra_errno(exc: BaseException) -> bool:
    """True when `exc` (or what caused it) says the scratch disk is full: the state's own size is bounded by its
    disk budget, so a full disk is the machine's problem (retried), not the package's."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


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
        lim = self.sandbox.limits
        root = Path(__file__).resolve().parent.parent  # the same checkout as this process, whatever is installed
        # Address space bounds a parser on a bomb (MemoryError, a failed check, not a dead machine); file size
        # and open files bound what one write or walk can do; CPU is set per request inside (serve).
        limits = "; ".join(f"ulimit {flag} {value} || exit 126" for flag, value in (
            ("-v", lim.worker_memory_mb * 1024), ("-f", lim.file_mb * 1024), ("-n", lim.open_files)))
        inner = (f"{limits}; exec env PYTHONPATH={shlex.quote(str(root))} {shlex.quote(sys.executable)} -m "
                 f"forge.workers {shlex.quote(str(self.workdir))} {lim.worker_cpu_seconds} {lim.disk_mb << 20}")
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
    """A temp work folder and the runner for it: a warm worker pool, or in-process without the sandbox.
    First sweeps the scratch folders that killed runs left behind (`forge.scratch.sweep`)."""
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


def serve(workdir: Path, cpu_seconds: int = 0, disk_bytes: int = 0) -> None:
    """The worker loop: answer requests until stdin closes.

    Each request may use `cpu_seconds` of CPU (RLIMIT_CPU's soft limit, moved forward per request; SIGXCPU
    raises `LimitExceeded` in whatever check or op is running) and leave at most `disk_bytes` in its state."""
    import resource
    import signal

    import verifiers.checks
    from preparers.ops import registry

    def over_cpu(signum: int, frame: object) -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        raise bounded.LimitExceeded(f"used more than {cpu_seconds} s of CPU on this state")

    signal.signal(signal.SIGXCPU, over_cpu)
    registry()
    verifiers.checks.registry()
    for line in sys.stdin:
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
        sys.stdout.write(json.dumps(answer, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(Path(sys.argv[1]), *(int(a) for a in sys.argv[2:4]))
