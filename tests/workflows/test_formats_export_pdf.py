"""writer.export_pdf: the family through the gate with every mutant, the PDF check on hand-made PDFs (the op's, a
partial one, an empty page, a docx under a .pdf name, one over the page bound), the bounded PDF reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import docx
from preparers.ops import apply_ops
from preparers.ops.formats import pdf_pages, text_pdf
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.readers.pdf import load_pdf
from workflows.writer.export_pdf import WORKFLOW

DOC = "/home/user/Documents/memo.docx"
DEST = "/home/user/Documents/PDF/memo.pdf"
PARAS = ["Quarterly memo", "The office moves to the new building in March.",
         "Please pack your desk (and label every box) by the last Friday of February.", "Thank you."]
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
        assert [c["primitive"] for c in task["rubric"]] == ["pdf.document_text", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> State:
    (tmp_path / "Documents").mkdir()
    blocks = [{"text": PARAS[0], "style": "Title"}, {"text": PARAS[1]},
              {"table": [CELLS[:2], CELLS[2:]], "bold_header": True}, {"text": PARAS[2]}, {"text": PARAS[3]}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "Documents/memo.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, max_pages: int = 3) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "pdf.document_text",
                       {"path": DEST, "source": DOC, "paragraphs": PARAS, "cells": CELLS, "max_pages": max_pages})
    return result.passed, result.evidence


def _write(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "Documents/PDF").mkdir(exist_ok=True)
    (tmp_path / "Documents/PDF/memo.pdf").write_bytes(data)


def test_the_op_exports_and_the_check_reads_pages(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path)[0] is False  # no PDF yet
    apply_ops(tmp_path, [{"op": "fmt.export_pdf", "path": DOC, "dest": DEST}])
    assert _check(tmp_path) == (True, f"{DEST} (1 page(s)) shows all 4 paragraphs of {DOC} in order and its 4 "
                                      "table cells")
    assert _check(tmp_path, max_pages=0)[0] is False


def test_the_check_refuses_partial_empty_reordered_and_copied_files(tmp_path):
    _state(tmp_path)
    _write(tmp_path, text_pdf(PARAS[:2] + ["Team | Boxes", "Finance | 12"]))
    assert "first missing or out of order: 'Please pack your desk" in _check(tmp_path)[1]
    _write(tmp_path, pdf_pages([[]]))
    assert "no text" in _check(tmp_path)[1]
    _write(tmp_path, text_pdf([PARAS[1], PARAS[0], PARAS[2], PARAS[3], "Team Boxes Finance 12"]))
    assert _check(tmp_path)[0] is False  # out of order
    _write(tmp_path, text_pdf(PARAS))
    assert "lacks 4 of the 4 table cells" in _check(tmp_path)[1]
    _write(tmp_path, (tmp_path / "Documents/memo.docx").read_bytes())
    assert "not a readable PDF document" in _check(tmp_path)[1]


def test_the_reader_is_bounded(tmp_path, monkeypatch):
    from verifiers.readers import pdf

    path = tmp_path / "many.pdf"
    path.write_bytes(pdf_pages([["page"]] * 5))
    assert load_pdf(path).count == 5
    monkeypatch.setattr(pdf, "MAX_PAGES", 3)
    with pytest.raises(ValueError, match="more than 3 pages"):
        load_pdf(path)
    (tmp_path / "junk.pdf").write_bytes(b"%PDF-1.4\n" + b"0" * 1000)
    with pytest.raises(Exception):  # noqa: B017 - any parse error; a check turns it into a failed check
        load_pdf(tmp_path / "junk.pdf")
