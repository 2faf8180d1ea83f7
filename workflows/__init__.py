"""Workflow families: one module per family, registered here in one sorted tuple.

A family module defines `WORKFLOW`, a `forge.dag.Workflow`: its knobs (the params skills may set),
and the DAG of nodes that turns (skill params, seed) into an instruction, assets, a rubric and
solutions. Skills (data in skills_taxonomy/) point at families by name.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from forge.errors import UnknownNameError, did_you_mean

if TYPE_CHECKING:
    from forge.dag import Workflow

# Keep sorted.
FAMILY_MODULES = (
    "workflows.calc_autofilter",
    "workflows.calc_cell_style",
    "workflows.calc_chart",
    "workflows.calc_conditional_format",
    "workflows.calc_data_validation",
    "workflows.calc_find_replace",
    "workflows.calc_formula_column",
    "workflows.calc_freeze_panes",
    "workflows.calc_hide_columns",
    "workflows.calc_merge_cells",
    "workflows.calc_number_format",
    "workflows.calc_remove_duplicates",
    "workflows.calc_sheet_ops",
    "workflows.calc_sort_rows",
    "workflows.calc_summary_cell",
    "workflows.calc_totals_row",
)


@cache
def _load() -> dict[str, Workflow]:
    families: dict[str, Workflow] = {}
    for module in FAMILY_MODULES:
        workflow = importlib.import_module(module).WORKFLOW
        if workflow.name in families:
            raise ValueError(f"family {workflow.name!r} is defined twice ({module})")
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
