"""writer.cross_reference: the family through the gate with every mutant, its check on hand-made end states (a
simple field, a field to a renamed bookmark, a field with a stale result), its op."""

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
from workflows.writer.cross_reference import NATURAL, PHRASINGS, PLACEHOLDER, WORKFLOW

PATH = "/home/user/plan.docx"
BLOCKS = [("Move plan", "Title"), ("Budget and Timeline", "Heading 1"), ("Costs are shared.", ""),
          ("Risks", "Heading 1"), (f"Delays are possible. For the details, see {PLACEHOLDER}.", "")]
ARGS = {"path": PATH, "paragraph": "Delays are possible.", "phrase": "For the details, see",
        "name": "sec_budget_timeline", "heading": "Budget and Timeline", "after": "."}


@pytest.mark.slow
def test_tasks_pass_the_gate_with_every_mutant(tmp_path):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.cross_reference", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"blocks": [{"text": t, "style": s} for t, s in BLOCKS], "author": "A",
            "page": {"paper": "A4", "orientation": "portrait",
                     "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "plan.docx").write_bytes(docx.build(spec))
    apply_ops(tmp_path, [{"op": "docx.add_bookmark", "path": PATH, "paragraph_start": start, "name": name}
                         for start, name in (("Budget and Timeline", "sec_budget_timeline"), ("Risks", "sec_risks"))])


def _check(tmp_path: Path, **args: object) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.cross_reference", {**ARGS, **args})
    return result.passed, result.evidence


def _xref(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_cross_reference", "path": PATH, "paragraph_start": "Delays are",
                          "placeholder": PLACEHOLDER, "name": "sec_budget_timeline", **args}])


def test_the_op_and_the_check(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "0 cross-reference field(s)" in evidence
    _xref(tmp_path)
    texts = [p.text for p in Document(str(tmp_path / "plan.docx")).paragraphs]
    assert texts[-1] == "Delays are possible. For the details, see Budget and Timeline."
    passed, evidence = _check(tmp_path)
    assert passed, evidence
    passed, evidence = _check(tmp_path, paragraph="Costs are shared")
    assert not passed and "not the paragraph beginning 'Costs are shared'" in evidence


@pytest.mark.parametrize(("args", "says"), [
    ({"style": "link"}, "1 hyperlink(s) jump to the bookmark"),
    ({"style": "text"}, "0 cross-reference field(s)"),
    ({"style": "page"}, "PAGEREF field"),
    ({"name": "sec_risks"}, "refers to the bookmark 'sec_risks'"),
    ({"at_end": True}, "see [ref].', not the words"),
])
def test_the_check_rejects_the_slips(tmp_path, args, says):
    _state(tmp_path)
    _xref(tmp_path, **args)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def _simple(tmp_path: Path, instr: str, shown: str) -> None:
    """Replace the placeholder with a w:fldSimple (how some writers save a field)."""
    doc = Document(str(tmp_path / "plan.docx"))
    p = doc.paragraphs[-1]
    p.runs[0].text = "Delays are possible. For the details, see "
    fld = OxmlElement("w:fldSimple")
    fld.set(qn("w:instr"), instr)
    r = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = shown
    r.append(t)
    fld.append(r)
    p._p.append(fld)
    p.add_run(".")
    doc.save(str(tmp_path / "plan.docx"))


def test_hand_made_states(tmp_path):
    _state(tmp_path)
    _simple(tmp_path, " REF sec_budget_timeline \\h ", "Budget and Timeline")
    assert _check(tmp_path)[0]
    # a field whose result was typed over: it shows something else than the bookmark's text
    _state(tmp_path)
    _simple(tmp_path, " REF sec_budget_timeline \\h ", "Budget")
    passed, evidence = _check(tmp_path)
    assert not passed and "not the bookmark's text" in evidence
    # the bookmark renamed along with the field: the task's bookmark is gone
    _state(tmp_path)
    _xref(tmp_path)
    path = tmp_path / "plan.docx"
    doc = Document(str(path))
    for el in doc.element.body.iter(qn("w:bookmarkStart")):
        if el.get(qn("w:name")) == "sec_budget_timeline":
            el.set(qn("w:name"), "budget")
    doc.save(str(path))
    passed, evidence = _check(tmp_path)
    assert not passed and "0 bookmark(s) named 'sec_budget_timeline'" in evidence
    path.write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]


def test_every_phrasing_states_every_fact():
    for phrasing in PHRASINGS + NATURAL:
        for fact in ("{name}", "{heading}", "{placeholder}", "{phrase}", "{paragraph}"):
            assert fact in phrasing, (fact, phrasing)
        assert "cross-reference" in phrasing.lower(), phrasing
