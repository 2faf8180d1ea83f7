"""Ingest a student's results into the catalog's `student_results` table.

Two inputs, both walked by `ingest`:
- OSWorld result folders, `results/<action_space>/<observation_type>/<model>/<domain>/<task_id>/`, holding
  `result.txt` (a float, maybe fractional) and `traj.jsonl` (one JSON per step; `{"Error": ...}` on a crash).
  `forge student run` adds checks.json, whose `failed_checks` (ids of the failed rubric checks) is stored.
  A folder without result.txt, or whose trajectory has an Error line, is an infrastructure failure: recorded
  (`infra` = true) and left out of the difficulty statistics (forge.stats).
- JSONL files, one row per attempt:
  `{task_id, success | score, steps?, tokens?, failure_reason?, model?, failed_checks?}`.
- optionally (`states`, `forge feedback ingest --states DIR`) the student's final states, `DIR/<task_id>/`: the
  rubric is re-run on each (sandboxed, as `forge check` does) to get per-check outcomes the results lack.

Task ids map back to catalog tasks (an OSWorld export keeps Forge's task id as the OSWorld id); ids the
catalog does not hold are reported and skipped. A malformed input stops the ingest before anything is
written, with `file:line: field: problem`.

Identity (what makes two rows the same attempt) is by content, never by file name, folder or line number, so a
results tree copied, moved or renamed adds nothing, and different runs' files with the same name all count. An
attempt is (task id, model, source run, record hash, occurrence), hashed into `attempt_key`:
- record hash: a hash of the attempt's record as data (canonical JSON of the JSONL row; for an OSWorld folder its
  score, steps, failure and failed checks), stored in `record_hash`;
- source run (`source_run`): for a JSONL file, a hash of its records in order (whitespace and line endings do not
  matter). A file that grows (a harness appending as it goes) keeps the identity it had when first ingested: a
  file whose first records are exactly an ingested file's records is the same run continued. For an OSWorld task
  folder, a hash of its content (result.txt, traj.jsonl, checks.json: a trajectory carries the run's own steps
  and timestamps), so a re-run of the task in a new results folder is a new attempt, a copy of a folder is not;
- occurrence: the n-th identical record within one JSONL file (a student failing the same task twice, with
  nothing else recorded, made two attempts). Always 0 for an OSWorld folder.
The round an attempt is filed under is not part of its identity: ingesting the same results with another
--round adds nothing.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from forge.catalog import Catalog
from kit.errors import ForgeError
from kit.ids import digest
from kit.sandbox import Sandbox

#: Files that mark a folder as one task's result folder in the OSWorld layout.
_MARKERS = ("result.txt", "traj.jsonl", "runtime.log")
_JSONL_FIELDS = {"task_id", "success", "score", "steps", "tokens", "failure_reason", "model", "failed_checks"}
#: Results come from agent runs: untrusted. A line (one JSON record) or a small file above this is refused.
MAX_LINE_BYTES = 4 << 20
MAX_SMALL_FILE_BYTES = 16 << 20


class FeedbackError(ForgeError, ValueError):
    """Student results that cannot be read: the message names the file, line and field."""


@dataclass(frozen=True)
class Attempt:
    """One attempt of the student at one task, as read from disk (before catalog lookup)."""

    task_id: str
    model: str
    score: float | None
    success: bool | None
    steps: int | None
    tokens: int | None
    failure_reason: str | None
    infra: bool
    source: str  # "path" or "path:line": where a reader finds it
    source_run: str  # identity of the run that produced it (see the module docstring)
    record_hash: str  # hash of the record's content
    occurrence: int = 0  # the n-th identical record of the same run file
    failed_checks: list[str] | None = None  # ids of the rubric checks that failed, when the results say

    @property
    def key(self) -> str:
        """The attempt's identity: the same attempt read from anywhere has the same key."""
        return digest("\x1f".join((self.task_id, self.model, self.source_run, self.record_hash,
                                   str(self.occurrence))))[:40]


@dataclass
class IngestReport:
    added: int = 0
    already: int = 0
    infra: int = 0
    unknown: list[tuple[str, str]] = field(default_factory=list)  # (source, task id)
    rounds: set[int] = field(default_factory=set)
    rechecked: int = 0  # attempts whose failed checks came from re-running the rubric on their final state

    def as_dict(self) -> dict[str, Any]:
        return {"added": self.added, "already_ingested": self.already, "infra_failures": self.infra,
                "rechecked": self.rechecked,
                "unknown": [{"source": s, "task_id": t} for s, t in self.unknown], "rounds": sorted(self.rounds)}


def _is_success(score: float) -> bool:
    return score >= 1.0 - 1e-9


def _score(value: Any, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FeedbackError(f"{where}: {name}: {value!r:.60} is not a number; write a score between 0 and 1")
    if not 0.0 <= value <= 1.0:
        raise FeedbackError(f"{where}: {name}: {value!r} is outside 0..1; scores are between 0 and 1")
    return float(value)


def _count(value: Any, where: str, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FeedbackError(f"{where}: {name}: {value!r:.60} is not a whole number >= 0")
    return value


def _check_ids(value: Any, where: str) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise FeedbackError(f"{where}: failed_checks: expected a list of check ids, got {value!r:.60}")
    return list(value)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _lines(stream: IO[bytes], path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of a results file, refusing a line longer than MAX_LINE_BYTES (never read whole)."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise FeedbackError(f"{path}:{number}: <line>: longer than {MAX_LINE_BYTES >> 20} MiB; one attempt per "
                                "line, each a small JSON object")
        yield number, raw.decode("utf-8", errors="replace")


def _small_text(path: Path) -> str:
    with path.open("rb") as stream:
        data = stream.read(MAX_SMALL_FILE_BYTES + 1)
    if len(data) > MAX_SMALL_FILE_BYTES:
        raise FeedbackError(f"{path}:1: <file>: larger than {MAX_SMALL_FILE_BYTES >> 20} MiB; not a result file")
    return data.decode("utf-8", errors="replace")


def read_folder(folder: Path) -> Attempt:
    """One OSWorld task folder. Raises `FeedbackError` (file:line: field) on a result.txt that is not a score
    or a trajectory line that is not JSON."""
    parts = folder.resolve().parts
    model = parts[-3] if len(parts) >= 3 else ""
    content = hashlib.sha256(b"osworld")
    steps, error = 0, None
    traj = folder / "traj.jsonl"
    if traj.is_file():
        with traj.open("rb") as stream:
            for number, line in _lines(stream, traj):
                if not line.strip():
                    continue
                try:
                    step = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise FeedbackError(f"{traj}:{number}: <line>: not JSON ({exc.msg}); fix or delete the line"
                                        ) from None
                content.update(b"\x1etraj\x1f" + _canonical(step).encode())
                if isinstance(step, dict) and "Error" in step:
                    error = str(step["Error"])[:500]
                else:
                    steps += 1
    result = folder / "result.txt"
    score: float | None = None
    if result.is_file():
        text = _small_text(result).strip()
        content.update(b"\x1eresult\x1f" + text.encode())
        try:
            value = float(text)
        except ValueError:
            raise FeedbackError(f"{result}:1: result: {text[:40]!r} is not a number; OSWorld writes the score "
                                "as a float (delete the file if the run did not finish)") from None
        score = _score(value, f"{result}:1", "result")
    infra = score is None or error is not None
    reason = (f"crash: {error}" if error is not None else "no result.txt (the run did not finish)") if infra else None
    failed = None if infra else _failed_checks(folder / "checks.json")
    if failed is not None:
        content.update(b"\x1echecks\x1f" + _canonical(failed).encode())
    score = None if infra else score
    success = None if infra or score is None else _is_success(score)
    steps_seen = steps if traj.is_file() else None
    record = {"score": score, "success": success, "steps": steps_seen, "failure_reason": reason,
              "failed_checks": failed}
    return Attempt(task_id=folder.name, model=model, score=score, success=success, steps=steps_seen, tokens=None,
                   failure_reason=reason, infra=infra, source=str(folder), source_run=content.hexdigest(),
                   record_hash=digest(_canonical(record)), failed_checks=failed)


def _failed_checks(path: Path) -> list[str] | None:
    """`failed_checks` of the checks.json `forge student run` writes beside result.txt (None without one)."""
    if not path.is_file():
        return None
    try:
        data = json.loads(_small_text(path))
    except json.JSONDecodeError as exc:
        raise FeedbackError(f"{path}:1: <file>: not JSON ({exc.msg}); fix or delete the file") from None
    failed = data.get("failed_checks") if isinstance(data, dict) else None
    if not isinstance(failed, list) or not all(isinstance(c, str) for c in failed):
        raise FeedbackError(f"{path}:1: failed_checks: expected a list of check ids, got {failed!r:.60}")
    return list(failed)


@dataclass
class _JsonlFile:
    """A JSONL file's attempts before its run identity is known, and the hashes of its record prefixes."""

    path: Path
    rows: list[tuple[str, dict[str, Any], str]]  # (where, row, canonical JSON)
    prefixes: list[str]  # prefixes[i]: hash of records 0..i, in order


def _parse_jsonl(path: Path) -> _JsonlFile:
    rows: list[tuple[str, dict[str, Any], str]] = []
    prefixes: list[str] = []
    running = hashlib.sha256(b"jsonl")
    with path.open("rb") as stream:
        for number, line in _lines(stream, path):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise FeedbackError(f"{where}: <line>: not JSON ({exc.msg}); one JSON object per line") from None
            if not isinstance(row, dict):
                raise FeedbackError(f"{where}: <line>: expected a JSON object, got {type(row).__name__}")
            canonical = _canonical(row)
            running.update(b"\x1e" + canonical.encode())
            rows.append((where, row, canonical))
            prefixes.append(running.hexdigest())
    return _JsonlFile(path, rows, prefixes)


def _jsonl_attempts(parsed: _JsonlFile, source_run: str) -> Iterator[Attempt]:
    """The rows of one parsed JSONL file; the first malformed row raises `FeedbackError` naming line and field."""
    seen: Counter[str] = Counter()
    for where, row, canonical in parsed.rows:
        extra = sorted(set(row) - _JSONL_FIELDS)
        if extra:
            name = extra[0] if extra[0].isidentifier() else repr(extra[0])  # one line, whatever the key holds
            raise FeedbackError(f"{where}: {name:.60}: unknown field; allowed: {sorted(_JSONL_FIELDS)}")
        task_id = row.get("task_id")
        if not isinstance(task_id, str) or not task_id:
            raise FeedbackError(f"{where}: task_id: missing or not a string")
        if "score" in row:
            score = _score(row["score"], where, "score")
            success = _is_success(score)
            if "success" in row and row["success"] is not success:
                raise FeedbackError(f"{where}: success: {row['success']!r:.20} contradicts score={score}; give one")
        elif isinstance(row.get("success"), bool):
            success = row["success"]
            score = 1.0 if success else 0.0
        else:
            raise FeedbackError(f"{where}: success: give `success` (true/false) or `score` (0..1)")
        model = row.get("model", "")
        if not isinstance(model, str):
            raise FeedbackError(f"{where}: model: {model!r:.60} is not a string")
        reason = row.get("failure_reason")
        if reason is not None and not isinstance(reason, str):
            raise FeedbackError(f"{where}: failure_reason: {reason!r:.60} is not a string")
        record_hash = digest(canonical)
        occurrence = seen[record_hash]
        seen[record_hash] += 1
        yield Attempt(task_id=task_id, model=model, score=score, success=success,
                      steps=_count(row.get("steps"), where, "steps"), tokens=_count(row.get("tokens"), where, "tokens"),
                      failure_reason=reason, infra=False, source=where, source_run=source_run,
                      record_hash=record_hash, occurrence=occurrence,
                      failed_checks=_check_ids(row.get("failed_checks"), where))


def read_jsonl(path: Path, known_runs: frozenset[str] | set[str] = frozenset()) -> list[Attempt]:
    """The attempts of one JSONL file; `known_runs` are the source runs already in the catalog (a file that
    continues one of them keeps its identity)."""
    return _read_jsonl_files([path], known_runs)


def _read_jsonl_files(paths: list[Path], known_runs: frozenset[str] | set[str]) -> list[Attempt]:
    parsed = [_parse_jsonl(p) for p in paths]
    # A file's run is its shortest record prefix that is a run already known: in the catalog, or another file of
    # this ingest whole (an older copy of a file that has grown since). A file no other continues is its own run.
    runs = set(known_runs) | {p.prefixes[-1] for p in parsed if p.prefixes}
    attempts: list[Attempt] = []
    for p in parsed:
        if not p.rows:
            continue
        source_run = next(h for h in p.prefixes if h in runs)
        attempts.extend(_jsonl_attempts(p, source_run))
    return attempts


def collect(path: Path, known_runs: frozenset[str] | set[str] = frozenset()) -> list[Attempt]:
    """Every attempt under `path`: a JSONL file, or a folder searched for JSONL files and OSWorld task folders."""
    if not path.exists():
        raise FeedbackError(f"{path}: no such file or folder; give a results folder or a JSONL file")
    if path.is_file():
        return read_jsonl(path, known_runs)
    files: list[Path] = []
    attempts: list[Attempt] = []
    for child in sorted(path.rglob("*")):
        if child.is_symlink():
            continue  # results are untrusted: a link may point anywhere (or loop)
        if child.is_file() and child.suffix == ".jsonl" and child.name != "traj.jsonl":
            files.append(child)
        elif child.is_dir() and any((child / m).is_file() for m in _MARKERS):
            attempts.append(read_folder(child))
    if any((path / m).is_file() for m in _MARKERS):
        attempts.append(read_folder(path))
    return _read_jsonl_files(files, known_runs) + attempts


def rerun_rubrics(attempts: list[Attempt], states: Path, packages: Mapping[str, str | None],
                  sandbox: Sandbox) -> tuple[list[Attempt], int]:
    """Attempts that ran and carry no `failed_checks`, whose final state is `states/<task_id>/` (the folder that
    stands for /home/user), get them from the package's rubric re-run on that state through the sandboxed check
    path `forge check` uses (the state is untrusted: copied without following links, read by a confined worker).
    Returns the attempts and how many were re-checked. Identity is unchanged: the state adds what the results
    did not say, it is not another attempt."""
    from forge.solve import check_state
    from kit.package import load_package

    if not states.is_dir() or states.is_symlink():
        raise FeedbackError(f"{states}: --states must be a folder holding one final state per task id")
    out, checked = [], 0
    for attempt in attempts:
        folder = states / attempt.task_id
        package = packages.get(attempt.task_id)
        if attempt.infra or attempt.failed_checks is not None or package is None or folder.is_symlink() \
                or not folder.is_dir():
            out.append(attempt)
            continue
        outcomes = check_state(load_package(Path(package)), sandbox, folder)
        out.append(replace(attempt, failed_checks=[o["id"] for o in outcomes if not o["passed"]]))
        checked += 1
    return out, checked


def ingest(catalog: Catalog, path: Path, round_n: int | None = None, *, states: Path | None = None,
           sandbox: Sandbox | None = None) -> IngestReport:
    """Read every attempt under `path` (all-or-nothing on malformed input) and add the new ones.

    An attempt's round is `round_n` when given, else the round its task was generated in. With `states`, the
    rubric is re-run on each attempt's final state there (see `rerun_rubrics`)."""
    attempts = collect(path, catalog.result_source_runs())
    report = IngestReport()
    if states is not None:
        packages = catalog.task_paths(sorted({a.task_id for a in attempts}))
        attempts, report.rechecked = rerun_rubrics(attempts, states, packages, sandbox or Sandbox())
    for attempt, (status, round_of) in zip(attempts, catalog.add_attempts(attempts, round_n), strict=True):
        if status == "unknown":
            report.unknown.append((attempt.source, attempt.task_id))
        elif status == "already":
            report.already += 1
        else:
            report.added += 1
            report.infra += attempt.infra
            if round_of is not None:
                report.rounds.add(round_of)
    from forge.stats import ensure_views

    ensure_views(catalog)
    return report
