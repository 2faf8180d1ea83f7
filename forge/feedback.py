"""Ingest a student's results into the catalog's `student_results` table.

Two inputs, both walked by `ingest`:
- OSWorld result folders, `results/<action_space>/<observation_type>/<model>/<domain>/<task_id>/`, holding
  `result.txt` (a float, maybe fractional) and `traj.jsonl` (one JSON per step; `{"Error": ...}` on a crash).
  `forge student run` adds checks.json, whose `failed_checks` (ids of the failed rubric checks) is stored.
  A folder without result.txt, or whose trajectory has an Error line, is an infrastructure failure: recorded
  (`infra` = true) and left out of the difficulty statistics (forge.stats).
- JSONL files, one row per attempt:
  `{task_id, success | score, steps?, tokens?, failure_reason?, model?, failed_checks?, run?}`.
- optionally (`states`, `forge feedback ingest --states DIR`) the student's final states, `DIR/<task_id>/`: the
  rubric is re-run on each (sandboxed, as `forge check` does) to get per-check outcomes the results lack.

Task ids map back to catalog tasks (an OSWorld export keeps Forge's task id as the OSWorld id); ids the
catalog does not hold are reported and skipped. A malformed input stops the ingest before anything is
written, with `file:line: field: problem`.

Identity (what makes two rows the same attempt) is by content, never by file name, folder or line number, so a
results tree copied, moved, renamed or edited adds nothing it did not add before. It is per record, hashed into
`attempt_key`:
- a JSONL row is (task id, model, record hash, occurrence): the record hash is a hash of the row as data (canonical
  JSON: key order, whitespace and line endings do not matter), stored in `record_hash`; the occurrence counts the
  identical rows before it in the same file (a student failing the same task twice, with nothing else recorded,
  made two attempts). A line prepended, inserted or appended adds one attempt; the others keep their identity.
  Two files holding the same row are one attempt: a harness that runs the same task again writes something that
  tells the runs apart (`run`, e.g. its start time, or `steps` / `tokens`);
- an OSWorld task folder is (task id, model, a hash of its content: result.txt, traj.jsonl, checks.json), stored in
  `source_run`: a trajectory carries the run's own steps and timestamps, so a re-run of the task in a new results
  folder is a new attempt and a copy of a folder is not.
The round an attempt is filed under is not part of its identity: ingesting the same results with another
--round adds nothing. Two ingests of the same results at once add them once (the catalog's unique `attempt_key`;
the second reports them as already ingested).

Results are untrusted files: a result.txt, traj.jsonl, checks.json or JSONL file inside a results folder that is a
symbolic link, a fifo or a device is refused (one line naming it), never read; linked folders are not entered.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
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
_JSONL_FIELDS = {"task_id", "success", "score", "steps", "tokens", "failure_reason", "model", "failed_checks",
                 "run"}
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
    source_run: str  # an OSWorld folder: its content hash (its identity); a JSONL row: its file's content hash
    record_hash: str  # hash of the record's content
    occurrence: int = 0  # the n-th identical record of the same JSONL file
    failed_checks: list[str] | None = None  # ids of the rubric checks that failed, when the results say
    folder: bool = False  # read from an OSWorld task folder (identity: its content), else a JSONL row

    @property
    def key(self) -> str:
        """The attempt's identity (see the module docstring): the same attempt read from anywhere has the same key.
        forge/migrations/versions/0006_ingest_identity_per_record.py computes the same keys for stored rows."""
        return attempt_key(self.task_id, self.model, self.source_run if self.folder else "",
                           "" if self.folder else self.record_hash, 0 if self.folder else self.occurrence)


def attempt_key(task_id: str, model: str, folder_content: str, record_hash: str, occurrence: int) -> str:
    """`student_results.attempt_key`: an OSWorld folder gives its content hash, a JSONL row its record hash and
    occurrence (the other two parts empty / 0)."""
    return digest("\x1f".join((task_id, model, folder_content, record_hash, str(occurrence))))[:40]


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
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 1:  # never made a float: 10**400
        shown = str(value) if len(str(value)) <= 20 else f"{str(value)[:20]}..."
        raise FeedbackError(f"{where}: {name}: {shown} is outside 0..1; scores are between 0 and 1")
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FeedbackError(f"{where}: {name}: {value!r:.60} is not a number; write a score between 0 and 1")
    if not 0.0 <= value <= 1.0:
        raise FeedbackError(f"{where}: {name}: {value!r} is outside 0..1; scores are between 0 and 1")
    return float(value)


#: steps and tokens are INTEGER columns (32 bits on PostgreSQL): a larger count is refused with its field named.
MAX_COUNT = (1 << 31) - 1


def _count(value: Any, where: str, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FeedbackError(f"{where}: {name}: {value!r:.60} is not a whole number >= 0")
    if value > MAX_COUNT:
        raise FeedbackError(f"{where}: {name}: {value!r:.60} is too large (at most {MAX_COUNT:,}); write the "
                            f"attempt's real {name}")
    return value


def _check_ids(value: Any, where: str) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise FeedbackError(f"{where}: failed_checks: expected a list of check ids, got {value!r:.60}")
    return list(value)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _kind(mode: int) -> str:
    return ("symbolic link" if stat.S_ISLNK(mode) else "fifo" if stat.S_ISFIFO(mode) else "socket"
            if stat.S_ISSOCK(mode) else "device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "folder"
            if stat.S_ISDIR(mode) else "special file")


def _open(path: Path, *, follow: bool = False) -> IO[bytes]:
    """A results file opened for reading: a regular file only, never read through a link unless `follow` (a file
    the user named). Results come from agent runs: a result.txt linked to /etc/shadow, or a fifo that blocks a
    reader forever, is refused with one line naming it."""
    try:
        mode = (path.stat() if follow else path.lstat()).st_mode
        if not stat.S_ISREG(mode):
            raise FeedbackError(f"{path}:1: <file>: a {_kind(mode)}, not a regular file; results must be regular "
                                "files (copy the run's results without links)")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW))
    except OSError as exc:
        raise FeedbackError(f"{path}:1: <file>: cannot be read ({exc.strerror or exc}); check the file") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since the check
        os.close(fd)
        raise FeedbackError(f"{path}:1: <file>: not a regular file; results must be regular files")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _present(path: Path) -> bool:
    """Whether `path` exists as anything (a link or fifo too: then reading it is refused, not skipped)."""
    return os.path.lexists(path)


def _json(text: str, where: str, what: str) -> Any:
    """One JSON value; malformed or nested too deeply for the reader (a recursion bomb) is one line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FeedbackError(f"{where}: <{what}>: not JSON ({exc.msg}); {_FIX[what]}") from None
    except ValueError:  # a number of more digits than Python converts (int_max_str_digits)
        raise FeedbackError(f"{where}: <{what}>: a number too long to read; {_FIX[what]}") from None
    except RecursionError:
        raise FeedbackError(f"{where}: <{what}>: JSON nested too deeply to read; {_FIX[what]}") from None


_FIX = {"line": "one small JSON object per line (fix or delete the line)", "file": "fix or delete the file"}


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
    with _open(path) as stream:
        data = stream.read(MAX_SMALL_FILE_BYTES + 1)
    if len(data) > MAX_SMALL_FILE_BYTES:
        raise FeedbackError(f"{path}:1: <file>: larger than {MAX_SMALL_FILE_BYTES >> 20} MiB; not a result file")
    return data.decode("utf-8", errors="replace")


#: An Error line that says the run ran out of time (OSWorld's "Time limit exceeded", a request that timed out).
_TIMEOUT = re.compile(r"time\s*limit|timed?\s*out|timeout|deadline", re.IGNORECASE)


def _step_tokens(step: dict[str, Any]) -> int | None:
    """The tokens a step line records (`forge student run` writes prompt_tokens and completion_tokens)."""
    counts = [step.get(k) for k in ("prompt_tokens", "completion_tokens", "tokens")]
    found = [c for c in counts if isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= MAX_COUNT]
    return sum(found) if found else None


def _is_final(step: dict[str, Any]) -> bool:
    """The line that ends an episode (the model's final word, `DONE`): not a step the agent took."""
    return step.get("action") == "DONE"


def read_folder(folder: Path) -> Attempt:
    """One OSWorld task folder. Raises `FeedbackError` (file:line: field) on a result.txt that is not a score, a
    trajectory line that is not JSON, or a result file that is a link, fifo or device.

    steps: the trajectory's lines, the final DONE line and Error lines left out; tokens: the sum of the token
    counts its lines carry (None when none does); an Error line is an infrastructure failure, filed as
    `timeout: ...` when it says the run ran out of time, else `crash: ...`."""
    parts = folder.resolve().parts
    model = parts[-3] if len(parts) >= 3 else ""
    content = hashlib.sha256(b"osworld")
    steps, error, tokens = 0, None, None
    traj = folder / "traj.jsonl"
    if _present(traj):
        with _open(traj) as stream:
            for number, line in _lines(stream, traj):
                if not line.strip():
                    continue
                step = _json(line, f"{traj}:{number}", "line")
                content.update(b"\x1etraj\x1f" + _canonical(step).encode())
                if isinstance(step, dict) and "Error" in step:
                    error = str(step["Error"])[:500]
                    continue
                if isinstance(step, dict):
                    used = _step_tokens(step)
                    if used is not None:
                        tokens = min(MAX_COUNT, (tokens or 0) + used)
                    if _is_final(step):
                        continue
                steps += 1
    result = folder / "result.txt"
    score: float | None = None
    if _present(result):
        text = _small_text(result).strip()
        content.update(b"\x1eresult\x1f" + text.encode())
        try:
            value = float(text)
        except ValueError:
            raise FeedbackError(f"{result}:1: result: {text[:40]!r} is not a number; OSWorld writes the score "
                                "as a float (delete the file if the run did not finish)") from None
        score = _score(value, f"{result}:1", "result")
    infra = score is None or error is not None
    if error is not None:
        reason: str | None = f"{'timeout' if _TIMEOUT.search(error) else 'crash'}: {error}"
    else:
        reason = "no result.txt (the run did not finish)" if infra else None
    failed = None if infra else _failed_checks(folder / "checks.json")
    if failed is not None:
        content.update(b"\x1echecks\x1f" + _canonical(failed).encode())
    score = None if infra else score
    success = None if infra or score is None else _is_success(score)
    steps_seen = min(steps, MAX_COUNT) if _present(traj) else None
    record = {"score": score, "success": success, "steps": steps_seen, "tokens": tokens, "failure_reason": reason,
              "failed_checks": failed}
    return Attempt(task_id=folder.name, model=model, score=score, success=success, steps=steps_seen, tokens=tokens,
                   failure_reason=reason, infra=infra, source=str(folder), source_run=content.hexdigest(),
                   record_hash=digest(_canonical(record)), failed_checks=failed, folder=True)


def _failed_checks(path: Path) -> list[str] | None:
    """`failed_checks` of the checks.json `forge student run` writes beside result.txt (None without one)."""
    if not _present(path):
        return None
    data = _json(_small_text(path), f"{path}:1", "file")
    failed = data.get("failed_checks") if isinstance(data, dict) else None
    if not isinstance(failed, list) or not all(isinstance(c, str) for c in failed):
        raise FeedbackError(f"{path}:1: failed_checks: expected a list of check ids, got {failed!r:.60}")
    return list(failed)


def _parse_jsonl(path: Path, *, follow: bool = False) -> tuple[list[tuple[str, dict[str, Any], str]], str]:
    """A JSONL file's rows, each (where, row, canonical JSON), and a hash of its records (its `source_run`)."""
    rows: list[tuple[str, dict[str, Any], str]] = []
    running = hashlib.sha256(b"jsonl")
    with _open(path, follow=follow) as stream:
        for number, line in _lines(stream, path):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            row = _json(line, where, "line")
            if not isinstance(row, dict):
                raise FeedbackError(f"{where}: <line>: expected a JSON object, got {type(row).__name__}")
            canonical = _canonical(row)
            running.update(b"\x1e" + canonical.encode())
            rows.append((where, row, canonical))
    return rows, running.hexdigest()


def read_jsonl(path: Path, *, follow: bool = True) -> list[Attempt]:
    """The attempts of one JSONL file; the first malformed row raises `FeedbackError` naming line and field."""
    parsed, source_run = _parse_jsonl(path, follow=follow)
    seen: Counter[str] = Counter()
    attempts = []
    for where, row, canonical in parsed:
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
        run = row.get("run")
        if run is not None and not isinstance(run, str | int):
            raise FeedbackError(f"{where}: run: {run!r:.60} is not a string; name the run (e.g. its start time)")
        record_hash = digest(canonical)
        occurrence = seen[record_hash]
        seen[record_hash] += 1
        attempts.append(Attempt(
            task_id=task_id, model=model, score=score, success=success, steps=_count(row.get("steps"), where, "steps"),
            tokens=_count(row.get("tokens"), where, "tokens"), failure_reason=reason, infra=False, source=where,
            source_run=source_run, record_hash=record_hash, occurrence=occurrence,
            failed_checks=_check_ids(row.get("failed_checks"), where)))
    return attempts


def collect(path: Path) -> list[Attempt]:
    """Every attempt under `path`: a JSONL file, or a folder searched for JSONL files and OSWorld task folders
    (links are not followed; a result file that is a link, fifo or device is refused)."""
    if not _present(path):
        raise FeedbackError(f"{path}: no such file or folder; give a results folder or a JSONL file")
    if not path.is_dir():
        return read_jsonl(path, follow=True)  # the file the user named
    files: list[Path] = []
    attempts: list[Attempt] = []
    for child in sorted(path.rglob("*")):
        if child.is_symlink():
            if child.name in _MARKERS or child.suffix == ".jsonl":
                raise FeedbackError(f"{child}:1: <file>: a symbolic link, not a regular file; results must be "
                                    "regular files (copy the run's results without links)")
            continue  # a linked folder may point anywhere (or loop): not entered
        if child.suffix == ".jsonl" and child.name != "traj.jsonl" and not child.is_dir():
            files.append(child)
        elif child.is_dir() and any(_present(child / m) for m in _MARKERS):
            attempts.append(read_folder(child))
    if any(_present(path / m) for m in _MARKERS):
        attempts.append(read_folder(path))
    return [a for f in files for a in read_jsonl(f, follow=False)] + attempts


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
    attempts = collect(path)
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
