"""The check of an infeasible task: the agent declared that the task cannot be done.

An infeasible task (task.json `feasible: false`) asks for what the app or the files cannot do: a feature the app
lacks, a file, sheet or message that is not there, two wishes that contradict each other. Its rubric is this
check and the kit's frame (nothing changed). The declaration is the text file `kit.model.INFEASIBLE_RECORD`
(~/.forge/infeasible, holding the reason), which the student runner writes when the agent's final reply starts with
`INFEASIBLE` and an agent at a terminal may write itself. The file is read bounded, as any untrusted file: missing,
empty, binary or a link out of the home fails the check.
"""

from __future__ import annotations

from kit.model import DECLARED_INFEASIBLE, INFEASIBLE_RECORD
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import StateError
from verifiers.readers.tree import read_text

#: Characters of the reason quoted in the evidence.
SHOWN = 160


@primitive(DECLARED_INFEASIBLE, grounded=(),
           meaning=Meaning(action=None, why="the instruction asks for something that cannot be done; declining it "
                                            "is what the task checks, and no instruction asks for it in words"))
def declared_infeasible(state: State, path: str = INFEASIBLE_RECORD, why: str = "") -> Result:
    """The agent declared the task infeasible: the record at `path` exists and holds a reason (any non-blank text).
    `why` says what makes the task impossible, for the evidence."""
    because = f" ({why})" if why else ""
    try:
        text = read_text(state, path)
    except StateError as exc:
        return fail(f"the task was not declared infeasible{because}: {exc}")
    reason = " ".join(text.split())
    if not reason:
        return fail(f"{path} is empty: a declaration gives its reason{because}")
    shown = reason if len(reason) <= SHOWN else reason[:SHOWN] + " ..."
    return ok(f"declared infeasible{because}: {shown!r}")
