"""Telling a machine's trouble from a task's fault in the real-app tier.

The tier reruns work the tier-1 gate already proved (setup.sh ran, the oracle applied), now next to real
LibreOffice and Thunderbird processes that need memory, processes and disk. When one of those runs out the
evidence reads like a failed task ("bash: fork: Resource temporarily unavailable", "No space left on device"),
but it says nothing about the task: such a stage is `real-infra` (the task is `infra_fail`, a rerun retries it),
never `strict` or `setup_fail`.
"""

from __future__ import annotations

import re

from verifiers.gate.stages import Stage

#: errno texts (as shells, Python and bwrap print them) that mean the machine, not the task, failed. Matched
#: case-insensitively anywhere in a stage's evidence. Only errno wording: a check's evidence may quote a
#: document's text, and a phrase like "timed out" could be the data itself. Timeouts are raised as errors instead.
MACHINE_CAUSES = (
    "resource temporarily unavailable",  # EAGAIN: fork/clone under a process or thread limit
    "cannot allocate memory",  # ENOMEM
    "memoryerror",
    "no space left on device",  # ENOSPC
    "disk quota exceeded",  # EDQUOT
    "too many open files",  # EMFILE / ENFILE
)
_PATTERN = re.compile("|".join(re.escape(c) for c in MACHINE_CAUSES), re.IGNORECASE)


def machine_caused(text: str) -> str | None:
    """The machine-side cause quoted in `text` (e.g. 'Resource temporarily unavailable'), or None."""
    found = _PATTERN.search(text or "")
    return found.group(0) if found else None


def as_infra(stage: Stage) -> Stage:
    """`stage` itself, or when it failed for a machine-side cause, the same evidence as a `real-infra` stage."""
    if stage.passed or stage.name == "real-infra":
        return stage
    cause = machine_caused(stage.evidence)
    if cause is None:
        return stage
    return Stage("real-infra", False, f"the machine failed ({cause}), not the task: [{stage.name}] {stage.evidence}",
                 stage.seconds)
