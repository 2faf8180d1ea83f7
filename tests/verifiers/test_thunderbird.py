"""Unit tests for the tb.* primitives, on profiles built by the preparer, edited by the tb.* ops, and shaped the
way Thunderbird 153 itself saves them (moved messages marked 0008, unquoted filter values with spaces, cards
with cached DisplayName/PrimaryEmail rows, prefs removed when equal to the default)."""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
from pathlib import Path

import pytest

from preparers import thunderbird as tb
from preparers.ops import apply_ops
from verifiers.checks import State, run_check

NAME = "abcd1234"
PROFILE = f"/home/user/{tb.profile_dir(NAME)}"
TZ = dt.timezone(dt.timedelta(hours=1))
CSV = b"segment,orders\nNorth,12\n"


def _msg(i: int, sender: str, subject: str, day: int, **kw) -> tb.Message:
    return tb.Message(f"m{i}@x.test", sender, "Me <me@corp.test>", subject, dt.datetime(2024, 3, day, 9, 0, tzinfo=TZ),
                      f"Body {i}\nFrom the team\n", **kw)


MSGS = (
    _msg(1, "Billing <billing@vendor.test>", "Invoice 1001 for March", 1, read=True),
    _msg(2, "Billing <billing@vendor.test>", "Invoice 1002 for April", 2),
    _msg(3, "Ana Lopez <ana@corp.test>", "Sprint review notes", 10),
    _msg(4, "News <news@letter.test>", "Weekly digest", 12, attachments=(tb.Attachment("data.csv", "text/csv", CSV),)),
)


def _home(tmp_path: Path, ops: list[dict] | None = None) -> Path:
    spec = tb.ProfileSpec(NAME, tb.Identity("Me Person", "me@corp.test"),
                          folders=(tb.Folder("Inbox", MSGS), tb.Folder("Receipts"), tb.Folder("Inbox/Clients")),
                          filters=(tb.Filter("Old", (("from", "contains", "news@letter.test"),),
                                             (("Move to folder", "Receipts"),)),),
                          contacts=(tb.Contact("Ana Lopez", "ana@corp.test", "Ana", "Lopez"),))
    for rel, data in tb.build_profile(spec).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    if ops:
        apply_ops(tmp_path, [{"path": PROFILE, **o} for o in ops])
    return tmp_path / tb.profile_dir(NAME)


def _check(tmp_path: Path, primitive: str, /, **args):
    return run_check(State(tmp_path), primitive, {"path": PROFILE, **args})


# --- preparer ---------------------------------------------------------------------------------------------

def test_build_profile_is_deterministic_and_escapes_from_lines(tmp_path):
    spec = tb.ProfileSpec(NAME, tb.Identity("Me", "me@corp.test"), folders=(tb.Folder("Inbox", MSGS),))
    first, second = tb.build_profile(spec), tb.build_profile(spec)
    assert first == second
    inbox = first[f"{tb.profile_dir(NAME)}/Mail/Local Folders/Inbox"]
    assert len(tb.split_mbox(inbox)) == 4 and b"\n>From the team\n" in inbox
    assert [tb.status_flags(e) for e in tb.split_mbox(inbox)] == [1, 0, 0, 0]
    install = b"[InstallFDC34C9F024745EB]\nDefault=abcd1234.default-release\nLocked=1"
    assert install in first[".thunderbird/profiles.ini"]


def test_filter_values_are_quoted_as_thunderbird_quotes_them_and_an_empty_one_is_refused():
    block = tb.filter_block(tb.Filter("x", (("subject", "contains", 'say "hi" (now)'),), (("Mark read", ""),)))
    assert 'condition="AND (subject,contains,\\"say \\\\"hi\\\\" (now)\\")"' in block
    with pytest.raises(ValueError, match="empty"):
        tb.filter_block(tb.Filter("x", (("subject", "contains", ""),), (("Mark read", ""),)))


# --- tb.folder_exists --------------------------------------------------------------------------------------

def test_folder_exists_passes_for_a_new_subfolder(tmp_path):
    _home(tmp_path, [{"op": "tb.create_folder", "folder": "Receipts/Tax 2024"}])
    result = _check(tmp_path, "tb.folder_exists", folder="Tax 2024", parent="Receipts")
    assert result.passed, result.evidence


def test_folder_exists_fails_at_the_wrong_level_and_lists_folders(tmp_path):
    _home(tmp_path, [{"op": "tb.create_folder", "folder": "Tax 2024"}])
    result = _check(tmp_path, "tb.folder_exists", folder="Tax 2024", parent="Receipts")
    assert not result.passed and "Receipts/Tax 2024" in result.evidence and "Inbox/Clients" in result.evidence


def test_folder_exists_fails_without_a_profile(tmp_path):
    result = _check(tmp_path, "tb.folder_exists", folder="Receipts")
    assert not result.passed and "does not exist" in result.evidence


# --- tb.messages_in_folder ---------------------------------------------------------------------------------

MOVE = {"op": "tb.move_messages", "source": "Inbox", "target": "Receipts", "field": "from",
        "value": "billing@vendor.test"}


def test_moved_messages_are_in_the_target_and_expunged_in_the_source(tmp_path):
    profile = _home(tmp_path, [MOVE])
    inbox = (profile / "Mail/Local Folders/Inbox").read_bytes()
    assert [tb.status_flags(e) for e in tb.split_mbox(inbox)] == [0x9, 0x8, 0, 0]  # as Thunderbird leaves them
    assert _check(tmp_path, "tb.messages_in_folder", folder="Receipts", message_ids=["m1@x.test", "m2@x.test"]).passed
    cleared = _check(tmp_path, "tb.messages_in_folder", folder="Inbox", field="from", value="billing@vendor.test",
                     count=0)
    assert cleared.passed, cleared.evidence


def test_a_copy_leaves_live_messages_in_the_source(tmp_path):
    _home(tmp_path, [{**MOVE, "copy": True}])
    result = _check(tmp_path, "tb.messages_in_folder", folder="Inbox", field="from", value="billing@vendor.test",
                    count=0)
    assert not result.passed and "holds 2 live messages" in result.evidence


def test_a_partial_move_names_the_missing_message(tmp_path):
    _home(tmp_path, [{**MOVE, "limit": 1}])
    result = _check(tmp_path, "tb.messages_in_folder", folder="Receipts", message_ids=["m1@x.test", "m2@x.test"])
    assert not result.passed and "m2@x.test" in result.evidence


def test_messages_before_a_date_match_by_date(tmp_path):
    _home(tmp_path)
    result = _check(tmp_path, "tb.messages_in_folder", folder="Inbox", field="before", value="2024-03-05", count=2)
    assert result.passed, result.evidence


def test_messages_in_a_missing_or_corrupt_folder_fail(tmp_path):
    profile = _home(tmp_path)
    assert "does not exist" in _check(tmp_path, "tb.messages_in_folder", folder="Nope", message_ids=["m1"]).evidence
    (profile / "Mail/Local Folders/Receipts").write_bytes(b"\xff\xfe garbage without any From line")
    result = _check(tmp_path, "tb.messages_in_folder", folder="Receipts", message_ids=["m1@x.test"])
    assert not result.passed and "lacks 1" in result.evidence


# --- tb.message_flags --------------------------------------------------------------------------------------

def test_flags_pass_when_marked_and_fail_on_the_others(tmp_path):
    _home(tmp_path, [{"op": "tb.mark_flagged", "folder": "Inbox", "field": "subject", "value": "invoice"}])
    assert _check(tmp_path, "tb.message_flags", folder="Inbox", message_ids=["m1@x.test", "m2@x.test"],
                  flagged=True).passed
    result = _check(tmp_path, "tb.message_flags", folder="Inbox", message_ids=["m2@x.test", "m3@x.test"], read=True)
    assert not result.passed and "m2@x.test is unread" in result.evidence


def test_flags_fail_for_a_message_that_moved_away(tmp_path):
    _home(tmp_path, [MOVE])
    result = _check(tmp_path, "tb.message_flags", folder="Inbox", message_ids=["m1@x.test"], read=True)
    assert not result.passed and "not in 'Inbox'" in result.evidence


# --- tb.filter_exists --------------------------------------------------------------------------------------

FILTER = {"op": "tb.add_filter", "name": "Reviews", "conditions": [["subject", "contains", "review notes"]],
          "actions": [["Move to folder", "Inbox/Clients"]]}


def test_filter_exists_passes_for_a_move_filter(tmp_path):
    _home(tmp_path, [FILTER])
    result = _check(tmp_path, "tb.filter_exists", name="Reviews", field="subject", value="Review Notes",
                    action="Move to folder", target="Clients", target_parent="Inbox")
    assert result.passed, result.evidence


def test_filter_exists_reads_what_thunderbird_wrote(tmp_path):
    profile = _home(tmp_path)
    (profile / tb.FILTER_FILE).write_text(  # measured output of Thunderbird 153 (values are not quoted)
        'version="9"\nlogging="no"\nname="Quarterly (Q3)"\nenabled="yes"\ntype="17"\naction="Mark flagged"\n'
        'action="Move to folder"\nactionValue="mailbox://nobody@Local%20Folders/New%20Top"\n'
        'condition="AND (subject,contains,quarterly report)"\n')
    assert _check(tmp_path, "tb.filter_exists", field="subject", value="quarterly report", action="Mark flagged").passed
    assert _check(tmp_path, "tb.filter_exists", field="subject", value="quarterly report", action="Move to folder",
                  target="New Top").passed


def test_filter_exists_fails_on_wrong_target_extra_condition_and_disabled(tmp_path):
    _home(tmp_path, [{**FILTER, "actions": [["Move to folder", "Receipts"]]},
                     {**FILTER, "name": "Two", "conditions": [["subject", "contains", "review notes"],
                                                               ["from", "contains", "ana"]]},
                     {**FILTER, "name": "Off", "enabled": False}])
    result = _check(tmp_path, "tb.filter_exists", field="subject", value="review notes", action="Move to folder",
                    target="Clients", target_parent="Inbox")
    assert not result.passed
    assert "not folder 'Inbox/Clients'" in result.evidence and "disabled" in result.evidence
    assert "conditions" in result.evidence


def test_filter_exists_fails_on_a_missing_or_corrupt_filter_file(tmp_path):
    profile = _home(tmp_path)
    (profile / tb.FILTER_FILE).unlink()
    assert "no message filters" in _check(tmp_path, "tb.filter_exists", field="from", value="x",
                                          action="Mark read").evidence
    (profile / tb.FILTER_FILE).write_bytes(b"\xff\xfe\x00 not a filter file")
    result = _check(tmp_path, "tb.filter_exists", field="from", value="x", action="Mark read")
    assert not result.passed and "filter list" in result.evidence


# --- tb.contact_exists -------------------------------------------------------------------------------------

def test_contact_exists_passes_for_an_added_card(tmp_path):
    _home(tmp_path, [{"op": "tb.add_contact", "display_name": "Zoë Müller", "email": "zoe@ex.test", "first": "Zoë",
                      "last": "Müller"}])
    result = _check(tmp_path, "tb.contact_exists", email="ZOE@ex.test", display_name="Zoë Müller")
    assert result.passed, result.evidence


def test_contact_exists_reads_legacy_rows_and_rejects_wrong_name(tmp_path):
    profile = _home(tmp_path)
    conn = sqlite3.connect(profile / "abook.sqlite")
    conn.executemany("INSERT INTO properties VALUES (?, ?, ?)",
                     [("c9", "PrimaryEmail", "old@ex.test"), ("c9", "DisplayName", "Old Friend")])
    conn.commit()
    conn.close()
    assert _check(tmp_path, "tb.contact_exists", email="old@ex.test", display_name="Old Friend").passed
    result = _check(tmp_path, "tb.contact_exists", email="ana@corp.test", display_name="Ana López")
    assert not result.passed and "named ['Ana Lopez']" in result.evidence


def test_contact_in_collected_addresses_does_not_count(tmp_path):
    _home(tmp_path, [{"op": "tb.add_contact", "display_name": "New One", "email": "new@ex.test",
                      "book": "history.sqlite"}])
    result = _check(tmp_path, "tb.contact_exists", email="new@ex.test", display_name="New One")
    assert not result.passed and "no card for new@ex.test" in result.evidence


def test_contact_exists_fails_on_a_corrupt_address_book(tmp_path):
    profile = _home(tmp_path)
    (profile / "abook.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00garbage" * 50)
    result = _check(tmp_path, "tb.contact_exists", email="ana@corp.test")
    assert not result.passed and "address book database" in result.evidence


# --- tb.pref_equals / tb.pref_text ---------------------------------------------------------------------------

def test_pref_equals_reads_prefs_then_user_js(tmp_path):
    profile = _home(tmp_path, [{"op": "tb.set_pref", "name": "mail.identity.id1.reply_on_top", "value": 1}])
    assert _check(tmp_path, "tb.pref_equals", name="mail.identity.id1.reply_on_top", value=1).passed
    (profile / "user.js").write_text('user_pref("mail.identity.id1.reply_on_top", 0);\n')
    result = _check(tmp_path, "tb.pref_equals", name="mail.identity.id1.reply_on_top", value=1)
    assert not result.passed and "is 0" in result.evidence


def test_pref_equals_uses_the_default_when_unset_and_is_type_strict(tmp_path):
    _home(tmp_path, [{"op": "tb.set_pref", "name": "mail.compose.autosave", "value": 1}])
    assert _check(tmp_path, "tb.pref_equals", name="mail.biff.show_alert", value=True, default=True).passed
    assert not _check(tmp_path, "tb.pref_equals", name="mail.compose.autosave", value=True).passed
    missing = _check(tmp_path, "tb.pref_equals", name="mail.biff.show_alert", value=False)
    assert not missing.passed and "not set" in missing.evidence


def test_pref_text_accepts_thunderbird_escapes_and_html_breaks(tmp_path):
    profile = _home(tmp_path)
    with (profile / "prefs.js").open("a") as f:
        f.write('user_pref("mail.identity.id1.htmlSigText", "Best regards,<br>Me \\"Person\\"\\x21");\n')
    result = _check(tmp_path, "tb.pref_text", name="mail.identity.id1.htmlSigText", text='Best regards,\nMe "Person"!')
    assert result.passed, result.evidence
    wrong = _check(tmp_path, "tb.pref_text", name="mail.identity.id1.htmlSigText", text="Best regards")
    assert not wrong.passed and "expected 'Best regards'" in wrong.evidence


def test_pref_checks_fail_on_missing_or_corrupt_prefs(tmp_path):
    profile = _home(tmp_path)
    (profile / "prefs.js").write_bytes(b"\xff\xfe\xfa not utf-8")
    result = _check(tmp_path, "tb.pref_text", name="mail.identity.id1.organization", text="Acme")
    assert not result.passed and "prefs file" in result.evidence
    (profile / "prefs.js").unlink()
    assert "not set" in _check(tmp_path, "tb.pref_equals", name="x.y", value=1).evidence


# --- tb.file_saved -----------------------------------------------------------------------------------------

SAVE = {"op": "tb.save_attachment", "folder": "Inbox", "message_id": "m4@x.test", "filename": "data.csv"}


def test_file_saved_passes_for_the_decoded_attachment(tmp_path):
    _home(tmp_path, [{**SAVE, "dest": "/home/user/Documents/data.csv"}])
    result = run_check(State(tmp_path), "tb.file_saved", {"path": "/home/user/Documents/data.csv",
                                                          "sha256": hashlib.sha256(CSV).hexdigest()})
    assert result.passed, result.evidence


def test_file_saved_fails_on_other_bytes_and_missing_file(tmp_path):
    _home(tmp_path)
    (tmp_path / "out.csv").write_bytes(CSV + b"extra\n")
    args = {"path": "/home/user/out.csv", "sha256": hashlib.sha256(CSV).hexdigest(), "size": len(CSV)}
    result = run_check(State(tmp_path), "tb.file_saved", args)
    assert not result.passed and f"expected {len(CSV)} bytes" in result.evidence
    missing = run_check(State(tmp_path), "tb.file_saved", {**args, "path": "/home/user/none.csv"})
    assert not missing.passed and "does not exist" in missing.evidence
