"""The op of an infeasible task's oracle: declare that the task cannot be done, changing nothing else.

`agent.declare_infeasible` writes the reason to the declaration record (`kit.model.INFEASIBLE_RECORD`,
~/.forge/infeasible), as the student runner does for a final reply `INFEASIBLE: <why>`. Its `path` names what the
task is about (the workbook, the folder, the profile): nothing there is opened or changed, it only tells the teacher
where a person would look before declining.
"""

from __future__ import annotations

from pathlib import Path

from kit.model import INFEASIBLE_RECORD
from preparers.ops import OpError, document_kind, op, resolve


class Declaration:
    """The state root an `agent.*` op writes its record into."""

    def __init__(self, root: Path) -> None:
        self.root = root


def _load(host: Path, root: Path) -> Declaration:
    return Declaration(root)


def _save(declaration: Declaration, host: Path) -> None:
    """Nothing to save: the op wrote its record."""


document_kind("agent", load=_load, save=_save)


@op("agent.declare_infeasible")
def declare_infeasible(d: Declaration, reason: str) -> None:
    """Write `reason` (one line) to the declaration record, replacing an earlier one."""
    text = " ".join(str(reason).split())
    record = resolve(d.root, INFEASIBLE_RECORD)
    if record.is_symlink() or (record.exists() and not record.is_file()):
        raise OpError(f"{INFEASIBLE_RECORD} is not a plain file")
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(text + "\n" if text else "", encoding="utf-8")
