"""Thunderbird teacher snippets (preparers/teach/tb.py): the Python a person types against the profile folder leaves
the files the op leaves (mbox folders byte for byte: only the chosen messages' X-Mozilla-Status changes), run
exactly as a student's command runs (forge.agent.shell.AgentShell, bubblewrap)."""

from __future__ import annotations

import datetime as dt
import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers import thunderbird as tb
from preparers.ops import apply_ops
from preparers.teach import look, teach
from verifiers.checks import State
from verifiers.frame import thunderbird as tbframe
from verifiers.readers.thunderbird import read_cards

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")

H = "/home/user"
P = f"{H}/.thunderbird/k3x9q2mz.default-release"
UTC = dt.UTC


def _workbook() -> bytes:
    wb = Workbook()
    wb.active.title = "Pay"
    for row in (["Name", "Amount"], ["Ana", 10], ["Bo", 20]):
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _msg(n: int, sender: str, subject: str, day: int, **kw: Any) -> tb.Message:
    return tb.Message(f"m{n}@example.com", sender, "Me <me@example.com>", subject,
                      dt.datetime(2024, 3, day, 9, 30, tzinfo=UTC), f"Body {n}\nFrom the desk of someone\n", **kw)


SPEC = tb.ProfileSpec(
    "k3x9q2mz", tb.Identity("Me", "me@example.com"),
    folders=(
        tb.Folder("Inbox", (
            _msg(1, "Ana López <ana@lopez.es>", "Invoice March", 2, read=True),
            _msg(2, "Parcel Point <notifications@parcelpoint.com>", "Your parcel", 5),
            _msg(3, "Jürgen Schäfer <js@brightwater.de>", "Weekly update", 9, flagged=True),
            _msg(4, "Parcel Point <notifications@parcelpoint.com>", "Delivered (invoice attached)", 20,
                 attachments=(tb.Attachment("invoice.pdf", "application/pdf", tb.text_pdf("Total 12 EUR")),
                              tb.Attachment("notes.txt", "text/plain", b"line one\nline two\n"),
                              tb.Attachment("pay.xlsx", "application/vnd.openxmlformats-officedocument."
                                            "spreadsheetml.sheet", _workbook()))),
        )),
        tb.Folder("Archives", (_msg(5, "Bo <bo@x.org>", "Old weekly", 1, read=True), _msg(6, "Bo <bo@x.org>", "Q", 3))),
        tb.Folder("Inbox/Clients"),
    ),
    contacts=(tb.Contact("Ana López", "ana@lopez.es", "Ana", "López"),),
)


def _state(root: Path) -> None:
    for rel, data in tb.build_profile(SPEC).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def _read(root: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {"#facts": tbframe.read_profile(State(root), P).facts}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if path.suffix == ".sqlite":
            seen[rel] = read_cards(path)
        elif path.suffix == ".xlsx":
            seen[rel] = [[c.value for c in row] for row in load_workbook(path).active.iter_rows()]
        else:
            seen[rel] = path.read_bytes()
    return seen


CASES: list[list[dict[str, Any]]] = [
    [{"op": "tb.mark_read", "path": P, "folder": "Inbox", "field": "from", "value": "NOTIFICATIONS@parcelpoint.com"}],
    [{"op": "tb.mark_read", "path": P, "folder": "Inbox", "field": "subject", "value": "invoice", "read": False}],
    [{"op": "tb.mark_flagged", "path": P, "folder": "Inbox", "field": "before", "value": "2024-03-09"},
     {"op": "tb.mark_flagged", "path": P, "folder": "Archives", "field": "any", "value": "", "flagged": True}],
    [{"op": "tb.mark_flagged", "path": P, "folder": "Inbox", "field": "from", "value": "Schäfer", "flagged": False}],
    [{"op": "tb.create_folder", "path": P, "folder": "Before March 2024"},
     {"op": "tb.create_folder", "path": P, "folder": "Inbox/Clients/Spain"},
     {"op": "tb.move_messages", "path": P, "source": "Inbox", "target": "Inbox/Clients/Spain", "field": "from",
      "value": "lopez.es"}],
    [{"op": "tb.move_messages", "path": P, "source": "Inbox", "target": "Archives", "field": "subject",
      "value": "weekly"},
     {"op": "tb.move_messages", "path": P, "source": "Archives", "target": "Inbox/Clients", "field": "message_id",
      "value": "m6@example.com", "copy": True}],
    [{"op": "tb.add_filter", "path": P, "name": "Parcel \"mail\"", "conditions": [["from", "contains", "parcelpoint"]],
      "actions": [["Move to folder", "Inbox/Clients"]]},
     {"op": "tb.add_filter", "path": P, "name": "Invoices", "conditions": [["subject", "contains", "invoice (paid)"],
                                                                          ["from", "contains", "lopez"]],
      "actions": [["Mark read", ""], ["Copy to folder", "Archives"]], "match": "OR", "enabled": False, "type": 16}],
    [{"op": "tb.add_contact", "path": P, "display_name": "Łukasz Wójcik, PhD", "email": "lw@vanta.io",
      "first": "Łukasz", "last": "Wójcik"},
     {"op": "tb.add_contact", "path": P, "display_name": "Help desk", "email": "help@x.org"},
     {"op": "tb.add_contact", "path": P, "display_name": "Old Friend", "email": "old@x.org", "book": "history.sqlite"}],
    [{"op": "tb.set_pref", "path": P, "name": "mail.SpellCheckBeforeSend", "value": True},
     {"op": "tb.set_pref", "path": P, "name": "mailnews.mark_message_read.delay.interval", "value": 8},
     {"op": "tb.set_pref", "path": P, "name": "mail.identity.id1.fullName", "value": "Me \"the\" Boss"}],
    [{"op": "tb.save_attachment", "path": P, "folder": "Inbox", "message_id": "m4@example.com",
      "filename": "invoice.pdf", "dest": f"{H}/Documents/Bills 2024/invoice.pdf"},
     {"op": "tb.save_attachment", "path": P, "folder": "Inbox", "message_id": "m4@example.com",
      "filename": "notes.txt", "dest": f"{H}/notes.txt"}],
    [{"op": "tb.save_attachment", "path": P, "folder": "Inbox", "message_id": "m4@example.com",
      "filename": "pay.xlsx", "dest": f"{H}/Documents/pay.xlsx"},  # then edited: the workbook exists by then
     {"op": "xlsx.set_cells", "path": f"{H}/Documents/pay.xlsx", "sheet": "Pay", "cells": {"A4": "Total",
                                                                                         "B4": "=SUM(B2:B3)"}}],
]


@pytest.mark.parametrize("ops", CASES, ids=[f"{case[0]['op']}-{i}" for i, case in enumerate(CASES)])
def test_the_script_leaves_what_the_ops_leave(tmp_path: Path, ops: list[dict[str, Any]]) -> None:
    by_op, by_shell = tmp_path / "op", tmp_path / "shell"
    _state(by_op)
    shutil.copytree(by_op, by_shell)
    apply_ops(by_op, ops)
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(by_shell)
    shell = AgentShell(sandbox)
    seen = shell.run(by_shell, look(ops, [f"{H}/{p.relative_to(by_shell).as_posix()}" for p in by_shell.rglob("*")]))
    assert seen.exit_code == 0, seen.shown
    done = shell.run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell) == _read(by_op)


def test_the_look_shows_each_message_with_its_status() -> None:
    script = look([{"op": "tb.mark_read", "path": P, "folder": "Inbox", "field": "from", "value": "x"}], [P])
    assert "X-Mozilla-Status" in script and "Mail/Local Folders" in script
