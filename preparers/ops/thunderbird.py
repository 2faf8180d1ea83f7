"""Thunderbird ops (`tb.*`): edit a profile the way Thunderbird itself leaves it after a GUI action.

The document kind "tb" is a profile handle: an op's `path` is the profile folder (e.g.
/home/user/.thunderbird/ab12cd34.default-release). Ops write files directly (there is nothing to buffer),
mirroring what Thunderbird 153 was measured to write:
- moving marks the source copy expunged (X-Mozilla-Status |= 0008) and appends the message to the target;
- read/flagged state is rewritten in place in X-Mozilla-Status (0001 read, 0004 flagged);
- a new folder is an empty mbox file (`<Parent>.sbd/<Child>` for a subfolder);
- a filter is appended to `Mail/Local Folders/msgFilterRules.dat`; a contact is a `_vCard` card in
  `abook.sqlite`; a pref is a `user_pref` line in prefs.js.
Criteria (`field`, `value`) are those of `preparers.thunderbird.matches`: from / subject / before / message_id.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preparers import thunderbird as tb
from preparers.ops import document_kind, op, resolve


@dataclass(frozen=True)
class Profile:
    root: Path  # the state root, standing for /home/user
    dir: Path  # the profile folder on the host

    def folder(self, path: str) -> Path:
        return self.dir / tb.folder_file(path)

    def entries(self, path: str) -> list[bytes]:
        file = self.folder(path)
        if not file.is_file():
            raise ValueError(f"folder {path!r} does not exist in the profile")
        return tb.split_mbox(file.read_bytes())


def _load(host: Path, root: Path) -> Profile:
    if not host.is_dir():
        raise FileNotFoundError(host)
    return Profile(root, host)


def _save(profile: Profile, host: Path) -> None:
    """Nothing to do: every op already wrote its files."""


document_kind("tb", load=_load, save=_save)


def _selected(entries: list[bytes], field: str, value: str, limit: int | None) -> list[int]:
    live = [i for i, e in enumerate(entries) if not tb.status_flags(e) & tb.EXPUNGED]
    chosen = [i for i in live if tb.matches(tb.read_headers(entries[i]), field, value)]
    if not chosen:
        raise ValueError(f"no live message matches {field}={value!r}")
    return chosen[:limit] if limit else chosen


def _entry_block(entry: bytes) -> bytes:
    """An entry ending in exactly one blank line, so appended entries stay separate."""
    return entry.rstrip(b"\n") + b"\n\n"


@op("tb.create_folder")
def create_folder(profile: Profile, folder: str) -> None:
    """Create an empty folder; `folder` is its path from Local Folders, e.g. "Projects" or "Inbox/Clients"."""
    file = profile.folder(folder)
    parent = folder.rpartition("/")[0]
    if parent and not profile.folder(parent).is_file():
        raise ValueError(f"cannot create {folder!r}: parent folder {parent!r} does not exist")
    if file.exists():
        raise ValueError(f"folder {folder!r} already exists")
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(b"")


@op("tb.move_messages")
def move_messages(profile: Profile, source: str, target: str, field: str, value: str, copy: bool = False,
                  limit: int | None = None) -> None:
    """Move (or `copy`) the live messages of `source` matching the criterion into `target`; `limit` moves only
    the first N matches (a partial job, for near-misses)."""
    entries = profile.entries(source)
    target_file = profile.folder(target)
    if not target_file.is_file():
        raise ValueError(f"target folder {target!r} does not exist")
    chosen = _selected(entries, field, value, limit)
    moved = b"".join(_entry_block(tb.with_flags(entries[i], tb.status_flags(entries[i]) & ~tb.EXPUNGED))
                     for i in chosen)
    existing = target_file.read_bytes()
    target_file.write_bytes((_entry_block(existing) if existing.strip() else b"") + moved)
    if not copy:
        for i in chosen:
            entries[i] = tb.with_flags(entries[i], tb.status_flags(entries[i]) | tb.EXPUNGED)
        profile.folder(source).write_bytes(b"".join(entries))


def _set_flag(profile: Profile, folder: str, field: str, value: str, bit: int, on: bool, limit: int | None) -> None:
    entries = profile.entries(folder)
    for i in _selected(entries, field, value, limit):
        flags = tb.status_flags(entries[i])
        entries[i] = tb.with_flags(entries[i], flags | bit if on else flags & ~bit)
    profile.folder(folder).write_bytes(b"".join(entries))


@op("tb.mark_read")
def mark_read(profile: Profile, folder: str, field: str, value: str, read: bool = True,
              limit: int | None = None) -> None:
    """Mark the matching messages of `folder` read (or unread)."""
    _set_flag(profile, folder, field, value, tb.READ, read, limit)


@op("tb.mark_flagged")
def mark_flagged(profile: Profile, folder: str, field: str, value: str, flagged: bool = True,
                 limit: int | None = None) -> None:
    """Flag (star) the matching messages of `folder`, or remove the flag."""
    _set_flag(profile, folder, field, value, tb.FLAGGED, flagged, limit)


@op("tb.add_filter")
def add_filter(profile: Profile, name: str, conditions: list[list[str]], actions: list[list[str]],
               match: str = "AND", enabled: bool = True, type: int = 17) -> None:  # noqa: A002 - the file's key
    """Append a filter to Local Folders' msgFilterRules.dat; conditions are [field, op, value], actions
    [action, value] with a folder path as the value of "Move to folder"/"Copy to folder"."""
    flt = tb.Filter(name, tuple((c[0], c[1], c[2]) for c in conditions), tuple((a[0], a[1]) for a in actions),
                    match, enabled, type)
    file = profile.dir / tb.FILTER_FILE
    text = file.read_text(encoding="utf-8") if file.is_file() else ""
    if not text.strip():
        text = tb.FILTER_HEADER
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text + ("" if text.endswith("\n") else "\n") + tb.filter_block(flt), encoding="utf-8")


@op("tb.add_contact")
def add_contact(profile: Profile, display_name: str, email: str, first: str = "", last: str = "",
                book: str = "abook.sqlite") -> None:
    """Add a card to an address book file (abook.sqlite = Personal Address Book, history.sqlite = Collected
    Addresses), creating the database if needed."""
    if not re.fullmatch(r"[a-z]+\.sqlite", book):
        raise ValueError(f"book={book!r}, but must be an address book file name like 'abook.sqlite'")
    conn = sqlite3.connect(profile.dir / book)
    try:
        if not conn.execute("SELECT name FROM sqlite_master WHERE name = 'properties'").fetchone():
            for statement in tb.ABOOK_SCHEMA:
                conn.execute(statement)
        conn.executemany("INSERT INTO properties VALUES (?, ?, ?)",
                         tb.contact_rows(tb.Contact(display_name, email, first, last)))
        conn.commit()
    finally:
        conn.close()


@op("tb.set_pref")
def set_pref(profile: Profile, name: str, value: Any, file: str = "prefs.js") -> None:
    """Set a user pref: replace its `user_pref` line in prefs.js (or user.js), or append one."""
    if file not in ("prefs.js", "user.js"):
        raise ValueError(f"file={file!r}, but must be 'prefs.js' or 'user.js'")
    host = profile.dir / file
    lines = host.read_text(encoding="utf-8").splitlines() if host.is_file() else []
    same = re.compile(r"\s*user_pref\(\s*" + re.escape(json.dumps(name)) + r"\s*,")
    kept = [ln for ln in lines if not same.match(ln)]
    host.write_text("\n".join([*kept, tb.pref_line(name, value)]) + "\n", encoding="utf-8")


@op("tb.save_attachment")
def save_attachment(profile: Profile, folder: str, message_id: str, filename: str, dest: str) -> None:
    """Save the attachment `filename` of the live message `message_id` in `folder` to `dest` (under /home/user)."""
    for entry in profile.entries(folder):
        if tb.status_flags(entry) & tb.EXPUNGED or tb.message_id(tb.read_headers(entry)) != message_id:
            continue
        data = _attachment(entry, filename)
        if data is None:
            raise ValueError(f"message {message_id!r} has no attachment {filename!r}")
        target = resolve(profile.root, dest)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return
    raise ValueError(f"folder {folder!r} holds no live message {message_id!r}")


@functools.lru_cache(maxsize=16)
def _attachment(entry: bytes, filename: str) -> bytes | None:
    """The decoded attachment `filename` of an mbox entry (the first so named), or None. Only this message's body
    is parsed (~2 ms), and once for its bytes: a task's controls save the same attachment again and again."""
    for part in tb.parse_entry(entry).iter_attachments():
        if part.get_filename() == filename:
            data = part.get_payload(decode=True)
            return data if isinstance(data, bytes) else b""
    return None
