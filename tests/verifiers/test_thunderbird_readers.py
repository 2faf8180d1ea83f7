"""The fast readers behind the tb.* checks answer exactly what the slow ones did: headers parsed alone and shared
per process (`tb.read_headers`) against the full message (`tb.parse_entry`), address books read in memory against
a copy on disk, prefs parsed once per content but handed out as private copies."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preparers import thunderbird as tb
from verifiers.readers import thunderbird as tbr

_LINES = st.sampled_from([
    b"Message-ID: <a@b.test>", b"Message-ID:  < spaced@b.test > ", b"message-id: <lower@b.test>", b"Message-ID:",
    b"Subject: =?utf-8?q?caf=C3=A9?= invoice", b"Subject: =?bogus?x?zz?=", b"Subject: \xff\xfe raw bytes",
    b"From: \"Lopez, Ana\" <ana@x.test>", b"From: <<>>,, broken", b"From: =?utf-8?b?WmHDqw==?= <z@x.test>",
    b"Date: Mon, 01 Jan 2024 10:00:00 +0000", b"Date: not a date", b"Date: Mon, 01 Jan 2024 10:00:00",
    b"Content-Type: multipart/mixed; boundary=zz", b"Content-Type: message/delivery-status",
    b"X-Mozilla-Status: 0001", b" folded continuation", b"\tfolded tab", b"not a header line", b"", b"\r",
    b"From not-a-separator", b"--zz", b"Content-Type: text/plain", b"body text",
])
_ENDINGS = st.sampled_from([b"\n", b"\r\n", b"\r"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_LINES, _ENDINGS), max_size=14))
def test_headers_read_alone_decode_as_the_full_message(lines):
    entry = b"From - Mon Jan 01 10:00:00 2024\n" + b"".join(line + end for line, end in lines)
    full, head = tb.parse_entry(entry), tb.read_headers(entry)
    for name in ("Message-ID", "message-id", "Subject", "From", "Date", "Content-Type", "X-Mozilla-Status", "To"):
        assert tb.header(head, name) == tb.header(full, name)
    assert tb.message_id(head) == tb.message_id(full)
    assert tb.message_date(head) == tb.message_date(full)
    for field, value in (("from", "ana"), ("subject", "CAFÉ"), ("before", "2024-06-01"), ("message_id", "a@b.test")):
        assert tb.matches(head, field, value) == tb.matches(full, field, value)


def test_headers_are_parsed_once_per_header_bytes():
    one = b"From - x\nMessage-ID: <s@x.test>\nSubject: same\n\nbody one\n"
    other_body = b"From - y\nMessage-ID: <s@x.test>\nSubject: same\n\nanother body\n\nFrom me\n"
    other_head = b"From - x\nMessage-ID: <t@x.test>\nSubject: same\n\nbody one\n"
    assert tb.read_headers(one) is tb.read_headers(other_body)  # the body takes no part in a header
    assert tb.read_headers(one) is not tb.read_headers(other_head)
    assert tb.message_id(tb.read_headers(other_head)) == "t@x.test"
    crlf = b"From - x\r\nMessage-ID: <c@x.test>\r\n\r\n"  # a message saved with CRLF line ends
    assert tb.read_headers(crlf + b"body one\r\n") is tb.read_headers(crlf + b"body two\r\n")
    huge = b"From - x\nSubject: " + b"y" * (64 << 10) + b"\n\n"  # never kept: parsed every time
    assert tb.read_headers(huge) is not tb.read_headers(huge)


def _rows_from_a_copy(host: Path, tmp: Path) -> list[tuple]:
    """What `_read_cards` did before it read books in memory: sqlite on a copy of the file (and its -wal)."""
    copy = tmp / "copy" / host.name
    copy.parent.mkdir()
    shutil.copyfile(host, copy)
    if host.with_name(host.name + "-wal").is_file():
        shutil.copyfile(host.with_name(host.name + "-wal"), copy.with_name(copy.name + "-wal"))
    conn = sqlite3.connect(copy)
    try:
        return conn.execute("SELECT card, name, value FROM properties").fetchall()
    finally:
        conn.close()


def test_an_address_book_reads_the_same_in_memory_as_from_a_copy(tmp_path):
    book = tmp_path / "abook.sqlite"
    book.write_bytes(tb.abook_sqlite([tb.Contact("Ana Lopez", "ana@x.test", "Ana", "Lopez")]))
    assert tbr.card_rows(book) == _rows_from_a_copy(book, tmp_path)
    assert tbr.read_cards(book) == [{"emails": "ana@x.test\nana@x.test", "display": "Ana Lopez", "first": "Ana",
                                      "last": "Lopez"}]


def test_a_wal_address_book_is_read_with_its_wal(tmp_path):
    book = tmp_path / "abook.sqlite"
    book.write_bytes(tb.abook_sqlite([tb.Contact("Ana Lopez", "ana@x.test")]))
    writer = sqlite3.connect(book)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.executemany("INSERT INTO properties VALUES (?, ?, ?)", tb.contact_rows(tb.Contact("Bo", "bo@x.test")))
    writer.commit()
    snapshot = tmp_path / "state"  # the files as a crashed or running Thunderbird leaves them: the card in the -wal
    snapshot.mkdir()
    for name in ("abook.sqlite", "abook.sqlite-wal"):
        shutil.copyfile(tmp_path / name, snapshot / name)
    writer.close()
    cards = tbr.read_cards(snapshot / "abook.sqlite")
    assert sorted(c["display"] for c in cards) == ["Ana Lopez", "Bo"]
    assert (snapshot / "abook.sqlite-wal").is_file() and not (snapshot / "abook.sqlite-shm").exists()


@pytest.mark.parametrize("data", [b"", b"SQLite format 3\x00" + b"\x00garbage" * 50, b"hello" * 40],
                         ids=["empty", "garbage", "not-sqlite"])
def test_a_broken_address_book_fails_as_it_did_from_a_copy(tmp_path, data):
    book = tmp_path / "abook.sqlite"
    book.write_bytes(data)
    with pytest.raises(sqlite3.DatabaseError) as copied:
        _rows_from_a_copy(book, tmp_path)
    with pytest.raises(sqlite3.DatabaseError) as read:
        tbr.card_rows(book)
    assert (type(read.value), str(read.value)) == (type(copied.value), str(copied.value))


def test_prefs_are_parsed_once_but_each_reader_gets_its_own_copy(tmp_path):
    prefs = tmp_path / "prefs.js"
    prefs.write_bytes(tb.prefs_js({"mail.a": "x", "mail.b": 2}))
    first = tbr.read_prefs(prefs)
    first["mail.a"] = "changed"
    assert tbr.read_prefs(prefs) == {"mail.a": "x", "mail.b": 2}
