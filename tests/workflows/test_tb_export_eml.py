"""tb.export_eml: the family through the gate with every mutant (the `location` axis too), the op, and the check on
hand-made saved files (Thunderbird's status headers, an escaped From line, a file that is no message)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from preparers.ops.tb_export import stored
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.tb_export import facts
from workflows.tb.export_eml import WORKFLOW, file_name, read_message_bytes

MESSAGE = tb.Message("m1@example.com", "Ana Lopez <ana@example.com>", "Sam Reed <sam@example.com>", "Q3 plan",
                     dt.datetime(2024, 5, 2, 9, 30, tzinfo=dt.UTC), "Hello Sam,\nFrom now on we meet on Mondays.\n",
                     attachments=(tb.Attachment("plan.csv", "text/csv", b"a,b\n1,2\n"),))
PATH = "/home/user/Documents/Q3 plan.eml"


@pytest.mark.slow
@pytest.mark.parametrize(("message", "dest", "location"), [("plain", "desktop", "near"),
                                                           ("attachment", "new_folder", "nested")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, message, dest, location):
    for seed in (1, 2):
        params = {"message": message, "dest": dest, "location": location}
        folder = make_package(WORKFLOW, params, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.message_saved"


def _check(tmp_path: Path, data: bytes) -> tuple[bool, str]:
    host = tmp_path / PATH.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(data)
    expected = facts(read_message_bytes(tb.render_message(MESSAGE)))
    result = run_check(State(tmp_path), "tb.message_saved", {"path": PATH, "subject": "Q3 plan", "expected": expected})
    return result.passed, result.evidence


def test_the_stored_message_passes_with_or_without_thunderbirds_headers(tmp_path):
    entry = tb.render_message(MESSAGE)
    assert b">From now on" in entry  # the mbox escape of a body line
    assert _check(tmp_path, stored(entry))[0]
    assert _check(tmp_path, entry)[0]  # the mbox envelope line kept
    bare = b"\n".join(line for line in stored(entry).split(b"\n") if not line.startswith(b"X-Mozilla"))
    assert _check(tmp_path, bare.replace(b"\n", b"\r\n"))[0]


@pytest.mark.parametrize(("change", "says"), [
    (lambda m: m.replace(b"Message-ID: <m1@example.com>", b"Message-ID: <m2@example.com>"), "Message-ID"),
    (lambda m: m.replace(b"Mondays.", b"Tuesdays."), "text differs"),
    (lambda m: m.split(b"\n\n", 1)[1], "Message-ID missing"),  # the text alone
    (lambda m: m.replace(b"plan.csv", b"plan_old.csv"), "attachments"),
    (lambda m: b"\x00\xff" * 40, "Message-ID missing"),
])
def test_wrong_files_fail(tmp_path, change, says):
    passed, evidence = _check(tmp_path, change(stored(tb.render_message(MESSAGE))))
    assert not passed and says in evidence, evidence


def test_file_names_drop_what_a_file_name_cannot_hold():
    assert file_name("Out for delivery: order 6/43") == "Out for delivery order 643.eml"
