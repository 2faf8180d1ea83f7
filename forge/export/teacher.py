"""Teacher trajectories: each task's terminal solution (solution/teacher.json) run as a student's answer.

`run_teachers` hands every package's teacher commands — the look, then the edit — to the batch student runner
(`forge.student_batch.run_answers`) under the model name `teacher`, so they run through the student's own shell
(bubblewrap, the agent's limits, no package) and are scored by the rubric exactly like a model's answer; the
result layout is `forge student run`'s, so `forge export trajectories` turns the passing runs into SFT rows in the
same chat format as student trajectories (`forge export trajectories --teacher`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from forge.catalog import Catalog
from forge.student_batch import run_answers
from kit.package import Package, load_package
from kit.sandbox import Sandbox

MODEL = "teacher"


def teacher_commands(package: Package) -> list[str]:
    """The look and the edit of the package's teacher, or [] for a task without a terminal solution."""
    rel = package.task.get("solutions", {}).get("teacher")
    if not rel:
        return []
    try:
        data = json.loads((package.root / rel).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{package.root / rel}: not readable JSON ({exc})") from None
    if not isinstance(data, dict) or not data.get("commands"):
        return []
    commands = [*data.get("look", []), *data["commands"]]
    if not all(isinstance(c, str) for c in commands):
        raise ValueError(f"{package.root / rel}: 'look' and 'commands' must be lists of strings")
    return commands


def run_teachers(paths: Sequence[Path], results: Path, sandbox: Sandbox, catalog: Catalog | None, *,
                 concurrency: int = 1, progress: Callable[[str, str], None] | None = None) -> Counter[str]:
    """Run the teacher of every package under `paths` into `results` (model `teacher`); the counts say how many
    passed, failed, had no terminal solution (`gui`) or were already done."""
    packages = [load_package(p) for p in paths]
    answers = {p.id: commands for p in packages if (commands := teacher_commands(p))}
    counts = run_answers([p for p in packages if p.id in answers], answers, model=MODEL, out=results,
                         sandbox=sandbox, catalog=catalog, concurrency=concurrency,
                         selection={"teacher": True}, progress=progress)
    counts["gui"] = len(packages) - len(answers)
    return counts
