"""Edit operations: the vocabulary oracles and near-misses are written in.

A solution is data — a list like `[{"op": "xlsx.sort_rows", "path": "/home/user/a.xlsx", ...}]` — not
code, so a package's solutions can be applied without trusting it. Each op is a pure edit of an
in-memory document; `apply_ops` loads each file once, applies its ops in order, and saves it.
Paths must lie under /home/user; the state root stands for /home/user.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit import bounded
from kit.registry import import_submodules

HOME = "/home/user"


class OpError(ValueError):
    """An op is unknown, has bad arguments, or cannot be applied to the file."""


@dataclass(frozen=True)
class Op:
    name: str
    doc: str  # document kind: the name's prefix, e.g. "xlsx"
    fn: Callable[..., None]


@dataclass(frozen=True)
class DocumentKind:
    """How ops of one kind get their document: `load(host, root)` before the first op, `save` after the last.

    `host` is the op's path inside the state `root`; for file kinds the document is the parsed file,
    for kinds that act on the tree (e.g. `fs`) it can be any handle that knows `root`."""

    name: str
    load: Callable[[Path, Path], Any]
    save: Callable[[Any, Path], None]


_OPS: dict[str, Op] = {}
_KINDS: dict[str, DocumentKind] = {}


def document_kind(name: str, *, load: Callable[[Path, Path], Any], save: Callable[[Any, Path], None]) -> None:
    """Register the loader and saver for ops named `<name>.*`."""
    if name in _KINDS:
        raise ValueError(f"document kind {name!r} registered twice")
    _KINDS[name] = DocumentKind(name, load, save)


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register `fn(document, **args)` under `name` (prefix = document kind, e.g. `xlsx.`)."""

    def wrap(fn: Callable[..., None]) -> Callable[..., None]:
        if name in _OPS:
            raise ValueError(f"op {name!r} registered twice ({_OPS[name].fn.__module__} and {fn.__module__})")
        _OPS[name] = Op(name, name.split(".", 1)[0], fn)
        return fn

    return wrap


def registry() -> dict[str, Op]:
    """All ops; every module of this package registers its own (imported on first use)."""
    import_submodules(__name__)
    return _OPS


def resolve(root: Path, path: str, *, top: Path | None = None) -> Path:
    """Host path for `path` (absolute, under /home/user) inside the state `root`; refuses escapes.

    Symlinks are resolved inside the root as if it were /home/user (`kit.bounded.resolve_in`): a link to
    `/home/user/x` means `root/x`, a link leading above /home/user is refused, and the result holds no
    symlink, so opening it cannot be redirected to the host."""
    if not isinstance(path, str) or not (path == HOME or path.startswith(HOME + "/")) or "\0" in path:
        raise OpError(f"path {path!r} must be an absolute path under {HOME}")
    rel = path[len(HOME):].strip("/")
    if ".." in rel.split("/"):
        raise OpError(f"path {path!r} must not contain '..'")
    try:
        return bounded.resolve_in(root, rel, home=HOME, top=top)
    except ValueError as exc:
        raise OpError(f"path {path!r} {exc}") from None


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


#: An edited document: its kind, its host path inside the state root, the document itself.
Edited = tuple[DocumentKind, Path, Any]


def apply_ops(root: Path, ops: list[dict[str, Any]], *, disk_bytes: int | None = None) -> None:
    """Apply `ops` in order to the files under `root`; each file is loaded once and saved once at the end.

    With `disk_bytes`, the tree under `root` is measured after every op: an op sequence that grows it past the
    budget (an oracle extracting an archive again and again) stops there with `kit.bounded.LimitExceeded`
    wrapped in an OpError, before the next op can add more."""
    for path, (kind, host, document) in edit(root, ops, disk_bytes=disk_bytes).items():
        try:
            kind.save(document, host)
        except Exception as exc:  # e.g. the file-size limit (EFBIG), a full disk, a document that cannot be written
            raise OpError(f"cannot save {path} as {kind.name}: {type(exc).__name__}: {exc}") from exc


def kinds(ops: list[dict[str, Any]]) -> set[str]:
    """The document kinds `ops` edit through (names of registered ops only)."""
    known = registry()
    return {known[raw["op"]].doc for raw in ops if isinstance(raw, dict) and raw.get("op") in known}


def edit(root: Path, ops: list[dict[str, Any]], *, disk_bytes: int | None = None) -> dict[str, Edited]:
    """`apply_ops` without the saving: {home path: (kind, host path, edited document)}. Kinds whose ops act on
    the tree (e.g. `fs`) have written already; the file kinds (xlsx, docx, pptx ...) write only when saved."""
    validate(ops)
    known = registry()
    open_docs: dict[str, Edited] = {}
    for raw in ops:
        path = raw["path"]
        kind = _KINDS.get(known[raw["op"]].doc)
        if kind is None:
            raise OpError(f"op {raw['op']}: no document kind {known[raw['op']].doc!r} is registered")
        if path not in open_docs:
            host = resolve(root, path)
            try:
                if host.is_file():  # a fifo, a huge file or a zip bomb is refused before any loader opens it
                    bounded.preflight(host)
                open_docs[path] = (kind, host, kind.load(host, root))
            except FileNotFoundError:
                raise OpError(f"op {raw['op']}: {path} does not exist in the state") from None
            except Exception as exc:  # an unreadable file is a failed solution, not a crash
                raise OpError(f"op {raw['op']}: cannot open {path} as {kind.name} ({type(exc).__name__}: {exc})"
                              ) from None
        if open_docs[path][0] is not kind:
            raise OpError(f"op {raw['op']}: {path} is already open as {open_docs[path][0].name}; "
                          "one solution edits a file through one kind of op")
        _, _, document = open_docs[path]
        args = {k: v for k, v in raw.items() if k not in ("op", "path")}
        try:
            known[raw["op"]].fn(document, **args)
        except Exception as exc:  # any failure editing an untrusted document is a failed solution, never a crash
            raise OpError(f"op {raw['op']} on {path}: {type(exc).__name__}: {exc}") from exc
        if disk_bytes is not None:
            try:
                used = bounded.tree_bytes(root, disk_bytes)
            except (bounded.LimitExceeded, OSError) as exc:
                raise OpError(f"op {raw['op']} on {path}: {exc}") from exc
            if used > disk_bytes:
                raise OpError(f"op {raw['op']} on {path}: " + str(bounded.LimitExceeded(
                    f"the solution wrote more than {disk_bytes >> 20} MB into the state")))
    return open_docs
