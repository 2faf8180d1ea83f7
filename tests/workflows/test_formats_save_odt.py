"""writer.save_odt: the family through the gate with every mutant, the ODF check on the op's .odt, on a docx
renamed to .odt, on paragraphs out of order, and the bounded OpenDocument reader on a hostile content.xml."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from preparers import docx
from preparers.ops import apply_ops
from preparers.ops.formats import ODT_MIMETYPE, odt_bytes
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.readers.odf import load_odf
from workflows.writer.save_odt import WORKFLOW

DOC = "/home/user/Documents/memo.docx"
DEST = "/home/user/Documents/ODF/memo.odt"
PARAS = ["Quarterly memo", "The office moves in March.", "Please pack your desk by Friday.", "Thank you."]
CELLS = ["Team", "Boxes", "Finance", "12"]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["beside", "folder"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, where):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"where": where}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["odf.document_text", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    blocks = [{"text": PARAS[0], "style": "Title"}, {"text": PARAS[1]},
              {"table": [CELLS[:2], CELLS[2:]], "bold_header": True}, {"text": PARAS[2]}, {"text": PARAS[3]}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "Documents/memo.docx").write_bytes(docx.build(spec))


def _check(tmp_path: Path) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "odf.document_text", {"path": DEST, "source": DOC, "mimetype": ODT_MIMETYPE,
                                                              "paragraphs": PARAS, "cells": CELLS})
    return result.passed, result.evidence


def _write(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "Documents/ODF").mkdir(exist_ok=True)
    (tmp_path / "Documents/ODF/memo.odt").write_bytes(data)


def test_the_op_saves_odf_and_the_check_reads_it(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path)[0] is False  # nothing saved yet
    apply_ops(tmp_path, [{"op": "fmt.save_odt", "path": DOC, "dest": DEST}])
    assert _check(tmp_path) == (True, f"{DEST} is {ODT_MIMETYPE} holding all 4 paragraphs of {DOC} in order and "
                                      "its 4 table cells")
    assert (tmp_path / "Documents/memo.docx").is_file()


def test_the_check_refuses_a_renamed_docx_and_a_reordered_text(tmp_path):
    _state(tmp_path)
    _write(tmp_path, (tmp_path / "Documents/memo.docx").read_bytes())
    assert _check(tmp_path)[0] is False
    _write(tmp_path, odt_bytes([PARAS[1], PARAS[0], PARAS[2], PARAS[3], [CELLS[:2], CELLS[2:]]]))
    assert "out of order" in _check(tmp_path)[1]
    _write(tmp_path, odt_bytes([*PARAS, [CELLS[:2]]]))
    assert "lacks 2 of the 4 table cells" in _check(tmp_path)[1]


def test_the_reader_resolves_no_entity(tmp_path):
    evil = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>'
            '<text:p>&x;</text:p></office:text></office:body></office:document-content>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", ODT_MIMETYPE)
        archive.writestr("content.xml", evil)
    path = tmp_path / "evil.odt"
    path.write_bytes(buffer.getvalue())
    assert "root:" not in "".join(load_odf(path).paragraphs)
