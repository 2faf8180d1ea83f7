"""Materialize states: run setup.sh in the sandbox, apply a solution (ops JSON or a sandboxed script).

`LocalEnv` is the gate's environment in this process: the sandbox for scripts, `preparers.ops` for
ops solutions, and a duplicate lookup (the catalog's accepted tasks plus those accepted in this batch).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from forge.package import Package
from forge.sandbox import RunResult, Sandbox
from preparers.ops import OpError, apply_ops


class LocalEnv:
    def __init__(self, sandbox: Sandbox, find_duplicate: Callable[[str, str], str | None] | None = None) -> None:
        self.sandbox = sandbox
        self._find = find_duplicate
        self.seen: dict[str, str] = {}  # dedup key -> task id accepted in this process

    def run_setup(self, package: Package, home: Path) -> RunResult:
        return self.sandbox.run_script(package.root, package.task["setup"]["entry"], home)

    def apply_solution(self, package: Package, solution: str, home: Path) -> RunResult:
        path = package.root / solution
        if path.suffix == ".sh":
            return self.sandbox.run_script(package.root, solution, home)
        try:
            apply_ops(home, json.loads(path.read_text(encoding="utf-8")).get("ops", []))
        except (OpError, OSError, ValueError) as exc:
            return RunResult(1, "", str(exc))
        return RunResult(0, f"applied {solution}", "")

    def find_duplicate(self, key: str, task_id: str) -> str | None:
        other = self.seen.get(key)
        if other is None and self._find is not None:
            other = self._find(key, task_id)
        if other is not None and other != task_id:
            return other
        self.seen[key] = task_id
        return None


def solve(package: Package, sandbox: Sandbox, state: Path, solution: str) -> str:
    """Set up `state` (standing for /home/user) and apply `solution`: oracle, near-miss[-N] or none."""
    from forge.errors import PackageError

    state.mkdir(parents=True, exist_ok=True)
    if any(state.iterdir()):
        raise PackageError(f"{state}: state folder is not empty; give a new or empty folder")
    env = LocalEnv(sandbox)
    ran = env.run_setup(package, state)
    if not ran.ok:
        raise PackageError(f"{package.root}/setup.sh failed: {ran.evidence()}")
    files = package.solution_files()
    chosen = {"none": None, "oracle": files[0], "near-miss": files[1] if len(files) > 1 else ""}
    for i, near in enumerate(files[1:], start=1):
        chosen[f"near-miss-{i}"] = near
    if solution not in chosen:
        raise PackageError(f"--solution {solution!r}: choose one of {sorted(chosen)}")
    target = chosen[solution]
    if target is None:
        return "initial state (no solution applied)"
    ran = env.apply_solution(package, target, state)
    if not ran.ok:
        raise PackageError(f"{package.root}/{target}: {ran.evidence()}")
    return ran.stdout or ran.evidence()
