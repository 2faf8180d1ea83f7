"""Ingest a student's results into the catalog's `student_results` table.

Two inputs, both walked by `ingest`:
- OSWorld result folders, `results/<action_space>/<observation_type>/<model>/<domain>/<task_id>/`, holding
  `result.txt` (a float, maybe fractional) and `traj.jsonl` (one JSON per step; `{"Error": ...}` on a crash).
  A folder without result.txt, or whose trajectory has an Error line, is an infrastructure failure: recorded
  (`infra` = true) and left out of the difficulty statistics (forge.stats).
- JSONL files, one row per attempt: `{task_id, success | score, steps?, tokens?, failure_reason?, model?}`.

Task ids map back to catalog tasks (an OSWorld export keeps Forge's task id as the OSWorld id); ids the
catalog does not hold are reported and skipped. A malformed input stops the ingest before anything is
written, with `file:line: field: problem`. Each attempt has an `attempt_key` (hash of where it came from,
task id, model and round), so ingesting the same results twice adds nothing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from forge.catalog import Catalog, StudentResultRow, TaskRow
from forge.errors import ForgeError
from forge.ids import digest

#: Files that mark a folder as one task's result folder in the OSWorld layout.
_MARKERS = ("result.txt", "traj.jsonl", "runtime.log")
#: How far down from the results root a task folder sits: action_space/observation/model/domain/task_id.
_LAYOUT_DEPTH = 5
_JSONL_FIELDS = {"task_id", "success", "score", "steps", "tokens", "failure_reason", "model"}


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
    identity: str  # what makes it the same attempt when ingested again


@dataclass
class IngestReport:
    added: int = 0
    already: int = 0
    infra: int = 0
    unknown: list[tuple[str, str]] = field(default_factory=list)  # (source, task id)
    rounds: set[int] = field(default_factory=set)

    def as_dict(self) -> dict[str, Any]:
        return {"added": self.added, "already_ingested": self.already, "infra_failures": self.infra,
                "unknown": [{"source": s, "task_id": t} for s, t in self.unknown], "rounds": sorted(self.rounds)}


def _is_success(score: float) -> bool:
    return score >= 1.0 - 1e-9


def _score(value: Any, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FeedbackError(f"{where}: {name}: {value!r} is not a number; write a score between 0 and 1")
    if not 0.0 <= value <= 1.0:
        raise FeedbackError(f"{where}: {name}: {value!r} is outside 0..1; scores are between 0 and 1")
    return float(value)


def _count(value: Any, where: str, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FeedbackError(f"{where}: {name}: {value!r} is not a whole number >= 0")
    return value


def read_folder(folder: Path) -> Attempt:
    """One OSWorld task folder. Raises `FeedbackError` (file:line: field) on a result.txt that is not a score
    or a trajectory line that is not JSON."""
    parts = folder.resolve().parts
    model = parts[-3] if len(parts) >= 3 else ""
    identity = "/".join(parts[-_LAYOUT_DEPTH:])
    steps, error = 0, None
    traj = folder / "traj.jsonl"
    if traj.is_file():
        for number, line in enumerate(traj.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                step = json.loads(line)
            except json.JSONDecodeError as exc:
                raise FeedbackError(f"{traj}:{number}: <line>: not JSON ({exc.msg}); fix or delete the line") from None
            if isinstance(step, dict) and "Error" in step:
                error = str(step["Error"])[:500]
            else:
                steps += 1
    result = folder / "result.txt"
    score: float | None = None
    if result.is_file():
        text = result.read_text(encoding="utf-8", errors="replace").strip()
        try:
            value = float(text)
        except ValueError:
            raise FeedbackError(f"{result}:1: result: {text[:40]!r} is not a number; OSWorld writes the score "
                                "as a float (delete the file if the run did not finish)") from None
        score = _score(value, f"{result}:1", "result")
    infra = score is None or error is not None
    reason = (f"crash: {error}" if error is not None else "no result.txt (the run did not finish)") if infra else None
    return Attempt(task_id=folder.name, model=model, score=None if infra else score,
                   success=None if infra or score is None else _is_success(score), steps=steps if traj.is_file()
                   else None, tokens=None, failure_reason=reason, infra=infra, source=str(folder), identity=identity)


def read_jsonl(path: Path) -> Iterator[Attempt]:
    """The rows of one JSONL file; the first malformed row raises `FeedbackError` naming line and field."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FeedbackError(f"{where}: <line>: not JSON ({exc.msg}); one JSON object per line") from None
        if not isinstance(row, dict):
            raise FeedbackError(f"{where}: <line>: expected a JSON object, got {type(row).__name__}")
        extra = sorted(set(row) - _JSONL_FIELDS)
        if extra:
            raise FeedbackError(f"{where}: {extra[0]}: unknown field; allowed: {sorted(_JSONL_FIELDS)}")
        task_id = row.get("task_id")
        if not isinstance(task_id, str) or not task_id:
            raise FeedbackError(f"{where}: task_id: missing or not a string")
        if "score" in row:
            score = _score(row["score"], where, "score")
            success = _is_success(score)
            if "success" in row and row["success"] is not success:
                raise FeedbackError(f"{where}: success: {row['success']!r} contradicts score={score}; give one")
        elif isinstance(row.get("success"), bool):
            success = row["success"]
            score = 1.0 if success else 0.0
        else:
            raise FeedbackError(f"{where}: success: give `success` (true/false) or `score` (0..1)")
        model = row.get("model", "")
        if not isinstance(model, str):
            raise FeedbackError(f"{where}: model: {model!r} is not a string")
        reason = row.get("failure_reason")
        if reason is not None and not isinstance(reason, str):
            raise FeedbackError(f"{where}: failure_reason: {reason!r} is not a string")
        yield Attempt(task_id=task_id, model=model, score=score, success=success,
                      steps=_count(row.get("steps"), where, "steps"), tokens=_count(row.get("tokens"), where, "tokens"),
                      failure_reason=reason, infra=False, source=where, identity=f"{path.name}:{number}")


def collect(path: Path) -> list[Attempt]:
    """Every attempt under `path`: a JSONL file, or a folder searched for JSONL files and OSWorld task folders."""
    if not path.exists():
        raise FeedbackError(f"{path}: no such file or folder; give a results folder or a JSONL file")
    if path.is_file():
        return list(read_jsonl(path))
    attempts: list[Attempt] = []
    for child in sorted(path.rglob("*")):
        if child.is_file() and child.suffix == ".jsonl" and child.name != "traj.jsonl":
            attempts.extend(read_jsonl(child))
        elif child.is_dir() and any((child / m).is_file() for m in _MARKERS):
            attempts.append(read_folder(child))
    if path.is_dir() and any((path / m).is_file() for m in _MARKERS):
        attempts.append(read_folder(path))
    return attempts


def attempt_key(attempt: Attempt, round_n: int) -> str:
    return digest("\x1f".join((attempt.identity, attempt.task_id, attempt.model, str(round_n))))[:40]


def ingest(catalog: Catalog, path: Path, round_n: int | None = None) -> IngestReport:
    """Read every attempt under `path` (all-or-nothing on malformed input) and add the new ones.

    An attempt's round is `round_n` when given, else the round its task was generated in."""
    attempts = collect(path)
    report = IngestReport()
    with catalog.session() as session, session.begin():
        ids = sorted({a.task_id for a in attempts})
        tasks: dict[str, tuple[str, int]] = {}
        for i in range(0, len(ids), 500):
            query = select(TaskRow.id, TaskRow.skill_id, TaskRow.round).where(TaskRow.id.in_(ids[i:i + 500]))
            tasks.update({row.id: (row.skill_id, row.round) for row in session.execute(query)})
        keys = set(session.scalars(select(StudentResultRow.attempt_key)))
        for attempt in attempts:
            if attempt.task_id not in tasks:
                report.unknown.append((attempt.source, attempt.task_id))
                continue
            skill_id, task_round = tasks[attempt.task_id]
            round_of = task_round if round_n is None else round_n
            key = attempt_key(attempt, round_of)
            if key in keys:
                report.already += 1
                continue
            keys.add(key)
            session.add(StudentResultRow(attempt_key=key, task_id=attempt.task_id, skill_id=skill_id, round=round_of,
                                         model=attempt.model, score=attempt.score, success=attempt.success,
                                         steps=attempt.steps, tokens=attempt.tokens,
                                         failure_reason=attempt.failure_reason, infra=attempt.infra,
                                         source=attempt.source))
            report.added += 1
            report.infra += attempt.infra
            report.rounds.add(round_of)
    from forge.stats import ensure_views

    ensure_views(catalog)
    return report
