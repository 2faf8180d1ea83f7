"""tb.signature: the family through the gate with every mutant, and the check on hand-made prefs (an HTML
signature, a [ProfD]-relative file, a file pref with the box unticked, an identity no account lists)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.tb.signature import NATURAL, PHRASINGS, WORKFLOW

PROFILE = "/home/user/.thunderbird/abc.default-release"
OWN = "ana.lopez@example.com"
ROLE = "support@example.com"
LINES = ["Ana Lopez", "Operations Lead, Tidewater Labs", "+44 20 7946 1234"]
FILE = "/home/user/Documents/Signatures/signature.txt"
TWO = {"mail.account.account2.identities": "id1,id2", "mail.identity.id2.useremail": ROLE,
       "mail.identity.id2.fullName": "Support", "mail.identity.id2.valid": True}


@pytest.mark.slow
@pytest.mark.parametrize(("source", "identity"), [("text", "own"), ("file", "role"), ("text", "role")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, source, identity):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"source": source, "identity": identity}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.signature_set"
        assert ("file" in task["rubric"][0]["args"]) is (source == "file")
        assert {"tb.frame", "tree.frame"} <= {c["primitive"] for c in task["rubric"]}


def _check(tmp_path: Path, extra: dict, **args) -> tuple[bool, str]:
    prefs = {**tb.account_prefs(tb.Identity("Ana Lopez", OWN)), **TWO, **extra}
    host = tmp_path / PROFILE.removeprefix("/home/user/")
    host.mkdir(parents=True, exist_ok=True)
    (host / "prefs.js").write_bytes(tb.prefs_js(prefs))
    result = run_check(State(tmp_path), "tb.signature_set", {"path": PROFILE, **args})
    return result.passed, result.evidence


TEXT = "\n".join(LINES)


@pytest.mark.parametrize(("extra", "args", "passes", "says"), [
    ({}, {"email": OWN, "lines": LINES}, False, "signature text is None"),
    ({"mail.identity.id1.htmlSigText": TEXT}, {"email": OWN, "lines": LINES}, True, "3 lines"),
    ({"mail.identity.id1.htmlSigText": "<b>Ana Lopez</b><br>Operations Lead, Tidewater Labs<br>+44 20 7946 1234"},
     {"email": OWN, "lines": LINES}, True, "3 lines"),
    ({"mail.identity.id1.htmlSigText": "  Ana Lopez \r\nOperations Lead, Tidewater Labs\r\n+44 20 7946 1234\n"},
     {"email": OWN, "lines": LINES}, True, "3 lines"),
    ({"mail.identity.id1.htmlSigText": TEXT, "mail.identity.id1.attach_signature": True},
     {"email": OWN, "lines": LINES}, False, "file is attached instead"),
    ({"mail.identity.id1.htmlSigText": TEXT}, {"email": ROLE.upper(), "lines": LINES}, False, "(id2)"),
    ({"mail.identity.id3.useremail": ROLE, "mail.identity.id3.htmlSigText": TEXT,
      "mail.account.account2.identities": "id1"}, {"email": ROLE, "lines": LINES}, False, "no account lists"),
    ({"mail.identity.id2.sig_file": FILE, "mail.identity.id2.attach_signature": True},
     {"email": ROLE, "file": FILE}, True, "signs with the file"),
    ({"mail.identity.id2.sig_file-rel": "[ProfD]../../Documents/Signatures/signature.txt",
      "mail.identity.id2.sig_file": "/elsewhere/x.txt", "mail.identity.id2.attach_signature": True},
     {"email": ROLE, "file": FILE}, True, "signs with the file"),
    ({"mail.identity.id2.sig_file": FILE}, {"email": ROLE, "file": FILE}, False, "is off"),
    ({"mail.identity.id2.sig_file": FILE.replace(".txt", "-old.txt"), "mail.identity.id2.attach_signature": True},
     {"email": ROLE, "file": FILE}, False, "signature-old.txt"),
    ({"mail.identity.id2.sig_file": "Documents/Signatures/signature.txt", "mail.identity.id2.attach_signature": True},
     {"email": ROLE, "file": FILE}, False, "not set"),
    ({}, {"email": ROLE}, False, "misconfigured"),
])
def test_the_check_reads_the_identity_signature(tmp_path, extra, args, passes, says):
    passed, evidence = _check(tmp_path, extra, **args)
    assert passed is passes and says in evidence, evidence


def test_the_op_writes_a_multiline_signature_the_check_reads(tmp_path):
    host = tmp_path / PROFILE.removeprefix("/home/user/")
    host.mkdir(parents=True)
    (host / "prefs.js").write_bytes(tb.prefs_js({**tb.account_prefs(tb.Identity("Ana Lopez", OWN)), **TWO}))
    apply_ops(tmp_path, [{"op": "tb.set_pref", "path": PROFILE, "name": "mail.identity.id2.htmlSigText",
                          "value": TEXT}])
    assert run_check(State(tmp_path), "tb.signature_set", {"path": PROFILE, "email": ROLE, "lines": LINES}).passed
    assert not run_check(State(tmp_path), "tb.signature_set", {"path": PROFILE, "email": OWN, "lines": LINES}).passed


def test_every_phrasing_names_the_identity_and_the_signature():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(email=ROLE, how="with these 3 lines", how_sentence="the text is these 3 lines.")
        assert ROLE in text and "signature" in text.lower(), text
