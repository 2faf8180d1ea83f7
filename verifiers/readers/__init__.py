"""Readers: one module per file kind, holding what it takes to read an agent's end state: parsing, caching
(`kit.parsecache`, a state's per-file cache, the shared parts of documents) and bounds (`kit.bounded`). The check
primitives (`verifiers.checks`) only judge what a reader returns, as OSWorld keeps its getters apart from its
metrics; mutators, the frame and grounding read files the same way.

A reader never imports a check (tests/test_layers.py: readers sit below checks). It is handed the check's state as
a `Source`, which `verifiers.checks.State` is, and reports a state that cannot answer with a `StateError`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class StateError(Exception):
    """Raised inside a check when the state cannot answer (missing file, bad sheet): becomes a fail."""


class Source(Protocol):
    """What a reader asks of a state root (`verifiers.checks.State`): host paths and cached, bounded parses."""

    def path(self, path: str) -> Path:
        """The host path for `path`, links resolved inside the root; a StateError when it leaves the root."""
        ...

    def is_file(self, path: str) -> bool:
        """Is there a regular file at `path` (links resolved inside the root)?"""
        ...

    def is_dir(self, path: str) -> bool:
        """Is there a folder at `path`?"""
        ...

    def read(self, path: str, parse: Callable[[Path], T], what: str) -> T:
        """`parse(host file)` for the file at `path`, cached per (path, parse); any failure is a StateError."""
        ...

    def workbook(self, path: str) -> Any:
        """The xlsx workbook at `path` (`read` with `verifiers.readers.xlsx._load_formulas`)."""
        ...

    def sheet(self, path: str, sheet: str) -> Any:
        """Sheet `sheet` of the workbook at `path`; a StateError naming the sheets there are when it has none."""
        ...
