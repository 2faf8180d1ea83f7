"""The gate: verifier nodes that accept or reject a whole task package.

Stages run cheap-first and stop at the first blocking failure:
safety -> schema -> grounding -> content -> setup -> no-op -> oracle -> near-miss -> mutation -> teacher -> dedup;
then, for the tasks the real-app tier samples, `real-open` and `alternative` (forge.realapps, batched across tasks).
`mutation` (verifiers.gate.mutation) damages the oracle's end state in ways no instruction allows, and rewrites it in
ways a correct solution may: the rubric must reject the first and accept the second. It runs in the check
worker, right after the oracle control, on the oracle's state.
`teacher` runs the oracle as an agent at a terminal would (solution/teacher.json, `preparers.teach`) through the
student's own sandboxed shell: the rubric must pass on what it leaves, or the task is `unsolvable`.
`content` (verifiers.gate.content) rejects what a person would not believe as `unrealistic`: a "week N" subject that
contradicts its Date, an attachment dated after its mail, "a area chart", "1 rows", a "{name}" or "None" left in text.
`safety` looks at the package before anything runs (symlinks, special files, paths that climb out);
scripts that break out of their limits during setup or a solution make the task `unsafe` too.
Every stage leaves a `Stage` with evidence; the verdict's class is one of `CLASSES`.
The gate does no I/O of its own beyond temp state folders: running scripts, applying solutions and
looking up duplicates are the `GateEnv`'s job (provided by `forge`), so the same gate runs in-process,
in the CLI and in Prefect batches.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any, Protocol

import jsonschema

from kit import bounded, scratch
from kit.errors import CheckError, PackageError
from kit.model import HOME
from kit.package import Package, dedup_key, load_package, task_schema
from preparers.ops import OpError
from preparers.ops import validate as validate_ops
from verifiers import checks
from verifiers.gate.content import Unrealistic, review
from verifiers.gate.controls import Control, InProcess
from verifiers.gate.mutation import BUDGET, headline
from verifiers.gate.mutation import judge as judge_mutants
from verifiers.gate.rubric import CheckOutcome
from verifiers.grounding import Ungrounded, deck_reader, ground, visible_text

CLASSES = ("accepted", "schema_fail", "grounding_fail", "unrealistic", "setup_fail", "unsafe", "trivial", "unsolvable",
           "lax", "strict", "duplicate", "llm_fail", "infra_fail")


@dataclass(frozen=True)
class Stage:
    name: str
    passed: bool
    evidence: str
    seconds: float = 0.0


@dataclass
class Verdict:
    task_id: str
    status: str
    stages: list[Stage] = field(default_factory=list)
    dedup_key: str = ""  # of the package as verified (the dedup stage may run later, in plan order)

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    @property
    def evidence(self) -> str:
        failed = [s for s in self.stages if not s.passed]
        return headline(failed[-1].evidence) if failed else "all stages passed"


class Ran(Protocol):
    """What running a script or applying a solution reports (`kit.sandbox.RunResult` fits)."""

    @property
    def ok(self) -> bool: ...
    @property
    def unsafe(self) -> bool: ...
    def evidence(self) -> str: ...


class ControlRunner(Protocol):
    """Where controls run: `forge.workers.WorkerPool` (sandboxed, warm) or `verifiers.gate.controls.InProcess`."""

    size: int
    parallel: int  # controls it takes at once (a pool queues those beyond its workers, to place them well)

    def control(self, request: dict[str, Any]) -> Control: ...
    def prepare(self, folder: Path) -> None: ...


class GateEnv(Protocol):
    def run_setup(self, package: Package, home: Path) -> Ran: ...
    def apply_solution(self, package: Package, solution: str, home: Path) -> Ran: ...
    def run_teacher(self, package: Package, commands: list[str], home: Path) -> Ran | None: ...
    def find_duplicate(self, key: str, task_id: str) -> str | None: ...


def _summary(outcomes: list[CheckOutcome]) -> str:
    return "; ".join(f"{o.id}: {'pass' if o.passed else 'FAIL'} ({o.evidence})" for o in outcomes)


class _Fail(Exception):
    def __init__(self, status: str, evidence: str) -> None:
        super().__init__(evidence)
        self.status = status
        self.evidence = evidence


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(task_schema())


def _climbs(path: Any, home: bool = False) -> bool:
    """True for a package-relative (or, with `home`, a /home/user) path that could point anywhere else."""
    if not isinstance(path, str):
        return False
    parts = Path(path).parts
    if home:
        return not path.startswith(HOME + "/") or ".." in parts
    return path.startswith("/") or ".." in parts


def _scan_tree(root: Path) -> int:
    """Every entry of the package is a regular file or folder without setuid bits; returns how many.

    Walked with directory descriptors (`kit.bounded.walk`): no PATH_MAX blind spot, nothing followed, and a
    tree too deep or too big is `unsafe` too, never a crash."""
    count = 0
    try:
        for item in bounded.walk(os.path.realpath(root)):
            count += 1
            rel, mode = bounded.short(item.rel), item.info.st_mode
            if item.is_link:
                raise _Fail("unsafe", f"{rel} is a symlink (to {item.readlink()}); packages hold regular files only")
            if not (item.is_file or item.is_dir):
                raise _Fail("unsafe", f"{rel} is a special file ({stat.filemode(mode)})")
            if mode & (stat.S_ISUID | stat.S_ISGID):
                raise _Fail("unsafe", f"{rel} has the setuid/setgid bit ({stat.filemode(mode)})")
    except bounded.LimitExceeded as exc:
        raise _Fail("unsafe", f"the package {exc}") from None
    except OSError as exc:
        raise _Fail("unsafe", f"the package cannot be scanned: {exc.strerror or exc}") from None
    return count


def _check_safety(package: Package) -> str:
    """Nothing in the package may point outside it: no symlinks, special files, setuid bits, `..` paths."""
    count = _scan_tree(package.root)
    task = package.task
    setup = task.get("setup")
    setup = setup if isinstance(setup, dict) else {}
    for i, asset in enumerate(setup.get("assets") or []):
        if not isinstance(asset, dict):
            continue
        if _climbs(asset.get("file")):
            raise _Fail("unsafe", f"setup.assets[{i}].file {asset.get('file')!r} points outside the package")
        if "dest" in asset and _climbs(asset.get("dest"), home=True):
            raise _Fail("unsafe", f"setup.assets[{i}].dest {asset.get('dest')!r} is not a path under {HOME}")
    solutions = task.get("solutions")
    solutions = solutions if isinstance(solutions, dict) else {}
    for name in [solutions.get("oracle"), *(solutions.get("near_misses") or [])]:
        if _climbs(name):
            raise _Fail("unsafe", f"solution {name!r} points outside the package")
    return f"{count} package entries: regular files only, no setuid bits, no paths leaving the package"


def preflight_package(package: Package) -> str:
    """The safety and schema stages alone (for `forge solve` and `forge check`): "" when both pass, else
    "<class>: <evidence>" in one line."""
    try:
        _check_safety(package)
        _check_schema(package)
    except _Fail as failure:
        return f"{failure.status}: {failure.evidence}"
    return ""


def _check_schema(package: Package) -> str:
    task = package.task
    error = jsonschema.exceptions.best_match(_validator().iter_errors(task))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "<root>"
        raise _Fail("schema_fail", f"task.json at {where}: {error.message}")
    if not (package.root / "setup.sh").is_file():
        raise _Fail("schema_fail", "setup.sh is missing")
    for asset in task["setup"]["assets"]:
        path = package.root / asset["file"]
        if path.is_symlink() or not path.is_file():
            raise _Fail("schema_fail", f"{asset['file']}: missing, or a symlink (assets must be regular files)")
        try:
            data = bounded.read_file(path)
        except bounded.LimitExceeded as exc:
            raise _Fail("unsafe", f"{asset['file']}: {exc}") from None
        if hashlib.sha256(data).hexdigest() != asset["sha256"]:
            raise _Fail("schema_fail", f"{asset['file']}: sha256 differs from task.json")
    for item in task["rubric"]:
        try:
            checks.bind(item["primitive"], item["args"])
        except CheckError as exc:
            raise _Fail("schema_fail", f"rubric {item['id']}: {exc}") from None
        path = item["args"].get("path")
        if path is not None and not (isinstance(path, str) and path.startswith(HOME + "/") and ".." not in path):
            raise _Fail("schema_fail", f"rubric {item['id']}: path {path!r} must be an absolute path under {HOME}")
    for rel in package.solution_files():
        _check_solution_file(package.root, rel)
    return f"task.json valid; {len(task['setup']['assets'])} assets hashed; {len(task['rubric'])} checks bind"


def _check_solution_file(root: Path, rel: str) -> None:
    path = root / rel
    if ".." in Path(rel).parts or path.is_symlink() or not path.is_file():
        raise _Fail("schema_fail", f"{rel}: missing or not a regular file")
    if path.suffix == ".json":
        try:
            validate_ops(json.loads(bounded.read_file(path).decode("utf-8")).get("ops", []))
        except (OpError, ValueError, AttributeError) as exc:
            raise _Fail("schema_fail", f"{rel}: {exc}") from None
    elif path.suffix != ".sh":
        raise _Fail("schema_fail", f"{rel}: a solution is ops JSON (.json) or a script (.sh)")


def _check_grounding(package: Package) -> str:
    """The instruction asks for what the rubric checks (verifiers/grounding.py); `forge verify` re-runs this, so
    an instruction edited after generation is judged again."""
    try:
        assets = package.task["setup"]["assets"]
        return ground(package.task, lambda: visible_text(package.root, assets), deck_reader(package.root, assets))
    except Ungrounded as exc:
        raise _Fail("grounding_fail", str(exc)) from None


def _check_content(package: Package) -> str:
    """Nothing in the instruction or the initial state that a person would not believe (verifiers/gate/content.py)."""
    try:
        return review(package.task, package.root)
    except Unrealistic as exc:
        raise _Fail("unrealistic", str(exc)) from None


def _snapshot(root: Path) -> dict[str, str]:
    """{relative path: sha256} of the regular files below `root`, read through directory descriptors."""
    try:
        return {e.rel: hashlib.sha256(e.read()).hexdigest() for e in bounded.walk(root) if e.is_file}
    except (bounded.LimitExceeded, OSError) as exc:
        raise _Fail("unsafe", f"the initial state cannot be read safely: {exc}") from None


class Gate:
    """Runs the stages for one package at a time; `env` supplies sandboxed execution and dedup."""

    def __init__(self, env: GateEnv, *, runner: ControlRunner | None = None,
                 workdir: Path | None = None, mutants: tuple[int, int] | None = BUDGET, teacher: bool = True) -> None:
        """`mutants`: how many (damaging, neutral) mutants the mutation stage samples per task; None: all.
        `teacher`: run the teacher stage (the oracle's terminal commands through the student's shell)."""
        self.env = env
        self.teacher = teacher
        self.mutants = mutants
        self.runner: ControlRunner = runner or InProcess()
        self.workdir = workdir
        self._threads = ThreadPoolExecutor(max_workers=max(1, self.runner.parallel), thread_name_prefix="gate")
        # solution scripts run in those threads, each in a sandbox of its own: no more at once than there are
        # workers (a CPU-bound hostile script must not crowd out the setups and scripts of other packages)
        self._scripts = threading.BoundedSemaphore(max(1, self.runner.size))

    def verify(self, path: Path, *, dedup: bool = True) -> Verdict:
        """All stages for the package at `path`. With `dedup=False` the caller runs `dedup()` itself later
        (in a fixed order, when several packages are verified at once)."""
        verdict = Verdict(path.name, "accepted")
        try:
            tmp = scratch.work_folder("gate", self.workdir)  # swept after a kill (kit.scratch)
            try:
                self._run(path, tmp, verdict)
            finally:  # any depth, unreadable folders included (shutil.rmtree recurses and gives up)
                scratch.remove(tmp)
            if dedup:
                self.dedup(path, verdict)
        except _Fail as failure:
            verdict.status = failure.status
        except Exception as exc:  # a bug or broken machine is never evidence against the task
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            verdict.stages.append(Stage("infra", False, f"{type(exc).__name__}: {exc} "
                                                        f"({Path(frame.filename).name}:{frame.lineno})"))
            verdict.status = "infra_fail"
        return verdict

    def _stage(self, verdict: Verdict, name: str, fn: Callable[[], str], seconds: float | None = None) -> None:
        """Run one stage and record it; `seconds` overrides the measured time (controls run ahead, in parallel)."""
        start = time.perf_counter()
        try:
            evidence = fn()
        except _Fail as failure:
            took = time.perf_counter() - start if seconds is None else seconds
            verdict.stages.append(Stage(name, False, failure.evidence, took))
            raise
        took = time.perf_counter() - start if seconds is None else seconds
        verdict.stages.append(Stage(name, True, evidence, took))

    def _run(self, path: Path, tmp: Path, verdict: Verdict) -> None:
        package = self._load(path, verdict)
        verdict.task_id = package.id
        self._stage(verdict, "safety", lambda: _check_safety(package))
        self._stage(verdict, "schema", lambda: _check_schema(package))
        verdict.dedup_key = dedup_key(package.task)  # a valid task.json has what the key is made of
        self._stage(verdict, "grounding", lambda: _check_grounding(package))
        self._stage(verdict, "content", lambda: _check_content(package))
        initial = tmp / "initial"
        initial.mkdir()
        self._stage(verdict, "setup", lambda: self._setup(package, initial))
        self.runner.prepare(tmp)
        controls = [("noop", None, False), ("oracle", package.task["solutions"]["oracle"], True)]
        controls += [(f"near-miss:{Path(near).stem}", near, False) for near in package.task["solutions"]["near_misses"]]
        futures = [self._threads.submit(self._control, package, initial, tmp / f"state-{i}", solution, want,
                                        mutate=name == "oracle")
                   for i, (name, solution, want) in enumerate(controls)]
        try:
            mutation: dict[str, Any] | None = None
            for (name, solution, want), future in zip(controls, futures, strict=True):
                control, unsafe = future.result()
                self._stage(verdict, name, partial(self._judge, control, unsafe, solution, want=want),
                            control.seconds)
                mutation = control.mutation if name == "oracle" else mutation
            answer = mutation or {"error": "the check worker returned no mutation answer for the oracle"}
            self._stage(verdict, "mutation", partial(self._judge_mutation, answer), answer.get("seconds", 0.0))
            if self.teacher and package.task["solutions"].get("teacher"):
                self._stage(verdict, "teacher", partial(self._teacher, package, initial, tmp / "teacher"))
        finally:
            wait(futures)  # a failed stage must not leave controls writing into the temp folder

    def _load(self, path: Path, verdict: Verdict) -> Package:
        try:  # before task.json is opened: a fifo there must not hang us, a link must not lead us out
            _scan_tree(path)
        except _Fail as failure:
            verdict.stages.append(Stage("safety", False, failure.evidence))
            raise
        try:
            return load_package(path)
        except PackageError as exc:
            verdict.stages.append(Stage("schema", False, str(exc)))
            raise _Fail("schema_fail", str(exc)) from None

    def _setup(self, package: Package, home: Path) -> str:
        ran = self.env.run_setup(package, home)
        if getattr(ran, "infra", ""):  # a full scratch disk, no processes left: retried, never held against it
            raise _Fail("infra_fail", f"setup.sh could not run: {ran.evidence()}")
        if ran.unsafe:
            raise _Fail("unsafe", f"setup.sh broke the sandbox rules: {ran.evidence()}")
        if not ran.ok:
            raise _Fail("setup_fail", f"setup.sh failed: {ran.evidence()}")
        want = {a["dest"].removeprefix(HOME + "/"): a["sha256"] for a in package.task["setup"]["assets"]}
        got = _snapshot(home)
        if got != want:
            missing = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            changed = sorted(k for k in set(want) & set(got) if want[k] != got[k])
            raise _Fail("setup_fail", f"initial state differs from the declared assets: missing {missing}, "
                                      f"unexpected {extra}, different content {changed}")
        return f"setup.sh placed exactly the {len(want)} declared files"

    def _control(self, package: Package, initial: Path, state: Path, solution: str | None, want: bool,
                 *, mutate: bool = False) -> tuple[Control, bool]:
        """Run one control; returns what it produced and whether a script broke the sandbox rules.

        With `mutate` (the oracle), the worker also runs the mutation control on the state it reached."""
        rubric = package.task["rubric"]
        budget = list(self.mutants) if self.mutants is not None else None
        extra = {"mutate": {"task": package.task, "initial": str(initial), "budget": budget}} if mutate else {}
        if solution is None or not solution.endswith(".sh"):
            ops = None if solution is None else json.loads((package.root / solution).read_text("utf-8")).get("ops")
            return self.runner.control({"initial": str(initial), "state": str(state), "ops": ops,
                                        "rubric": rubric, "stop_on_fail": not want, **extra}), False
        with self._scripts:
            shutil.copytree(initial, state, symlinks=True, copy_function=shutil.copy)  # see controls.run_control
            ran = self.env.apply_solution(package, solution, state)
        if not ran.ok:
            return Control(False, ran.evidence()), ran.unsafe
        self.runner.prepare(state)
        return self.runner.control({"initial": None, "state": str(state), "ops": None, "rubric": rubric,
                                    "stop_on_fail": not want, **extra}), False

    def _teacher(self, package: Package, initial: Path, state: Path) -> str:
        """The teacher control: the oracle as terminal commands (solution/teacher.json) run through the student's
        own shell on a copy of the initial state; the rubric must pass on what they leave (`unsolvable` if not)."""
        rel = package.task["solutions"]["teacher"]
        _check_solution_file(package.root, rel)
        try:
            teacher = json.loads((package.root / rel).read_text(encoding="utf-8"))
            commands = teacher.get("commands") or []
            if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
                raise ValueError("'commands' must be a list of strings")
        except (ValueError, AttributeError, UnicodeDecodeError) as exc:
            raise _Fail("schema_fail", f"{rel}: {exc}; it holds {{'commands': [shell command, ...]}}") from None
        if not commands:
            return f"no terminal solution: {teacher.get('why') or 'the family needs the GUI'}"
        with self._scripts:
            shutil.copytree(initial, state, symlinks=True, copy_function=shutil.copy)
            ran = self.env.run_teacher(package, commands, state)
        if ran is None:
            return "not run: the teacher's commands run only in the student's sandbox (bubblewrap)"
        if ran.unsafe:
            raise _Fail("unsafe", f"{rel} broke the sandbox rules: {ran.evidence()}")
        if not ran.ok:
            raise _Fail("unsolvable", f"the terminal solution ({rel}) failed: {ran.evidence()}")
        self.runner.prepare(state)
        control = self.runner.control({"initial": None, "state": str(state), "ops": None,
                                       "rubric": package.task["rubric"], "stop_on_fail": False})
        if control.infra:
            raise _Fail("infra_fail", f"{rel}: {control.error}")
        failed = [CheckOutcome(**o) for o in control.outcomes if not o["passed"]]
        if failed or not control.outcomes:
            raise _Fail("unsolvable", f"rubric fails on the terminal solution ({rel}): {_summary(failed)}")
        return f"all {len(control.outcomes)} checks pass on the terminal solution ({len(commands)} command(s))"

    def _judge_mutation(self, answer: dict[str, Any]) -> str:
        status, evidence = judge_mutants(answer)
        if status is not None:
            raise _Fail(status, evidence)
        return evidence

    def _judge(self, control: Control, unsafe: bool, solution: str | None, *, want: bool) -> str:
        label = solution or "initial state"
        if control.infra:
            raise _Fail("infra_fail", f"{label}: {control.error}")
        if unsafe:
            raise _Fail("unsafe", f"{solution} broke the sandbox rules: {control.error}")
        if control.unsafe:  # a bomb, a disk flood or a CPU hog on the way (kit.bounded limits)
            raise _Fail("unsafe", f"{label}: {control.error}")
        if not control.applied:
            if not want:  # a near-miss that cannot even run proves nothing about the rubric
                raise _Fail("schema_fail", f"{label} could not be applied: {control.error}")
            raise _Fail("unsolvable", f"{label} could not be applied: {control.error}")
        outcomes = [CheckOutcome(**o) for o in control.outcomes]
        passed = all(o.passed for o in outcomes)
        if passed and not want:
            raise _Fail("trivial" if solution is None else "lax", f"rubric passes on {label}: {_summary(outcomes)}")
        if not passed and want:
            raise _Fail("unsolvable", f"rubric fails on {label}: {_summary([o for o in outcomes if not o.passed])}")
        failed = [o for o in outcomes if not o.passed]
        if want:
            return f"all {len(outcomes)} checks pass on {label}"
        return f"rubric fails on {label} as it must: {_summary(failed[:2])}"

    def dedup(self, path: Path, verdict: Verdict) -> Verdict:
        """The last stage, for a verdict that passed every other: is the task new?"""
        if verdict.accepted:
            key = verdict.dedup_key or dedup_key(load_package(path).task)
            try:
                self._stage(verdict, "dedup", lambda: self._dedup(key, verdict.task_id))
            except _Fail as failure:
                verdict.status = failure.status
        return verdict

    def _dedup(self, key: str, task_id: str) -> str:
        other = self.env.find_duplicate(key, task_id)
        if other is not None:
            raise _Fail("duplicate", f"same params, artifacts and rubric as accepted task {other}")
        return f"dedup key {key} is new"
