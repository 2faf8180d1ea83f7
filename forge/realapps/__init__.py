"""The real-application tier: after the tier-1 gate, real apps open the artifacts and redo the oracle.

For a task the tier samples (`--real-apps off|sample|all`, sampling by a hash of the task id so a rerun
samples the same tasks) it adds two gate stages:
- `real-open`: every office asset opens in its LibreOffice module with its text intact; a Thunderbird
  profile loads (headless, over Marionette) with the folders, message counts, filters and contacts its
  files describe. Failing -> `setup_fail`: the initial state is not what the task claims.
- `alternative`: the rubric must pass on what the real app produces — the oracle's result re-saved by
  LibreOffice (a GUI agent's ctrl+s), or Thunderbird carrying out the oracle's ops itself and writing its
  own files (prefs.js, msgFilterRules.dat, abook.sqlite, mbox). Failing -> `strict`.
  Checks marked `headless=False` (view state a headless re-save drops) are left out and named.
Tasks are checked in batches: one soffice call per batch and format, not one per task; a batch's Thunderbird
tasks run `THUNDERBIRDS` at a time, each in one Thunderbird start (`thunderbird.open_and_alternative`).

A failure of the tier itself is infrastructure (`real-infra` -> `infra_fail`, retried by a rerun) and touches only
the tasks it concerns: LibreOffice dying fails the batch's office tasks, Thunderbird failing fails that task, a
bug in one package's preparation fails that package. A machine-side cause quoted in any stage's evidence (a fork
refused with "Resource temporarily unavailable", a full disk) makes that stage `real-infra` too (forge.realapps.infra).
Rerunning setup.sh or the oracle, both already proven by the gate, can only fail for the machine: `real-infra`.
A tier whose dependency is absent (no `soffice`; no `thunderbird` or `marionette_driver`) is skipped, never failed:
`missing()` names what is absent so the command line prints one note.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from forge.daemons import in_threads
from forge.realapps import libreoffice, thunderbird
from forge.realapps.infra import as_infra
from kit import bounded
from kit.errors import ForgeError
from kit.model import HOME
from kit.package import Package
from kit.sandbox import Sandbox
from verifiers import checks
from verifiers.gate.stages import ControlRunner, GateEnv, Stage

MODES = ("off", "sample", "all")
OFFICE_APPS = ("calc", "writer", "impress")
#: Asset `app` values the tier has a real application for.
REAL_APPS = (*OFFICE_APPS, "thunderbird")
#: Thunderbird sessions at once: a start is ~2.5 s of CPU on one core, and the pipeline beside the tier leaves a core
#: idle much of the time (measured, `forge generate -n 2000 --seed 7`: 481 s with one session at a time, 397 s with two)
THUNDERBIRDS = 2
#: A failing stage -> the task's class.
FAILS_AS = {"real-open": "setup_fail", "alternative": "strict", "real-infra": "infra_fail"}


@dataclass(frozen=True)
class Policy:
    """Which tasks the tier checks."""

    mode: str = "sample"
    rate: float = 0.1

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ForgeError(f"--real-apps {self.mode!r}: choose one of {', '.join(MODES)}")
        if not 0.0 <= self.rate <= 1.0:
            raise ForgeError(f"--real-apps-rate {self.rate}: give a fraction between 0 and 1")

    def wants(self, task: dict[str, Any]) -> bool:
        if self.mode == "off" or not any(a.get("app") in REAL_APPS for a in task["setup"]["assets"]):
            return False
        if self.mode == "all":
            return True
        bucket = int(hashlib.sha256(str(task["id"]).encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
        return bucket < self.rate


class RealApps:
    """Runs the tier for batches of packages, with one LibreOffice instance in `workdir`."""

    def __init__(self, policy: Policy, env: GateEnv, runner: ControlRunner, workdir: Path,
                 sandbox: Sandbox | None = None) -> None:
        self.policy = policy
        self.env = env
        self.runner = runner
        self.workdir = workdir
        self.sandbox = sandbox
        self._office: libreoffice.Office | None = None
        self.files = 0
        self.seconds = 0.0

    def office(self) -> libreoffice.Office:
        """The batch's LibreOffice, started on first use."""
        if self._office is None:
            self._office = libreoffice.Office(Path(tempfile.mkdtemp(prefix="office-", dir=self.workdir)), self.sandbox)
        return self._office

    def check(self, packages: list[Package]) -> list[list[Stage]]:
        """The tier's stages for each package (stopping at a package's first failing stage)."""
        if not packages:
            return []
        start = time.perf_counter()
        batch = Path(tempfile.mkdtemp(prefix="batch-", dir=self.workdir))
        try:
            self.runner.prepare(batch)
            stages = self._check(packages, batch)
        except Exception as exc:  # a bug of the tier itself: infrastructure, never evidence against the tasks
            stages = [[_infra("the real-app tier", exc)] for _ in packages]
        finally:
            shutil.rmtree(batch, ignore_errors=True)
        self.seconds += time.perf_counter() - start
        return [[as_infra(stage) for stage in task_stages] for task_stages in stages]

    def _check(self, packages: list[Package], batch: Path) -> list[list[Stage]]:
        assets = {p.id: [p.root / a["file"] for a in p.task["setup"]["assets"]
                         if a.get("app") in OFFICE_APPS and Path(a["file"]).suffix in libreoffice.FORMATS]
                  for p in packages}  # office documents; a CSV opened in Calc has no document to validate
        results: dict[str, list[Stage]] = {p.id: [] for p in packages}
        office_broken: Exception | None = None
        t0 = time.perf_counter()
        opened: dict[Path, libreoffice.Opened] = {}
        try:
            if any(assets.values()):
                opened = libreoffice.open_check(self.office(), [f for files in assets.values() for f in files])
        except Exception as exc:  # LibreOffice itself failed: only the office tasks are touched
            office_broken = exc
        open_share = (time.perf_counter() - t0) / len(packages)
        states: dict[str, tuple[Path, Path]] = {}
        for i, package in enumerate(packages):
            stages = results[package.id]
            if assets[package.id]:
                if office_broken is not None:
                    stages.append(_infra("LibreOffice", office_broken))
                    continue
                verdicts = [opened[f] for f in assets[package.id]]
                bad = [v.evidence for v in verdicts if not v.ok]
                stages.append(Stage("real-open", not bad, "; ".join(bad or [v.evidence for v in verdicts]),
                                    open_share))
                if bad:
                    continue
            try:
                made = self._states(package, batch / f"s{i}")
            except Exception as exc:  # one package's preparation broke: that package only
                stages.append(_infra("the real-app tier", exc))
                continue
            if isinstance(made, Stage):
                stages.append(made)
                continue
            states[package.id] = made
        mail = [p for p in packages if p.id in states and thunderbird.profile_of(p.task, states[p.id][0]) is not None]
        if mail and not thunderbird.missing():
            jobs = [partial(self._thunderbird, p, *states[p.id]) for p in mail]
            for package, stages in zip(mail, in_threads(jobs, THUNDERBIRDS, "thunderbird"), strict=True):
                results[package.id].extend(stages)
        self.files += sum(len(files) for files in assets.values())
        todo = [p for p in packages if p.id in states and assets[p.id] and all(s.passed for s in results[p.id])]
        if not todo:
            return [results[p.id] for p in packages]
        t0 = time.perf_counter()
        # what a GUI agent saves: the office files the oracle wrote, not the ones it left alone (a look-alike copy the
        # rubric requires byte for byte, re-saved, would make a right task `strict`)
        office_files = [f for p in todo for f in sorted(states[p.id][1].rglob("*"))
                        if f.suffix in libreoffice.FORMATS and _written(states[p.id][0], states[p.id][1], f)]
        try:
            saved = libreoffice.resave(self.office(), office_files)
        except Exception as exc:
            for package in todo:
                results[package.id].append(_infra("LibreOffice", exc))
            return [results[p.id] for p in packages]
        resave_share = (time.perf_counter() - t0) / max(1, len(todo))
        for package in todo:
            try:
                stage = self._alternative(package, states[package.id][1], saved, resave_share)
            except Exception as exc:
                stage = _infra("the real-app tier", exc)
            results[package.id].append(stage)
        return [results[p.id] for p in packages]

    def _states(self, package: Package, root: Path) -> tuple[Path, Path] | Stage:
        """(initial state, Forge's oracle state) for a package, or the stage saying why not. The gate already ran
        this setup.sh and this oracle successfully, so failing here is the machine's doing: `real-infra`."""
        initial, state = root / "initial", root / "oracle"
        initial.mkdir(parents=True)
        ran = self.env.run_setup(package, initial)
        if not ran.ok:
            return Stage("real-infra", False, f"setup.sh, which passed the gate, failed in the real-app tier: "
                                              f"{ran.evidence()}")
        self.runner.prepare(root)
        oracle = package.task["solutions"]["oracle"]
        ops = json.loads((package.root / oracle).read_text("utf-8")).get("ops")
        done = self.runner.control({"initial": str(initial), "state": str(state), "ops": ops, "rubric": []})
        if not done.applied:
            return Stage("real-infra", False, f"{oracle}, which passed the gate, could not be applied in the "
                                              f"real-app tier: {done.error}")
        return initial, state

    def _thunderbird(self, package: Package, initial: Path, oracle_state: Path) -> list[Stage]:
        """Thunderbird loads the initial profile as its files say; then it carries out the oracle itself."""
        try:
            return [Stage(name, ok, evidence if name == "real-infra" else f"Thunderbird: {evidence}", seconds)
                    for name, ok, evidence, seconds in thunderbird.open_and_alternative(
                        package.root, package.task, oracle_state, initial)]
        except Exception as exc:  # the driver or the tier broke: this task only, as infrastructure
            return [_infra("Thunderbird", exc)]

    def _alternative(self, package: Package, state: Path, saved: dict[Path, tuple[Path | None, str]],
                     seconds: float) -> Stage:
        for file in sorted(state.rglob("*")):
            if file in saved:
                out, used = saved[file]
                if out is None:
                    where = HOME + "/" + str(file.relative_to(state))
                    return Stage("alternative", False, f"LibreOffice could not re-save {where}: {used}", seconds)
                shutil.copyfile(out, file)
        registry = checks.registry()
        rubric = [c for c in package.task["rubric"] if registry[c["primitive"]].headless]
        skipped = [c["id"] for c in package.task["rubric"] if not registry[c["primitive"]].headless]
        note = f"; not judged headlessly: {skipped}" if skipped else ""
        if not rubric:
            return Stage("alternative", True, f"every check reads view state a headless re-save drops{note}", seconds)
        self.runner.prepare(state)
        control = self.runner.control({"initial": None, "state": str(state), "ops": None, "rubric": rubric})
        failed = [o for o in control.outcomes if not o["passed"]]
        if not control.applied or failed:
            why = control.error or "; ".join(f"{o['id']}: {o['evidence']}" for o in failed)
            return Stage("alternative", False, f"rubric fails on the oracle result re-saved by LibreOffice: {why}",
                         seconds)
        return Stage("alternative", True, f"all {len(rubric)} checks pass on the oracle result re-saved by "
                                          f"LibreOffice{note}", seconds)


def _written(initial: Path, oracle: Path, file: Path) -> bool:
    """Did the oracle create or change `file` of its end state (rooted at `oracle`; `initial` is the state before)?"""
    try:  # bounded: a state's files came from a package's setup.sh (no link followed, no fifo waited on)
        return bounded.read_file(initial / file.relative_to(oracle)) != bounded.read_file(file)
    except (OSError, ValueError):
        return True  # missing before, or unreadable: re-saved, and LibreOffice says what it makes of it


def _infra(what: str, exc: BaseException) -> Stage:
    return Stage("real-infra", False, f"{what} failed: {type(exc).__name__}: {exc}")


def missing() -> list[str]:
    """One line per real application the tier would use but cannot (what is absent and how to install it);
    empty when everything is there. Its tasks are then not checked by that app: skipped, never failed."""
    notes = []
    if not libreoffice.available():
        notes.append("LibreOffice is not installed, so office files are not checked in real LibreOffice "
                     "(apt-get install libreoffice-calc-nogui libreoffice-writer-nogui libreoffice-impress-nogui "
                     "poppler-utils)")
    gone = thunderbird.missing()
    if gone:
        notes.append(f"{gone}, so Thunderbird profiles are not checked in real Thunderbird")
    return notes


@contextmanager
def real_apps(policy: Policy, env: GateEnv, runner: ControlRunner, workdir: Path,
              sandbox: Sandbox | None) -> Iterator[RealApps | None]:
    """The tier for a run, or None when it is off; refuses `all` without LibreOffice."""
    if policy.mode == "off":
        yield None
        return
    if not libreoffice.available():
        if policy.mode == "all":
            raise libreoffice.RealAppError("--real-apps all needs LibreOffice (soffice), which is not installed; "
                                           "apt-get install libreoffice-calc-nogui libreoffice-writer-nogui "
                                           "libreoffice-impress-nogui poppler-utils, or pass --real-apps off")
        yield None
        return
    yield RealApps(policy, env, runner, workdir, sandbox)
