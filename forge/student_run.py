"""`forge student run`: a real model works on Forge tasks through a terminal; the rubric scores its end state.

For each task: setup.sh builds the initial state in a fresh home (kit.sandbox, as the gate does); the agent loop
(forge.agent.episode) gives the model the instruction with a listing of that home (`first_turn`) and one tool, a
shell in that home, each command in bubblewrap without the package or the network; when the model is done or out of
steps, the rubric's checks run against the home as `forge check` runs them (forge.solve.check_state: the untrusted
state copied without links, fifos or devices into a sandboxed check worker with memory and CPU limits), one outcome
per check.

Output, in OSWorld's results layout so `forge feedback ingest` reads it like any OSWorld run:

    <out>/shell/terminal/<model>/<domain>/<task_id>/
        traj.jsonl     one line per step: command, output shown, exit code, seconds, tokens (an {"Error": ...}
                       line when the model or the sandbox failed: an infrastructure failure, not a score)
        checks.json    the rubric's verdict check by check, and `failed_checks` (the ids of failed checks)
        messages.json  the episode as chat messages with tool calls (`forge export trajectories` reads it)
        result.txt     the score: 1.0 when every check passes, else 0.0; written last, atomically

A task is finished when its result.txt exists: a killed run, run again, skips finished tasks and starts the others
over in a fresh home. `attempt` is that per-task part (home, episode, rubric, result folder), shared with the
offline batch path (forge.student_batch). The run is a `runs` row with kind 'student'; every model turn is an
`llm_calls` row (node `student`) for tasks the catalog knows; the answer cache, budget caps and concurrency are
`forge generate`'s (forge.llm).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge.agent.chat import ChatClient, Turn
from forge.agent.episode import CONTEXT_CHARS, TOOL, Episode, ProtocolSwitch, Step, run_episode
from forge.agent.shell import AgentShell, refuse_visible
from forge.catalog import Catalog
from forge.llm.budget import Budget
from forge.llm.config import LLMConfig
from forge.llm.stream import Ticker
from forge.solve import check_state
from kit import bounded, scratch
from kit.errors import ForgeError
from kit.ids import derive_seed, path_inside, safe_id
from kit.package import Package, load_package
from kit.sandbox import Sandbox, chown_tree, scan_home

ACTION_SPACE = "shell"
OBSERVATION = "terminal"
PROTOCOLS = ("auto", "tools", "text")


class StudentRunError(ForgeError, ValueError):
    """A student run asked for something it cannot do (no tasks, bad selection)."""


@dataclass(frozen=True)
class StudentOptions:
    """How the agent works; the per-command limits (wall time, CPU, memory) are the sandbox's `Limits`."""

    max_steps: int = 30
    concurrency: int = 1
    protocol: str = "auto"
    seed: int = 0
    context_chars: int = CONTEXT_CHARS


def model_folder(model: str) -> str:
    """The model's folder name in the results layout (one path component)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("._") or "model"


def result_folder(out: Path, model: str, domain: str, task_id: str) -> Path:
    """`<out>/shell/terminal/<model>/<domain>/<task_id>`; `UnsafeIdError` when `domain` or `task_id` (read from a
    package) could leave `out`, before anything is made or removed."""
    root = out / ACTION_SPACE / OBSERVATION / model_folder(model)
    return path_inside(root, safe_id(domain, what="app"), safe_id(task_id), what="result folder")


def find_packages(paths: Sequence[Path]) -> list[Path]:
    """Package folders in or below `paths` (a generate output's rejected/ folder is left out)."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            raise StudentRunError(f"{path}: not a folder; give package folders or a folder holding them")
        if (path / "task.json").is_file():
            found.append(path)
            continue
        below = sorted(p.parent for p in path.rglob("task.json") if "rejected" not in p.relative_to(path).parts)
        if not below:
            raise StudentRunError(f"{path}: no task.json in or below this folder; give `forge generate --out` "
                                  "folders, --round N or --query")
        found += below
    return found


def catalog_packages(catalog: Catalog, *, round_n: int | None = None, query: str | None = None) -> list[Path]:
    """Accepted tasks of a round, or the task ids in the first column of a read-only query, as package paths."""
    if round_n is not None:
        rows = catalog.accepted_in_round(round_n)
    else:
        assert query is not None
        _, result = catalog.query(query)
        ids = sorted({str(r[0]) for r in result if r})
        recorded = catalog.recorded(ids)
        rows = [(task_id, recorded[task_id][1]) for task_id in ids if task_id in recorded]
        unknown = sorted(set(ids) - set(recorded))
        if unknown:
            raise StudentRunError(f"--query: {len(unknown)} id(s) are not catalog tasks, e.g. {unknown[0]!r}; "
                                  "the first column must be tasks.id")
    missing = [task_id for task_id, path in rows if not path or not (Path(path) / "task.json").is_file()]
    if missing:
        raise StudentRunError(f"{len(missing)} selected task(s) have no package on disk, e.g. {missing[0]!r}; "
                              "run the student where the packages were generated")
    return [Path(path) for _, path in rows if path]


def _scan(home: Path) -> list[str]:
    """What the agent left that a home must not hold (links out, fifos, devices, setuid): evidence only; the
    checks read a copy without them."""
    try:
        return scan_home(home)
    except (OSError, RecursionError) as exc:  # a tree deeper than a walk can go is itself worth a note
        return [f"the home could not be scanned ({type(exc).__name__}); it is too deep or unreadable"]


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def finished(folder: Path) -> bool:
    """A task's result folder is finished when its result.txt exists (written last): a rerun skips it."""
    return (folder / "result.txt").is_file()


def prepare_home(package: Package, sandbox: Sandbox, home: Path) -> str:
    """Build the task's initial state in `home` (an empty folder) with its setup.sh in the sandbox, as the gate
    does, and give it to the sandbox user the agent's commands run as. '' or why it failed (infrastructure)."""
    ran = sandbox.run_script(package.root, "setup.sh", home)
    if not ran.ok:
        return f"setup.sh failed in the sandbox: {ran.evidence()}"
    if sandbox.as_root:
        chown_tree(home)  # the agent's commands run as nobody: the initial state is theirs to change
    return ""


def attempt(package: Package, folder: Path, sandbox: Sandbox, work: Path,
            act: Callable[[Path, Callable[[Step], None]], Episode], *, model: str) -> str:
    """One attempt at one task, the part every student path shares (`forge student run`, `forge student answers`):
    a fresh home built by setup.sh (`prepare_home`) under `work` (a scratch folder, removed here), `act(home, log)`
    works on it and returns the episode (`log(step)` writes one traj.jsonl line per step), the rubric scores the
    end state (forge.solve.check_state), and `folder` gets checks.json, messages.json and, last, result.txt.
    `folder` (from `result_folder`) is emptied first: a killed attempt starts over. Returns passed, failed or
    infra (setup, sandbox, model or rubric failed: an {"Error": ...} line, no result.txt, retried by a rerun)."""
    task = package.task
    domain, task_id = str(task.get("app", "unknown")), package.id
    if folder.exists():
        shutil.rmtree(folder)  # a killed attempt: start it over
    folder.mkdir(parents=True)
    home = work / "home"
    home.mkdir(parents=True)
    traj = (folder / "traj.jsonl").open("a", encoding="utf-8")
    try:
        def log(step: Step) -> None:
            traj.write(json.dumps(step.as_json(), ensure_ascii=False) + "\n")
            traj.flush()

        def error(text: str) -> str:
            traj.write(json.dumps({"Error": text}, ensure_ascii=False) + "\n")
            return "infra"

        problem = prepare_home(package, sandbox, home)
        if problem:
            return error(problem)
        episode = act(home, log)
        if episode.error:
            return error(episode.error if episode.ended == "machine failure" else
                         f"the model could not be reached: {episode.error}")
        violations = _scan(home)
        try:
            outcomes = check_state(package, sandbox, home)
        except Exception as exc:  # a check bug or a broken worker is infrastructure: the next run retries
            why = str(exc) if isinstance(exc, ForgeError) else f"{type(exc).__name__}: {exc}"
            return error(f"the rubric could not be evaluated: {why}")
    finally:
        traj.close()
        with contextlib.suppress(OSError):
            bounded.rmtree(work)  # the agent's home may be hostile: deep, unreadable, full of links
    failed = [str(o.get("id")) for o in outcomes if not o.get("passed")]
    score = 1.0 if outcomes and not failed else 0.0
    verdict = {"task_id": task_id, "domain": domain, "model": model, "score": score,
               "passed": not failed, "failed_checks": failed, "checks": outcomes, "ended": episode.ended,
               "protocol": episode.protocol, "steps": sum(s.action != "DONE" for s in episode.steps),
               "violations": violations}
    if episode.declared:  # the agent declined the task as infeasible (forge.agent.episode.declare)
        verdict["declared_infeasible"] = episode.declared
    write_atomic(folder / "checks.json", json.dumps(verdict, indent=1, ensure_ascii=False, default=str))
    write_atomic(folder / "messages.json", json.dumps(
        {"task_id": task_id, "domain": domain, "model": model, "tools": [TOOL],
         "messages": episode.messages}, indent=1, ensure_ascii=False))
    write_atomic(folder / "result.txt", f"{score}\n")
    return "passed" if score == 1.0 else "failed"


class StudentRun:
    """One run of one model over some packages; `run()` returns counts (scored, passed, infra, already ...)."""

    def __init__(self, catalog: Catalog, config: LLMConfig, out: Path, sandbox: Sandbox,
                 options: StudentOptions = StudentOptions(), budget: Budget | None = None,
                 chat: ChatClient | None = None, progress: Callable[[str, str], None] | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        if options.protocol not in PROTOCOLS:
            raise StudentRunError(f"--protocol {options.protocol!r}: use one of {', '.join(PROTOCOLS)}")
        self.catalog, self.config, self.out, self.options = catalog, config, out, options
        self.chat = chat or ChatClient(config, catalog)
        self.shell = AgentShell(sandbox)
        self.sandbox = sandbox
        self.budget = budget or Budget()
        self.progress = progress
        self.protocol = "tools" if options.protocol == "auto" else options.protocol
        #: How `auto` chose the protocol (for the run's summary); empty when the protocol was given.
        self.protocol_note = ""
        #: The server's measured speed and the per-call limits fitted to it (for the run's summary).
        self.speed_note = ""
        #: A line now and then while turns are in flight (`say`): a slow server otherwise looks like a hang.
        self.ticker = Ticker(self.chat.meter, say) if say is not None else None
        self.stopped: str | None = None
        self._lock = threading.Lock()
        self._failure: BaseException | None = None

    def run(self, packages: Sequence[Path], selection: dict[str, Any]) -> Counter[str]:
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StudentRunError(f"--out {self.out}: cannot create this folder ({exc.strerror or exc}); "
                                  "choose another") from None
        loaded = [load_package(p) for p in packages]
        for package in loaded:
            refuse_visible(package.root)
        known = self._known_tasks([p.id for p in loaded])
        if loaded:  # a slow server: per-call limits that fit it, before the first turn times out
            self.speed_note = self.chat.fit_speed()
        if self.ticker is not None:
            self.ticker.ensure()
        if self.options.protocol == "auto" and loaded:
            self._choose_protocol()
        run_id = self._start(len(loaded), selection)
        counts: Counter[str] = Counter()
        status = "failed"
        try:
            def work(item: tuple[int, Package]) -> str:
                index, package = item
                if self._failure is not None:
                    return "not started"
                try:
                    return self._task(package, workdir / f"task-{index}", run_id, package.id in known)
                except BaseException as exc:  # the first fatal error (bad key, model) stops the run
                    with self._lock:
                        self._failure = self._failure or exc
                    return "not started"

            # an owned scratch folder: removed at the end, and swept by the next run if this one is killed
            with scratch.owned_folder("work") as workdir, \
                    ThreadPoolExecutor(max(1, self.options.concurrency), thread_name_prefix="student") as pool:
                for outcome in pool.map(work, enumerate(loaded)):
                    counts[outcome] += 1
            if self._failure is not None:
                raise self._failure
            status = "stopped" if self.stopped else "finished"
        except KeyboardInterrupt:
            status = "interrupted"
            raise
        finally:
            counts.pop("not started", None)
            self.catalog.finish_run(run_id, dict(counts), status)
        return counts

    def _task(self, package: Package, work: Path, run_id: int, known: bool) -> str:
        folder = result_folder(self.out, self.config.model, str(package.task.get("app", "unknown")), package.id)
        if finished(folder):
            return "already"
        with self._lock:
            reason = self.budget.exhausted()
            if reason:
                self.stopped = reason
                return "not started"

        def act(home: Path, log: Callable[[Step], None]) -> Episode:
            episode = self._episode(str(package.task.get("instruction", "")), home, package.id, log)
            self._ledger(episode.turns, package.id, run_id, known)
            return episode

        outcome = attempt(package, folder, self.sandbox, work, act, model=self.config.model)
        self._note(package.id, outcome)
        return outcome

    def _episode(self, instruction: str, home: Path, task_id: str, log: Callable[[Step], None]) -> Episode:
        seed = derive_seed(self.options.seed, task_id) % (1 << 31)
        while True:
            protocol = self.protocol
            try:
                episode = run_episode(instruction, home, self.shell, self.chat, max_steps=self.options.max_steps,
                                      seed=seed, protocol=protocol, context_chars=self.options.context_chars,
                                      on_step=log)
            except ProtocolSwitch:
                if self.options.protocol != "auto" or protocol == "text":
                    return Episode(protocol, ended="llm problem",
                                   error="the server refused tool calling; pass --protocol text")
                with self._lock:
                    self.protocol = "text"  # this server has no tool calling: every later task speaks text
                continue
            with self._lock:
                self.budget.add(episode.turns)
            return episode

    def _choose_protocol(self) -> None:
        """`auto`: ask the server once whether it returns tool calls (forge.agent.chat.ChatClient.probe_tools); a
        server that refuses tools or ignores them gets the text protocol, where the model writes its command in a
        fenced block. Undecided (no answer): tools, and a refusal during the run still switches."""
        works, evidence = self.chat.probe_tools(TOOL)
        if works is False:
            self.protocol = "text"
        self.protocol_note = f"protocol {self.protocol}: {evidence}"

    def _ledger(self, turns: list[Turn], task_id: str, run_id: int, known: bool) -> None:
        """One `llm_calls` row per turn (tasks the catalog does not hold have no row to point at)."""
        if not known or not turns:
            return
        self.catalog.record_turns(task_id, run_id, turns)

    def _known_tasks(self, ids: list[str]) -> set[str]:
        return set(self.catalog.recorded(ids))

    def _start(self, requested: int, selection: dict[str, Any]) -> int:
        """A `runs` row like `forge generate`'s (host, pid; dead runs of this host marked interrupted first),
        of kind 'student'."""
        return self.catalog.start_run(
            seed=self.options.seed, requested=requested, out_dir=str(self.out), backend="openai",
            selection={**selection, "model": self.config.model, "base_url": self.config.base_url,
                       "max_steps": self.options.max_steps, "protocol": self.options.protocol},
            kind="student", round=selection.get("round"))

    def _note(self, task_id: str, outcome: str) -> None:
        if self.progress is not None:
            self.progress(task_id, outcome)
