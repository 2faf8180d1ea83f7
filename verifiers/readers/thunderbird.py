"""The Thunderbird reader: a profile folder read the way Thunderbird would load it, for the `tb.*` checks
(`verifiers.checks.thunderbird`), the mutators and the Thunderbird families.

Written to accept what Thunderbird 153 saves (measured): a moved message stays in the source mbox marked
expunged (X-Mozilla-Status 0008) until compaction, so `Mbox.live` skips 0008 entries; filters are read by the one
filter-format module (`preparers.tbfilters`); contacts are `_vCard` cards (legacy PrimaryEmail/DisplayName rows
also read); prefs come from prefs.js then user.js (last one wins). What every control and mutant reads again
(message headers, prefs.js) is parsed once per process.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preparers import tbfilters
from preparers import thunderbird as tb
from verifiers.readers import Source, StateError

Entry = tuple[int, tb.Headers]  # (X-Mozilla-Status flags, the message's headers: all a check reads of a message)
#: pref name prefixes Thunderbird rewrites on its own (migration stamps, first-run marks, UI state): never a
#: user's setting, so never "left unchanged" (`tb.profile_kept` callers and the mutators skip them)
MANAGED_PREFS = ("mail.ui-rdf.version", "mail.ui.folderpane", "mail.startup", "mail.spam.version",
                 "mailnews.database", "app.", "browser.", "toolkit.", "extensions.", "datareporting.", "idle.",
                 "mail.rights.", "mail.winsearch", "mail.spotlight", "mail.shell.", "mailnews.start_page",
                 "mail.provider.", "mail.folder.views.version", "mailnews.tags.version")


# --- readers (each turns a host file into data; failures become failed checks via State.read) ---------------

@dataclass(frozen=True)
class Mbox:
    """An mbox folder as read: its first bytes (a file Thunderbird reads as mbox starts with "From ") and its
    entries, headers only, each parsed once per process (`tb.read_headers`): every control and every mutant reads
    the same messages again."""

    head: bytes
    entries: list[Entry]

    def live(self) -> list[Entry]:
        """The entries not marked expunged (Thunderbird shows no other)."""
        return [(flags, msg) for flags, msg in self.entries if not flags & tb.EXPUNGED]


def read_mbox(host: Path) -> Mbox:
    data = host.read_bytes()
    return Mbox(data[:64], [(tb.status_flags(e), tb.read_headers(e)) for e in tb.split_mbox(data)])


_PREF = re.compile(r'^\s*user_pref\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*("(?:[^"\\]|\\.)*"|true|false|-?\d+)\s*\)\s*;',
                   re.MULTILINE)


def _unescape(literal: str) -> str:
    """A Mozilla prefs string literal (with quotes) -> text; \\x and \\' are Mozilla extras over JSON."""
    body = re.sub(r"\\x([0-9A-Fa-f]{2})", lambda m: f"\\u00{m.group(1)}", literal[1:-1]).replace("\\'", "'")
    return str(json.loads(f'"{body}"'))


def read_prefs(host: Path) -> dict[str, Any]:
    text = host.read_text(encoding="utf-8")
    # every control and mutant of a task reads the same prefs.js again: parsed once per process by content (a
    # private copy each time: the caller may change it); a big file is parsed every time, never kept
    return dict(parse_prefs(text) if len(text) <= _MAX_CACHED_PREFS else parse_prefs.__wrapped__(text))


_MAX_CACHED_PREFS = 256 << 10


@functools.lru_cache(maxsize=64)
def parse_prefs(text: str) -> dict[str, Any]:
    prefs: dict[str, Any] = {}
    for name, raw in _PREF.findall(text):
        value: Any = raw == "true" if raw in ("true", "false") else int(raw) if raw[0] != '"' else _unescape(raw)
        prefs[_unescape(f'"{name}"')] = value
    return prefs


def read_filters(host: Path) -> list[tbfilters.Rule]:
    """msgFilterRules.dat -> its filters, read by the one filter-format module; a file Thunderbird would refuse
    raises (a failed check naming the line)."""
    return tbfilters.parse(host.read_text(encoding="utf-8"), host.name)


def parse_vcard(text: str) -> dict[str, list[str]]:
    """vCard properties by upper-case name (params dropped, lines unfolded, values unescaped)."""
    props: dict[str, list[str]] = {}
    for line in re.sub(r"\r?\n[ \t]", "", text).splitlines():
        name, sep, value = line.partition(":")
        if sep:
            value = re.sub(r"\\([\\,;nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
            props.setdefault(name.split(";")[0].strip().upper(), []).append(value)
    return props


_CARD_ROWS = "SELECT card, name, value FROM properties"


def card_rows(host: Path) -> list[tuple[Any, Any, Any]]:
    """The `properties` rows of an address book, never touching the state.

    A rollback-journal database (header bytes 18-19 are 1; Forge's and most saved books) with no -wal beside it is
    the file alone: sqlite reads it from memory (`deserialize`) exactly as from a copy, without a temp folder per
    read. A WAL database, or a file too short to say, is read from a copy with its -wal (measured: sqlite answers
    an empty or WAL-headed file differently in memory)."""
    data = host.read_bytes()
    wal = host.with_name(host.name + "-wal")
    if len(data) >= 100 and data[18:20] == b"\x01\x01" and not wal.is_file():
        conn = sqlite3.connect(":memory:")
        try:
            conn.deserialize(data)
            return conn.execute(_CARD_ROWS).fetchall()
        finally:
            conn.close()
    with tempfile.TemporaryDirectory(prefix="tb-abook-") as tmp:
        copy = Path(tmp) / host.name
        copy.write_bytes(data)
        if wal.is_file():
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        conn = sqlite3.connect(copy)
        try:
            return conn.execute(_CARD_ROWS).fetchall()
        finally:
            conn.close()


def read_cards(host: Path) -> list[dict[str, str]]:
    """Every card of an address book: {emails (newline-joined), display, first, last}."""
    rows = card_rows(host)
    by_card: dict[str, dict[str, str]] = {}
    for card, name, value in rows:
        by_card.setdefault(str(card), {})[str(name)] = str(value or "")
    cards = []
    for props in by_card.values():
        v = parse_vcard(props.get("_vCard", ""))
        n = (v.get("N", [""])[0].split(";") + ["", ""])[:2]
        emails = v.get("EMAIL", []) + [props.get(k, "") for k in ("PrimaryEmail", "SecondEmail")]
        cards.append({"emails": "\n".join(e.strip() for e in emails if e.strip()),
                      "display": (v.get("FN") or [props.get("DisplayName", "")])[0].strip(),
                      "first": (n[1] or props.get("FirstName", "")).strip(),
                      "last": (n[0] or props.get("LastName", "")).strip()})
    return cards


# --- a profile's folders and prefs, looked up through the state ------------------------------------------

def folder_path(folder: str, parent: str | None) -> str:
    return f"{parent}/{folder}" if parent else folder


def require_profile(state: Source, path: str) -> None:
    """Raise unless the profile folder exists. Files in it are looked at through the state (`State.is_file`,
    `State.read`), not through the folder's host path: a mutant's state answers those without copying the
    profile (a look at the folder itself, a listing, makes the copy)."""
    if not state.is_dir(path):
        raise StateError(f"profile folder {path} does not exist")


def folder_list(profile: Path) -> list[str]:
    """Every Local Folders folder path (for evidence)."""
    base = profile / tb.LOCAL_DIR
    found = []
    for file in sorted(base.rglob("*")) if base.is_dir() else []:
        rel = file.relative_to(base)
        if file.is_file() and not file.name.endswith(".msf") and file.name != "msgFilterRules.dat" \
                and not file.name.startswith(".") and all(p.endswith(".sbd") for p in rel.parts[:-1]):
            found.append("/".join([*(p.removesuffix(".sbd") for p in rel.parts[:-1]), rel.name]))
    return found


def folder_mbox(state: Source, path: str, folder: str, *, checked: bool = False) -> Mbox:
    """The folder's mbox; `checked`: the caller made sure the profile exists (`require_profile`)."""
    if not checked:
        require_profile(state, path)
    if not state.is_file(f"{path}/{tb.folder_file(folder)}"):
        found = ", ".join(folder_list(state.path(path))) or "none"
        raise StateError(f"folder {folder!r} does not exist (folders: {found})")
    return state.read(f"{path}/{tb.folder_file(folder)}", read_mbox, "mbox folder")


def live_messages(state: Source, path: str, folder: str) -> list[tb.Headers]:
    return [msg for _, msg in folder_mbox(state, path, folder).live()]


def live_flags(mbox: Mbox) -> dict[str, int]:
    return {tb.message_id(msg): flags for flags, msg in mbox.live()}


def effective_prefs(state: Source, path: str, *, checked: bool = False) -> dict[str, Any]:
    """Prefs as Thunderbird loads them (prefs.js then user.js); `checked` as for `folder_mbox`."""
    if not checked:
        require_profile(state, path)
    prefs: dict[str, Any] = {}
    for file in ("prefs.js", "user.js"):
        if state.is_file(f"{path}/{file}"):
            prefs.update(state.read(f"{path}/{file}", read_prefs, "prefs file"))
    return prefs


#: Thunderbird's default tags (mailnews.js): key -> the label the user sees
DEFAULT_TAGS = {"$label1": "Important", "$label2": "Work", "$label3": "Personal", "$label4": "To Do",
                "$label5": "Later"}


def tag_label(prefs: dict[str, Any], key: str) -> str:
    """The label a tag key shows as: its `mailnews.tags.<key>.tag` pref, else the default tag's; a key that is no
    tag (a label typed where the key belongs) shows as `(no tag: <key>)`: Thunderbird sets a bare keyword."""
    value = prefs.get(f"mailnews.tags.{key}.tag")
    if isinstance(value, str) and value.strip():
        return value.strip()
    return DEFAULT_TAGS.get(key.casefold(), f"(no tag: {key})")


def message_tags(msg: tb.Headers) -> list[str]:
    """The tag keys of a message as its mbox says them: the words of X-Mozilla-Keys (Thunderbird 153 writes a
    tag's key into that header's padding in place, measured; the padding itself is no tag)."""
    return msg.value("X-Mozilla-Keys").split()
