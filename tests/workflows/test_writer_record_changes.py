"""writer.record_changes: the family through the gate with every mutant, its check on hand-made end states, its op,
and the phrasings' on / off words."""

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
from workflows.writer.record_changes import HOW, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/draft.docx"


@pytest.mark.slow
@pytest.mark.parametrize("recording", ["on", "off"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, recording):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"recording": recording}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.recording", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"blocks": [{"text": "Draft budget", "style": "Title"}, {"text": "Figures are provisional.", "style": ""}],
            "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                    "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "draft.docx").write_bytes(docx.build(spec))


def _check(tmp_path: Path, recording: str = "on") -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.recording", {"path": PATH, "recording": recording})
    return result.passed, result.evidence


def _set(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.set_recording", "path": PATH, **args}])


def _marks(tmp_path: Path) -> list[str | None]:
    settings = Document(str(tmp_path / "draft.docx")).settings.element
    return [m.get(qn("w:val")) for m in settings.findall(qn("w:trackRevisions"))]


def test_the_op_switches_recording_on_and_off(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path, "off") == (True, f"{PATH} has no change-recording setting (recording off)")
    assert not _check(tmp_path, "on")[0]
    _set(tmp_path, on=True)
    assert _marks(tmp_path) == [None]
    assert _check(tmp_path, "on") == (True, f"{PATH} records changes (recording on)")
    _set(tmp_path, on=True)  # twice: still one setting
    assert _marks(tmp_path) == [None]
    _set(tmp_path, on=False)
    assert _marks(tmp_path) == [] and _check(tmp_path, "off")[0]
    assert [p.text for p in Document(str(tmp_path / "draft.docx")).paragraphs] == ["Draft budget",
                                                                                    "Figures are provisional."]


@pytest.mark.parametrize(("args", "recording", "says"), [
    ({"on": False, "value": "false"}, "on", "has the setting switched off, expected recording on"),
    ({"on": True, "show": True}, "on", "has no change-recording setting, expected recording on"),
    ({"on": False, "value": "1"}, "off", "records changes, expected recording off"),
    ({"on": True, "value": "on"}, "off", "records changes, expected recording off"),
])
def test_the_check_rejects_the_slips(tmp_path, args, recording, says):
    _state(tmp_path)
    _set(tmp_path, **args)
    passed, evidence = _check(tmp_path, recording)
    assert not passed and says in evidence, evidence


def test_hand_made_states(tmp_path):
    _state(tmp_path)
    # recording switched on as Word writes it (w:val="true"), after other settings: on
    doc = Document(str(tmp_path / "draft.docx"))
    mark = OxmlElement("w:trackRevisions")
    mark.set(qn("w:val"), "true")
    doc.settings.element.append(mark)
    doc.save(str(tmp_path / "draft.docx"))
    assert _check(tmp_path, "on")[0]
    # a lazy agent turns on "show changes" only in a document that records: still recording
    _set(tmp_path, on=True, show=False)
    assert not _check(tmp_path, "off")[0]
    (tmp_path / "draft.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, "on")[0] and not _check(tmp_path, "off")[0]


@pytest.mark.parametrize("recording", ["on", "off"])
def test_every_phrasing_says_on_or_off_and_no_other(recording):
    how, why = HOW[recording]
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "draft.docx").format(path=PATH, how=how, why=why)
        assert set(extract.expressed(text, "recording")) == {recording}, text


@pytest.mark.parametrize("recording", ["on", "off"])
def test_review_session_23_states(tmp_path, recording):
    """Recording set as asked, and Show switched off too (a stray setting that hides the changes): rejected; the
    setting written with an explicit w:val ("1" / "0", as other editors write it): accepted."""
    _state(tmp_path)
    _set(tmp_path, on=recording == "on")
    _set(tmp_path, on=recording == "on", show=False)
    passed, evidence = _check(tmp_path, recording)
    assert not passed and "set not to be shown" in evidence, evidence
    _state(tmp_path)
    _set(tmp_path, on=recording == "on", value="1" if recording == "on" else "0")
    assert _check(tmp_path, recording)[0]
