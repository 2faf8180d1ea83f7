"""impress.background: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress.background import NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["one", "all"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope):
    folder = make_package(WORKFLOW, {"scope": scope}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.background", "pptx.frame", "tree.frame"]


def test_every_phrasing_says_every_slide_when_all_are_asked():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(
            path=PATH, where="every slide", colour="light blue", hex="DEEBF7", rest="")
        assert set(extract.expressed(text, "scope")) == {"all"}, text
        one = phrasing.replace("{path.file}", "deck.pptx").format(
            path=PATH, where="the slide 'Costs'", colour="light blue", hex="DEEBF7", rest="Do not change the other "
                                                                                          "slides.")
        assert not extract.expressed(one, "scope"), one


def _check(root: Path, **args: object) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.background", {"path": PATH, "color": "1F4E79", **args})
    return result.passed, result.evidence


def _deck(root: Path) -> None:
    (root / "deck.pptx").write_bytes(deckio.build(SPEC))


def _paint(root: Path, **args: object) -> None:
    apply_ops(root, [{"op": "pptx.set_background", "path": PATH, "color": "1F4E79", **args}])


def test_one_slide_passes_only_when_no_other_slide_shows_the_colour(tmp_path):
    _deck(tmp_path)
    assert not _check(tmp_path, slide="Costs")[0]
    _paint(tmp_path, title="Costs")
    assert _check(tmp_path, slide="Costs") == (True, "slide 'Costs' shows a solid 1F4E79 background, no other "
                                                     "slide does")
    assert not _check(tmp_path, every=True)[0]
    _paint(tmp_path, master=True)  # "apply to all slides": every slide shows it now
    passed, evidence = _check(tmp_path, slide="Costs")
    assert not passed and "so do 2 other slide(s)" in evidence


def test_every_slide_passes_through_the_master_or_each_slide(tmp_path):
    _deck(tmp_path)
    _paint(tmp_path, master=True)
    assert _check(tmp_path, every=True)[0]
    _deck(tmp_path)
    _paint(tmp_path, skip=["Budget 2025"])
    passed, evidence = _check(tmp_path, every=True)
    assert not passed and "'Budget 2025' (theme)" in evidence
    _paint(tmp_path, title="Budget 2025", color="1f4e79")  # a colour written in lower case is the same colour
    assert _check(tmp_path, every=True)[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, every=True)[0]
