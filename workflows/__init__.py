"""Workflow families: one module per family; every module here that defines `WORKFLOW` is a family.

A family module defines `WORKFLOW`, a `kit.dag.Workflow`: its knobs (the params skills may set),
and the DAG of nodes that turns (skill params, seed) into an instruction, assets, a rubric and
solutions. Skills (data in skills_taxonomy/) point at families by name.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from kit.errors import UnknownNameError, did_you_mean
from kit.registry import import_submodules

if TYPE_CHECKING:
    from kit.dag import Workflow


@cache
def _load() -> dict[str, Workflow]:
    families: dict[str, Workflow] = {}
    for module in import_submodules(__name__):
        workflow = getattr(module, "WORKFLOW", None)
        if workflow is None:  # app kits and helpers (calc/kit.py, calc/content.py, ...)
            continue
        if workflow.name in families:
            raise ValueError(f"family {workflow.name!r} is defined twice ({module.__name__})")
        workflow.validate()
        families[workflow.name] = workflow
    return families


def families() -> dict[str, Workflow]:
    return _load()


def get_family(name: str) -> Workflow:
    known = _load()
    if name not in known:
        raise UnknownNameError(f"unknown workflow family {name!r}.{did_you_mean(name, sorted(known))}")
    return known[name]
