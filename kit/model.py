"""Value objects that cross from workflows into packages: assets, rubric checks, solutions.

Workflows build these; `kit.package` writes them; the gate reads them back from `task.json`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

HOME = "/home/user"


@dataclass(frozen=True)
class Asset:
    """A file setup.sh places at `dest` (an absolute path under /home/user)."""

    dest: str
    data: bytes
    app: str = ""  # the real app that must open it in the real-app tier: calc | writer | impress | thunderbird | ""
    mode: int = 0o644  # permission bits setup.sh gives the file (0o755 for scripts)

    @property
    def name(self) -> str:
        return self.dest.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Check:
    """One rubric item: a human criterion (for an LLM judge) and its executable form."""

    id: str
    criterion: str
    primitive: str
    args: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "criterion": self.criterion, "primitive": self.primitive, "args": self.args}


@dataclass(frozen=True)
class Freedom:
    """Where a correct solution may change more than the family's oracle does, and why: the frame (the closed
    world, verifiers/frame/) allows every change of a fact whose key matches `region` (fnmatch over fact keys:
    `Sales!H*` a helper column, `*#cf` any sheet's conditional formats). `reason` is shown with the rubric."""

    region: str
    reason: str


@dataclass(frozen=True)
class Solution:
    """An oracle or near-miss: a list of edit operations (see `preparers.ops`) on files under /home/user."""

    name: str  # "oracle" | "near-miss-1" | ...
    description: str
    ops: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "ops": self.ops}


@dataclass(frozen=True)
class Teacher:
    """The oracle as an agent at a terminal would do it (`preparers.teach`): `look` (commands that only read: the
    folders and files the task touches) then `commands` (the edit). A task its family solves only in the GUI has
    no commands and says `why`."""

    look: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        if not self.commands:
            return {"terminal": False, "why": self.why}
        return {"terminal": True, "look": self.look, "commands": self.commands}


#: An infeasible task (task.json `feasible: false`) asks for what the app or the files cannot do; the right outcome
#: is to change nothing and say so. The declaration is recorded at `INFEASIBLE_RECORD` (its text is the reason):
#: the student runner writes it when the agent's final reply starts with `INFEASIBLE` (forge.agent.episode), an agent
#: at a terminal may write it itself (`declare_command`, the teacher's way), and the check `DECLARED_INFEASIBLE`
#: reads it.
INFEASIBLE_RECORD = f"{HOME}/.forge/infeasible"
DECLARED_INFEASIBLE = "agent.declared_infeasible"


def declare_command(reason: str) -> str:
    """The shell line that declares a task infeasible with `reason` (one line of text)."""
    text = " ".join(reason.split()) or "this cannot be done"
    return f"mkdir -p ~/.forge && printf '%s\\n' {shlex.quote(text)} > ~/.forge/infeasible"
