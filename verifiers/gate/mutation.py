"""The mutation control: run every mutator on the oracle's end state and judge the rubric on each mutant.

Runs inside the sandboxed check worker right after the oracle control passed (`verifiers.gate.controls.run_control`),
so the oracle's state, the parsed documents and the imported checks are all warm, and hostile files are only
ever parsed in the sandbox. Each mutant gets a private copy of the oracle state; damaging mutants stop at the
first failing check (one failure is enough to prove the rubric rejects them).

The gate turns the answer into the `mutation` stage: a damaging mutant that passes makes the task `lax`, a
neutral one that fails makes it `strict`, a mutator that crashes is infrastructure (never evidence). The
stage's evidence is one human line, then one JSON line holding the per-mutant table (`table()` reads it back),
which `forge show` prints.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kit import bounded, parsecache
from kit.model import HOME
from verifiers import checks
from verifiers.mutants import Lazy, Mutant
from verifiers.readers import StateError

#: Marks the JSON line of the stage's evidence.
TABLE = "mutants: "
#: How many (damaging, neutral) mutants one task's gate evaluates; `None` (the default, for generation, `forge
#: verify` and the tests alike) evaluates all: a task is accepted only when every damaging mutant is rejected and
#: every neutral one passes (measured: Calc full/bare throughput 0.48-0.49 with all of them, target >= 0.45). A
#: budget draws a sample per task (from its id: run seed, skill and index; the run seed alone is shared by a whole
#: batch), round-robin over the mutant kinds, for a caller that must trade proof for speed.
BUDGET: tuple[int, int] | None = None
#: An oracle state bigger than this is not copied for mutants (generated states are a few hundred KB; a bigger one
#: comes from a package made elsewhere, and copying it per mutant would cost more than the whole gate).
MAX_STATE_BYTES = 64 << 20


def _kind(mutant: Mutant) -> str:
    return mutant.name.split(":", 1)[0]


def sample(mutants: list[Mutant], rng: random.Random, budget: Sequence[int] | None) -> list[Mutant]:
    """Up to `budget` (damaging, neutral) of `mutants`, in their original order, drawn round-robin over kinds."""
    if budget is None:
        return mutants
    chosen: set[int] = set()
    for kind, count in zip(("damaging", "neutral"), budget, strict=True):
        groups: dict[str, list[int]] = {}
        for i, mutant in enumerate(mutants):
            if mutant.kind == kind:
                groups.setdefault(_kind(mutant), []).append(i)
        order = sorted(groups)
        rng.shuffle(order)
        taken = 0
        while taken < count and any(groups[k] for k in order):
            for k in order:
                if groups[k] and taken < count:
                    chosen.add(groups[k].pop(rng.randrange(len(groups[k]))))
                    taken += 1
    return [m for i, m in enumerate(mutants) if i in chosen]


def run_mutants(task: dict[str, Any], initial: Path, oracle: Path, scratch: Path,
                budget: Sequence[int] | None = BUDGET, *, in_memory: bool = True,
                parsed: checks.State | None = None) -> dict[str, Any]:
    """Apply the mutants of every mutator (a `sample` of them within `budget`) to copies of `oracle` (in
    `scratch`) and evaluate the rubric on each. `in_memory=False` takes the slow path for every mutant (applied to a
    copy on disk, parsed from there): the fast path must give the very same table (tests/verifiers/test_fast_path.py).
    `parsed`: the state the oracle's rubric was evaluated on; a mutant evaluated in memory reads the documents of it
    that the mutant leaves as they are from there instead of parsing them again.

    Returns {"mutants": [{name, kind, passed, evidence}], "offered": int, "seconds": float} or, when a
    mutator or a mutant's apply crashed, the same with "error"."""
    from verifiers.gate.rubric import evaluate_rubric
    from verifiers.mutants import MutationContext, registry

    start = time.perf_counter()
    seed = f"{task.get('id', '')}:{task.get('seed', 0)}"  # per task, deterministic
    results: list[dict[str, Any]] = []
    memo: dict[str, Any] = {}  # shared by the contexts: `changed()` is computed once per task
    scratch.mkdir(parents=True, exist_ok=True)

    offered: list[Mutant] = []

    def answer(error: str = "", skipped: str = "") -> dict[str, Any]:
        out: dict[str, Any] = {"mutants": results, "offered": len(offered), "seconds": time.perf_counter() - start}
        if error:
            out["error"] = error
        if skipped:
            out["skipped"] = skipped
        return out

    try:
        size = bounded.tree_bytes(oracle, MAX_STATE_BYTES)
    except (bounded.LimitExceeded, OSError) as exc:
        return answer(skipped=f"the oracle's state cannot be walked ({exc})")
    if size > MAX_STATE_BYTES:
        return answer(skipped=f"the oracle's state is over {MAX_STATE_BYTES >> 20} MB")
    with parsecache.hot_folder(oracle):
        for module, mutator in registry().items():
            # one RNG per module: adding a mutator elsewhere never changes this module's mutants
            ctx = MutationContext(task, initial, oracle, random.Random(f"{seed}:mutants:{module}"), memo)
            try:
                offered += mutator(ctx)
            except Exception as exc:  # a mutator bug is never evidence about the task
                return answer(f"mutator {module} crashed: {type(exc).__name__}: {exc}")
        for mutant in sample(offered, random.Random(f"{seed}:mutation-sample"), budget):
            work = scratch / str(len(results))
            try:
                if in_memory and (mutant.documents, mutant.rewrites, mutant.touches) != (None, None, None):
                    documents = _documents(mutant) if mutant.documents is not None else {}
                    state: checks.State = InMemory(oracle, documents, partial(_copy, oracle, work, mutant),
                                                   parsed=parsed, rewrites=mutant.rewrites or (),
                                                   touches=mutant.touches or (),
                                                   files=partial(_files, oracle, work.with_suffix(".files"), mutant))
                else:
                    state = checks.State(_copy(oracle, work, mutant))
                outcomes = evaluate_rubric(task, work, stop_on_fail=mutant.kind == "damaging", state=state)
            except _ApplyError as exc:
                return answer(f"mutant {mutant.name} crashed while applied: {exc}")
            failed = [o for o in outcomes if not o.passed]
            evidence = f"{failed[0].id}: {failed[0].evidence}" if failed else f"all {len(outcomes)} checks pass"
            results.append({"name": mutant.name, "kind": mutant.kind, "passed": not failed, "evidence": evidence})
            for folder in (work, work.with_suffix(".files")):  # most mutants, judged in memory, made neither
                if os.path.lexists(folder):
                    shutil.rmtree(folder, ignore_errors=True)
    return answer()


class _ApplyError(Exception):
    """A mutant's `apply` or `documents` crashed: a bug in the mutator, never evidence about the task."""


def _copy(oracle: Path, work: Path, mutant: Mutant) -> Path:
    """A private copy of the oracle state at `work` with `mutant` applied."""
    shutil.copytree(oracle, work, symlinks=True, copy_function=shutil.copy)  # see controls.run_control
    try:
        mutant.apply(work)
    except Exception as exc:
        raise _ApplyError(f"{type(exc).__name__}: {exc}") from exc
    return work


def _files(oracle: Path, work: Path, mutant: Mutant) -> Path | None:
    """A folder at `work` holding copies of only the files `mutant` rewrites, with its `apply` run on them: a check
    reading one of those files needs no copy of the whole state. None when that cannot stand for the whole copy: a
    declared path with a link on the way, whose folder the oracle lacks, or that is not a plain file; an `apply`
    that raised or left any other file."""
    declared = set(mutant.rewrites or ())
    top = oracle.resolve()
    for rel in sorted(declared):
        source = oracle / rel
        if (not source.parent.is_dir() or source.parent.resolve() != (top / rel).parent or source.is_symlink()
                or (source.exists() and not source.is_file())):
            return None
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        if source.exists():
            shutil.copy(source, work / rel)  # as `_copy` copies: contents and mode
    try:
        mutant.apply(work)
    except Exception:
        return None
    left = {p.relative_to(work).as_posix() for p in work.rglob("*") if not p.is_dir()}
    return work if left <= declared else None


def _documents(mutant: Mutant) -> dict[tuple[str, Any], Any]:
    assert mutant.documents is not None
    try:
        return mutant.documents()
    except Exception as exc:
        raise _ApplyError(f"{type(exc).__name__}: {exc}") from exc


class InMemory(checks.State):
    """The oracle state with some documents replaced by mutated ones held in memory.

    Reads of those documents through the same parser are served from memory (a `Lazy` one made on first read); any
    other access to a mutated file (another parser, its path, a folder holding it) first materializes the mutant on
    a private copy and reads from there, so no check ever sees the unmutated file in the mutant's place.
    `rewrites`: more files (home-relative) the mutant changes, that the checks read from the copy only.
    `parsed`: the oracle's own checked state; what it parsed from files the mutant leaves as they are is read from
    there (a document that reading changes, `checks.CHANGED_BY_READING`, taken back to how it was parsed first).
    `touches`: files whose times the mutant changes, not their contents: their parsed documents stay readable, a
    parse of one not parsed yet reads the oracle's file, and a look at such a file itself (its path) or a folder
    holding one materializes the mutant.
    `files`: makes a folder holding only the `rewrites` files, mutated (`_files`), or None; a read of one of those
    files, or a look at its path, is served from there. Whether a path is a file or a folder (`is_file`, `is_dir`)
    is answered without the copy: mutants change, create or remove the files they name, never a folder."""

    def read(self, path: str, parse: Callable[[Path], checks.T], what: str) -> checks.T:
        held = self._cache.get((path, parse))
        if isinstance(held, Lazy):
            self._cache[(path, parse)] = held.make()
        if held is None and self._materialize is not None and self._host(path) in self._touched:
            self._contents_only = True  # a parser reads contents, which `touches` leaves as they are: the oracle's
            try:
                return super().read(path, parse, what)
            finally:
                self._contents_only = False
        return super().read(path, parse, what)

    def __init__(self, oracle: Path, documents: dict[tuple[str, Any], Any], materialize: Callable[[], Path], *,
                 parsed: checks.State | None = None, rewrites: Sequence[str] = (), touches: Sequence[str] = (),
                 files: Callable[[], Path | None] | None = None) -> None:
        super().__init__(oracle)
        if parsed is not None and parsed.root == oracle:
            self.adopt_paths(parsed)
        changed = {super(InMemory, self).path(path) for path, _ in documents}
        self._rewritten = {super(InMemory, self).path(f"{HOME}/{rel}") for rel in rewrites}
        changed |= self._rewritten
        self._top, self._files = oracle.resolve(), files
        self._files_root: Path | None = None
        touched = {super(InMemory, self).path(f"{HOME}/{rel}") for rel in touches}
        if parsed is not None and parsed.root == oracle:
            for key, value in parsed.parsed().items():  # `read` parses regular files only: never a folder
                if self._host(key[0]) in (changed | {None}):
                    continue
                if key[1] in checks.CHANGED_BY_READING:  # taken back to how it was parsed when a check reads it
                    undo = parsed.as_parsed(key)
                    if undo is None:
                        continue
                    value = Lazy(undo)
                self._cache[key] = value
        self._cache.update(documents)
        self._mutated = changed | touched
        self._touched, self._contents_only = touched - changed, False
        self._materialize: Callable[[], Path] | None = materialize

    def _host(self, path: str) -> Path | None:
        """The host path for `path` in the oracle state, or None when it does not resolve."""
        try:
            return super().path(path)
        except StateError:
            return None

    def _in_files(self, host: Path) -> Path | None:
        """Where the files-only folder (made on first use) holds the rewritten file `host`, or None."""
        if host not in self._rewritten:
            return None
        if self._files is not None:
            self._files_root, self._files = self._files(), None
        return None if self._files_root is None else self._files_root / host.relative_to(self._top)

    def is_file(self, path: str) -> bool:
        return self._kind_of(path).is_file()

    def is_dir(self, path: str) -> bool:
        return self._kind_of(path).is_dir()

    def home_tree(self, unhashed: tuple[str, ...] = ()) -> Path:
        """The oracle's tree when the mutant changes only documents held in memory whose contents the walk does not
        read (`unhashed`: names, kinds and modes are the oracle's); else the mutant's own copy."""
        if self._materialize is not None and not self._rewritten and all(
                m.name.lower().endswith(unhashed) for m in self._mutated) and unhashed:
            return super().path(HOME)
        return self.path(HOME)

    def _kind_of(self, path: str) -> Path:
        """A host path that is a file or a folder exactly when `path` is in the mutant's state."""
        host = super().path(path)
        if self._materialize is None or host not in self._rewritten:
            return host  # the copy; or a path the mutant may hold other contents for, but not make or remove
        served = self._in_files(host)
        return served if served is not None else self.path(path)

    def path(self, path: str) -> Path:
        host = super().path(path)
        if self._contents_only and host in self._touched:
            return host
        if self._materialize is not None and any(host == m or host in m.parents for m in self._mutated):
            served = self._in_files(host)
            if served is not None:
                return served
            self.root = self._materialize()
            self._materialize = None  # the documents already read from memory show the same content
            host = super().path(path)
        return host


def judge(answer: dict[str, Any]) -> tuple[str | None, str]:
    """(failure class or None, evidence) for a worker's mutation answer; evidence = line + JSON table line."""
    rows = [[m["name"], "reject" if m["kind"] == "damaging" else "accept",
             "accepted" if m["passed"] else "rejected"] for m in answer.get("mutants", [])]
    text = json.dumps(rows)
    if answer.get("error"):
        return "infra_fail", f"{answer['error']}\n{TABLE}{text}"
    if answer.get("skipped"):  # not evidence either way: said, not judged
        return None, f"not run: {answer['skipped']}\n{TABLE}{text}"
    lax = [m for m in answer["mutants"] if m["kind"] == "damaging" and m["passed"]]
    strict = [m for m in answer["mutants"] if m["kind"] == "neutral" and not m["passed"]]
    if lax:
        names = ", ".join(m["name"] for m in lax[:3]) + (f" (+{len(lax) - 3} more)" if len(lax) > 3 else "")
        return "lax", f"damaging mutant(s) pass the rubric: {names}\n{TABLE}{text}"
    if strict:
        first = strict[0]
        return "strict", (f"neutral mutant {first['name']} fails the rubric: {first['evidence']}"
                          + (f" (+{len(strict) - 1} more)" if len(strict) > 1 else "") + f"\n{TABLE}{text}")
    damaging = sum(m["kind"] == "damaging" for m in answer["mutants"])
    of = f" (a sample of the {answer['offered']} offered)" if answer.get("offered", len(rows)) > len(rows) else ""
    return None, (f"all {damaging} damaging mutants rejected, all {len(rows) - damaging} neutral ones accepted"
                  f"{of}\n{TABLE}{text}")


def table(evidence: str) -> list[tuple[str, str, str]]:
    """The (mutant, expected, verdict) rows kept in a mutation stage's evidence ([] when there are none)."""
    for line in evidence.splitlines():
        if line.startswith(TABLE):
            try:
                rows = json.loads(line[len(TABLE):])
            except ValueError:
                return []
            return [(str(r[0]), str(r[1]), str(r[2])) for r in rows if isinstance(r, list) and len(r) == 3]
    return []


def headline(evidence: str) -> str:
    """The human line of a stage's evidence (the mutation stage adds a table line after it)."""
    return evidence.split("\n", 1)[0]
