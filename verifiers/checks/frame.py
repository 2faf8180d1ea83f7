"""The frame checks: everything a task did not ask to change is as it was (see verifiers/frame/).

A frame check's arguments are made when the task is made (`workflows.frame`), from the initial and the oracle's
end state: the facts the task may change (with the kind of value the oracle left in each cell) and the digests of
every group of facts that must stay. It only judges: the canonical model comes from verifiers.frame.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.frame import tree
from verifiers.frame.kinds import FrameKind, kinds
from verifiers.meaning import Meaning
from verifiers.readers import StateError

_FRAME = Meaning(action=None, why="the frame guards everything the task does not ask to change (closed world)")


def document_frame(kind: FrameKind) -> Callable[..., Result]:
    """The check `<kind>.frame`: every fact of the file at `path` outside `allowed` and the family's freedoms
    (`free`: region -> reason) keeps its initial value (per group, by digest), nothing is added out of them, and every
    allowed fact holds what the task leaves there (`kind.judge`); the kind's `extra_args` travel to its judge."""
    def check(state: State, path: str, allowed: dict[str, Any], kept: dict[str, str],
              free: dict[str, str] | None = None, **extra: Any) -> Result:
        try:
            facts = kind.facts_of(state, path)
        except StateError as exc:
            return fail(str(exc))
        except Exception as exc:  # a damaged file its parser half-reads: a failed check, never a crash
            return fail(f"{path}: cannot read its {kind.noun} model ({type(exc).__name__}: {exc})")
        problems = kind.judge({"allowed": allowed, "kept": kept, "free": free or {}, **extra}, facts)
        if problems:
            more = f" (+{len(problems) - 4} more)" if len(problems) > 4 else ""
            return fail(f"{path}: {len(problems)} change(s) the task did not ask for: {'; '.join(problems[:4])}{more}")
        return ok(f"{path}: only the {len(allowed)} fact(s) the task changes differ; all {len(kept)} other groups "
                  "are as they were")

    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("state", positional, annotation=State),
              *(inspect.Parameter(name, positional) for name in ("path", "allowed", "kept")),
              inspect.Parameter("free", positional, default=None),
              *(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None) for name in kind.extra_args)]
    check.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]  # what `checks.bind` checks args by
    check.__doc__ = (f"Every fact of the {kind.noun} outside `allowed` and the family's freedoms (`free`: region -> "
                     "reason) keeps its initial value (per group, by digest), nothing is added out of them, and every "
                     "allowed fact holds what the task leaves there (verifiers/frame/).")
    check.__name__ = check.__qualname__ = f"{kind.name}_frame"
    return check


# every kind of verifiers.frame: `<name>.frame` guards files of the initial state, nothing for an instruction to state
for _kind in kinds():
    primitive(_kind.primitive, grounded=(), meaning=_FRAME)(document_frame(_kind))


@primitive("tree.frame", grounded=(), meaning=_FRAME)
def tree_frame(state: State, allowed: dict[str, str], kept: dict[str, str], trash: list[str] | None = None,
               hidden: list[str] | None = None) -> Result:
    """The home folder's tree (verifiers/frame/tree.py) changes only where the task changes it: no leftover folder,
    no stray copy, no mode changed around the asked files, the Trash holding only what the task deletes."""
    try:
        facts = tree.tree_facts(state.home_tree(tree.UNHASHED), hidden or ())
    except (OSError, StateError) as exc:
        return fail(f"cannot walk the home folder: {exc}")
    problems = tree.judge({"allowed": allowed, "kept": kept, "trash": trash or []}, facts)
    if problems:
        more = f" (+{len(problems) - 4} more)" if len(problems) > 4 else ""
        return fail(f"{len(problems)} change(s) of the file tree the task did not ask for: "
                    f"{'; '.join(problems[:4])}{more}")
    return ok(f"the file tree changes only where the task changes it ({len(allowed)} path(s)); all "
              f"{len(kept)} other folders are as they were")
