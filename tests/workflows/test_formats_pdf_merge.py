"""os.pdf_merge: the family through the gate with every mutant, the page-order check on PDFs the op writes (the
asked order, another order, a source left out), on a source under the wrong name, and the op on a small tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers.ops import apply_ops
from preparers.ops.formats import pdf_pages
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.pdf_merge import WORKFLOW

A, B, C = (f"/home/user/Documents/{n}.pdf" for n in ("agenda", "budget", "contract"))
DEST = "/home/user/Documents/packet.pdf"
PAGES = {A: [["Agenda for the board meeting", "Item one: minutes"]],
         B: [["Budget 2025", "Travel line reduced"], ["Budget 2025 continued", "Capital spending flat"]],
         C: [["Service contract", "Signed by both parties"]]}


@pytest.mark.slow
@pytest.mark.parametrize("order", ["stated", "by_name"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, order):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"order": order}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "pdf.pages_in_order"
        assert task["rubric"][-1]["primitive"] == "tree.frame"


def _state(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    for path, pages in PAGES.items():
        (tmp_path / path.removeprefix("/home/user/")).write_bytes(pdf_pages(pages))


def _check(tmp_path: Path, order: list[str]) -> tuple[bool, str]:
    pages = [page for source in order for page in PAGES[source]]
    result = run_check(State(tmp_path), "pdf.pages_in_order", {"path": DEST, "pages": pages, "sources": order})
    return result.passed, result.evidence


def _merge(tmp_path: Path, sources: list[str]) -> None:
    apply_ops(tmp_path, [{"op": "fmt.merge_pdf", "path": DEST, "sources": sources}])


def test_the_check_wants_every_page_in_the_asked_order(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path, [C, A, B])[0] is False  # nothing merged yet
    _merge(tmp_path, [C, A, B])
    assert _check(tmp_path, [C, A, B]) == (True, f"{DEST} has the 4 asked pages of {C}, {A}, {B}, in order")
    assert "page 1 lacks 'Agenda for the board meeting'" in _check(tmp_path, [A, B, C])[1]
    _merge(tmp_path, [C, A])
    assert "has 2 page(s)" in _check(tmp_path, [C, A, B])[1]
    (tmp_path / "Documents/packet.pdf").write_bytes(b"Agenda for the board meeting\n")
    assert "not a readable PDF document" in _check(tmp_path, [C, A, B])[1]


def test_the_merge_leaves_the_sources_as_they_were(tmp_path):
    _state(tmp_path)
    before = {p: (tmp_path / p.removeprefix("/home/user/")).read_bytes() for p in PAGES}
    _merge(tmp_path, [B, C, A])
    assert {p: (tmp_path / p.removeprefix("/home/user/")).read_bytes() for p in PAGES} == before
    assert _check(tmp_path, [B, C, A])[0] is True
