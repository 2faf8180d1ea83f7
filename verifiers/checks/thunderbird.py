"""Thunderbird primitives (`tb.*`): read a profile folder the way Thunderbird would load it.

`path` is always the profile folder (/home/user/.thunderbird/<name>.default-release); the user never types
it, so it is not grounded. Folder names, filter words, addresses, typed pref text and the path of a saved
attachment are what the user types: those are grounded.

Written to accept what Thunderbird 153 saves (measured): a moved message stays in the source mbox marked
expunged (X-Mozilla-Status 0008) until compaction, so every message check skips 0008 entries; filters of
any account (`Mail/*/msgFilterRules.dat`) count; contacts are `_vCard` cards (legacy
PrimaryEmail/DisplayName rows also read); prefs come from prefs.js then user.js (last one wins), and a
pref Thunderbird removed because it equals the default takes `default`.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
import shutil
import sqlite3
import tempfile
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from preparers import tbfilters
from preparers import thunderbird as tb
from verifiers.checks import Result, State, StateError, fail, ok, primitive

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


def _read_mbox(host: Path) -> Mbox:
    data = host.read_bytes()
    return Mbox(data[:64], [(tb.status_flags(e), tb.read_headers(e)) for e in tb.split_mbox(data)])


_PREF = re.compile(r'^\s*user_pref\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*("(?:[^"\\]|\\.)*"|true|false|-?\d+)\s*\)\s*;',
                   re.MULTILINE)


def _unescape(literal: str) -> str:
    """A Mozilla prefs string literal (with quotes) -> text; \\x and \\' are Mozilla extras over JSON."""
    body = re.sub(r"\\x([0-9A-Fa-f]{2})", lambda m: f"\\u00{m.group(1)}", literal[1:-1]).replace("\\'", "'")
    return str(json.loads(f'"{body}"'))


def _read_prefs(host: Path) -> dict[str, Any]:
    text = host.read_text(encoding="utf-8")
    # every control and mutant of a task reads the same prefs.js again: parsed once per process by content (a
    # private copy each time: the caller may change it); a big file is parsed every time, never kept
    return dict(_parse_prefs(text) if len(text) <= _MAX_CACHED_PREFS else _parse_prefs.__wrapped__(text))


_MAX_CACHED_PREFS = 256 << 10


@functools.lru_cache(maxsize=64)
def _parse_prefs(text: str) -> dict[str, Any]:
    prefs: dict[str, Any] = {}
    for name, raw in _PREF.findall(text):
        value: Any = raw == "true" if raw in ("true", "false") else int(raw) if raw[0] != '"' else _unescape(raw)
        prefs[_unescape(f'"{name}"')] = value
    return prefs


def _read_filters(host: Path) -> list[tbfilters.Rule]:
    """msgFilterRules.dat -> its filters, read by the one filter-format module; a file Thunderbird would refuse
    raises (a failed check naming the line)."""
    return tbfilters.parse(host.read_text(encoding="utf-8"), host.name)


def _parse_vcard(text: str) -> dict[str, list[str]]:
    """vCard properties by upper-case name (params dropped, lines unfolded, values unescaped)."""
    props: dict[str, list[str]] = {}
    for line in re.sub(r"\r?\n[ \t]", "", text).splitlines():
        name, sep, value = line.partition(":")
        if sep:
            value = re.sub(r"\\([\\,;nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
            props.setdefault(name.split(";")[0].strip().upper(), []).append(value)
    return props


_CARD_ROWS = "SELECT card, name, value FROM properties"


def _card_rows(host: Path) -> list[tuple[Any, Any, Any]]:
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


def _read_cards(host: Path) -> list[dict[str, str]]:
    """Every card of an address book: {emails (newline-joined), display, first, last}."""
    rows = _card_rows(host)
    by_card: dict[str, dict[str, str]] = {}
    for card, name, value in rows:
        by_card.setdefault(str(card), {})[str(name)] = str(value or "")
    cards = []
    for props in by_card.values():
        v = _parse_vcard(props.get("_vCard", ""))
        n = (v.get("N", [""])[0].split(";") + ["", ""])[:2]
        emails = v.get("EMAIL", []) + [props.get(k, "") for k in ("PrimaryEmail", "SecondEmail")]
        cards.append({"emails": "\n".join(e.strip() for e in emails if e.strip()),
                      "display": (v.get("FN") or [props.get("DisplayName", "")])[0].strip(),
                      "first": (n[1] or props.get("FirstName", "")).strip(),
                      "last": (n[0] or props.get("LastName", "")).strip()})
    return cards


# --- helpers ---------------------------------------------------------------------------------------------

def _folder_path(folder: str, parent: str | None) -> str:
    return f"{parent}/{folder}" if parent else folder


def _profile(state: State, path: str) -> None:
    """Raise unless the profile folder exists. Files in it are looked at through the state (`State.is_file`,
    `State.read`), not through the folder's host path: a mutant's state answers those without copying the
    profile (a look at the folder itself, a listing, makes the copy)."""
    if not state.is_dir(path):
        raise StateError(f"profile folder {path} does not exist")


def _folders(profile: Path) -> list[str]:
    """Every Local Folders folder path (for evidence)."""
    base = profile / tb.LOCAL_DIR
    found = []
    for file in sorted(base.rglob("*")) if base.is_dir() else []:
        rel = file.relative_to(base)
        if file.is_file() and not file.name.endswith(".msf") and file.name != "msgFilterRules.dat" \
                and not file.name.startswith(".") and all(p.endswith(".sbd") for p in rel.parts[:-1]):
            found.append("/".join([*(p.removesuffix(".sbd") for p in rel.parts[:-1]), rel.name]))
    return found


def _mbox(state: State, path: str, folder: str, *, checked: bool = False) -> Mbox:
    """The folder's mbox; `checked`: the caller made sure the profile exists (`_profile`)."""
    if not checked:
        _profile(state, path)
    if not state.is_file(f"{path}/{tb.folder_file(folder)}"):
        found = ", ".join(_folders(state.path(path))) or "none"
        raise StateError(f"folder {folder!r} does not exist (folders: {found})")
    return state.read(f"{path}/{tb.folder_file(folder)}", _read_mbox, "mbox folder")


def _live(state: State, path: str, folder: str) -> list[tb.Headers]:
    return [msg for _, msg in _mbox(state, path, folder).live()]


def _live_flags(mbox: Mbox) -> dict[str, int]:
    return {tb.message_id(msg): flags for flags, msg in mbox.live()}


def _effective_prefs(state: State, path: str, *, checked: bool = False) -> dict[str, Any]:
    """Prefs as Thunderbird loads them (prefs.js then user.js); `checked` as for `_mbox`."""
    if not checked:
        _profile(state, path)
    prefs: dict[str, Any] = {}
    for file in ("prefs.js", "user.js"):
        if state.is_file(f"{path}/{file}"):
            prefs.update(state.read(f"{path}/{file}", _read_prefs, "prefs file"))
    return prefs


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _short(ids: list[str]) -> str:
    return ", ".join(ids[:4]) + (f" (+{len(ids) - 4} more)" if len(ids) > 4 else "")


# --- primitives ------------------------------------------------------------------------------------------

@primitive("tb.folder_exists", grounded=("folder", "parent"))
def folder_exists(state: State, path: str, folder: str, parent: str | None = None) -> Result:
    """A Local Folders folder named `folder` exists, directly under `parent` (or at the top level)."""
    _profile(state, path)
    want = _folder_path(folder, parent)
    if state.is_file(f"{path}/{tb.folder_file(want)}"):
        return ok(f"folder {want!r} exists")
    return fail(f"no folder {want!r}; folders: {', '.join(_folders(state.path(path))) or 'none'}")


@primitive("tb.messages_in_folder", grounded=("folder", "parent", "field", "value", "count"))
def messages_in_folder(state: State, path: str, folder: str, parent: str | None = None,
                       message_ids: list[str] | None = None, field: str | None = None, value: str | None = None,
                       count: int | None = None) -> Result:
    """Every message of `message_ids` is in the folder (not expunged); with `field`/`value`, exactly `count`
    live messages of the folder match that criterion."""
    where = _folder_path(folder, parent)
    live = _live(state, path, where)
    ids = [tb.message_id(m) for m in live]
    missing = [i for i in message_ids or [] if i not in ids]
    if missing:
        return fail(f"{where!r} lacks {len(missing)} of the {len(message_ids or [])} expected messages: "
                    f"{_short(missing)} ({len(live)} live messages there)")
    evidence = f"{where!r} holds all {len(message_ids or [])} expected messages"
    if field is not None and value is not None:
        try:
            hits = [tb.message_id(m) for m in live if tb.matches(m, field, value)]
        except ValueError as exc:
            return fail(f"bad criterion: {exc}")
        if count is not None and len(hits) != count:
            return fail(f"{where!r} holds {len(hits)} live messages with {field} {value!r} ({_short(hits)}), "
                        f"expected {count}")
        evidence += f"; {len(hits)} live messages with {field} {value!r}"
    return ok(evidence)


@primitive("tb.message_flags", grounded=("folder", "parent", "read", "flagged"))
def message_flags(state: State, path: str, folder: str, message_ids: list[str], parent: str | None = None,
                  read: bool | None = None, flagged: bool | None = None) -> Result:
    """Each listed live message of the folder is read / flagged (or not) as asked."""
    where = _folder_path(folder, parent)
    flags = _live_flags(_mbox(state, path, where))
    wrong = []
    for mid in message_ids:
        if mid not in flags:
            return fail(f"message {mid} is not in {where!r}")
        if read is not None and bool(flags[mid] & tb.READ) != read:
            wrong.append(f"{mid} is {'read' if flags[mid] & tb.READ else 'unread'}")
        if flagged is not None and bool(flags[mid] & tb.FLAGGED) != flagged:
            wrong.append(f"{mid} is {'flagged' if flags[mid] & tb.FLAGGED else 'not flagged'}")
    want = ", ".join(w for w in (None if read is None else ("read" if read else "unread"),
                                 None if flagged is None else ("flagged" if flagged else "not flagged")) if w)
    if wrong:
        return fail(f"expected {len(message_ids)} messages in {where!r} to be {want}, but " + "; ".join(wrong[:4]))
    return ok(f"all {len(message_ids)} messages in {where!r} are {want}")


def _uri_folder(uri: str) -> str | None:
    prefix = tb.LOCAL_URI + "/"
    if not uri.lower().startswith(prefix.lower()):
        return None
    return "/".join(unquote(p) for p in uri[len(prefix):].split("/") if p)


@primitive("tb.filter_exists", grounded=("name", "field", "op", "value", "action", "target", "target_parent"))
def filter_exists(state: State, path: str, field: str, value: str, action: str, op: str = "contains",
                  name: str | None = None, target: str | None = None, target_parent: str | None = None) -> Result:
    """An enabled filter whose only condition is `field op value` has `action` (to the folder `target` under
    `target_parent` for move/copy); `name` too when given."""
    _profile(state, path)
    files = sorted((state.path(path) / "Mail").glob("*/msgFilterRules.dat"))
    filters = [(f.parent.name, flt) for f in files
               for flt in state.read(f"{path}/Mail/{f.parent.name}/msgFilterRules.dat", _read_filters, "filter list")]
    if not filters:
        return fail("the profile has no message filters")
    want_folder = _folder_path(target, target_parent) if target else None
    notes: list[str] = []
    others: list[str] = []  # filters with another name
    for account, flt in filters:
        label = f"filter {flt.name!r} ({account})"
        if name is not None and flt.name.strip() != name:
            others.append(flt.name)
            continue
        terms = [(t.field.casefold(), t.op.casefold(), t.value.strip().casefold()) for t in flt.terms]
        if flt.match_all or terms != [(field.casefold(), op.casefold(), value.strip().casefold())]:
            notes.append(f"{label}: conditions {[t.describe() for t in flt.terms] or ['ALL']}")
            continue
        acts = [(a.casefold(), v) for a, v in flt.actions]
        hit = [v for a, v in acts if a == action.casefold()]
        if not hit:
            notes.append(f"{label}: actions {[a for a, _ in flt.actions]}, not {action!r}")
            continue
        if want_folder is not None and want_folder not in [_uri_folder(v) for v in hit]:
            notes.append(f"{label}: {action} to {hit}, not folder {want_folder!r}")
            continue
        if not flt.enabled:
            notes.append(f"{label}: matches but is disabled")
            continue
        to = f" to {want_folder!r}" if want_folder else ""
        return ok(f"{label}: {field} {op} {value!r} -> {action}{to}, enabled")
    if others:
        notes.append(f"other filters: {', '.join(repr(o) for o in others[:4])}")
    return fail(f"no filter with {field} {op} {value!r} -> {action}; " + "; ".join(notes[:4]))


@primitive("tb.contact_exists", grounded=("email", "display_name"))
def contact_exists(state: State, path: str, email: str, display_name: str | None = None,
                   book: str = "abook.sqlite") -> Result:
    """The address book `book` (default: Personal Address Book) has a card with `email` (case-insensitive) and,
    when given, display name `display_name` (or first + last name equal to it)."""
    _profile(state, path)
    if not state.is_file(f"{path}/{book}"):
        raise StateError(f"address book {book} does not exist")
    cards = state.read(f"{path}/{book}", _read_cards, "address book database")
    same = [c for c in cards if email.casefold() in c["emails"].casefold().split("\n")]
    if not same:
        known = sorted({e for c in cards for e in c["emails"].split("\n") if e})
        return fail(f"{book} has no card for {email} (addresses: {_short(known) or 'none'})")
    if display_name is None:
        return ok(f"{book} has a card for {email}")
    for card in same:
        names = {_nfc(card["display"]), _nfc(f"{card['first']} {card['last']}".strip())}
        if _nfc(display_name.strip()) in names:
            return ok(f"{book} has {display_name!r} <{email}>")
    return fail(f"{book} has {email}, but named {sorted({c['display'] for c in same})}, not {display_name!r}")


@primitive("tb.pref_equals", grounded=("name", "value"))
def pref_equals(state: State, path: str, name: str, value: Any, default: Any = None) -> Result:
    """The effective user pref `name` (prefs.js then user.js, last wins; `default` when unset) equals `value`."""
    prefs = _effective_prefs(state, path)
    actual = prefs.get(name, default)
    source = "set" if name in prefs else "unset, default"
    if actual is None:
        return fail(f"{name} is not set (expected {value!r})")
    if type(actual) is not type(value) or actual != value:
        return fail(f"{name} is {actual!r} ({source}), expected {value!r}")
    return ok(f"{name} = {actual!r} ({source})")


def _plain(text: str) -> str:
    """Typed text as the user sees it: HTML line breaks as newlines, tags dropped, lines trimmed."""
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.IGNORECASE)
    text = html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.strip() for line in text.strip().split("\n"))


@primitive("tb.pref_text", grounded=("text",))
def pref_text(state: State, path: str, name: str, text: str, casefold: bool = False) -> Result:
    """The string pref `name` holds the typed `text` (trimmed per line; HTML breaks read as newlines)."""
    actual = _effective_prefs(state, path).get(name)
    if not isinstance(actual, str):
        return fail(f"{name} is {'not set' if actual is None else repr(actual)}, expected text {text!r}")
    got, want = _plain(actual), _plain(text)
    if casefold:
        got, want = got.casefold(), want.casefold()
    if got != want:
        return fail(f"{name} is {actual!r}, expected {text!r}")
    return ok(f"{name} holds {text!r}")


@primitive("tb.profile_kept", grounded=("messages",))
def profile_kept(state: State, path: str, messages: dict[str, list[str]], flagged: list[str],
                 read: list[str] | None = None, prefs: dict[str, Any] | None = None,
                 required: list[str] | None = None, contacts: list[str] | None = None,
                 touched: list[str] | None = None, filters: list[str] | None = None,
                 branches: list[str] | None = None, asked: list[str] | None = None,
                 relabeled: list[str] | None = None, moved_flagged: list[str] | None = None) -> Result:
    """What the task leaves alone is as it was: every folder of `messages` ({folder: ids}) exists and holds
    exactly those messages live, each once (plus any of `touched`, the ones the task moves or copies), flagged
    exactly when listed in `flagged` (and, with `read`, read exactly when listed there); the filters named in
    `filters` are still there; every pref of `prefs` that is set still holds its value (an unset one is fine:
    Thunderbird drops a pref that equals its default), and the prefs named in `required` (account settings, which
    have no default) are set; no pref was added under the user-facing `branches` (name prefixes Thunderbird does
    not write on its own) except those of `prefs` and `asked` (what the task sets); the Personal Address Book
    still has a card for every address in `contacts`. A message kept by Message-ID but duplicated into a folder
    is a change: sets of ids would not see it. Messages of `relabeled` (ids the task flags or marks read) are
    listed in `messages` like the others, where they must stay, but their flags are the task's to change. A
    message both listed and in `touched` is one the task copies: it stays, and its copies elsewhere carry its flag.
    With `moved_flagged`, a message of `touched` found in another folder (moved) is flagged exactly when listed
    there. Grounded in the initial state, not the instruction: the messages are the profile's own."""
    wrong: list[str] = []
    marked, seen, mine = set(flagged), set(read or []), set(relabeled or [])
    listed = {mid for ids in messages.values() for mid in ids}
    # the profile folder once: every read below raises this very error when it is missing (found here first)
    _profile(state, path)
    for folder, ids in sorted(messages.items()):
        try:
            mbox = _mbox(state, path, folder, checked=True)
        except StateError as exc:
            wrong.append(str(exc))
            continue
        flags = _live_flags(mbox)
        if mbox.head and not mbox.head.startswith(b"From "):
            wrong.append(f"{folder!r} is no longer an mbox (it starts with {mbox.head[:20]!r})")
            continue
        extra = sorted(set(flags) - set(ids) - set(touched or []))
        if extra:
            wrong.append(f"{folder!r} holds {len(extra)} other messages: {_short(extra)}")
        # a copy of a message that stays where it was (touched and listed: copied) carries the original's flag
        recolored = sorted(mid for mid in set(flags) - set(ids) if mid in listed and mid not in mine
                           and bool(flags[mid] & tb.FLAGGED) != (mid in marked))
        if recolored:
            wrong.append(f"{folder!r} holds copies with another flag than their original: {_short(recolored)}")
        if moved_flagged is not None:  # a message the task moves keeps its flag in its new folder
            reflagged = sorted(mid for mid in set(flags) - listed if mid in set(touched or []) and mid not in mine
                              and bool(flags[mid] & tb.FLAGGED) != (mid in set(moved_flagged)))
            if reflagged:
                wrong.append(f"{folder!r} holds moved messages with another flag than before: {_short(reflagged)}")
        counts = Counter(tb.message_id(msg) for _, msg in mbox.live())
        twice = sorted(mid for mid, n in counts.items() if n > max(ids.count(mid), 1))
        if twice:
            wrong.append(f"{folder!r} holds {len(twice)} messages more than once: {_short(twice)}")
        for mid in ids:
            if mid not in flags:
                wrong.append(f"message {mid} is no longer in {folder!r}")
            elif mid in mine:
                continue
            elif bool(flags[mid] & tb.FLAGGED) != (mid in marked):
                wrong.append(f"message {mid} in {folder!r} is {'now' if flags[mid] & tb.FLAGGED else 'no longer'} "
                             "flagged")
            elif read is not None and bool(flags[mid] & tb.READ) != (mid in seen):
                wrong.append(f"message {mid} in {folder!r} is {'now' if flags[mid] & tb.READ else 'no longer'} read")
    current = _effective_prefs(state, path, checked=True)
    wrong += [f"pref {name} is {current[name]!r}, was {value!r}" for name, value in sorted((prefs or {}).items())
              if name in current and current[name] != value]
    wrong += [f"pref {name} is gone" for name in required or [] if name not in current]
    known = set(prefs or {}) | set(asked or [])
    wrong += [f"pref {name} = {current[name]!r} was added" for name in sorted(current)
              if branches and name.startswith(tuple(branches)) and name not in known]
    if filters:
        files = sorted((state.path(path) / "Mail").glob("*/msgFilterRules.dat"))
        names = {flt.name for f in files
                 for flt in state.read(f"{path}/Mail/{f.parent.name}/msgFilterRules.dat", _read_filters, "filter list")}
        wrong += [f"filter {name!r} is gone" for name in filters if name not in names]
    if contacts:
        try:
            cards = state.read(f"{path}/abook.sqlite", _read_cards, "address book")
        except StateError as exc:
            cards = []
            wrong.append(str(exc))
        emails = {e.casefold() for card in cards for e in card["emails"].split("\n")}
        wrong += [f"contact {e} is gone" for e in contacts if e.casefold() not in emails]
    total = sum(len(ids) for ids in messages.values())
    if wrong:
        return fail(f"{len(wrong)} things the task should leave alone changed: " + "; ".join(wrong[:4]))
    return ok(f"the other {total} messages and {len(prefs or {})} prefs are as they were")


@primitive("tb.file_saved", grounded=("path",))
def file_saved(state: State, path: str, sha256: str, size: int | None = None) -> Result:
    """The file at `path` exists with exactly the expected bytes (an attachment saved from a message)."""
    data = state.read(path, Path.read_bytes, "file")
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        sized = f", expected {size} bytes" if size is not None else ""
        return fail(f"{path} has {len(data)} bytes with sha256 {got[:12]}, not the expected attachment{sized}")
    return ok(f"{path} holds the expected {len(data)} bytes")
