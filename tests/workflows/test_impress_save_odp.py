"""impress.save_odp: the family through the gate with every mutant, the check on hand-made .odp end states (a pptx
renamed, a slide missing, slides out of order, a broken zip), the op's .odp read back, and real LibreOffice's .odp
of a deck passing the check when LibreOffice is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from preparers.ops.formats_odp import ODP_MIMETYPE, odp_bytes
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.readers.odf import load_odf
from workflows.impress.save_odp import WORKFLOW

PATH, DEST = "/home/user/deck.pptx", "/home/user/deck.odp"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"],
                    "notes": "Mention the new office."},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}
SLIDES = [["Budget 2025", "Finance"], ["Costs", "Rent", "Staff"], ["Income", "Grants", "Sales"]]
PARAS = [t for s in SLIDES for t in s]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["same", "renamed"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, name):
    for seed in (2, 5):
        folder = make_package(WORKFLOW, {"name": name}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["odf.document_text", "pptx.frame", "tree.frame"]


def _check(root: Path) -> tuple[bool, str]:
    result = run_check(State(root), "odf.document_text", {"path": DEST, "source": PATH, "mimetype": ODP_MIMETYPE,
                                                          "paragraphs": PARAS, "cells": []})
    return result.passed, result.evidence


def test_op_writes_an_odp_the_reader_reads(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(tmp_path, [{"op": "fmt.save_odp", "path": PATH, "dest": DEST}])
    doc = load_odf(tmp_path / "deck.odp")
    assert doc.mimetype == ODP_MIMETYPE and list(doc.paragraphs) == PARAS
    assert _check(tmp_path)[0] and (tmp_path / "deck.pptx").read_bytes() == deckio.build(SPEC)


def test_wrong_odp_files_fail(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    shutil.copy(tmp_path / "deck.pptx", tmp_path / "deck.odp")
    passed, evidence = _check(tmp_path)
    assert not passed
    (tmp_path / "deck.odp").write_bytes(odp_bytes(SLIDES[:2]))
    assert not _check(tmp_path)[0]
    (tmp_path / "deck.odp").write_bytes(odp_bytes([SLIDES[0], SLIDES[2], SLIDES[1]]))
    assert not _check(tmp_path)[0]
    (tmp_path / "deck.odp").write_bytes(b"PK\x03\x04 not a zip")
    assert not _check(tmp_path)[0]


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_odp_passes(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    out = tmp_path / "out"
    subprocess.run(["soffice", "--headless", "--convert-to", "odp", "--outdir", str(out), str(tmp_path / "deck.pptx")],
                   check=True, capture_output=True, timeout=180)
    shutil.move(out / "deck.odp", tmp_path / "deck.odp")
    assert _check(tmp_path)[0]
