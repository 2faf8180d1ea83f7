"""What a student sees of a task (`TaskView`) and a task's feature record (issue 39 items 1 and 5).

`TaskView` is the whole of a pluggable simulated student's input: the task's id, skill, family, app, register,
instruction, knob values, axis levels (the family's defaults filled in) and its initial files (path under the
desktop home -> the readable asset file in the package). No rubric, no solution: a student that could read them
would measure the rubric, not itself.

`features` turns a task (its view and, when the package is at hand, its rubric's check primitives) into a set of
categorical features, one string each (`name=value`), from what an agent sees and what the rubric judges:
register, instruction length and clause count, how deep the files the instruction names lie, every initial file
(depth, extension, name shape), the value kinds in the initial files (dates, currencies, decimals; text-like files
and office files' XML only, bounded) and how their dates are ordered (written out, or a workbook's date formats:
iso, day first, month first), the check primitives, the axes and the knobs. `forge.mining` mines failures against them.
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
#: Dates written out, by the order of their parts: ISO, day first (a dotted date, or a slashed one whose first part
#: cannot be a month), month first (a slashed one whose second part cannot be a month); `slashed`: any a/b/yyyy.
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_SLASHED = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})\b")
_DOTTED = re.compile(r"\b\d{1,2}\.\d{1,2}\.\d{4}\b")
#: A spreadsheet's number formats (xl/styles.xml): a date shows in the order of its format code's parts.
_FORMAT_CODE = re.compile(r'formatCode="([^"]*)"')
#: Paths an instruction names, ending in a file name with an extension: under the home (folder names may hold
#: spaces between words, a dot only in their last word, so a path never runs on into the sentence) or relative.
_HOME_PATH = re.compile(r"(?:/home/user/|~/)((?:(?:[\w-]+ )*[\w.-]+/)*)(?:[\w-]+ )*[\w.-]*\.\w+")
_REL_PATH = re.compile(r"(?<![\w./~-])((?:[\w.-]+/)+)[\w.-]+\.\w+")
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


def date_orders(text: str) -> set[str]:
    """How the dates written in `text` order their parts (see `_ISO`...): a subset of iso, dmy, mdy, slashed."""
    out = {"iso"} if _ISO.search(text) else set()
    if _DOTTED.search(text):
        out.add("dmy")
    for first, second, _ in _SLASHED.findall(text):
        out.add("slashed")
        if int(first) > 12 >= int(second):
            out.add("dmy")
        elif int(second) > 12 >= int(first):
            out.add("mdy")
    return out


def format_orders(path: str) -> set[str]:
    """The date orders of a workbook's date number formats (a code with y, m and d: iso when the year leads, else
    dmy or mdy by whether d or m comes first); empty for anything else."""
    if Path(path).suffix.lower() not in (".xlsx", ".ods"):
        return set()
    try:
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("xl/styles.xml")
            if info.file_size > READ_LIMIT:
                return set()
            codes = _FORMAT_CODE.findall(z.read(info).decode("utf-8", "replace"))
    except (OSError, KeyError, zipfile.BadZipFile, ValueError):
        return set()
    out = set()
    for code in (re.sub(r'"[^"]*"|\[[^\]]*\]', "", c).lower() for c in codes):
        if all(part in code for part in "ymd"):
            y, m, d = code.index("y"), code.index("m"), code.index("d")
            out.add("iso" if y < min(m, d) else "dmy" if d < m else "mdy")
    return out


def instruction_depth(instruction: str) -> int | None:
    """How many folders below the home the deepest file the instruction names lies (None: it names no path)."""
    depths = [folders.count("/") for folders in _HOME_PATH.findall(instruction)]
    depths += [folders.count("/") for folders in _REL_PATH.findall(_HOME_PATH.sub(" ", instruction))]
    return max(depths, default=None)


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
    depth = instruction_depth(view.instruction)
    if depth is not None:
        out.add(f"instruction.path.depth={min(depth, 4)}{'+' if depth >= 4 else ''}")
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
        out.update(f"value.date={order}" for order in date_orders(text) | format_orders(path))
    out.add(f"folders={_bucket(len(folders), (0, 1, 2, 4))}")
    deepest = max((rel.count("/") for rel in view.initial_files), default=0)
    out.add(f"file.deepest={_bucket(deepest, (0, 1, 2, 4))}")
    out.update(f"check={p}" for p in primitives)
    return frozenset(out)
