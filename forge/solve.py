"""Materialize states and check them: setup.sh in the sandbox, a solution (ops JSON or a sandboxed script),
and an agent's end state checked against a rubric (`forge solve`, `forge check`).

`LocalEnv` is the gate's environment in this process: the sandbox for scripts, `preparers.ops` for
ops solutions, and a duplicate lookup (the catalog's accepted tasks plus those accepted in this batch).
Its in-process ops are for trusted states (tests, library use); `solve` and `check_state` send untrusted
ones to a sandboxed check worker (`forge.workers`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from forge.agent.shell import AgentShell
from forge.warm import WarmSetups
from forge.workers import WorkerPool
from kit import bounded, scratch
from kit.errors import ForgeError, PackageError
from kit.package import Package
from kit.sandbox import RunResult, Sandbox, chown_tree
from preparers.ops import OpError, apply_ops
from verifiers.gate.controls import InProcess
from verifiers.gate.stages import preflight_package


class LocalEnv:
    def __init__(self, sandbox: Sandbox, find_duplicate: Callable[[str, str], str | None] | None = None) -> None:
        self.sandbox = sandbox
        self._find = find_duplicate
        self.seen: dict[str, str] = {}  # dedup key -> task id accepted in this process
        self.setups: WarmSetups | None = None  # set by a batch (`forge.generate`): warm sandboxes for setup.sh

    def run_setup(self, package: Package, home: Path) -> RunResult:
        return (self.setups or self.sandbox).run_script(package.root, package.task["setup"]["entry"], home)

    def apply_solution(self, package: Package, solution: str, home: Path) -> RunResult:
        path = package.root / solution
        if path.suffix == ".sh":
            return self.sandbox.run_script(package.root, solution, home)
        try:
            apply_ops(home, json.loads(path.read_text(encoding="utf-8")).get("ops", []))
        except (OpError, OSError, ValueError) as exc:
            return RunResult(1, "", str(exc))
        return RunResult(0, f"applied {solution}", "")

    def run_teacher(self, package: Package, commands: list[str], home: Path) -> RunResult | None:
        """The teacher's commands, one by one, through the student's own shell (forge.agent.shell: bubblewrap with
        the home alone, no package, the agent's limits), stopping at the first that fails; None without a sandbox
        (the commands are a package's, so untrusted: they never run unconfined)."""
        if not self.sandbox.enabled:
            return None
        if self.sandbox.as_root:
            chown_tree(home)  # the agent's commands run as nobody: the initial state is theirs to change
        shell = AgentShell(self.sandbox)
        seconds = 0.0
        for i, command in enumerate(commands, 1):
            done = shell.run(home, command)
            seconds += done.seconds
            if done.exit_code != 0 or done.timed_out or done.violations:
                return RunResult(done.exit_code or 1, "", f"command {i} of {len(commands)}: {done.shown}",
                                 timed_out=done.timed_out, violations=done.violations, seconds=seconds)
        return RunResult(0, f"{len(commands)} command(s) ran", "", seconds=seconds)

    def find_duplicate(self, key: str, task_id: str) -> str | None:
        other = self.seen.get(key)
        if other is None and self._find is not None:
            other = self._find(key, task_id)
        if other is not None and other != task_id:
            return other
        self.seen[key] = task_id
        return None


def solve(package: Package, sandbox: Sandbox, state: Path, solution: str) -> str:
    """Set up `state` (standing for /home/user) and apply `solution`: oracle, near-miss[-N] or none.

    The package passes the gate's safety and schema stages first; setup.sh and .sh solutions run in the
    sandbox, ops solutions in a sandboxed check worker confined to `state` (never in this process, whose
    user may own far more than the state), with the worker's memory, CPU, file-size and disk limits. When it
    fails or refuses, what it made is removed: a new `state` folder goes, an empty one is emptied again."""
    check_package(package)
    made = _first_missing(state)  # what this call creates, so a refusal can take it away again
    state.mkdir(parents=True, exist_ok=True)
    if made is None and any(state.iterdir()):
        raise PackageError(f"{state}: state folder is not empty; give a new or empty folder")
    try:
        return _solve(package, sandbox, state, solution)
    except BaseException:
        # A refused or failed solve leaves nothing: setup.sh may have made links to /, fifos, setuid copies and
        # hundreds of MB in the user's folder. Removed without following a link (kit.bounded.rmtree).
        if made is not None:
            bounded.rmtree(made)
        else:
            for child in list(state.iterdir()):
                bounded.rmtree(child)
        raise


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of `path` (itself included) that does not exist yet; None when `path` exists."""
    missing = None
    for folder in (path, *path.parents):
        if os.path.lexists(folder):
            break
        missing = folder
    return missing


def _solve(package: Package, sandbox: Sandbox, state: Path, solution: str) -> str:
    env = LocalEnv(sandbox)
    files = package.solution_files()
    chosen = {"none": None, "oracle": files[0], "near-miss": files[1] if len(files) > 1 else ""}
    for i, near in enumerate(files[1:], start=1):
        chosen[f"near-miss-{i}"] = near
    if solution not in chosen:
        raise PackageError(f"--solution {solution!r}: choose one of {sorted(chosen)}")
    ran = env.run_setup(package, state)
    if not ran.ok:
        raise PackageError(f"{package.root}/setup.sh failed: {ran.evidence()}")
    target = chosen[solution]
    if target is None:
        return "initial state (no solution applied)"
    if not target:
        raise PackageError(f"{package.root}: the package has no near-miss solution")
    if target.endswith(".sh"):
        ran = sandbox.run_script(package.root, target, state)
        if not ran.ok:
            raise PackageError(f"{package.root}/{target}: {ran.evidence()}")
        return ran.stdout or ran.evidence()
    ops = json.loads(bounded.read_file(package.root / target).decode("utf-8")).get("ops", [])
    with control_runner(sandbox, state) as runner:
        runner.prepare(state)
        control = runner.control({"initial": None, "state": str(state.resolve()), "ops": ops, "rubric": []})
    if control.infra:
        raise ForgeError(f"{package.root}/{target}: the check worker failed ({control.error}); run it again")
    if not control.applied or control.unsafe:
        raise PackageError(f"{package.root}/{target}: {control.error}")
    return f"applied {target} ({len(ops)} ops, in the sandboxed worker)"


def check_state(package: Package, sandbox: Sandbox, state: Path) -> list[dict[str, Any]]:
    """Evaluate the package's rubric on an agent's end state `state`: [{id, criterion, passed, evidence}].

    The state is untrusted. It is copied (bytes only: nothing parsed, no link followed, fifos and devices
    left out, at most the sandbox's disk budget) into a scratch folder that a sandboxed check worker reads
    with its memory and CPU limits; the host never parses a file of it. A state that cannot be copied (too
    big, too deep) fails every check with that evidence."""
    check_package(package)
    rubric = package.task["rubric"]
    with control_runner(sandbox) as runner:
        work = runner.workdir
        copy = work / "state"
        try:
            left_out = bounded.copy_tree(state, copy, sandbox.limits.disk_mb << 20)
        except (bounded.LimitExceeded, OSError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return [{"id": c["id"], "criterion": c["criterion"], "passed": False,
                     "evidence": f"the state cannot be read safely: {why}"} for c in rubric]
        runner.prepare(copy)
        control = runner.control({"initial": None, "state": str(copy), "ops": None, "rubric": rubric})
    if control.infra:
        raise ForgeError(f"checking {state} failed for a reason outside the state ({control.error}); run it again")
    if not control.applied:
        raise ForgeError(f"checking {state} failed: {control.error}")
    outcomes = list(control.outcomes)
    if left_out:
        for outcome in outcomes:
            if not outcome["passed"]:
                outcome["evidence"] += f" (note: {', '.join(left_out)} of the state)"
    return outcomes


def check_package(package: Package) -> None:
    """The gate's safety and schema stages, for `solve` and `check`: a package they reject is a one-line
    `PackageError` naming the class (`unsafe`, `schema_fail`) and the evidence, never a traceback later."""
    problem = preflight_package(package)
    if problem:
        raise PackageError(f"{package.root}: {problem}")


@contextlib.contextmanager
def control_runner(sandbox: Sandbox, workdir: Path | None = None) -> Iterator[Any]:
    """One sandboxed check worker (or in-process with the sandbox off) working in `workdir`, or in a new scratch
    folder removed afterwards; the runner carries its folder as `.workdir`."""
    own = workdir is None
    folder = scratch.work_folder("check") if own else workdir  # swept after a kill (kit.scratch)
    assert folder is not None
    runner: Any = WorkerPool(sandbox, folder, 1) if sandbox.enabled else InProcess()
    runner.workdir = folder.resolve()
    try:
        yield runner
    finally:
        runner.close()
        if own:
            scratch.remove(folder)
