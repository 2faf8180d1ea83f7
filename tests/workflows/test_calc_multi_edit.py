"""calc.multi_edit: 2-4 goals on one workbook, one rubric and one frame; the gate with every mutant, the whole
rubric on hand-made end states a lazy agent leaves, and the instruction listing every goal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.calc.multi_edit import EDITS, WORKFLOW

PRIMITIVES = {"fill": "xlsx.blanks_filled", "currency": "xlsx.number_format", "freeze": "xlsx.freeze_panes",
              "color": "xlsx.cell_style"}


@pytest.mark.slow
@pytest.mark.parametrize("edits", list(EDITS))
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, edits):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"edits": edits}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        # one check per goal, then ONE frame of the workbook (over every goal's change) and the tree's
        assert [c["primitive"] for c in task["rubric"]] == [
            *(PRIMITIVES[g] for g in EDITS[edits]), "xlsx.frame", "tree.frame"]
        # near-misses: each goal left out, each goal's slip, the others done right
        assert len(task["solutions"]["near_misses"]) == 2 * len(EDITS[edits])


def _failing(folder: Path, state: Path) -> list[str]:
    task = json.loads((folder / "task.json").read_text())
    return [c["id"] for c in task["rubric"] if not run_check(State(state), c["primitive"], c["args"]).passed]


def test_hand_made_wrong_end_states_fail(tmp_path):
    folder = make_package(WORKFLOW, {"edits": "all_four"}, tmp_path / "pkg", seed=3)
    task = json.loads((folder / "task.json").read_text())
    _, after = package_states(folder, tmp_path / "oracle", task["solutions"]["oracle"])
    assert _failing(folder, after) == []
    fill = next(c for c in task["rubric"] if c["id"] == "filled")["args"]
    currency = next(c for c in task["rubric"] if c["id"] == "currency")["args"]
    path, sheet = fill["path"], fill["sheet"]

    # the blanks get the text "0" (typed with an apostrophe): not a number
    _, text_zero = package_states(folder, tmp_path / "text", task["solutions"]["oracle"])
    apply_ops(text_zero, [{"op": "xlsx.set_cells", "path": path, "sheet": sheet,
                           "cells": {cell: "0" for cell in fill["cells"]}}])
    assert "filled" in _failing(folder, text_zero)

    # the prices retyped as text with a dollar sign instead of a number format
    _, retyped = package_states(folder, tmp_path / "retyped", task["solutions"]["oracle"])
    first = currency["ref"].split(":")[0]
    apply_ops(retyped, [{"op": "xlsx.set_cells", "path": path, "sheet": sheet, "cells": {first: "$12.50"}}])
    assert {"currency", "frame"} <= set(_failing(folder, retyped))

    # every goal done, and a zero also typed into a filled cell of the same column
    _, spilled = package_states(folder, tmp_path / "spilled", task["solutions"]["oracle"])
    column = fill["cells"][0].rstrip("0123456789")
    apply_ops(spilled, [{"op": "xlsx.set_cells", "path": path, "sheet": sheet, "cells": {f"{column}2": 0}}])
    assert _failing(folder, spilled) == ["frame"]


@pytest.mark.parametrize("edits", list(EDITS))
def test_the_instruction_lists_every_goal(edits):
    for register in ("explicit", "natural"):
        ctx = NodeContext({"edits": edits}, 4, "test.skill", 0, OfflineBackend(), register=register)
        text = WORKFLOW.run(ctx)["instruction"]
        goals = EDITS[edits]
        assert ("zero" in text) == ("fill" in goals), text
        assert ("$" in text) == ("currency" in goals), text
        assert ("freeze" in text.lower()) == ("freeze" in goals), text
        assert ("background" in text) == ("color" in goals), text
        if "fill" in goals:
            assert set(extract.expressed(text, "fill")) == {"zero"}, text
        if register == "explicit":
            assert [line[:2] for line in text.splitlines()[1:-1]] == [f"{n}." for n in range(1, len(goals) + 1)]
