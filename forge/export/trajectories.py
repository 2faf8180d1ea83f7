"""`forge export trajectories OUT.jsonl`: verified student trajectories as chat-format SFT rows.

Reads the result folders `forge student run` writes (`<results>/shell/terminal/<model>/<domain>/<task_id>/`)
and keeps an episode only when the rubric's verdict says so: its result.txt score (every check passed = 1.0)
is at least `--min-score`. Unfinished folders (no result.txt) and infrastructure failures are never rows.
One row per episode:

    {"task_id", "domain", "model", "score", "steps", "failed_checks", "tools": [the shell tool],
     "messages": [system, user (the instruction), assistant with tool_calls, tool (the output), ..., assistant]}

`messages` is exactly what the model saw and said, in the tool-call form whichever protocol the server spoke,
so the rows load straight into chat-template SFT trainers (`datasets.load_dataset("json", data_files=...)`).
Nothing hidden is in a row: the model never saw the solution or the rubric's expected values.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kit.errors import ForgeError


class TrajectoryExportError(ForgeError, ValueError):
    """A result folder cannot be read; the message names the file and what is wrong."""


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TrajectoryExportError(f"{path}: not readable JSON ({exc}); delete the task's folder and rerun "
                                    "`forge student run` to redo it") from None
    except RecursionError:
        raise TrajectoryExportError(f"{path}: JSON nested too deeply to read; delete the task's folder and rerun "
                                    "`forge student run` to redo it") from None


def _score(folder: Path) -> float:
    path = folder / "result.txt"
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    try:
        score = float(text)
    except ValueError:
        score = math.nan
    if not math.isfinite(score) or not 0.0 <= score <= 1.0:
        raise TrajectoryExportError(f"{path}: {text[:40]!r} is not a score between 0 and 1")
    return score


def trajectory_rows(results: Path, min_score: float = 1.0, keep: Callable[[str], bool] | None = None
                    ) -> Iterator[dict[str, Any]]:
    """Rows of every finished episode under `results` scoring at least `min_score` (and whose task id `keep`
    accepts, when given), in path order."""
    if not results.is_dir():
        raise TrajectoryExportError(f"{results}: no such folder; give the --out folder of `forge student run`")
    for messages_file in sorted(results.rglob("messages.json")):
        folder = messages_file.parent
        if not (folder / "result.txt").is_file():
            continue  # unfinished or an infrastructure failure: no verdict, no row
        score = _score(folder)
        if score < min_score:
            continue
        episode = _read_json(messages_file)
        verdict = _read_json(folder / "checks.json") if (folder / "checks.json").is_file() else {}
        if not isinstance(episode, dict) or not isinstance(episode.get("messages"), list):
            raise TrajectoryExportError(f"{messages_file}: expected an object with a `messages` list")
        messages = episode["messages"]
        if keep is not None and not keep(str(episode.get("task_id", folder.name))):
            continue
        yield {"task_id": str(episode.get("task_id", folder.name)), "domain": str(episode.get("domain", "")),
               "model": str(episode.get("model", "")), "score": score,
               "steps": sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "tool"),
               "failed_checks": list(verdict.get("failed_checks", [])) if isinstance(verdict, dict) else [],
               "tools": episode.get("tools", []), "messages": messages}


def export_trajectories(results: Path, out: Path, min_score: float = 1.0,
                        keep: Callable[[str], bool] | None = None) -> int:
    """Write the rows to `out` (JSON Lines, replaced atomically); returns how many."""
    if not 0.0 <= min_score <= 1.0:
        raise TrajectoryExportError(f"--min-score {min_score}: must be between 0 and 1")
    if not results.is_dir():
        raise TrajectoryExportError(f"{results}: no such folder; give the --out folder of `forge student run`")
    tmp = out.with_name(out.name + ".tmp")
    count = 0
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("w", encoding="utf-8") as sink:
            for row in trajectory_rows(results, min_score, keep):
                sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                count += 1
        os.replace(tmp, out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise TrajectoryExportError(f"{out}: cannot write here ({exc.strerror or exc}); choose another file") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return count
