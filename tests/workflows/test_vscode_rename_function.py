"""vscode.rename_function: the family through the gate with every mutant, its check and op on hand-made files."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from preparers.ops.fs_rename import rename_words
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.vscode.rename_function import WORKFLOW

TEST = ("from feeds_app.feeds import run_feeds\n\n\ndef test_run_feeds_drops_empty_items():\n"
        "    assert run_feeds([{}, {'id': 1}]) == [{'id': 1}]\n")
PATH = "/home/user/app/tests/test_feeds.py"


@pytest.mark.slow
@pytest.mark.parametrize(("scope", "seed"), [("module", 1), ("project", 2)])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope, seed):
    folder = make_package(WORKFLOW, {"scope": scope}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    renamed = [c for c in task["rubric"] if c["primitive"] == "text.identifier_renamed"]
    assert len(renamed) == (1 if scope == "module" else 2)


def test_whole_words_only_keep_the_test_name():
    renamed = rename_words(TEST, "run_feeds", "fetch_feeds")
    assert renamed.count("fetch_feeds") == 2 and "def test_run_feeds_drops_empty_items" in renamed


def test_the_check_refuses_a_plain_replace_and_accepts_the_whole_word_rename(tmp_path):
    (tmp_path / "app" / "tests").mkdir(parents=True)
    host = tmp_path / "app" / "tests" / "test_feeds.py"
    args = {"path": PATH, "old": "run_feeds", "new": "fetch_feeds",
            "expected": rename_words(TEST, "run_feeds", "fetch_feeds")}
    host.write_text(TEST)
    apply_ops(tmp_path, [{"op": "fs.replace_in_file", "path": PATH, "old": "run_feeds", "new": "fetch_feeds"}])
    result = run_check(State(tmp_path), "text.identifier_renamed", args)
    assert not result.passed and "line 4" in result.evidence
    host.write_text(TEST)
    apply_ops(tmp_path, [{"op": "fs.rename_word", "path": PATH, "old": "run_feeds", "new": "fetch_feeds"}])
    assert run_check(State(tmp_path), "text.identifier_renamed", args).passed
    host.write_bytes(b"\xff\xfe not text")
    assert not run_check(State(tmp_path), "text.identifier_renamed", args).passed
