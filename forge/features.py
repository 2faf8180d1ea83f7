"""What a student sees of a task (`TaskView`) and a task's feature record (issue 39 items 1 and 5).

`TaskView` is the whole of a pluggable simulated student's input: the task's id, skill, family, app, register,
instruction, knob values, axis levels (the family's defaults filled in) and its initial files (path under the
desktop home -> the readable asset file in the package). No rubric, no solution: a student that could read them
would measure the rubric, not itself.

`features` turns a task (its view and, when the package is at hand, its rubric's check primitives) into a set of
categorical features, one string each (`name=value`), from what an agent sees and what the rubric judges:
register, instruction length and clause count, every named file (depth, extension, name shape), the value kinds
in the initial files (dates, currencies, decimals; text-like files and office files' XML only, bounded), the check
primitives, the axes and the knobs. `forge.mining` mines failures against them.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

HOME = "/home/user/"
#: How much of one initial file the value-kind features read (bytes): a feature record must stay cheap.
READ_LIMIT = 1 << 20
_TEXT = {".csv", ".txt", ".md", ".json", ".tsv", ".html", ".xml", ".ics", ".eml", ".vcf", ".py", ".ini"}
_ZIP = {".xlsx", ".docx", ".pptx", ".odt", ".ods", ".odp"}
_VALUE_KINDS = {
    "date": re.compile(r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}\.\d{1,2}\.\d{4})\b"),
    "currency": re.compile(r"[$€£¥]\s?\d|\d\s?(?:USD|EUR|GBP)\b"),
    "decimal": re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])"),
    "percent": re.compile(r"\d\s?%"),
    "email": re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+"),
}
_CLAUSE = re.compile(r"[,;:]|\b(?:and|then|but|while|unless|except|so that)\b", re.IGNORECASE)


@dataclass(frozen=True)
class TaskView:
    """What a simulated student sees of one task (read-only: the mappings are proxies)."""

    id: str
    skill: str
    family: str
    app: str
    register: str
    instruction: str
    knobs: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    axes: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: path relative to the desktop home -> absolute path of that file in the initial state (the package's asset)
    initial_files: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


def task_view(task_id: str, skill: Any, *, package: Path | None = None, app: str | None = None,
              instruction: str = "") -> TaskView:
    """The view of task `task_id` of `skill` (a `kit.taxonomy.Skill`); its instruction, register and initial files
    come from the package folder when there is one (task.json and assets/)."""
    from kit.axes import axis_params
    from kit.ids import TaskId
    from workflows import families

    family = families().get(skill.family)
    axes = axis_params(skill.params, family.axes) if family else {}
    knobs = {k: v for k, v in skill.params.items() if k not in axes}
    try:
        register = TaskId.parse(task_id).register
    except Exception:  # an id from elsewhere: the register is then whatever task.json says
        register = "explicit"
    files: dict[str, str] = {}
    task = _task_json(package)
    if task:
        instruction = str(task.get("instruction", instruction))
        register = str(task.get("register", register))
        for asset in task.get("setup", {}).get("assets", []):
            dest, file = str(asset.get("dest", "")), str(asset.get("file", ""))
            if dest.startswith(HOME) and file and package is not None:
                files[dest.removeprefix(HOME)] = str((package / file).resolve())
    return TaskView(id=task_id, skill=skill.id, family=skill.family, app=app or skill.app, register=register,
                    instruction=instruction, knobs=MappingProxyType(dict(knobs)), axes=MappingProxyType(dict(axes)),
                    initial_files=MappingProxyType(dict(sorted(files.items()))))


def _task_json(package: Path | None) -> dict[str, Any]:
    if package is None or not (package / "task.json").is_file():
        return {}
    try:
        data = json.loads((package / "task.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def rubric_primitives(package: Path | None) -> list[str]:
    """The check primitives of a package's rubric (what the rubric judges), in order, without repeats."""
    seen: dict[str, None] = {}
    for check in _task_json(package).get("rubric", []):
        if isinstance(check, dict) and check.get("primitive"):
            seen[str(check["primitive"])] = None
    return list(seen)


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for lo, hi in zip(edges, edges[1:], strict=False):
        if n < hi:
            return f"{lo}-{hi - 1}"
    return f"{edges[-1]}+"


def name_shape(name: str) -> list[str]:
    """Shapes of a file name's stem: spaces, digits, a date, upper case, underscores or dashes, length."""
    stem = name.rsplit(".", 1)[0]
    shapes = []
    if " " in stem:
        shapes.append("spaces")
    if re.search(r"\d", stem):
        shapes.append("digits")
    if _VALUE_KINDS["date"].search(stem) or re.search(r"\d{8}", stem):
        shapes.append("date")
    if any(c.isupper() for c in stem):
        shapes.append("upper")
    if "_" in stem or "-" in stem:
        shapes.append("separators")
    if not stem.isascii():
        shapes.append("non-ascii")
    shapes.append("long" if len(stem) > 20 else "short")
    return shapes


def file_text(path: str) -> str:
    """What the value-kind features read of a file: a text file's first READ_LIMIT bytes, an office file's XML
    members (tags dropped, READ_LIMIT bytes in all); '' for anything else or unreadable."""
    suffix = Path(path).suffix.lower()
    try:
        if suffix in _TEXT:
            with open(path, "rb") as f:
                return f.read(READ_LIMIT).decode("utf-8", "replace")
        if suffix in _ZIP:
            out, left = [], READ_LIMIT
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    if left <= 0:
                        break
                    if info.filename.endswith(".xml") and info.file_size <= READ_LIMIT:
                        text = re.sub(r"<[^>]+>", " ", z.read(info).decode("utf-8", "replace"))
                        out.append(text[:left])
                        left -= len(text)
            return " ".join(out)
    except (OSError, zipfile.BadZipFile, ValueError):
        return ""
    return ""


def features(view: TaskView, primitives: list[str] | tuple[str, ...] = ()) -> frozenset[str]:
    """The task's feature record (see the module docstring), as `name=value` strings."""
    out = {f"register={view.register}", f"app={view.app}", f"family={view.family}"}
    words = len(view.instruction.split())
    out.add(f"instruction.words={_bucket(words, (0, 15, 30, 50, 80))}")
    out.add(f"instruction.clauses={_bucket(len(_CLAUSE.findall(view.instruction)), (0, 1, 3, 5))}")
    lowered = view.instruction.lower()
    for word in ("all", "every", "only", "not", "each", "before", "after", "exactly"):
        if re.search(rf"\b{word}\b", lowered):
            out.add(f"instruction.says={word}")
    for axis, level in view.axes.items():
        out.add(f"axis.{axis}={level}")
    for knob, value in view.knobs.items():
        if isinstance(value, str | int | float | bool):
            out.add(f"knob.{knob}={value}")
    out.add(f"files={_bucket(len(view.initial_files), (0, 1, 2, 3, 5))}")
    folders: set[str] = set()
    for rel, path in view.initial_files.items():
        parts = rel.split("/")
        out.add(f"file.depth={len(parts) - 1}")
        out.add(f"file.ext={Path(rel).suffix.lower() or '(none)'}")
        out.update(f"file.name={shape}" for shape in name_shape(parts[-1]))
        folders.update("/".join(parts[:i]) for i in range(1, len(parts)))
        text = file_text(path)
        out.update(f"value={kind}" for kind, pattern in _VALUE_KINDS.items() if pattern.search(text))
    out.add(f"folders={_bucket(len(folders), (0, 1, 2, 4))}")
    deepest = max((rel.count("/") for rel in view.initial_files), default=0)
    out.add(f"file.deepest={_bucket(deepest, (0, 1, 2, 4))}")
    out.update(f"check={p}" for p in primitives)
    return frozenset(out)
