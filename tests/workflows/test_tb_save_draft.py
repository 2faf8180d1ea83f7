"""tb.save_draft: the family through the gate with every mutant, the op on a small profile, and the check on
hand-made Drafts folders (a draft saved twice, an expunged one, a renamed attachment, HTML text, a corrupt mbox)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.tb.save_draft import NATURAL, PHRASINGS, WORKFLOW

PROFILE = "/home/user/" + tb.profile_dir("drtest")
FILE = "/home/user/Documents/venue-shortlist.csv"
DATA = b"venue,city\nHall 1,Leeds\n"
SPEC = tb.ProfileSpec("drtest", tb.Identity("Ana Lopez", "ana.lopez@example.com"))
ARGS = {"path": PROFILE, "to": ["sam@example.com", "kofi.haddad@example.com"], "subject": "Venue shortlist",
        "attachment": FILE, "body": "Here is the venue shortlist."}


@pytest.mark.slow
@pytest.mark.parametrize("recipients", ["one", "two"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, recipients):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"recipients": recipients}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.draft_saved"
        assert len(task["rubric"][0]["args"]["to"]) == (1 if recipients == "one" else 2)


def _home(tmp_path: Path) -> Path:
    for rel, data in tb.build_profile(SPEC).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents/venue-shortlist.csv").write_bytes(DATA)
    return tmp_path


def _draft(**change) -> dict:
    return {"op": "tb.save_draft", "path": PROFILE, "sender": "Ana Lopez <ana.lopez@example.com>",
            "to": ["Sam Reed <sam@example.com>", "kofi.haddad@example.com"], "subject": "Venue shortlist",
            "body": "Hi both,\nhere is the venue\nshortlist.\n", "message_id": "d1@example.com",
            "date": "2024-05-02T09:30:00+00:00", "attachments": [FILE], **change}


def _drafts(root: Path) -> Path:
    return root / PROFILE.removeprefix("/home/user/") / tb.folder_file("Drafts")


def test_the_op_appends_a_draft_with_the_file(tmp_path):
    root = _home(tmp_path)
    apply_ops(root, [_draft()])
    [entry] = tb.split_mbox(_drafts(root).read_bytes())
    msg = tb.parse_entry(entry)
    assert (msg["Subject"], msg["To"]) == ("Venue shortlist", "Sam Reed <sam@example.com>, kofi.haddad@example.com")
    [part] = list(msg.iter_attachments())
    assert (part.get_filename(), part.get_payload(decode=True)) == ("venue-shortlist.csv", DATA)
    assert tb.status_flags(entry) & tb.READ


def _check(root: Path, **args) -> tuple[bool, str]:
    result = run_check(State(root), "tb.draft_saved", {**ARGS, **args})
    return result.passed, result.evidence


def test_the_check_accepts_the_draft_and_names_each_wrong_one(tmp_path):
    root = _home(tmp_path)
    assert _check(root) == (False, "Drafts holds no message with the subject 'Venue shortlist' (subjects: none)")
    apply_ops(root, [_draft()])
    passed, evidence = _check(root)
    assert passed, evidence
    assert "addressed to" in _check(root, to=["sam@example.com"])[1]
    assert "does not say" in _check(root, body="Here is the budget.")[1]
    (root / "Documents/venue-shortlist.csv").write_bytes(b"changed\n")  # the file changed after it was attached
    assert "not the bytes" in _check(root)[1]


def test_a_draft_saved_twice_fails_and_an_expunged_copy_does_not_count(tmp_path):
    root = _home(tmp_path)
    apply_ops(root, [_draft(), _draft(message_id="d2@example.com")])
    assert "holds 2 messages" in _check(root)[1]
    box = _drafts(root)
    first, second = tb.split_mbox(box.read_bytes())
    box.write_bytes(tb.with_flags(first, tb.EXPUNGED | tb.READ) + second)  # Thunderbird replaced the older save
    assert _check(root)[0]


@pytest.mark.parametrize(("change", "says"), [
    ({"attachments": []}, "no attachment 'venue-shortlist.csv'"),
    ({"folder": "Templates"}, "no message with the subject"),
    ({"to": [], "cc": ["sam@example.com", "kofi.haddad@example.com"]}, "addressed to nobody"),
    ({"subject": "Venue shortlist (2)"}, "subjects: ['Venue shortlist (2)']"),
])
def test_wrong_drafts_fail(tmp_path, change, says):
    root = _home(tmp_path)
    apply_ops(root, [_draft(**change)])
    passed, evidence = _check(root)
    assert not passed and says in evidence, evidence


def test_a_corrupt_drafts_file_fails_without_raising(tmp_path):
    root = _home(tmp_path)
    _drafts(root).write_bytes(b"\x00\xff not a mailbox")
    assert not _check(root)[0]


def test_every_phrasing_states_every_fact():
    facts = {"to": "Sam Reed (sam@example.com)", "subject": "S", "body": "B.", "file": FILE}
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**facts)
        assert all(v in text for v in facts.values()) and "draft" in text.lower(), text
