"""tb.export_contacts: the family through the gate with every mutant, the op on a small address book, and the check
on hand-made exports (a semicolon CSV, first + last name columns, a vCard with N only, an extra address, a binary
file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.tb.export_contacts import NATURAL, PHRASINGS, WORKFLOW

PROFILE = "/home/user/" + tb.profile_dir("ectest")
SPEC = tb.ProfileSpec("ectest", tb.Identity("Ana Lopez", "ana.lopez@example.com"),
                      contacts=(tb.Contact("Carol Diaz", "carol.diaz@example.com", "Carol", "Diaz"),
                                tb.Contact("Dev Patel", "dev.patel@example.com")))
DEST = "/home/user/Documents/contacts"


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["csv", "vcf"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, fmt):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"format": fmt}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.contacts_exported"
        assert task["rubric"][0]["args"]["dest"].endswith("." + fmt)


def _home(tmp_path: Path) -> Path:
    for rel, data in tb.build_profile(SPEC).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    (tmp_path / "Documents").mkdir()
    return tmp_path


def _check(root: Path, fmt: str, text: str | bytes | None = None) -> tuple[bool, str]:
    if text is not None:
        data = text.encode() if isinstance(text, str) else text
        (root / f"Documents/contacts.{fmt}").write_bytes(data)
    result = run_check(State(root), "tb.contacts_exported", {"path": PROFILE, "dest": f"{DEST}.{fmt}",
                                                             "format": fmt})
    return result.passed, result.evidence


@pytest.mark.parametrize("fmt", ["csv", "vcf"])
def test_the_op_exports_what_the_check_accepts(tmp_path, fmt):
    root = _home(tmp_path)
    apply_ops(root, [{"op": "tb.export_contacts", "path": PROFILE, "dest": f"{DEST}.{fmt}", "format": fmt}])
    assert _check(root, fmt)[0]
    apply_ops(root, [{"op": "tb.export_contacts", "path": PROFILE, "dest": f"{DEST}.{fmt}", "format": fmt,
                      "skip": 1}])
    passed, evidence = _check(root, fmt)
    assert not passed and "lacks 1 of the 2" in evidence and "Dev Patel" in evidence


@pytest.mark.parametrize(("fmt", "text", "passes", "says"), [
    ("csv", None, False, "does not exist"),
    ("csv", "Name;E-mail Address\r\nCarol Diaz;carol.diaz@example.com\r\nDev Patel;Dev.Patel@example.com\r\n",
     True, "all 2 contacts"),
    ("csv", "First Name,Last Name,Email\nCarol,Diaz,carol.diaz@example.com\n,,dev.patel@example.com\n", False,
     "Dev Patel"),
    ("csv", "Display Name,Primary Email\nCarol Diaz,carol.diaz@example.com\nDev Patel,dev.patel@example.com\n"
     "Eve Stone,eve@example.com\n", False, "eve@example.com"),
    ("csv", "carol.diaz@example.com\ndev.patel@example.com\n", False, "no e-mail column"),
    ("csv", "", False, "empty"),
    ("csv", b"PK\x03\x04\x00\x00binary", False, ""),
    ("vcf", "BEGIN:VCARD\nVERSION:3.0\nN:Diaz;Carol;;;\nEMAIL:carol.diaz@example.com\nEND:VCARD\n"
     "BEGIN:VCARD\nFN:Dev Patel\nEMAIL;TYPE=work:dev.patel@example.com\nEND:VCARD\n", True, "all 2 contacts"),
    ("vcf", "BEGIN:VCARD\nFN:Carol Diaz\nEMAIL:dev.patel@example.com\nEND:VCARD\n"
     "BEGIN:VCARD\nFN:Dev Patel\nEMAIL:carol.diaz@example.com\nEND:VCARD\n", False, "lacks 2 of the 2"),
    ("vcf", "Display Name,Primary Email\nCarol Diaz,carol.diaz@example.com\n", False, "lacks 2"),
])
def test_the_check_reads_exports_as_mail_programs_do(tmp_path, fmt, text, passes, says):
    passed, evidence = _check(_home(tmp_path), fmt, text)
    assert passed is passes and says in evidence, evidence


def test_every_phrasing_states_the_path_and_the_format():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(kind="vCard", dest=f"{DEST}.vcf", why="I want a backup.")
        assert f"{DEST}.vcf" in text and "vCard" in text and "{" not in text, text
