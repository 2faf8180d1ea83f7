"""writer.multi_edit: 2-3 existing Writer goals on ONE document (the same composed layout), one rubric and one
frame; the gate with every mutant, the parts' shared document, wrong end states a lazy agent leaves."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from workflows.writer import kit as wc
from workflows.writer.multi_edit import EDITS, PARTS, WORKFLOW

PRIMITIVES = {"margins": "docx.page_margins", "title": "docx.paragraph_alignment", "spacing": "docx.line_spacing"}


@pytest.mark.slow
@pytest.mark.parametrize("edits", list(EDITS))
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, edits):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"edits": edits}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == [
            *(PRIMITIVES[p] for p in EDITS[edits]), "docx.frame", "tree.frame"]
        assert len(task["solutions"]["near_misses"]) == 2 * len(EDITS[edits])


def test_every_part_lays_out_the_same_document():
    out = WORKFLOW.run(NodeContext({"edits": "all_three"}, 7, "t", 0, OfflineBackend()))
    document, plan = out["document"], out["plan"]
    layouts = []
    for part in ("margins", "title", "spacing"):
        module, knobs, _, _ = PARTS[part]
        layouts.append(module.goal(random.Random(5), knobs, document, plan).state)
    assert layouts[0] == layouts[1] == layouts[2]
    assert isinstance(layouts[0], wc.Layout)


def _failing(folder: Path, state: Path) -> list[str]:
    task = json.loads((folder / "task.json").read_text())
    return [c["id"] for c in task["rubric"] if not run_check(State(state), c["primitive"], c["args"]).passed]


def test_hand_made_wrong_end_states_fail(tmp_path):
    folder = make_package(WORKFLOW, {"edits": "all_three"}, tmp_path / "pkg", seed=3)
    task = json.loads((folder / "task.json").read_text())
    oracle = task["solutions"]["oracle"]
    _, after = package_states(folder, tmp_path / "oracle", oracle)
    assert _failing(folder, after) == []
    path = task["rubric"][0]["args"]["path"]
    title = task["rubric"][1]["args"]["paragraph"]
    # every goal done, and the title also set in italics while there
    _, bold = package_states(folder, tmp_path / "bold", oracle)
    apply_ops(bold, [{"op": "docx.format_chars", "path": path, "paragraph_start": title, "italic": True}])
    assert "frame" in _failing(folder, bold)
    # the spacing given to the whole document (select all), title and headings included
    _, everything = package_states(folder, tmp_path / "all", oracle)
    spacing = next(o for o in json.loads((folder / oracle).read_text())["ops"] if o["op"] == "docx.set_line_spacing")
    apply_ops(everything, [{**spacing, "paragraphs": [title]}])
    assert "spacing.spacing" in _failing(folder, everything)


@pytest.mark.parametrize("edits", list(EDITS))
def test_the_instruction_lists_every_goal(edits):
    for register in ("explicit", "natural"):
        text = WORKFLOW.run(NodeContext({"edits": edits}, 4, "t", 0, OfflineBackend(), register=register))[
            "instruction"]
        parts = EDITS[edits]
        assert ("margins" in text) == ("margins" in parts), text
        assert ("centered" in text) == ("title" in parts), text
        assert ("1.5 line spacing" in text) == ("spacing" in parts), text
