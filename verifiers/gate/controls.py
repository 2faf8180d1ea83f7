"""One control of the gate: initial state -> optional solution -> rubric (-> the mutation control).

Applying a solution's ops and running the rubric on the state it reached is verifier logic; where it runs is not.
`run_control` is the body of one request, executed either here in the calling process (`InProcess`: `--no-sandbox`
and library use) or in a warm sandboxed worker (`forge.workers.WorkerPool`, which owns the processes).

Request: {"initial": dir|null, "state": dir, "ops": [...]|null, "rubric": [...], "stop_on_fail"?: bool,
"disk_bytes"?: int, "mutate"?: {"task": task.json, "initial": dir, "budget": [damaging, neutral]|null}}
copies `initial` to `state` (when given), applies `ops` (when given) and evaluates the rubric on `state`:
    {"applied": bool, "error": str, "outcomes": [{id, criterion, passed, evidence}], "seconds": float}
plus `"unsafe": true` when a limit was hit (`kit.bounded`), `"infra": true` when the machine, not the package,
failed, and `"mutation": {...}` (`verifiers.gate.mutation`) for a request with "mutate" whose every check passed.
A request that wants the rubric to fail (the no-op, a near-miss) is judged on its edited documents in memory where
their kind allows (`_in_memory`): the same outcomes as on disk, without copying the state or writing the files.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit import bounded, parsecache
from kit.model import HOME
from preparers import ops as edits
from preparers.ops import OpError, apply_ops
from verifiers import checks
from verifiers.gate.mutation import InMemory, run_mutants
from verifiers.gate.rubric import evaluate_rubric
from verifiers.mutants import Lazy

#: Document kinds whose edited documents the checks read in memory. Their ops write nothing until the document is
#: saved, and a check's parse of the saved file reads what the edited document holds
#: (tests/verifiers/test_fast_path.py compares the verdicts of every family's near-misses both ways).
IN_MEMORY_KINDS = frozenset({"xlsx", "docx", "pptx", "image"})
#: ... of which a document's save writes its own file only (a picture's writes its exports too)
SAVED_ALONE = frozenset({"xlsx", "docx", "pptx"})


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


def run_control(request: dict[str, Any], *, confine: Path | None = None, in_memory: bool = True) -> dict[str, Any]:
    """Do one control in this process (the worker's loop body, also the in-process runner); `confine`: every
    folder the request names must lie inside it. `in_memory=False` takes the slow path for a near-miss (`_in_memory`
    is the fast one): the tests compare the two."""
    start = time.perf_counter()
    bounded.harden_parsers()
    state = Path(request["state"])
    initial = Path(request["initial"]) if request.get("initial") else None
    mutate = request.get("mutate")
    pristine = Path(mutate["initial"]) if mutate else None
    if confine is not None:
        top = os.path.realpath(confine)  # each path resolved once, as a string: pathlib's resolve cost 0.5 ms a control
        for path in (state, initial, pristine):
            if path is not None and not _inside(os.path.realpath(path), top):
                return {"applied": False, "error": f"{path} is outside the worker's folder {confine}"}
    bounded.take_hits()  # only this request's limit hits count
    with parsecache.hot_folder(initial) if initial is not None else contextlib.nullcontext():
        fast = _in_memory(request, initial, state) if in_memory and initial is not None and not mutate else None
        if fast is not None:
            applied, error, outcomes = fast
        else:
            if initial is not None:
                # contents and mode bits (permission checks read them); no check reads times or xattrs, and copying
                # those (copy2) took twice as long as the copy itself
                shutil.copytree(initial, state, symlinks=True, copy_function=shutil.copy)
            try:
                applied, error = _apply(request, state) if request.get("ops") is not None else (True, "")
            except _DiskFull as exc:
                return {"applied": False, "infra": True, "error": f"the scratch disk is full: {exc}"}
            outcomes = []
            parsed = checks.State(state)  # the oracle's documents as its checks read them: reused for the mutants
            if applied:
                try:
                    outcomes = _evaluate(request, parsed, keep_parsed=bool(mutate))
                except Exception as exc:  # a check bug is infrastructure, never evidence for or against the task
                    return {"applied": False, "infra": True,
                            "error": f"a check crashed: {type(exc).__name__}: {exc}"}
    answer = {"applied": applied, "error": error, "outcomes": outcomes, "seconds": time.perf_counter() - start}
    hits = bounded.take_hits()
    if hits:  # a bomb, a disk flood or a CPU hog in the state: reported, whatever the checks said
        answer |= {"unsafe": True, "error": f"{error + '; ' if error else ''}limit hit: {hits[0]}"}
    if mutate and pristine is not None and applied and not hits and all(o["passed"] for o in outcomes):
        with parsecache.hot_folder(pristine):
            answer["mutation"] = run_mutants(mutate["task"], pristine, state, state.parent / f"{state.name}-mutants",
                                             mutate.get("budget"), parsed=parsed)
    return answer


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


class _Unsaved(Exception):
    """A near-miss held in memory could not be written when a check needed its file: the slow path decides."""


def _in_memory(request: dict[str, Any], initial: Path, state: Path) -> tuple[bool, str, list[dict[str, Any]]] | None:
    """A near-miss (or the no-op control) judged without writing its documents: its ops edit documents parsed from
    the initial state, and the rubric reads those where it reads them through the checks' own parser (a check that
    needs the file itself, or another view of it, gets the state written at `state` then, as the slow path writes
    it); every other file is read from the initial state. Ops of other kinds (those acting on the tree, `multi.*`,
    `fs.*`; settings files) run first on a copy of the initial state at `state`, their documents saved there as
    the slow path saves them, and the rubric reads every other file from that copy (within half the disk budget:
    a bigger state is the slow path's to measure). Only for a request that wants the rubric to fail
    (`stop_on_fail`); None for any other, or when the documents cannot be shown or written for a check: then the
    slow path runs from scratch."""
    ops = request.get("ops") or []
    if not request.get("stop_on_fail"):
        return None
    on_disk = not edits.kinds(ops) <= IN_MEMORY_KINDS
    root = state if on_disk else initial
    documents: dict[tuple[str, Any], Any] = {}
    unsaved: dict[str, tuple[edits.DocumentKind, Any]] = {}  # edited documents held in memory, by home path
    handed: set[str] = set()  # ... of which a check has read one: reading may change it (openpyxl's lookups)
    disk = request.get("disk_bytes")
    try:
        if on_disk:
            shutil.copytree(initial, state, symlinks=True, copy_function=shutil.copy)  # see run_control
        # in memory only, nothing is written: no disk to measure after each op
        edited = edits.edit(root, ops, disk_bytes=disk if on_disk else None) if ops else {}
        for path, (kind, host, document) in edited.items():
            views = _views(kind.name, document, path, handed) if kind.name in IN_MEMORY_KINDS else None
            if views is None and on_disk:
                kind.save(document, host)  # as `apply_ops` writes it: one file per document, in the same order
                continue
            if views is None or any(home != path and home in edited for home, _ in views):
                raise _Unsaved(path)  # an export onto another edited file: which save wins is the slow path's
            documents.update(views)
            unsaved[path] = (kind, document)
        if on_disk and disk and bounded.tree_bytes(state, disk) > disk // 2:
            raise _Unsaved("near the disk budget")
        alone = len({host for _, host, _ in edited.values()}) == len(edited) and all(
            kind.name in SAVED_ALONE for kind, _ in unsaved.values())
    except Exception:  # an op that fails, a document that cannot be shown in memory: the slow path gives the very
        shutil.rmtree(state, ignore_errors=True)  # same failure, with its own message and disk accounting
        return None

    def save_unsaved() -> bool:
        """The slow path's state made from this one: the held documents saved into the copy of the initial state
        (the tree ops' one, or a new one). Only while no check has read them, and when each is the only document
        saved to its file: else (or near the disk budget) False, and the solution is applied again."""
        if handed or not alone:
            return False
        try:
            if not on_disk:
                shutil.copytree(initial, state, symlinks=True, copy_function=shutil.copy)
            for path, (kind, document) in unsaved.items():
                kind.save(document, edits.resolve(state, path))
            return not (disk and bounded.tree_bytes(state, disk) > disk // 2)
        except Exception:  # the solution applied again gives the very same failure, with its own message
            return False

    def materialize() -> Path:
        if save_unsaved():
            return state
        try:
            shutil.rmtree(state, ignore_errors=True)  # the copy of the tree ops' state is made again, whole
            shutil.copytree(initial, state, symlinks=True, copy_function=shutil.copy)
            applied, error = _apply(request, state)
        except Exception as exc:
            raise _Unsaved(f"{type(exc).__name__}: {exc}") from exc
        if not applied:
            raise _Unsaved(error)
        return state

    try:
        outcomes = evaluate_rubric({"rubric": request["rubric"]}, root, stop_on_fail=True,
                                   state=InMemory(root, documents, materialize))
    except Exception:  # _Unsaved, or a check that crashed: the slow path decides, and reports it its own way
        shutil.rmtree(state, ignore_errors=True)
        return None
    return True, "", [o.__dict__ for o in outcomes]


def _views(kind: str, document: Any, path: str, handed: set[str]) -> dict[tuple[str, Any], Any] | None:
    """{(home path, the checks' parser): what that parser reads from the saved document} for an edited document
    of `kind`, or None when the checks must read its file (a plain-text answer file). A view that is the document
    itself, or reads it, is made when a check reads it, and adds `path` to `handed` then."""
    from preparers.image import format_for, png_as_read
    from preparers.ops.docx import PlainText
    from verifiers.readers.docx import _load as load_doc
    from verifiers.readers.docx import index
    from verifiers.readers.image import as_saved, load_picture
    from verifiers.readers.pptx import Deck
    from verifiers.readers.pptx import _load as load_deck
    from verifiers.readers.xlsx import _load_formulas, as_read, cached_formula_values

    def hand(make: Callable[[], Any]) -> Lazy:
        def made() -> Any:
            handed.add(path)
            return make()
        return Lazy(made)

    if kind == "xlsx":  # openpyxl saves formulas without cached values
        return {(path, _load_formulas): hand(lambda: as_read(document)), (path, cached_formula_values): {}}
    if kind == "docx" and not isinstance(document, PlainText):
        return {(path, load_doc): hand(lambda: index(document))}
    if kind == "pptx":
        return {(path, load_deck): hand(lambda: Deck(document.prs))}
    if kind == "image":
        views = {}
        if document.dirty:  # else not saved: the file stays as it is in the initial state
            # the picture decoded from the bytes its save writes
            views[(path, load_picture)] = as_saved(document.image, format_for(document.host.name) or document.format,
                                                   document.dpi)
        for dest, export in document.exports:  # written after the picture itself, in order: the last one wins
            exact = png_as_read(export.image, None if export.dpi is None else (export.dpi, export.dpi)) \
                if export.format == "PNG" else None  # as `as_saved`, with the bytes the save writes otherwise
            views[(f"{HOME}/{dest.relative_to(document.root).as_posix()}", load_picture)] = \
                exact if exact is not None else load_picture(io.BytesIO(export.data()))
        return views
    return None


class _DiskFull(Exception):
    """The machine's scratch disk, not the solution, failed: retried, never held against the package."""


def _apply(request: dict[str, Any], state: Path) -> tuple[bool, str]:
    """Apply the request's ops to `state` within its disk budget: (applied, why not)."""
    disk = request.get("disk_bytes")
    try:
        apply_ops(state, request["ops"], disk_bytes=disk)
    except (OpError, OSError, ValueError) as exc:
        if _infra_errno(exc):
            raise _DiskFull(str(exc)) from exc
        return False, str(exc)
    try:
        if disk and bounded.tree_bytes(state, disk) > disk:
            error = f"the solution wrote more than {disk >> 20} MB into the state"
            bounded.note(error)
            return False, error
    except (bounded.LimitExceeded, OSError) as exc:  # noted by LimitExceeded itself
        return False, f"the state cannot be measured: {exc}"
    return True, ""


def _evaluate(request: dict[str, Any], state: checks.State, *, keep_parsed: bool) -> list[dict[str, Any]]:
    """The rubric's outcomes on `state`; with `keep_parsed` (before the mutation control) the state's documents stay
    parsed, since every mutant starts from them."""
    keep = parsecache.hot_folder(state.root) if keep_parsed else contextlib.nullcontext()
    with keep:
        return [o.__dict__ for o in evaluate_rubric({"rubric": request["rubric"]}, state.root, state=state,
                                                    stop_on_fail=bool(request.get("stop_on_fail", False)))]


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

    size = parallel = 1

    def control(self, request: dict[str, Any]) -> Control:
        return Control.from_json(run_control(request))

    def prepare(self, folder: Path) -> None:
        pass

    def close(self) -> None:
        pass
