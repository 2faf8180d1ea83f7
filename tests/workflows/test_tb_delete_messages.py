"""tb.delete_messages: the family through the gate with every mutant, and the check on hand-made end states (a
message deleted for good, one left behind, a copy in Trash, the expunged copy Thunderbird leaves until compaction)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.tb.delete_messages import NATURAL, PHRASINGS, WORKFLOW

PROFILE = "/home/user/" + tb.profile_dir("deltest")
T0 = dt.datetime(2024, 3, 4, 9, 0, tzinfo=dt.UTC)


def _msg(i: int, subject: str, sender: str = "Priya N <priya@northwind.example>") -> tb.Message:
    return tb.Message(f"m{i}@x.example", sender, "Ann Lee <ann@example.com>", subject, T0 + dt.timedelta(hours=i),
                      f"Hello,\nitem {i}\n")


SPEC = tb.ProfileSpec("deltest", tb.Identity("Ann Lee", "ann@example.com"), folders=(
    tb.Folder("Inbox", (_msg(1, "Invoice 1"), _msg(2, "Agenda"), _msg(3, "Invoice 2"))),))
ARGS = {"path": PROFILE, "folder": "Inbox", "message_ids": ["m1@x.example", "m3@x.example"], "field": "subject",
        "value": "invoice"}


@pytest.mark.slow
@pytest.mark.parametrize("field", ["from", "subject", "before"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, field):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"field": field}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.messages_deleted"


def _home(tmp_path: Path) -> Path:
    for rel, data in tb.build_profile(SPEC).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return tmp_path


def _box(root: Path, folder: str) -> Path:
    return root / PROFILE.removeprefix("/home/user/") / tb.folder_file(folder)


def _check(root: Path) -> tuple[bool, str]:
    result = run_check(State(root), "tb.messages_deleted", ARGS)
    return result.passed, result.evidence


def _move(**change) -> dict:
    return {"op": "tb.move_messages", "path": PROFILE, "source": "Inbox", "target": "Trash", "field": "subject",
            "value": "invoice", **change}


def test_a_delete_to_trash_passes_and_the_expunged_copies_do_not_count(tmp_path):
    root = _home(tmp_path)
    assert "2 of the 2 messages" in _check(root)[1]
    apply_ops(root, [_move()])
    assert len(tb.split_mbox(_box(root, "Inbox").read_bytes())) == 3  # expunged entries stay until compaction
    passed, evidence = _check(root)
    assert passed, evidence


@pytest.mark.parametrize(("ops", "says"), [
    ([_move(limit=1)], "1 of the 2 messages"),
    ([_move(copy=True)], "are still in 'Inbox'"),
    ([_move(target="Archives")], "not in Trash"),
])
def test_wrong_deletes_fail(tmp_path, ops, says):
    root = _home(tmp_path)
    if any(o.get("target") == "Archives" for o in ops):
        apply_ops(root, [{"op": "tb.create_folder", "path": PROFILE, "folder": "Archives"}])
    apply_ops(root, ops)
    passed, evidence = _check(root)
    assert not passed and says in evidence, evidence


def test_a_delete_for_good_fails(tmp_path):
    root = _home(tmp_path)
    box = _box(root, "Inbox")
    entries = tb.split_mbox(box.read_bytes())
    box.write_bytes(entries[1])  # Shift+Delete then compaction: the two invoices are gone, Trash is empty
    passed, evidence = _check(root)
    assert not passed and "not in Trash" in evidence, evidence


def test_a_missing_trash_or_garbage_inbox_fails_without_raising(tmp_path):
    root = _home(tmp_path)
    apply_ops(root, [_move()])
    _box(root, "Trash").unlink()
    assert "not in Trash" in _check(root)[1]
    _box(root, "Inbox").write_bytes(b"\x00\xff garbage")
    assert not _check(root)[0]


@pytest.mark.parametrize(("what", "field"), [("from priya@northwind.example", "from"),
                                             ("whose subject contains 'Invoice'", "subject"),
                                             ("dated before 2024-03-05 (5 March 2024)", "before")])
def test_every_phrasing_says_delete_and_its_criterion(what, field):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(what=what)
        assert "delete" in text.lower() and set(extract.expressed(text, "mail_field")) == {field}, text
