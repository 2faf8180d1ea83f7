"""tb.add_identity: the family through the gate with every mutant, and the check on hand-made prefs (an identity no
account lists, the new one made default, the account's own identity overwritten)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.tb.add_identity import WORKFLOW

PROFILE = "/home/user/.thunderbird/abc.default-release"
OWN = "ana.lopez@example.com"


@pytest.mark.slow
@pytest.mark.parametrize("extra", ["none", "reply_to", "organization"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, extra):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"extra": extra}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.identity_added"
        assert {"tb.frame", "tree.frame"} <= {c["primitive"] for c in task["rubric"]}


def _check(tmp_path: Path, extra: dict, **args) -> tuple[bool, str]:
    prefs = {**tb.account_prefs(tb.Identity("Ana Lopez", OWN)), **extra}
    host = tmp_path / PROFILE.removeprefix("/home/user/")
    host.mkdir(parents=True, exist_ok=True)
    (host / "prefs.js").write_bytes(tb.prefs_js(prefs))
    result = run_check(State(tmp_path), "tb.identity_added", {"path": PROFILE, "account_email": OWN,
                                                               "email": "support@example.com",
                                                               "full_name": "Example Support", **args})
    return result.passed, result.evidence


NEW = {"mail.identity.id2.useremail": "support@example.com", "mail.identity.id2.fullName": "Example Support",
       "mail.identity.id2.valid": True}


@pytest.mark.parametrize(("extra", "args", "passes", "says"), [
    ({}, {}, False, "no identity support@example.com"),
    (NEW, {}, False, "no account lists it"),
    ({**NEW, "mail.account.account2.identities": "id1,id2"}, {}, True, "beside its default"),
    ({**NEW, "mail.account.account2.identities": "id2,id1"}, {}, False, "default identity"),
    ({"mail.identity.id1.useremail": "support@example.com"}, {}, False, "no account offers"),
    ({**NEW, "mail.account.account2.identities": "id1,id2", "mail.identity.id2.fullName": "Support"}, {}, False,
     "its name is"),
    ({**NEW, "mail.account.account2.identities": "id1,id2", "mail.identity.id1.reply_to": "team@example.com"},
     {"reply_to": "team@example.com"}, False, "Reply-To"),
    ({**NEW, "mail.account.account2.identities": "id1,id2", "mail.identity.id2.reply_to": "Team@Example.com"},
     {"reply_to": "team@example.com"}, True, "beside its default"),
])
def test_the_check_reads_the_accounts_identities(tmp_path, extra, args, passes, says):
    passed, evidence = _check(tmp_path, extra, **args)
    assert passed is passes and says in evidence, evidence
