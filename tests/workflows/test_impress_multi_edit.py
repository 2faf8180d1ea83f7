"""impress.multi_edit: 2-4 goals on one deck, one rubric and one frame; the gate with every mutant, wrong end
states the mutators do not make, the oracle's ops on a small deck, and the instruction listing every goal in words
the grounding reads as meant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from preparers import pptx
from preparers.ops import apply_ops, resolve
from tests.gatekit import gate_package, make_package, package_states
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress import kit as ic
from workflows.impress.multi_edit import POOL, WORKFLOW, Target, rubric, solve

PRIMITIVES = {"title": "pptx.text_format", "background": "pptx.background", "align": "pptx.paragraph_align",
              "note": "pptx.notes_text", "numbers": "pptx.slide_numbers", "footer": "pptx.footer_text",
              "hide": "pptx.slide_hidden"}


@pytest.mark.slow
@pytest.mark.parametrize("goals", [2, 3, 4])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, goals):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"goals": goals}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        ids = [c["id"] for c in task["rubric"]][:-2]
        assert len(ids) == goals and set(ids) <= set(POOL)
        # one check per goal, its family's own, then ONE frame of the deck (over every goal's change) and the tree's
        assert [c["primitive"] for c in task["rubric"]] == [*(PRIMITIVES[g] for g in ids), "pptx.frame",
                                                            "tree.frame"]
        # near-misses: each goal left undone, each on the wrong slide(s), each done in a way refused
        assert len(task["solutions"]["near_misses"]) == 3 * goals


def test_the_draw_reaches_every_goal_and_keeps_hidden_slides_apart():
    seen: set[str] = set()
    for seed in range(1, 9):
        target = WORKFLOW.run(NodeContext({"goals": 4}, seed, "t", 0, OfflineBackend()))["target"]
        assert len(target.goals) == 4 and list(target.goals) == [g for g in POOL if g in target.goals]
        seen |= set(target.goals)
        if "hide" in target.goals:
            hidden = target.slides["hide"]
            assert hidden not in [s for g, s in target.slides.items() if g != "hide"]
    assert seen == set(POOL)


def _failing(folder: Path, state: Path) -> list[str]:
    task = json.loads((folder / "task.json").read_text())
    return [c["id"] for c in task["rubric"] if not run_check(State(state), c["primitive"], c["args"]).passed]


def _args(folder: Path, check: str) -> dict[str, Any]:
    task = json.loads((folder / "task.json").read_text())
    return dict(next(c for c in task["rubric"] if c["id"] == check)["args"])


def test_hand_made_wrong_end_states_fail(tmp_path):
    folder = make_package(WORKFLOW, {"goals": 4}, tmp_path / "pkg", seed=10)
    task = json.loads((folder / "task.json").read_text())
    assert [c["id"] for c in task["rubric"]][:-2] == ["background", "align", "note", "hide"]
    oracle = task["solutions"]["oracle"]
    _, after = package_states(folder, tmp_path / "oracle", oracle)
    assert _failing(folder, after) == []
    background, align, note, hide = (_args(folder, c) for c in ("background", "align", "note", "hide"))
    path = background["path"]

    def state(name: str, ops: list[dict[str, Any]]) -> list[str]:
        _, end = package_states(folder, tmp_path / name, oracle)
        apply_ops(end, [{"path": path, **op} for op in ops])
        return _failing(folder, end)

    # every goal done, and the slide that was hidden also given the new background while there
    assert "background" in state("bg_twice", [{"op": "pptx.set_background", "title": hide["slide"],
                                               "color": background["color"]}])
    # every goal done, and a note also written on the hidden slide: only the frame sees it
    assert state("two_notes", [{"op": "pptx.set_notes", "title": hide["slide"], "text": note["text"]}]) == ["frame"]
    # the bullets aligned back to the left but for the first one
    assert state("align_one", [{"op": "pptx.align_paragraphs", "title": align["slide"], "align": "left"},
                               {"op": "pptx.align_paragraphs", "title": align["slide"], "align": align["align"],
                                "first": 1}]) == ["align"]
    # the note's last word left off
    assert state("short_note", [{"op": "pptx.set_notes", "title": note["slide"],
                                 "text": note["text"].rsplit(" ", 1)[0]}]) == ["note"]
    # the slide deleted instead of hidden (the other goals done)
    ops = [op for op in json.loads((folder / oracle).read_text())["ops"] if op["op"] != "pptx.set_hidden"]
    deleting = tmp_path / "deleting.json"
    deleting.write_text(json.dumps({"ops": [*ops, {"op": "pptx.delete_slide", "path": path, "title": hide["slide"]}]}))
    _, deleted = package_states(folder, tmp_path / "deleted", str(deleting))
    assert {"hide", "frame"} <= set(_failing(folder, deleted))


def test_a_title_format_on_another_slide_too_fails_the_frame(tmp_path):
    folder = make_package(WORKFLOW, {"goals": 4}, tmp_path / "pkg", seed=15)
    task = json.loads((folder / "task.json").read_text())
    title = _args(folder, "title")
    style = {k: v for k, v in title.items() if k in ("bold", "italic", "underline", "color")}
    assert style in ({"bold": True}, {"italic": True}, {"underline": True})  # the frame reads these, not colours
    deck = WORKFLOW.run(NodeContext({"goals": 4}, 15, "test.skill", 0, OfflineBackend()))["deck"]
    other = next(t for t in deck.content_titles if t != title["slide"])
    _, end = package_states(folder, tmp_path / "end", task["solutions"]["oracle"])
    apply_ops(end, [{"op": "pptx.format_text", "path": title["path"], "title": other, "text": other, **style}])
    assert _failing(folder, end) == ["frame"]


def test_the_oracle_ops_on_a_small_deck(tmp_path):
    """Every goal of the pool at once on a cover and three slides: the oracle passes every check; each goal's
    own slips fail that goal's check or change what the frame refuses (checked by the gate above)."""
    slides = ({"layout": "title_slide", "title": "Plan", "subtitle": "2025"},
              *({"layout": "title_content", "title": t, "bullets": [f"{t} one", f"{t} two"], "notes": ""}
                for t in ("Goals", "Budget", "Risks")))
    deck = ic.Deck("/home/user/Documents/plan.pptx", tuple(slides), "Ann Lee")
    target = Target(POOL, {"title": "Goals", "background": "Goals", "align": "Budget", "note": "Budget",
                           "hide": "Risks"},
                    {"title": "Budget", "background": "Budget", "align": "Risks", "note": "Goals", "hide": "Goals"},
                    {"underline": True}, "DEEBF7", "justify", "Budget", True, False, "Ann Lee | Internal use only",
                    "Plan", "Goals", {t: f"{t} one" for t in ("Goals", "Budget", "Risks")})
    host = resolve(tmp_path, deck.path)
    host.parent.mkdir(parents=True)
    host.write_bytes(pptx.build(deck.spec()))
    attempts = solve(deck, target)
    apply_ops(tmp_path, list(attempts.oracle.ops))
    checks = rubric(deck, target)
    assert [c.id for c in checks] == list(POOL)
    results = {c.id: run_check(State(tmp_path), c.primitive, c.args) for c in checks}
    assert all(r.passed for r in results.values()), {k: r.evidence for k, r in results.items() if not r.passed}
    assert len(attempts.near_misses) == 3 * len(POOL)


@pytest.mark.parametrize("goals", [2, 3, 4])
def test_the_instruction_lists_every_goal_in_words_read_as_meant(goals):
    for seed in (3, 4, 5):
        for register in ("explicit", "natural"):
            out = WORKFLOW.run(NodeContext({"goals": goals}, seed, "t", 0, OfflineBackend(), register=register))
            text, target = out["instruction"], out["target"]
            assert ("background" in text) == ("background" in target.goals), text
            assert ("note" in text) == ("note" in target.goals), text
            assert ("slide numbers" in text) == ("numbers" in target.goals), text
            assert ("footer" in text) == ("footer" in target.goals), text
            assert (" hide" in text.lower()) == ("hide" in target.goals), text
            for slide in target.slides.values():
                assert f"'{slide}'" in text, text
            # a deck-wide goal says whether the title slide gets it; "show slide numbers" would read as unhiding
            furniture = {"numbers", "footer"} & set(target.goals)
            assert set(extract.expressed(text, "cover")) == (
                ({"with"} if target.title_slide else {"without"}) if furniture else set()), text
            assert set(extract.expressed(text, "visibility")) <= {"hidden"}, text
            if "align" in target.goals:
                assert set(extract.expressed(text, "align")) == {target.align}, text
            if register == "explicit":
                assert [line[:2] for line in text.splitlines()[1:-1]] == [f"{n}." for n in range(1, goals + 1)]


def test_the_per_slide_goals_share_a_slide_about_half_the_time():
    shared = 0
    for seed in range(1, 13):
        target = WORKFLOW.run(NodeContext({"goals": 3}, seed, "t", 0, OfflineBackend()))["target"]
        on = {s for g, s in target.slides.items() if g != "hide"}
        shared += len(on) == 1 and sum(g != "hide" for g in target.slides) > 1
    assert 0 < shared < 12
