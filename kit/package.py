"""Task packages on disk: `<out>/<app>/<task_id>/{task.json, setup.sh, assets/, solution/}`.

`build_package` turns a workflow's outputs into files (in memory); `write_package` writes them
atomically (a temp folder renamed into place, so a crash never leaves half a package; `sweep_partial`
removes a killed run's hidden leftovers);
`load_package` reads any package folder back, with errors that name the file.
Nothing time- or run-dependent goes into a package: the same inputs give the same bytes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kit import bounded
from kit.dag import LLMCall, Workflow
from kit.errors import PackageError, UnsafeIdError
from kit.ids import TaskId, digest, safe_id
from kit.model import DECLARED_INFEASIBLE, Asset, Check, Solution, Teacher
from kit.scratch import process_alive
from kit.taxonomy import Skill

SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "task.schema.json"


@cache
def task_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


def dumps(data: Any) -> str:
    """The one JSON encoding used for package files: sorted keys, 2-space indent, trailing newline."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_setup(task_id: str, assets: list[tuple[str, Asset]], launch: list[str]) -> str:
    """setup.sh: copy assets under /home/user, then launch the app unless FORGE_NO_LAUNCH=1.

    Every command is a process, so the script runs few: one `mkdir -p` for every folder, one `cp` per folder for
    the files that keep their names there (a mail profile's dozen files took a dozen processes, ~1 ms each, most
    of a setup), one per file that is renamed, one `chmod` per mode. Assets that share a destination are copied
    one by one, in order (the last one stays)."""
    lines = [
        "#!/usr/bin/env bash",
        f"# Forge task {task_id}: recreate the initial state under /home/user.",
        "set -euo pipefail",
        'ASSETS="${FORGE_ASSETS:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/assets}"',
    ]
    folders = sorted({asset.dest.rsplit("/", 1)[0] for _, asset in assets})
    if folders:
        lines.append("mkdir -p " + " ".join(map(shlex.quote, folders)))
    if len({asset.dest for _, asset in assets}) < len(assets):
        for file, asset in assets:
            lines.append(f'cp "$ASSETS"/{shlex.quote(file.removeprefix("assets/"))} {shlex.quote(asset.dest)}')
            if asset.mode != 0o644:
                lines.append(f"chmod {asset.mode:o} {shlex.quote(asset.dest)}")
    else:
        into: dict[str, list[str]] = {}  # folder -> the files copied there under their own names, in asset order
        for file, asset in assets:
            name, (folder, base) = file.removeprefix("assets/"), asset.dest.rsplit("/", 1)
            if name == base:
                into.setdefault(folder, []).append(f'"$ASSETS"/{shlex.quote(name)}')
            else:
                lines.append(f'cp "$ASSETS"/{shlex.quote(name)} {shlex.quote(asset.dest)}')
        lines += [f"cp {' '.join(sources)} {shlex.quote(folder + '/')}" for folder, sources in into.items()]
        modes: dict[int, list[str]] = {}
        for _, asset in assets:
            if asset.mode != 0o644:
                modes.setdefault(asset.mode, []).append(shlex.quote(asset.dest))
        lines += [f"chmod {mode:o} {' '.join(dests)}" for mode, dests in sorted(modes.items())]
    if launch:
        lines += [
            'if [ "${FORGE_NO_LAUNCH:-0}" != "1" ]; then',
            f"  (setsid {shlex.join(launch)} >/dev/null 2>&1 &)",
            "fi",
        ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class PackageFiles:
    """A package in memory: relative path -> bytes, plus the parsed task.json."""

    task_id: TaskId
    app: str
    task: dict[str, Any]
    files: dict[str, bytes]


def dedup_key(task: Mapping[str, Any]) -> str:
    """Normalized params + artifact hashes + rubric: two tasks with the same key are the same task."""
    parts = {
        "skill": task.get("skill_id"),
        "assets": sorted(a.get("sha256", "") for a in task.get("setup", {}).get("assets", [])),
        "rubric": [[c.get("primitive"), c.get("args")] for c in task.get("rubric", [])],
    }
    return digest(json.dumps(parts, sort_keys=True, default=str))[:32]


def build_package(task_id: TaskId, skill: Skill, workflow: Workflow, outputs: Mapping[str, Any],
                  calls: list[LLMCall]) -> PackageFiles:
    """The package of one task. A natural-register task (`task_id.register`) says so in task.json's `register`;
    an explicit one leaves it out (the default), so its bytes are those of packages made before registers."""
    assets: list[Asset] = outputs["assets"]
    rubric: list[Check] = [*outputs["rubric"], *outputs.get("frame", ())]  # the frame ends every rubric
    solutions: list[Solution] = outputs["solutions"]
    named: list[tuple[str, Asset]] = []
    used: set[str] = set()
    for i, asset in enumerate(assets):
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", asset.name).lstrip(".") or "file"
        file = f"assets/{safe}" if safe not in used else f"assets/{i}_{safe}"
        used.add(file.removeprefix("assets/"))
        named.append((file, asset))
    files: dict[str, bytes] = {file: asset.data for file, asset in named}
    files["setup.sh"] = render_setup(str(task_id), named, list(outputs["launch"])).encode()
    solution_files = []
    for solution in solutions:
        path = f"solution/{solution.name}.json"
        files[path] = dumps(solution.to_json()).encode()
        solution_files.append(path)
    solved: dict[str, Any] = {"oracle": solution_files[0], "near_misses": solution_files[1:]}
    teacher: Teacher | None = outputs.get("teacher")
    if teacher is not None:
        files["solution/teacher.json"] = dumps(teacher.to_json()).encode()
        solved["teacher"] = "solution/teacher.json"
    task: dict[str, Any] = {
        "schema_version": 1,
        "id": str(task_id),
        "skill_id": skill.id,
        "family": skill.family,
        "workflow": {"name": workflow.name, "version": workflow.version, "signature": workflow.signature},
        "seed": task_id.seed,
        "round": 0,
        "app": skill.app,
        "apps": list(skill.apps),
        "params": dict(skill.params),
        "instruction": outputs["instruction"],
        "setup": {
            "entry": "setup.sh",
            "assets": [_asset_entry(f, a) for f, a in named],
            "launch": list(outputs["launch"]),
        },
        "rubric": [check.to_json() for check in rubric],
        "solutions": solved,
        "metadata": {"llm": _usage(calls)},
    }
    if task_id.register != "explicit":
        task["register"] = task_id.register
    if any(check.primitive == DECLARED_INFEASIBLE for check in rubric):  # the right outcome is to decline
        task["feasible"] = False  # only when false: a feasible task keeps the bytes of packages made before
    task["metadata"]["dedup_key"] = dedup_key(task)
    files["task.json"] = dumps(task).encode()
    return PackageFiles(task_id, skill.app, task, files)


def _asset_entry(file: str, asset: Asset) -> dict[str, Any]:
    entry: dict[str, Any] = {"file": file, "dest": asset.dest, "sha256": digest(asset.data), "app": asset.app}
    if asset.mode != 0o644:
        entry["mode"] = f"{asset.mode:04o}"
    return entry


def _usage(calls: list[LLMCall]) -> dict[str, Any]:
    """The answers' own usage: the same whether they came from the endpoint or the cache, so a resumed run
    writes the same bytes (what a run spent, cache hits, latency and attempts are in the catalog's ledger)."""
    return {
        "backend": calls[0].backend if calls else "none",
        "calls": len(calls),
        "prompt_tokens": sum(c.prompt_tokens for c in calls),
        "completion_tokens": sum(c.completion_tokens for c in calls),
        "cost_usd": round(sum(c.cost_usd for c in calls), 6),
    }


def _scratch(folder: Path, kind: str) -> Path:
    """A hidden sibling owned by this process: `.<name>.<kind>-<host>-<pid>` (runs may share `out`)."""
    return folder.with_name(f".{folder.name}.{kind}-{socket.gethostname()}-{os.getpid()}")


def write_package(folder: Path, package: PackageFiles) -> Path:
    """Write `package` to `folder` atomically (replacing an older copy); returns the folder."""
    tmp = _scratch(folder, "tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    for rel, data in sorted(package.files.items()):
        target = tmp / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (tmp / "setup.sh").chmod(0o755)
    folder.parent.mkdir(parents=True, exist_ok=True)
    if folder.exists():  # move the old copy aside in one rename: a kill never leaves half of it visible
        old = _scratch(folder, "old")
        if old.exists():
            shutil.rmtree(old)
        folder.rename(old)
        tmp.rename(folder)
        shutil.rmtree(old)
    else:
        tmp.rename(folder)
    return folder


_SCRATCH = re.compile(r"^\..+\.(?:tmp|old)-(?P<host>.+)-(?P<pid>\d+)$")


def sweep_partial(out: Path) -> int:
    """Delete what killed runs on this host left half-done under `out/<app>/` (hidden scratch folders whose
    process is gone; a live run's are left alone); returns how many. Visible package folders are always
    complete."""
    swept, host = 0, socket.gethostname()
    for leftover in [*out.glob("*/.*"), *out.glob("rejected/*/.*")]:
        match = _SCRATCH.match(leftover.name)
        if not match or match["host"] != host or not leftover.is_dir() or process_alive(int(match["pid"])):
            continue
        shutil.rmtree(leftover, ignore_errors=True)
        swept += 1
    return swept


@dataclass(frozen=True)
class Package:
    """A package folder read back from disk."""

    root: Path
    task: dict[str, Any]

    @property
    def id(self) -> str:
        """The task id, safe as one folder name (`UnsafeIdError` otherwise: load_package refuses such a package)."""
        return safe_id(self.task.get("id", self.root.name))

    def solution_files(self) -> list[str]:
        sols = self.task.get("solutions", {})
        return [sols.get("oracle", ""), *sols.get("near_misses", [])]


def load_package(path: Path) -> Package:
    """Read `path/task.json`; raises `PackageError` naming the file when it is missing or not JSON."""
    if not path.is_dir():
        raise PackageError(f"{path}: not a package folder (expected a folder holding task.json)")
    task_file = path / "task.json"
    try:  # bounded: a fifo in its place must not hang us, a link must not lead anywhere, a huge file is refused
        task = json.loads(bounded.read_file(task_file, 16 << 20).decode("utf-8"))
    except FileNotFoundError:
        raise PackageError(f"{task_file}: missing; a package folder must hold task.json") from None
    except (OSError, ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):
            raise PackageError(f"{task_file}: not valid JSON ({exc})") from None
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
        raise PackageError(f"{task_file}: cannot be read ({reason}); it must be a regular JSON file") from None
    if not isinstance(task, dict):
        raise PackageError(f"{task_file}: top level must be a JSON object")
    for field in ("id", "app"):  # both become folder names: refuse `../x`, `/abs` before anyone builds a path
        if field in task:
            try:
                safe_id(task[field], what=field)
            except UnsafeIdError as exc:
                raise PackageError(f"{task_file}: {exc}") from None
    return Package(path, task)
