"""The pptx frame (closed world, issue 37): every change of an Impress end state must be one the task asked for.

Real Impress tasks are made offline and pass the real gate; then hand-made wrong end states (bullets of a slide the
task leaves alone reversed, an empty text box left on a slide, a note changed, a slide moved) are judged by their
rubric: each must fail, the frame with evidence naming the change. The oracle's end state re-saved by a real
LibreOffice must pass it (its new ids, shape names, layout names, explicit run properties and 1/100 mm positions
are save noise).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pptx import Presentation
from pptx.util import Cm

from kit.package import load_package
from kit.taxonomy import Skill, load_taxonomy
from preparers import pptx as deckio
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from verifiers.frame.pptx import derive, judge, presentation_facts, read, recognise
from verifiers.gate.rubric import evaluate_rubric
from workflows import get_family

CASES = ("impress.bullets.append_1", "impress.move_slide.down_after", "impress.notes.add_one_slides",
         "impress.add_slide.two_content_middle", "impress.slide_title.cover_title", "impress.table.header_large",
         "impress.duplicate_slide.after_rename", "impress.delete_slide.second_one")


@cache
def _skills() -> dict[str, Skill]:
    return load_taxonomy()


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("frame_pptx")
    made = {}
    for skill_id in CASES:
        skill = _skills()[skill_id]
        folder = make_package(get_family(skill.family), dict(skill.params), out, seed=3, skill_id=skill.id)
        verdict = gate_package(folder)
        assert verdict.status == "accepted", (skill_id, verdict)
        made[skill_id] = folder
    return made


def _frame(task: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in task["rubric"] if c["primitive"] == "pptx.frame")


def _end(package: Path, tmp_path: Path) -> tuple[dict[str, Any], Path, Path]:
    """(task, the oracle's end state, its deck)"""
    _, after = package_states(package, tmp_path, "solution/oracle.json")
    task = load_package(package).task
    return task, after, after / _frame(task)["args"]["path"].removeprefix("/home/user/")


def _untouched(task: dict[str, Any], prs: Any) -> list[Any]:
    """The slides of the oracle's deck the task leaves alone (no fact of theirs allowed to change), by title."""
    args = _frame(task)["args"]
    titles = [json.loads(v)[0] for k, v in args["kept"].items() if k.startswith("#fp ")
              and not any(a.split("/")[0].split("#")[0] == k.removeprefix("#fp ") for a in args["allowed"])]
    return [s for s in prs.slides if deckio.slide_title(s) in titles[1:]  # the cover aside
            and deckio.titles(prs).count(deckio.slide_title(s)) == 1]


def _reverse_bullets(prs: Any, task: dict[str, Any]) -> str:
    slide = next(s for s in _untouched(task, prs) if len(deckio.paragraphs(deckio.placeholders(s, "body"))) >= 2)
    body = deckio.placeholders(slide, "body")[0].text_frame._txBody
    paragraphs = body.findall("{*}p")
    for para in paragraphs:
        body.remove(para)
    body.extend(reversed(paragraphs))
    return f"{deckio.slide_title(slide)!r}: shape 'body 1' paragraphs reordered"


def _stray_text_box(prs: Any, task: dict[str, Any]) -> str:
    slide = _untouched(task, prs)[-1]
    slide.shapes.add_textbox(Cm(3), Cm(16), Cm(8), Cm(1.5))
    return f"{deckio.slide_title(slide)!r}: a text box was added (shape 'text box 1', empty)"


def _changed_note(prs: Any, task: dict[str, Any]) -> str:
    slide = _untouched(task, prs)[0]
    slide.notes_slide.notes_text_frame.text = "Remember to smile."
    return f"{deckio.slide_title(slide)!r}: speaker notes "


def _moved_slide(prs: Any, task: dict[str, Any]) -> str:
    slide = _untouched(task, prs)[0]
    ids = prs.slides._sldIdLst
    entry = next(e for e in ids if prs.part.related_part(e.rId) is slide.part)
    ids.remove(entry)
    ids.append(entry)
    return f"{deckio.slide_title(slide)!r}"


WRONG: dict[str, Callable[[Any, dict[str, Any]], str]] = {
    "reversed bullets": _reverse_bullets, "stray text box": _stray_text_box, "changed note": _changed_note,
    "moved slide": _moved_slide}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_a_change_out_of_scope_fails_the_frame_which_names_it(packages, tmp_path, case, wrong):
    task, root, deck = _end(packages[case], tmp_path)
    assert all(o.passed for o in evaluate_rubric(task, root))
    prs = Presentation(str(deck))
    named = WRONG[wrong](prs, task)
    prs.save(str(deck))
    outcomes = evaluate_rubric(task, root)
    frame = run_check(State(root), "pptx.frame", _frame(task)["args"])
    assert not all(o.passed for o in outcomes), f"{case}: {wrong} passed the rubric"
    assert not frame.passed and named in frame.evidence, (wrong, frame.evidence)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_a_libreoffice_resave_of_the_oracle_passes_the_frame(packages, tmp_path):
    """One soffice call re-saves every case's oracle deck (`soffice --headless --convert-to pptx`)."""
    ends = {case: _end(packages[case], tmp_path / case.replace(".", "_")) for case in CASES}
    staged = tmp_path / "staged"
    staged.mkdir()
    for case, (_, _, deck) in ends.items():
        shutil.copyfile(deck, staged / f"{case}.pptx")
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--convert-to",
                    "pptx", "--outdir", str(tmp_path / "lo"), *sorted(str(p) for p in staged.iterdir())],
                   check=True, capture_output=True, timeout=300)
    for case, (task, root, deck) in ends.items():
        resaved = tmp_path / "lo" / f"{case}.pptx"
        assert resaved.read_bytes() != (staged / f"{case}.pptx").read_bytes()
        shutil.copyfile(resaved, deck)
        result = run_check(State(root), "pptx.frame", _frame(task)["args"])
        assert result.passed, (case, result.evidence)
        assert all(o.passed for o in evaluate_rubric(task, root)), case


# --- the model and its evidence, on a deck made here ------------------------------------------------------------

SPEC = {"slides": [{"layout": "title_slide", "title": "Q3 Review", "subtitle": "Finance team"},
                   {"layout": "title_content", "title": "Highlights", "bullets": ["Revenue up", "Churn down"],
                    "notes": "Open with the headline."},
                   {"layout": "title_content", "title": "Risks", "bullets": ["Hiring", "Supply", "FX"]},
                   {"layout": "title_only", "title": "Questions"}]}


def _deck(tmp_path: Path, name: str, edit: Callable[[Any], None] | None = None) -> dict[str, str]:
    prs = deckio.build_presentation(SPEC)
    if edit is not None:
        edit(prs)
    prs.save(str(tmp_path / name))
    return read(tmp_path / name)


def _swap(prs: Any, a: int, b: int) -> None:
    ids = prs.slides._sldIdLst
    entries = list(ids)
    entries[a], entries[b] = entries[b], entries[a]
    for entry in entries:
        ids.remove(entry)
    ids.extend(entries)


def _title(slide: Any) -> Any:
    shape = deckio.title_shape(slide)
    assert shape is not None
    return shape


def test_a_reorder_is_named_as_one_and_not_as_every_slide_changed(tmp_path):
    initial = _deck(tmp_path, "a.pptx")
    frame = derive(initial, initial)
    assert frame["allowed"] == {} and judge(frame, initial) == []
    swapped = _deck(tmp_path, "b.pptx", lambda prs: _swap(prs, 1, 2))
    assert judge(frame, swapped) == ["the slide order changed: slide 2 'Highlights' and slide 3 'Risks' swapped"]

    def move(prs: Any) -> None:
        ids = prs.slides._sldIdLst
        entry = list(ids)[1]
        ids.remove(entry)
        ids.append(entry)

    assert judge(frame, _deck(tmp_path, "c.pptx", move)) == [
        "the slide order changed: slide 2 'Highlights' at position 4, not 2"]


def test_an_edited_slide_keeps_what_the_task_does_not_change(tmp_path):
    """A renamed slide is still recognised by its body: reversing that body is out of scope; a bullets edit keeps
    the slide's title, notes and shapes framed."""
    initial = _deck(tmp_path, "a.pptx")

    def rename(prs: Any) -> None:
        _title(prs.slides[2]).text_frame.text = "Open Risks"

    oracle = _deck(tmp_path, "b.pptx", rename)
    frame = derive(initial, oracle)
    assert frame["allowed"] == {"3/title#text": "*"}
    assert recognise({"1": ["x"], "2": ["y", "z"]}, [["z"], ["x"]]) == ["2", "1"]

    def rename_and_reverse(prs: Any) -> None:
        rename(prs)
        body = deckio.placeholders(prs.slides[2], "body")[0].text_frame._txBody
        paragraphs = body.findall("{*}p")
        body.remove(paragraphs[0])
        body.append(paragraphs[0])

    assert judge(frame, _deck(tmp_path, "c.pptx", rename_and_reverse)) == [
        "slide 3 'Risks': shape 'body 1' paragraphs reordered (now Supply / FX / Hiring)"]

    def bold_title_elsewhere(prs: Any) -> None:
        rename(prs)
        for run in _title(prs.slides[1]).text_frame.paragraphs[0].runs:
            run.font.bold = True
        prs.slides[3]._element.set("show", "0")

    assert judge(frame, _deck(tmp_path, "d.pptx", bold_title_elsewhere)) == [
        "slide 2 'Highlights': shape 'title' formatting added (now bold)", "slide 4 'Questions' was hidden in the show"]


def test_save_noise_is_not_a_fact(tmp_path):
    """New shape ids and names, other document properties, a paragraph split into runs: the same facts."""
    initial = _deck(tmp_path, "a.pptx")

    def noise(prs: Any) -> None:
        for n, props in enumerate(prs.slides[1]._element.iter("{*}cNvPr")):
            props.set("id", str(500 + n))
            props.set("name", f"PlaceHolder {n}")
        prs.core_properties.revision = 7
        para = deckio.placeholders(prs.slides[2], "body")[0].text_frame.paragraphs[0]
        para.runs[0].text = "Hir"
        para.add_run().text = "ing"

    assert _deck(tmp_path, "b.pptx", noise) == initial


def test_a_freedom_allows_its_region(tmp_path):
    initial = _deck(tmp_path, "a.pptx")

    def box(prs: Any) -> None:
        prs.slides[3].shapes.add_textbox(Cm(2), Cm(5), Cm(5), Cm(1)).text_frame.text = "Thanks"

    boxed = _deck(tmp_path, "b.pptx", box)
    assert judge(derive(initial, initial), boxed) == [
        "slide 4 'Questions': a text box was added (shape 'text box 1', reading Thanks)"]
    assert judge(derive(initial, initial, {"4/text box*": "a closing line the instruction allows"}), boxed) == []


def test_a_damaged_deck_fails_the_check_without_a_crash(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not really a zip")
    result = run_check(State(tmp_path), "pptx.frame", {"path": "/home/user/deck.pptx", "allowed": {}, "kept": {}})
    assert not result.passed


def test_facts_are_read_without_changing_the_deck():
    """A slide without notes gets no notes page from being read (python-pptx's `notes_slide` would add one)."""
    prs = deckio.build_presentation(SPEC)
    before = [s.has_notes_slide for s in prs.slides]
    presentation_facts(prs)
    assert [s.has_notes_slide for s in prs.slides] == before == [False, True, False, False]
