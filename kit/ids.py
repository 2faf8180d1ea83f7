"""Deterministic task ids and per-task seeds.

A task id is `<skill_id>--s<run_seed>--<index:05d>`, with `--natural` appended for a task whose instruction is in
the natural register (the explicit one is the default, so its ids are today's): parseable back into its parts,
stable across machines, and safe as a folder name. A natural task and its explicit twin share their seeds (the same
content), but not their id, folder or catalog row. A task's randomness comes from its own `random.Random`, seeded by
hashing (run seed, skill id, index) — never from the global RNG, the clock or uuid4.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from pathlib import Path

from kit.errors import UnsafeIdError

#: Any id that becomes a path component (a task id, an app / domain name, a model folder): letters, digits, `_`,
#: `.` and `-`, beginning with a letter or digit, so no separator, no `.` or `..` part, no hidden name, no option.
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
MAX_ID_CHARS = 200

_TASK_ID = re.compile(r"^(?P<skill>[a-z][a-z0-9_.]*)--s(?P<seed>\d+)--(?P<index>\d{5,})(?:--(?P<register>natural))?$")


@dataclass(frozen=True)
class TaskId:
    skill_id: str
    seed: int
    index: int
    register: str = "explicit"  # the instruction's register: explicit | natural

    def __str__(self) -> str:
        suffix = "" if self.register == "explicit" else f"--{self.register}"
        return f"{self.skill_id}--s{self.seed}--{self.index:05d}{suffix}"

    @classmethod
    def parse(cls, text: str) -> TaskId:
        match = _TASK_ID.match(text)
        if not match:
            raise ValueError(f"task id {text!r} is not of the form <skill_id>--s<seed>--<index>[--natural]")
        return cls(match["skill"], int(match["seed"]), int(match["index"]), match["register"] or "explicit")


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts, stable across processes (unlike `hash()`)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def task_rng(run_seed: int, skill_id: str, index: int, node: str = "") -> random.Random:
    """The task's own RNG; `node` gives each DAG node an independent stream."""
    return random.Random(derive_seed(run_seed, skill_id, index, node))


def digest(data: bytes | str) -> str:
    """sha256 hex digest of bytes or text."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def safe_id(value: object, *, what: str = "task id") -> str:
    """`value` when it can be one folder name (see `_SAFE_ID`), else `UnsafeIdError` naming `what`.

    Every path built from a package's task.json or a catalog row goes through this before anything is created or
    removed: an id is data from elsewhere (a package from another machine, a shared catalog others can write).
    """
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS and _SAFE_ID.fullmatch(value):
        return value
    shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
    raise UnsafeIdError(f"{what} {shown} cannot name a folder: it must be 1-{MAX_ID_CHARS} letters, digits, '_', "
                        "'.' or '-', beginning with a letter or digit; fix the package or catalog row")


def path_inside(root: Path, *parts: str, what: str = "path") -> Path:
    """`root/parts...` resolved, required to lie strictly inside `root` resolved (links followed), else
    `UnsafeIdError`. For relative names read from elsewhere (an asset's file name) that may hold `/`."""
    base = root.resolve()
    target = base.joinpath(*parts).resolve()
    if target == base or not target.is_relative_to(base):
        joined = "/".join(parts)
        raise UnsafeIdError(f"{what} {joined!r} leads outside {root}; a package may only name files inside it")
    return target
