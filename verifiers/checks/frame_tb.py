"""The Thunderbird profile frame (`tb.frame`): nothing in the profile changed but what the task changes, and the
filters the task adds act as asked on probe messages (verifiers/frame/thunderbird.py, tbfilter_sim.py).

Its arguments are made when the task is made (`workflows.frame_tb`), from the initial and the oracle's end state.
It only judges: the canonical model and the filter semantics come from verifiers.frame.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.frame import thunderbird as tbframe
from verifiers.meaning import Meaning

_FRAME = Meaning(action=None, why="the frame guards everything the task does not ask to change (closed world)")


@primitive("tb.frame", grounded=(), meaning=_FRAME)  # guards the profile the task prepares: nothing to state
def tb_frame(state: State, path: str, allowed: dict[str, str], kept: dict[str, str],
             free: dict[str, str] | None = None, probes: list[dict[str, Any]] | None = None) -> Result:
    """Every fact of the profile at `path` (folders, messages with their flags, filters, prefs, contacts) outside
    `allowed` and the freedoms keeps its initial value, nothing is added out of them, and every probe message gets
    from the end state's filters exactly the actions the oracle's filters give it in its context."""
    model = tbframe.read_profile(state, path)
    problems = tbframe.judge({"allowed": allowed, "kept": kept, "free": free or {}}, model.facts)
    problems += tbframe.judge_probes(probes or [], model)
    if problems:
        more = f" (+{len(problems) - 4} more)" if len(problems) > 4 else ""
        return fail(f"{len(problems)} change(s) of the Thunderbird profile the task did not ask for: "
                    f"{'; '.join(problems[:4])}{more}")
    tested = f"; its new filters act as asked on {len(probes)} probe message(s)" if probes else ""
    return ok(f"the profile changes only where the task changes it ({len(allowed)} fact(s)); all {len(kept)} "
              f"other facts are as they were{tested}")
