"""os.pdf_split: the family through the gate with every mutant, and the split op with the page-order check: the
asked pages pass, a shifted range, a short one and the whole file fail; a cut rewrites the source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers.ops import apply_ops
from preparers.ops.formats import pdf_pages
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.pdf_split import WORKFLOW

SOURCE = "/home/user/Downloads/scan_batch.pdf"
DEST = "/home/user/Downloads/invoice.pdf"
PAGES = [[f"Page {n} heading", f"Line of page {n}"] for n in ("one", "two", "three", "four", "five")]


@pytest.mark.slow
@pytest.mark.parametrize("what", ["range", "page"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, what):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"what": what}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "pdf.pages_in_order"


def _state(tmp_path: Path) -> Path:
    (tmp_path / "Downloads").mkdir()
    source = tmp_path / "Downloads/scan_batch.pdf"
    source.write_bytes(pdf_pages(PAGES))
    return source


def _check(tmp_path: Path, first: int, last: int) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "pdf.pages_in_order",
                       {"path": DEST, "pages": PAGES[first - 1:last], "sources": [SOURCE]})
    return result.passed, result.evidence


@pytest.mark.parametrize(("first", "last", "passes"), [(2, 4, True), (3, 5, False), (2, 2, False), (1, 5, False)])
def test_the_check_wants_exactly_the_asked_pages(tmp_path, first, last, passes):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "fmt.split_pdf", "path": SOURCE, "dest": DEST, "first": first, "last": last}])
    assert _check(tmp_path, 2, 4)[0] is passes


def test_a_cut_rewrites_the_source(tmp_path):
    source = _state(tmp_path)
    before = source.read_bytes()
    apply_ops(tmp_path, [{"op": "fmt.split_pdf", "path": SOURCE, "dest": DEST, "first": 2, "last": 3}])
    assert source.read_bytes() == before and _check(tmp_path, 2, 3)[0] is True
    apply_ops(tmp_path, [{"op": "fmt.split_pdf", "path": SOURCE, "dest": DEST, "first": 2, "last": 3, "cut": True}])
    assert source.read_bytes() != before
