"""writer.bookmark: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from workflows.writer.bookmark import NATURAL, PHRASINGS, WORKFLOW, _name

PATH = "/home/user/plan.docx"
BLOCKS = [("Move plan", "Title"), ("Budget and Timeline", "Heading 1"), ("Costs are shared.", ""),
          ("Risks", "Heading 1"), ("Delays are possible.", "")]


@pytest.mark.slow
def test_tasks_pass_the_gate_with_every_mutant(tmp_path):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.bookmark", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"blocks": [{"text": t, "style": s} for t, s in BLOCKS], "author": "A",
            "page": {"paper": "A4", "orientation": "portrait",
                     "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "plan.docx").write_bytes(docx.build(spec))


def _check(tmp_path: Path, paragraph: str = "Budget and Timeline", name: str = "sec_budget_timeline"
           ) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.bookmark", {"path": PATH, "paragraph": paragraph, "name": name})
    return result.passed, result.evidence


def _mark(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_bookmark", "path": PATH, "paragraph_start": "Budget and Timeline",
                          "name": "sec_budget_timeline", **args}])


def test_the_name_and_the_op(tmp_path):
    assert _name("Budget and Timeline") == "sec_budget_timeline"
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "0 bookmark(s)" in evidence
    _mark(tmp_path)
    assert [p.text for p in Document(str(tmp_path / "plan.docx")).paragraphs] == [t for t, _ in BLOCKS]
    assert _check(tmp_path) == (True, "one bookmark 'sec_budget_timeline', on the paragraph beginning "
                                      "'Budget and Timeline'")
    passed, evidence = _check(tmp_path, paragraph="Risks")
    assert not passed and "marks 'Budget and Timeline', not the paragraph beginning 'Risks'" in evidence


@pytest.mark.parametrize(("args", "twice", "says"), [
    ({"paragraph_start": "Risks"}, False, "marks 'Risks'"),
    ({"name": "Sec_Budget_Timeline"}, False, "0 bookmark(s) named 'sec_budget_timeline' (but 'Sec_Budget_Timeline')"),
    ({}, True, "2 bookmark(s) named"),
    ({"paragraph_start": "Risks", "name": "other"}, False, "0 bookmark(s) named"),
])
def test_the_check_rejects_the_slips(tmp_path, args, twice, says):
    _state(tmp_path)
    _mark(tmp_path, **args)
    if twice:
        _mark(tmp_path, **args)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_hand_made_states(tmp_path):
    _state(tmp_path)
    _mark(tmp_path)
    # a writer's own bookmark (Word's _GoBack) is no extra bookmark
    doc = Document(str(tmp_path / "plan.docx"))
    own = OxmlElement("w:bookmarkStart")
    own.set(qn("w:id"), "9")
    own.set(qn("w:name"), "_GoBack")
    doc.paragraphs[-1]._p.append(own)
    doc.save(str(tmp_path / "plan.docx"))
    assert _check(tmp_path)[0]
    # a bookmark a lazy agent left as a point in the body paragraph below the heading
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.add_bookmark", "path": PATH, "paragraph_start": "Costs are shared",
                          "name": "sec_budget_timeline"}])
    passed, evidence = _check(tmp_path)
    assert not passed and "marks 'Costs are shared.'" in evidence
    (tmp_path / "plan.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]


def test_every_phrasing_states_the_name_and_the_heading():
    for phrasing in PHRASINGS + NATURAL:
        assert "{name}" in phrasing and "{heading}" in phrasing and "bookmark" in phrasing, phrasing
