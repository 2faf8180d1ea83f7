"""impress.transition: the family through the gate with every mutant, its check and the frame on hand-made end
states (LibreOffice's wrapped transitions included), its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.frame import pptx as frame
from workflows.impress.transition import NATURAL, PHRASINGS, WORDS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}
#: how LibreOffice writes a transition of its own: wrapped for PowerPoint 2010, with a fallback
WRAPPED = ('<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
           'xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main"><mc:Choice Requires="p14">'
           '<p:transition xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" spd="slow" '
           'p14:dur="2000"><p:push dir="u"/></p:transition></mc:Choice><mc:Fallback>'
           '<p:transition xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" spd="slow">'
           '<p:push dir="u"/></p:transition></mc:Fallback></mc:AlternateContent>')


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "scope"), [("uncover", "one"), ("fade", "all")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, kind, scope):
    folder = make_package(WORKFLOW, {"kind": kind, "scope": scope}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.transition", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("kind", list(WORDS))
def test_every_phrasing_says_the_transition_and_no_other(kind):
    for phrasing in PHRASINGS + NATURAL:
        for where in ("every slide", "the slide 'Costs'"):
            text = phrasing.replace("{path.file}", "deck.pptx").format(
                path=PATH, where=where, where_cap=where[0].upper() + where[1:], kind=WORDS[kind], rest="")
            assert set(extract.expressed(text, "transition")) == {kind}, text
            assert bool(extract.expressed(text, "scope")) == (where == "every slide"), text


def _deck(root: Path) -> None:
    (root / "deck.pptx").write_bytes(deckio.build(SPEC))


def _check(root: Path, kind: str = "push", **args: object) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.transition", {"path": PATH, "kind": kind, **args})
    return result.passed, result.evidence


def _set(root: Path, effect: str = "push", **args: object) -> None:
    apply_ops(root, [{"op": "pptx.set_transition", "path": PATH, "effect": effect, **args}])


def test_one_slide_passes_only_alone_and_reads_libreoffices_wrapped_transition(tmp_path):
    _deck(tmp_path)
    assert not _check(tmp_path, slide="Costs")[0]
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    prs.slides[1]._element.append(etree.fromstring(WRAPPED))
    prs.save(str(tmp_path / "deck.pptx"))
    assert _check(tmp_path, slide="Costs") == (True, "slide 'Costs' has the push transition, no other slide has one")
    assert not _check(tmp_path, "wipe", slide="Costs")[0]
    _set(tmp_path, "fade", title="Income")
    passed, evidence = _check(tmp_path, slide="Costs")
    assert not passed and "'Income' (fade)" in evidence
    _set(tmp_path, "push")  # every slide: the op replaces the wrapped one
    assert _check(tmp_path, every=True)[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, every=True)[0]


def test_every_slide_fails_when_the_title_slide_has_none(tmp_path):
    _deck(tmp_path)
    _set(tmp_path, "pull", skip=["Budget 2025"])
    passed, evidence = _check(tmp_path, "uncover", every=True)
    assert not passed and "'Budget 2025' (none)" in evidence


def test_the_frame_refuses_a_transition_or_a_slide_size_nobody_asked_for(tmp_path):
    _deck(tmp_path)
    initial = frame.read(tmp_path / "deck.pptx")
    _set(tmp_path, "fade", title="Costs")
    oracle = frame.read(tmp_path / "deck.pptx")
    assert oracle["2#transition"] == "fade" and "#size" not in oracle
    framed = frame.derive(initial, oracle)
    assert frame.judge(framed, oracle) == []
    _set(tmp_path, "fade")
    assert frame.judge(framed, frame.read(tmp_path / "deck.pptx")) == [
        "slide 1 'Budget 2025': transition added ('fade')", "slide 3 'Income': transition added ('fade')"]
    _deck(tmp_path)
    _set(tmp_path, "fade", title="Costs")
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    prs.slide_width = 12192000
    prs.save(str(tmp_path / "deck.pptx"))
    assert frame.judge(framed, frame.read(tmp_path / "deck.pptx")) == [
        "the presentation's slide size changed (now 339x190, was 254x190)"]
