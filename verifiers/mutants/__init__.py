"""The mutation control: generic mutators per file kind damage (or harmlessly rewrite) the oracle's end state.

A rubric must reject every *damaging* mutant (a state no instruction allows: a value changed out of scope, a
constant dressed as a formula, a pixelated image, an emptied file that had to be kept, a duplicate entry with the
asked name) and accept every *neutral* one (what a correct solution may also produce: the file re-saved, an
equivalent formula, JSON keys reordered, new ids and timestamps). This catches the lax checks no family author
thought of; near-misses only catch the ones they did.

Each file-kind module exposes `mutants(ctx) -> list[Mutant]`; `MUTATORS` (or `registry()`) maps every module of
this package that defines one to it, imported on first use: adding a file kind is adding a module. A mutator
looks at the task (its rubric, its assets) and at the initial and oracle states, and offers the mutants that
apply; it never offers a damaging mutant that the instruction would allow (e.g. changing the very cell the task
asks for to its right value). Mutants are deterministic per task seed (`ctx.rng`), never the global RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Kind = Literal["damaging", "neutral"]


@dataclass(frozen=True)
class Mutant:
    #: "<kind>.<what>:<where>", e.g. "xlsx.value_out_of_scope:Data!C7"; shown in evidence and in `forge show`.
    name: str
    kind: Kind
    #: Mutates, in place, the state rooted at the given folder (a private copy of the oracle's end state).
    apply: Callable[[Path], None] = field(compare=False)
    #: Optional fast path: the mutated documents in memory, {(home path, parser): parsed object}, keyed like
    #: `verifiers.checks.State`'s cache. The stage then evaluates the rubric on them without writing and
    #: re-reading the file, and falls back to `apply` on a copy when a check reads that file any other way. A `Lazy`
    #: value is made on first read.
    documents: Callable[[], dict[tuple[str, Any], Any]] | None = field(default=None, compare=False)
    #: Optional, for a mutant without `documents`: every file (home-relative) whose contents `apply` changes,
    #: creates or removes. The stage then reads the documents of all other files from those the oracle's checks
    #: parsed already, and makes the copy with `apply` only when a check reads one of these files, or a folder
    #: holding one. A file left out here would be judged unmutated: tests/verifiers/test_fast_path.py compares.
    #: `apply` may also be run on a folder holding copies of these files alone (reading one then needs no copy of
    #: the whole state); an `apply` that fails there or leaves any other file gets the whole copy instead.
    rewrites: tuple[str, ...] | None = field(default=None, compare=False)
    #: The same for a mutant that changes files' times only: their parsed documents stay readable too (a parser
    #: reads contents only), and a look at such a file itself (its path) makes the copy.
    touches: tuple[str, ...] | None = field(default=None, compare=False)


class Lazy:
    """A document of a state made only when a check reads it (a view few checks read; a shared workbook taken back
    to how it was parsed)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


@dataclass(frozen=True)
class MutationContext:
    task: dict[str, Any]  # task.json
    initial: Path  # the initial state root (stands for /home/user)
    oracle: Path  # the oracle's end state root
    rng: random.Random  # seeded from the task's seed
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def changed(self) -> list[str]:
        """Home-relative paths of files the oracle created or changed (sorted; computed once per context)."""
        from verifiers.mutants.common import changed_files

        if "changed" not in self._memo:
            self._memo["changed"] = changed_files(self.initial, self.oracle)
        return list(self._memo["changed"])


Mutator = Callable[[MutationContext], list[Mutant]]


def registry() -> dict[str, Mutator]:
    """{module name: its `mutants` function} for every file-kind module of this package, sorted by name."""
    from kit.registry import import_submodules

    return {m.__name__.rsplit(".", 1)[1]: m.mutants for m in import_submodules(__name__) if hasattr(m, "mutants")}


def __getattr__(name: str) -> Any:
    if name == "MUTATORS":  # computed on access: the modules import this one, so it cannot be built at import
        return registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
