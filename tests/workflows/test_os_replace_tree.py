"""os.replace_tree: the family through the gate with every mutant; the whole-version pattern and its op."""

from __future__ import annotations

import json
import re

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from workflows.os.replace_tree import WORKFLOW


@pytest.mark.slow
@pytest.mark.parametrize(("token", "scope"), [("host", "ext"), ("host", "all"), ("version", "ext"),
                                              ("version", "all")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, token, scope):
    folder = make_package(WORKFLOW, {"token": token, "scope": scope}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][0] == "fs.dir_listing"


def test_the_version_pattern_takes_the_whole_number_only():
    target = WORKFLOW.run(NodeContext({"token": "version", "scope": "all"}, 1, "test.skill", 0,
                                      OfflineBackend()))["target"]
    old, new = target.old, target.new
    text = f"v={old}\nx={old}0 y=1{old} z={old}. w=\"{old}\" {old}:{old}\n"
    assert re.sub(target.pattern, new, text) == f"v={new}\nx={old}0 y=1{old} z={new}. w=\"{new}\" {new}:{new}\n"
    assert any(t.count(new) >= 2 for t in target.texts.values())  # a line with two matches: sed without g differs


def test_the_op_replaces_every_match_of_a_line_or_only_the_first(tmp_path):
    (tmp_path / "a.txt").write_text("h1 h1\nh1\n")
    apply_ops(tmp_path, [{"op": "fs.regex_replace", "path": "/home/user/a.txt", "pattern": "h1", "repl": "h2",
                          "count": 1}])
    assert (tmp_path / "a.txt").read_text() == "h2 h1\nh2\n"
