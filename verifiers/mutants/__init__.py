"""The mutation control: generic mutators per file kind damage (or harmlessly rewrite) the oracle's end state.

A rubric must reject every *damaging* mutant (a state no instruction allows: a value changed out of scope, a
constant dressed as a formula, a pixelated image, an emptied file that had to be kept, a duplicate entry with the
asked name) and accept every *neutral* one (what a correct solution may also produce: the file re-saved, an
equivalent formula, JSON keys reordered, new ids and timestamps). This catches the lax checks no family author
thought of; near-misses only catch the ones they did.

Each file-kind module exposes `mutants(ctx) -> list[Mutant]`; `MUTATORS` lists them all. A mutator looks at the
task (its rubric, its assets) and at the initial and oracle states, and offers the mutants that apply; it never
offers a damaging mutant that the instruction would allow (e.g. changing the very cell the task asks for to its
right value). Mutants are deterministic per task seed (`ctx.rng`), never the global RNG.
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


@dataclass(frozen=True)
class MutationContext:
    task: dict[str, Any]  # task.json
    initial: Path  # the initial state root (stands for /home/user)
    oracle: Path  # the oracle's end state root
    rng: random.Random  # seeded from the task's seed

    def changed(self) -> list[str]:
        """Home-relative paths of files the oracle created or changed (sorted)."""
        from verifiers.mutants.common import changed_files

        return changed_files(self.initial, self.oracle)


Mutator = Callable[[MutationContext], list[Mutant]]
