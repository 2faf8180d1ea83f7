"""writer.remove_duplicates: the family through the gate with every mutant, its check and op on a small document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from workflows.writer.remove_duplicates import WORKFLOW

PATH = "/home/user/minutes.docx"
A, B, C = "The room is booked for Monday.", "Coffee will be served at ten.", "Minutes follow next week."
#: A is repeated right after itself, B again after C
TEXTS = ["Minutes", A, A, B, C, B]
EXPECTED = ["Minutes", A, B, C]


@pytest.mark.slow
@pytest.mark.parametrize("placement", ["adjacent", "scattered"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, placement):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"placement": placement}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.duplicates_removed", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"blocks": [{"text": t, "style": ""} for t in TEXTS], "author": "A",
            "page": {"paper": "A4", "orientation": "portrait",
                     "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "minutes.docx").write_bytes(docx.build(spec))


def _check(tmp_path: Path) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.duplicates_removed",
                       {"path": PATH, "paragraphs": EXPECTED, "repeated": [A, B]})
    return result.passed, result.evidence


@pytest.mark.parametrize(("keep", "skip", "reads"), [
    ("first", 0, EXPECTED), ("last", 0, ["Minutes", A, C, B]), ("none", 0, ["Minutes", C]),
    ("first", 1, ["Minutes", A, B, C, B]),
])
def test_the_op_removes_the_repeats(tmp_path, keep, skip, reads):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.remove_duplicates", "path": PATH, "keep": keep, "skip": skip}])
    assert [p.text for p in Document(str(tmp_path / "minutes.docx")).paragraphs if p.text] == reads
    assert _check(tmp_path)[0] == (reads == EXPECTED)


def test_the_check_names_what_is_still_repeated_or_lost(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and evidence == f"the paragraph {A!r} occurs 2 times, expected once"
    apply_ops(tmp_path, [{"op": "docx.remove_duplicates", "path": PATH, "keep": "last"}])
    passed, evidence = _check(tmp_path)
    assert not passed and evidence.startswith("paragraph 3 is")
    (tmp_path / "minutes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]
