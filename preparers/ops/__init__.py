"""Edit operations: the vocabulary oracles and near-misses are written in.

A solution is data — a list like `[{"op": "xlsx.sort_rows", "path": "/home/user/a.xlsx", ...}]` — not
code, so a package's solutions can be applied without trusting it. Each op is a pure edit of an
in-memory document; `apply_ops` loads each file once, applies its ops in order, and saves it.
Paths must lie under /home/user; the state root stands for /home/user.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HOME = "/home/user"
#: Modules that register ops; imported on first use.
MODULES = (
    "preparers.ops.xlsx_chart",
    "preparers.ops.xlsx_format",
    "preparers.ops.xlsx_structure",
    "preparers.ops.xlsx_values",
)


class OpError(ValueError):
    """An op is unknown, has bad arguments, or cannot be applied to the file."""


@dataclass(frozen=True)
class Op:
    name: str
    doc: str  # file kind: "xlsx"
    fn: Callable[..., None]


_OPS: dict[str, Op] = {}


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register `fn(document, **args)` under `name` (prefix = document kind, e.g. `xlsx.`)."""

    def wrap(fn: Callable[..., None]) -> Callable[..., None]:
        if name in _OPS:
            raise ValueError(f"op {name!r} registered twice ({_OPS[name].fn.__module__} and {fn.__module__})")
        _OPS[name] = Op(name, name.split(".", 1)[0], fn)
        return fn

    return wrap


def registry() -> dict[str, Op]:
    for module in MODULES:
        importlib.import_module(module)
    return _OPS


def resolve(root: Path, path: str) -> Path:
    """Host path for `path` (absolute, under /home/user) inside the state `root`; refuses escapes."""
    if not isinstance(path, str) or not (path == HOME or path.startswith(HOME + "/")):
        raise OpError(f"path {path!r} must be an absolute path under {HOME}")
    rel = Path(path[len(HOME):].lstrip("/"))
    if ".." in rel.parts:
        raise OpError(f"path {path!r} must not contain '..'")
    host = (root / rel).resolve()
    if host != root.resolve() and root.resolve() not in host.parents:
        raise OpError(f"path {path!r} resolves outside the state root")
    return host


def validate(ops: list[dict[str, Any]]) -> None:
    """Raise `OpError` naming the op index and field when an op is unknown or its args do not bind."""
    known = registry()
    for i, raw in enumerate(ops):
        name = raw.get("op") if isinstance(raw, dict) else None
        if name not in known:
            raise OpError(f"ops[{i}]: unknown op {name!r}; known: {sorted(known)}")
        args = {k: v for k, v in raw.items() if k not in ("op", "path")}
        try:
            inspect.signature(known[name].fn).bind(None, **args)
        except TypeError as exc:
            raise OpError(f"ops[{i}] ({name}): {exc}") from None
        if "path" not in raw:
            raise OpError(f"ops[{i}] ({name}): missing 'path'")


def apply_ops(root: Path, ops: list[dict[str, Any]]) -> None:
    """Apply `ops` to the files under `root`, each file loaded and saved once, in first-use order."""
    from preparers.ops import documents

    validate(ops)
    known = registry()
    by_path: dict[str, list[dict[str, Any]]] = {}
    for raw in ops:
        by_path.setdefault(raw["path"], []).append(raw)
    for path, file_ops in by_path.items():
        host = resolve(root, path)
        kind = known[file_ops[0]["op"]].doc
        document = documents.load(kind, host)
        for raw in file_ops:
            args = {k: v for k, v in raw.items() if k not in ("op", "path")}
            try:
                known[raw["op"]].fn(document, **args)
            except (KeyError, ValueError, IndexError, TypeError) as exc:
                raise OpError(f"op {raw['op']} on {path}: {exc}") from exc
        documents.save(kind, document, host)
