"""Helpers shared by the file-kind mutators."""

from __future__ import annotations

from pathlib import Path

from kit.parsecache import file_digest as _digest


def _files(root: Path) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def changed_files(initial: Path, oracle: Path) -> list[str]:
    """Home-relative paths of the regular files in `oracle` that are new or differ from `initial`."""
    before, after = _files(initial), _files(oracle)
    return sorted(rel for rel, path in after.items() if rel not in before or _digest(before[rel]) != _digest(path))
