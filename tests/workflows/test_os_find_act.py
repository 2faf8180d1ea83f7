"""os.find_act: the family through the gate with every mutant; the tree it draws has matches at every depth."""

from __future__ import annotations

import json

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from preparers import tree as ptree
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.find_act import WORKFLOW


@pytest.mark.slow
@pytest.mark.parametrize(("match", "action"), [("name", "collect"), ("name", "mirror"), ("size", "collect"),
                                               ("size", "mirror")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, match, action):
    folder = make_package(WORKFLOW, {"match": match, "action": action}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][:2] == ["fs.dir_listing", "fs.dir_listing"]


def _run(params: dict[str, str], seed: int) -> dict:
    return WORKFLOW.run(NodeContext(params, seed, "test.skill", 0, OfflineBackend()))


@pytest.mark.parametrize("match", ["name", "size"])
def test_matches_sit_at_every_depth_and_the_rule_separates_them(match):
    for seed in range(1, 6):
        values = _run({"match": match, "action": "collect"}, seed)
        t, tree = values["target"], values["tree"]
        depths = {h[len(t.root) + 1:].count("/") for h in t.hits}
        assert {0, 1, 2} <= depths, depths
        inside = [s for s in tree if s.path.startswith(t.root + "/")]
        if match == "name":
            word = values["facts"]["rule"].split("'")[1]
            assert {s.path for s in inside if word in s.name.lower()} == set(t.hits)
            assert t.slips and all(word not in p.rsplit("/", 1)[1] for p in t.slips)
        else:
            limit = int(values["facts"]["rule"].split()[2]) * 1024
            sizes = {s.path: len(ptree.render(s)) for s in inside}
            assert {p for p, n in sizes.items() if n > limit} == set(t.hits)
            assert all(limit / 2 < sizes[p] < limit for p in t.slips)


def test_a_copy_that_leaves_out_the_subfolder_files_fails(tmp_path):
    (tmp_path / "inv/2024").mkdir(parents=True)
    (tmp_path / "inv/a.txt").write_text("a\n")
    (tmp_path / "inv/2024/b.txt").write_text("b\n")
    args = {"path": "/home/user/inv", "names": ["2024/b.txt", "a.txt"], "recursive": True}
    assert run_check(State(tmp_path), "fs.dir_listing", args).passed
    (tmp_path / "inv/2024/b.txt").unlink()
    assert not run_check(State(tmp_path), "fs.dir_listing", args).passed
