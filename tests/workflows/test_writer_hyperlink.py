"""writer.hyperlink: the family through the gate with every mutant, its check on hand-made end states (a link as a
field, a link that is only blue and underlined), its op, and the phrasings' scope words."""

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
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.writer.hyperlink import NATURAL, PHRASINGS, SCOPE, WORKFLOW

PATH = "/home/user/notes.docx"
URL = "https://intranet.atlas-freight.com/portal"
FIRST = "Forms for this are available on the staff portal. Please use them."
SECOND = "Progress updates will be posted on the staff portal."


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["all", "first"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"scope": scope}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.hyperlink", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"blocks": [{"text": "Office move", "style": "Title"}, {"text": FIRST, "style": ""},
                       {"text": SECOND, "style": "", "bold": True}],
            "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                    "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))


def _check(tmp_path: Path, scope: str = "all", url: str = URL) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.hyperlink", {"path": PATH, "phrase": "staff portal", "url": url,
                                                           "scope": scope})
    return result.passed, result.evidence


def _link(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_hyperlink", "path": PATH, "phrase": "staff portal", "url": URL, **args}])


def test_the_op_links_the_words_and_keeps_text_and_formatting(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "mention 1 of 2 is not a link" in evidence
    _link(tmp_path, scope="all")
    doc = Document(str(tmp_path / "notes.docx"))
    assert [p.text for p in doc.paragraphs] == ["Office move", FIRST, SECOND]
    assert all(r.bold for r in doc.paragraphs[2].iter_inner_content() if hasattr(r, "bold"))
    assert _check(tmp_path) == (True, f"all 2 mentions of 'staff portal' link to {URL}, and no other text is a link")
    assert _check(tmp_path, url=URL + "/")[0]  # a final slash is the same address
    passed, evidence = _check(tmp_path, scope="first")
    assert not passed and "1 other link(s)" in evidence


@pytest.mark.parametrize(("slip", "scope", "says"), [
    ({"scope": "first"}, "all", "mention 2 of 2 is not a link"),
    ({"scope": "all"}, "first", "1 other link(s), e.g. 'staff portal'"),
    ({"scope": "all", "url": "https://intranet.atlas-freight.com"}, "all", "links to 'https://intranet.atlas-freight.com'"),
    ({"scope": "first", "whole_paragraph": True}, "first", "covers 'Forms for this are available on the s...'"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, scope, says):
    _state(tmp_path)
    _link(tmp_path, **slip)
    passed, evidence = _check(tmp_path, scope=scope)
    assert not passed and says in evidence, evidence


def _field_link(tmp_path: Path, url: str) -> None:
    """The first mention as a complex HYPERLINK field, as some writers save a link."""
    doc = Document(str(tmp_path / "notes.docx"))
    p = doc.paragraphs[1]
    text = p.text
    for r in list(p.runs):
        r._r.getparent().remove(r._r)
    start = text.index("staff portal")
    p.add_run(text[:start])
    for kind, instr in (("begin", None), (None, f' HYPERLINK "{url}" '), ("separate", None)):
        r = OxmlElement("w:r")
        if kind:
            fld = OxmlElement("w:fldChar")
            fld.set(qn("w:fldCharType"), kind)
            r.append(fld)
        else:
            it = OxmlElement("w:instrText")
            it.text = instr
            r.append(it)
        p._p.append(r)
    p.add_run("staff portal")
    end = OxmlElement("w:r")
    fld = OxmlElement("w:fldChar")
    fld.set(qn("w:fldCharType"), "end")
    end.append(fld)
    p._p.append(end)
    p.add_run(text[start + len("staff portal"):])
    doc.save(str(tmp_path / "notes.docx"))


def test_a_field_link_counts_and_a_blue_underline_does_not(tmp_path):
    _state(tmp_path)
    _field_link(tmp_path, URL)
    assert _check(tmp_path, scope="first")[0]
    assert Document(str(tmp_path / "notes.docx")).paragraphs[1].text.count("HYPERLINK") == 0
    passed, evidence = _check(tmp_path, scope="first", url="https://intranet.atlas-freight.com/policies")
    assert not passed and "links to" in evidence
    # a lazy agent underlines the words as a link looks, with no link behind them
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.format_chars", "path": PATH, "paragraph_start": "Forms for this",
                          "phrase": "staff portal", "underline": True}])
    passed, evidence = _check(tmp_path, scope="first")
    assert not passed and "mention 1 of 2 is not a link" in evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]


@pytest.mark.parametrize("scope", ["all", "first"])
def test_every_phrasing_says_the_scope_and_no_other(scope):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").format(
            path=PATH, phrase='"staff portal"', url=URL, scope=SCOPE[scope])
        assert set(extract.expressed(text, "occurrence")) == {scope}, text
