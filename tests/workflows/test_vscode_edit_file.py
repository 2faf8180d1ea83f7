"""vscode.edit_file: the family through the gate with every mutant, its checks and ops on hand-made files."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from preparers.ops.fs_source import delete, reindent
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.common import Fact
from workflows.vscode.edit_file import KEPT, LEGACY, NATURAL, PHRASINGS, PLAIN, TASK, WORKFLOW, _module, _tabs

PATH = "/home/user/app/src/app/helpers.py"
PROJECT = {"project": "app"}


@pytest.mark.slow
@pytest.mark.parametrize("edit", ["replace", "reindent", "delete"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, edit):
    primitive = {"replace": "text.all_replaced", "reindent": "text.function_reindented",
                 "delete": "text.function_deleted"}[edit]
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"edit": edit}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == primitive


def _write(tmp_path, text: str):
    host = tmp_path / "app" / "src" / "app" / "helpers.py"
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_text(text)
    return host


def test_reindent_turns_leading_tabs_into_four_spaces_only():
    text = _module(PROJECT, [PLAIN["slugify"], _tabs(PLAIN["human_size"]), KEPT])
    assert "\t\t\treturn" in text
    done = reindent(text, "human_size")
    assert "\t" not in done and done == _module(PROJECT, [PLAIN["slugify"], PLAIN["human_size"], KEPT])


def test_delete_takes_the_decorator_and_keeps_the_neighbours():
    text = _module(PROJECT, [PLAIN["chunked"], LEGACY["legacy_tax_table"], KEPT])
    done = delete(text, "legacy_tax_table")
    assert "legacy_tax_table" not in done and "maxsize=32" not in done and "maxsize=256" in done
    compile(done, "helpers.py", "exec")


def test_reindent_check_on_hand_made_files(tmp_path):
    text = _module(PROJECT, [_tabs(PLAIN["parse_bool"]), PLAIN["read_rows"]])
    args = {"path": PATH, "function": "parse_bool", "expected": reindent(text, "parse_bool")}
    _write(tmp_path, text.expandtabs(4).replace("    def", "def"))  # expand -t 4: right
    assert run_check(State(tmp_path), "text.function_reindented", args).passed
    _write(tmp_path, reindent(text, "parse_bool") + "\n\n\n")  # extra blank lines at the end: fine
    assert run_check(State(tmp_path), "text.function_reindented", args).passed
    # the whole file re-formatted by a formatter (quotes changed): not asked
    _write(tmp_path, reindent(text, "parse_bool").replace('"1"', "'1'"))
    assert not run_check(State(tmp_path), "text.function_reindented", args).passed
    # a body line dedented one level too far: no longer the same code
    broken = reindent(text, "parse_bool").replace("        return True", "    return True")
    _write(tmp_path, broken)
    assert not run_check(State(tmp_path), "text.function_reindented", args).passed
    _write(tmp_path, "")
    (tmp_path / "app" / "src" / "app" / "helpers.py").write_bytes(b"\xff\xfe\x00")
    assert not run_check(State(tmp_path), "text.function_reindented", args).passed


def test_delete_check_on_hand_made_files(tmp_path):
    text = _module(PROJECT, [PLAIN["slugify"], LEGACY["old_retry_delays"], KEPT])
    args = {"path": PATH, "function": "old_retry_delays", "expected": delete(text, "old_retry_delays")}
    # deleted with the blank lines around it left as they were (4 blank lines): fine
    _write(tmp_path, text.replace(LEGACY["old_retry_delays"], ""))
    assert run_check(State(tmp_path), "text.function_deleted", args).passed
    # the function renamed to _old_retry_delays instead of deleted
    _write(tmp_path, text.replace("def old_retry_delays", "def _old_retry_delays"))
    assert not run_check(State(tmp_path), "text.function_deleted", args).passed
    # deleted, and the now "unused" import functools removed too
    _write(tmp_path, delete(text, "old_retry_delays").replace("import functools\n", ""))
    assert not run_check(State(tmp_path), "text.function_deleted", args).passed
    # the file emptied
    _write(tmp_path, "")
    assert not run_check(State(tmp_path), "text.function_deleted", args).passed
    # review session 23: deleted, and every line's ending switched to CRLF (the editor's end-of-line changed)
    _write(tmp_path, "")
    (tmp_path / "app/src/app/helpers.py").write_bytes(delete(text, "old_retry_delays").replace("\n", "\r\n").encode())
    result = run_check(State(tmp_path), "text.function_deleted", args)
    assert not result.passed and "line endings changed to CRLF" in result.evidence, result.evidence


def test_replace_check_and_op(tmp_path):
    text = 'HOST = "old.example.net"\nURL = "https://old.example.net/v1"\n'
    host = _write(tmp_path, text)
    args = {"path": PATH, "old": "old.example.net", "new": "new.example.net",
            "expected": text.replace("old.example.net", "new.example.net")}
    apply_ops(tmp_path, [{"op": "fs.replace_in_file", "path": PATH, "old": "old.example.net",
                          "new": "new.example.net", "count": 1}])
    result = run_check(State(tmp_path), "text.all_replaced", args)
    assert not result.passed and "1 occurrence" in result.evidence
    host.write_text(text.replace("old.example", "new.example"))
    assert run_check(State(tmp_path), "text.all_replaced", args).passed
    # replaced with a trailing slash typed into the new value
    host.write_text(text.replace("old.example.net", "new.example.net/"))
    assert not run_check(State(tmp_path), "text.all_replaced", args).passed


@pytest.mark.parametrize("edit", ["replace", "reindent", "delete"])
def test_every_phrasing_says_the_edit(edit):
    task = TASK[edit].format(old="a.lan", new="b.lan", function="chunked")
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(path=Fact(PATH), folder="/home/user/app", project="app", task=task)
        assert task in text and 8 <= len(text.split()) <= 60
