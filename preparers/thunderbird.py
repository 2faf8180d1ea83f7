"""Thunderbird profile preparer: a `ProfileSpec` in, the profile's files out (deterministic bytes).

Public API (also used by the Marionette real-app tier):
- `build_profile(spec) -> {path relative to /home/user: bytes}`: every file of a profile Thunderbird 153
  opens without a first-run wizard: `.thunderbird/profiles.ini` + `installs.ini` (the Debian install hash
  section, so a bare `thunderbird` picks this profile), `prefs.js` (a Local Folders account and a POP3
  account deferred to it, carrying identity id1 so "New Message" works; first-run quieting prefs),
  `Mail/Local Folders/<Folder>` mbox files (subfolders as `<Parent>.sbd/<Child>`),
  `Mail/Local Folders/msgFilterRules.dat` and `abook.sqlite` (the Personal Address Book).
- `profile_dir(name)`: where the profile lives, relative to /home/user.
- Format helpers shared with the `tb.*` ops and checks: `folder_file`, `folder_uri`, `render_message`,
  `split_mbox`, `status_flags`, `read_headers`, `with_flags`, `pref_line`, `vcard`, `contact_rows`; the filter list
  (msgFilterRules.dat: `Filter`, `filter_block`, `filters_dat`) is `preparers.tbfilters`, re-exported here.

Facts this follows (measured on Thunderbird): every mbox message carries `X-Mozilla-Status` (hex:
0001 read, 0002 replied, 0004 flagged, 0008 expunged) and `X-Mozilla-Status2`; body lines starting with
"From " are escaped; Thunderbird "moves" a message by appending it to the target and marking the source
copy 0008 until the folder is compacted. Nothing here reads the clock: dates come from the spec.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import functools
import hashlib
import io
import json
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import format_datetime, parsedate_to_datetime
from typing import Any

# the filter list format lives in its own module (one reader and writer); re-exported for the callers of this one
from preparers.tbfilters import FILTER_HEADER as FILTER_HEADER
from preparers.tbfilters import FOLDER_ACTIONS as FOLDER_ACTIONS
from preparers.tbfilters import LOCAL_URI as LOCAL_URI
from preparers.tbfilters import Filter as Filter
from preparers.tbfilters import filter_block as filter_block
from preparers.tbfilters import filters_dat as filters_dat
from preparers.tbfilters import folder_uri as folder_uri

INSTALL_HASH = "FDC34C9F024745EB"  # Thunderbird's install hash for the Debian path /usr/lib/thunderbird
LOCAL_DIR = "Mail/Local Folders"
FILTER_FILE = f"{LOCAL_DIR}/msgFilterRules.dat"
SPECIAL_FOLDERS = ("Inbox", "Drafts", "Sent", "Trash")  # always present, even when the spec omits them

READ, REPLIED, FLAGGED, EXPUNGED = 0x0001, 0x0002, 0x0004, 0x0008
_POLICY = email.policy.default.clone(linesep="\n")
_STATUS = re.compile(rb"^X-Mozilla-Status: *([0-9A-Fa-f]{1,4})[ \t]*\r?$", re.MULTILINE)

#: Prefs that keep Thunderbird from opening wizards, start pages, telemetry notices and the indexer.
QUIET_PREFS: dict[str, Any] = {
    "app.donation.eoy.version.viewed": 999,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
    "mail.provider.enabled": False,
    "mail.rights.version": 1,
    "mail.shell.checkDefaultClient": False,
    "mail.spotlight.firstRunDone": True,
    "mail.winsearch.firstRunDone": True,
    "mailnews.database.global.indexer.enabled": False,
    "mailnews.start_page.enabled": False,
    "mailnews.start_page_override.mstone": "ignore",
    "toolkit.telemetry.reportingpolicy.firstRun": False,
}


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str  # e.g. "application/pdf"
    data: bytes


@dataclass(frozen=True)
class Message:
    """One mail; `sender`/`to` are display forms ("Ana Lopez <ana@x.com>"); `date` must be timezone-aware."""

    message_id: str  # without angle brackets
    sender: str
    to: str
    subject: str
    date: dt.datetime
    body: str
    read: bool = False
    flagged: bool = False
    attachments: tuple[Attachment, ...] = ()

    @property
    def flags(self) -> int:
        return (READ if self.read else 0) | (FLAGGED if self.flagged else 0)


@dataclass(frozen=True)
class Folder:
    """A Local Folders folder by path from the account root, e.g. "Inbox/Clients" (a subfolder of Inbox)."""

    path: str
    messages: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Contact:
    display_name: str
    email: str
    first: str = ""
    last: str = ""
    modified: int = 1704067200  # LastModifiedDate (seconds); from the spec, never the clock


@dataclass(frozen=True)
class Identity:
    full_name: str
    email: str


@dataclass(frozen=True)
class ProfileSpec:
    name: str  # profile folder is .thunderbird/<name>.default-release
    identity: Identity
    folders: tuple[Folder, ...] = ()
    filters: tuple[Filter, ...] = ()
    contacts: tuple[Contact, ...] = ()
    prefs: Mapping[str, Any] = field(default_factory=dict)  # extra/overriding user prefs


# --- paths and URIs --------------------------------------------------------------------------------------

def profile_dir(name: str) -> str:
    """The profile folder relative to /home/user."""
    return f".thunderbird/{name}.default-release"


def folder_file(path: str) -> str:
    """A Local Folders folder's mbox file, relative to the profile: "Inbox/A" -> "Mail/Local Folders/Inbox.sbd/A"."""
    parts = [p for p in path.split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise ValueError(f"folder path {path!r} must name a folder, e.g. 'Inbox' or 'Inbox/Clients'")
    return "/".join([LOCAL_DIR, *(p + ".sbd" for p in parts[:-1]), parts[-1]])


# --- mbox ------------------------------------------------------------------------------------------------

def _boundary(message_id: str) -> str:
    return "------------" + hashlib.sha256(message_id.encode()).hexdigest()[:24]


def _from_line(date: dt.datetime) -> bytes:
    return f"From - {date.strftime('%a %b %d %H:%M:%S %Y')}\n".encode()


def render_message(message: Message, flags: int | None = None) -> bytes:
    """One mbox entry: the `From -` line, Mozilla status headers, the RFC 5322 message, a blank line.

    Lines of the body starting with "From " are escaped as ">From " (as stdlib `mailbox` does)."""
    if message.date.tzinfo is None:
        raise ValueError(f"message {message.message_id!r}: date {message.date!r} needs a timezone")
    flags = message.flags if flags is None else flags
    msg = EmailMessage(policy=_POLICY)
    msg["X-Mozilla-Status"] = f"{flags & 0xFFFF:04x}"
    msg["X-Mozilla-Status2"] = f"{flags & 0xFFFF0000:08x}"
    msg["Message-ID"] = f"<{message.message_id}>"
    msg["Date"] = format_datetime(message.date)
    msg["MIME-Version"] = "1.0"
    msg["From"] = message.sender
    msg["To"] = message.to
    msg["Subject"] = message.subject
    msg.set_content(message.body, charset="utf-8", cte="8bit" if not message.body.isascii() else "7bit")
    for att in message.attachments:
        maintype, _, subtype = att.content_type.partition("/")
        msg.add_attachment(att.data, maintype=maintype, subtype=subtype or "octet-stream", filename=att.filename)
    for part in msg.iter_attachments():
        del part["MIME-Version"]  # add_attachment repeats it on every part; once at the top is enough
    if message.attachments:
        msg.set_boundary(_boundary(message.message_id))
    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=True, policy=_POLICY).flatten(msg)
    data = out.getvalue()
    return _from_line(message.date) + data + (b"" if data.endswith(b"\n") else b"\n") + b"\n"


def mbox_bytes(messages: tuple[Message, ...] | list[Message]) -> bytes:
    return b"".join(render_message(m) for m in messages)


def split_mbox(data: bytes) -> list[bytes]:
    """The entries of an mbox (each starting with its `From ` line), as stdlib `mailbox.mbox` splits them."""
    entries: list[bytes] = []
    start = None
    pos = 0
    for line in data.splitlines(keepends=True):
        if line.startswith(b"From "):
            if start is not None:
                entries.append(data[start:pos])
            start = pos
        pos += len(line)
    if start is not None:
        entries.append(data[start:])
    return entries


def status_flags(entry: bytes) -> int:
    """The entry's X-Mozilla-Status flags (0 when the header is missing)."""
    head = entry.split(b"\n\n", 1)[0]
    match = _STATUS.search(head)
    return int(match.group(1), 16) if match else 0


def with_flags(entry: bytes, flags: int) -> bytes:
    """The entry with its X-Mozilla-Status rewritten in place (same width), as Thunderbird updates it."""
    head, sep, rest = entry.partition(b"\n\n")
    value = f"X-Mozilla-Status: {flags & 0xFFFF:04x}".encode()
    if _STATUS.search(head):
        head = _STATUS.sub(value, head, count=1)
    else:
        first, nl, others = head.partition(b"\n")
        head = first + nl + value + (b"\n" + others if others else b"")
    return head + sep + rest


MATCH_FIELDS = ("from", "subject", "before", "message_id", "any")


def parse_entry(entry: bytes) -> EmailMessage:
    """The RFC 5322 message of an mbox entry (its `From ` line dropped)."""
    _, _, rest = entry.partition(b"\n")
    return BytesParser(policy=email.policy.default).parsebytes(rest)  # type: ignore[return-value]


class Headers:
    """The top-level headers of one mbox entry, for reading: `header`, `message_id` and `matches` answer on it
    exactly as on `parse_entry`'s message, several times cheaper (measured under load: ~2 ms -> ~0.3 ms an entry,
    then nothing for the same bytes).

    Only the header section is split into (name, raw value) pairs, by the same parser: it reads the headers before
    it looks at the body, so they cannot depend on it (the MIME tree, the costly part, is not built), and its raw
    values are the same under every policy (`header_source_parse` of compat32 and of `default` are one rule). A
    value asked for is decoded as `parse_entry`'s message decodes it (the `default` policy's `header_fetch_parse`
    on the first pair of that name), once. Nothing here can change the message, so one object may serve every
    reader of the same bytes (`read_headers`). Whoever needs the body (an attachment) uses `parse_entry`."""

    __slots__ = ("_raw", "_values")

    def __init__(self, section: bytes) -> None:
        """`section`: the entry's message (its `From ` line dropped) up to its first empty line (`_header_section`)."""
        self._raw = list(BytesHeaderParser(policy=email.policy.compat32).parsebytes(section).raw_items())
        self._values: dict[str, str] = {}

    def value(self, name: str) -> str:
        """`header(msg, name)` of the entry's full message: "" when missing or unparsable."""
        key = name.lower()
        if key not in self._values:
            raw = next(((k, v) for k, v in self._raw if k.lower() == key), None)
            try:  # exactly EmailMessage.get(name, "") under the default policy, then `header`'s str(... or "")
                self._values[key] = "" if raw is None else str(email.policy.default.header_fetch_parse(*raw) or "")
            except Exception:  # malformed headers in an untrusted mbox
                self._values[key] = ""
        return self._values[key]


_EMPTY_LINE = re.compile(rb"\n\r?\n")


def _header_section(message: bytes) -> bytes:
    """The message up to its first empty line ("\n" or "\r\n" after a line end): it holds every header line (the
    parser ends the headers at the first empty line, or earlier at a line that is no header, and cutting right
    after a "\n" splits no line)."""
    found = _EMPTY_LINE.search(message)
    return message if found is None else message[:found.start() + 1]


#: Header sections larger than this are parsed on every read, never kept (a hostile mbox cannot pin memory).
_MAX_CACHED_HEAD = 8 << 10


@functools.lru_cache(maxsize=2048)
def _cached_headers(section: bytes) -> Headers:
    return Headers(section)


def read_headers(entry: bytes) -> Headers:
    """The `Headers` of an mbox entry, parsed once per process for the same header bytes.

    The gate reads the same messages again for every control and every mutant, each on its own copy of a state:
    keyed by the header section's bytes (a `Headers` depends on nothing else), an entry is never stale, and the
    shared object is read-only."""
    section = _header_section(entry.partition(b"\n")[2])
    return _cached_headers(section) if len(section) <= _MAX_CACHED_HEAD else Headers(section)


def header(msg: EmailMessage | Headers, name: str) -> str:
    """A decoded header value, "" when missing or unparsable (a broken header never raises)."""
    if isinstance(msg, Headers):
        return msg.value(name)
    try:
        return str(msg.get(name, "") or "")
    except Exception:  # malformed headers in an untrusted mbox
        return ""


def message_id(msg: EmailMessage | Headers) -> str:
    return header(msg, "Message-ID").strip().strip("<>").strip()


def message_date(msg: EmailMessage | Headers) -> dt.datetime | None:
    try:
        value = parsedate_to_datetime(header(msg, "Date"))
    except (TypeError, ValueError, IndexError):
        return None
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def matches(msg: EmailMessage | Headers, field: str, value: str) -> bool:
    """Does the message meet a criterion? "from"/"subject": the header contains `value` (case-insensitive,
    like a Thunderbird "contains" search); "before": dated before `value` (YYYY-MM-DD, midnight UTC);
    "message_id": exactly that Message-ID (without angle brackets); "any": every message."""
    if field in ("from", "subject"):
        return value.casefold() in header(msg, field).casefold()
    if field == "before":
        date = message_date(msg)
        cutoff = dt.datetime.combine(dt.date.fromisoformat(value), dt.time(), tzinfo=dt.UTC)
        return date is not None and date < cutoff
    if field == "message_id":
        return message_id(msg) == value
    if field == "any":
        return True
    raise ValueError(f"field={field!r}, but must be one of {list(MATCH_FIELDS)}")


# --- prefs.js --------------------------------------------------------------------------------------------

def pref_line(name: str, value: Any) -> str:
    """One `user_pref(...)` line as Thunderbird writes it (strings escaped, UTF-8 kept)."""
    if isinstance(value, bool):
        rendered = "true" if value else "false"
    elif isinstance(value, int):
        rendered = str(value)
    elif isinstance(value, str):
        rendered = json.dumps(value, ensure_ascii=False)
    else:
        raise ValueError(f"pref {name!r}: value {value!r} must be a bool, int or str")
    return f"user_pref({json.dumps(name)}, {rendered});"


PREFS_HEADER = """// Mozilla User Preferences

// DO NOT EDIT THIS FILE.
//
// If you make changes to this file while the application is running,
// the changes will be overwritten when the application exits.
//
// To change a preference value, you can either:
// - modify it via the UI (e.g. via about:config in the browser); or
// - set it within a user.js file in your profile.

"""


def account_prefs(identity: Identity) -> dict[str, Any]:
    """Local Folders (account1/server1) plus a POP3 account (account2/server2, identity id1) deferred to it."""
    user, _, domain = identity.email.partition("@")
    local = lambda folder: f"{LOCAL_URI}/{folder}"  # noqa: E731
    return {
        "mail.account.account1.server": "server1",
        "mail.account.account2.identities": "id1",
        "mail.account.account2.server": "server2",
        "mail.account.lastKey": 2,
        "mail.accountmanager.accounts": "account2,account1",
        "mail.accountmanager.defaultaccount": "account2",
        "mail.accountmanager.localfoldersserver": "server1",
        "mail.identity.id1.archive_folder": local("Archives"),
        "mail.identity.id1.draft_folder": local("Drafts"),
        "mail.identity.id1.fcc_folder": local("Sent"),
        "mail.identity.id1.fullName": identity.full_name,
        "mail.identity.id1.smtpServer": "smtp1",
        "mail.identity.id1.stationery_folder": local("Templates"),
        "mail.identity.id1.useremail": identity.email,
        "mail.identity.id1.valid": True,
        "mail.root.none-rel": "[ProfD]Mail",
        "mail.root.pop3-rel": "[ProfD]Mail",
        "mail.server.server1.directory-rel": f"[ProfD]{LOCAL_DIR}",
        "mail.server.server1.hostname": "Local Folders",
        "mail.server.server1.name": "Local Folders",
        "mail.server.server1.type": "none",
        "mail.server.server1.userName": "nobody",
        "mail.server.server2.check_new_mail": False,
        "mail.server.server2.deferred_to_account": "account1",
        "mail.server.server2.directory-rel": f"[ProfD]Mail/pop.{domain}",
        "mail.server.server2.download_on_biff": False,
        "mail.server.server2.hostname": f"pop.{domain}",
        "mail.server.server2.login_at_startup": False,
        "mail.server.server2.name": identity.email,
        "mail.server.server2.port": 995,
        "mail.server.server2.socketType": 3,
        "mail.server.server2.type": "pop3",
        "mail.server.server2.userName": user,
        "mail.smtp.defaultserver": "smtp1",
        "mail.smtpserver.smtp1.authMethod": 3,
        "mail.smtpserver.smtp1.hostname": f"smtp.{domain}",
        "mail.smtpserver.smtp1.port": 587,
        "mail.smtpserver.smtp1.try_ssl": 2,
        "mail.smtpserver.smtp1.username": user,
        "mail.smtpservers": "smtp1",
    }


def prefs_js(prefs: Mapping[str, Any]) -> bytes:
    """prefs.js text: the Mozilla header, then one line per pref sorted by name (as Thunderbird writes it)."""
    return (PREFS_HEADER + "".join(pref_line(k, prefs[k]) + "\n" for k in sorted(prefs))).encode()


# --- abook.sqlite ------------------------------------------------------------------------------------------

ABOOK_SCHEMA = (
    "CREATE TABLE properties (card TEXT, name TEXT, value TEXT)",
    "CREATE TABLE lists (uid TEXT PRIMARY KEY, name TEXT, nickName TEXT, description TEXT)",
    "CREATE TABLE list_cards (list TEXT, card TEXT, PRIMARY KEY(list, card))",
    "CREATE INDEX properties_card ON properties(card)",
    "CREATE INDEX properties_name ON properties(name)",
    "PRAGMA user_version = 4",
)


def card_uid(email_address: str) -> str:
    """A stable UUID-shaped card id derived from the address (Thunderbird uses random UUIDs)."""
    h = hashlib.sha256(email_address.casefold().encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def _vesc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")


def vcard(contact: Contact, uid: str) -> str:
    """The vCard 4.0 text Thunderbird stores in a card's `_vCard` property."""
    lines = ["BEGIN:VCARD", "VERSION:4.0", f"EMAIL;PREF=1:{contact.email}", f"FN:{_vesc(contact.display_name)}"]
    if contact.first or contact.last:
        lines.append(f"N:{_vesc(contact.last)};{_vesc(contact.first)};;;")
    lines += [f"UID:{uid}", "END:VCARD"]
    return "".join(line + "\r\n" for line in lines)


def contact_rows(contact: Contact) -> list[tuple[str, str, str]]:
    """The (card, name, value) rows Thunderbird 153 writes for a card: the vCard plus cached fields."""
    uid = card_uid(contact.email)
    values = {"_vCard": vcard(contact, uid), "DisplayName": contact.display_name, "FirstName": contact.first,
              "LastName": contact.last, "PrimaryEmail": contact.email, "LastModifiedDate": str(contact.modified),
              "PopularityIndex": "0"}
    return [(uid, name, value) for name, value in values.items() if value]


def abook_sqlite(contacts: tuple[Contact, ...] | list[Contact]) -> bytes:
    """A Personal Address Book database (schema version 4) holding `contacts`."""
    conn = sqlite3.connect(":memory:")
    try:
        for statement in ABOOK_SCHEMA:
            conn.execute(statement)
        for contact in contacts:
            conn.executemany("INSERT INTO properties VALUES (?, ?, ?)", contact_rows(contact))
        conn.commit()
        return conn.serialize()
    finally:
        conn.close()


# --- attachments ---------------------------------------------------------------------------------------------

def text_pdf(text: str) -> bytes:
    """A one-page PDF (Helvetica, A4) showing `text` line by line: a small, valid, deterministic attachment."""
    def esc(line: str) -> str:
        return line.encode("latin-1", "replace").decode("latin-1").replace("\\", "\\\\").replace(
            "(", "\\(").replace(")", "\\)")
    shown = " T* ".join(f"({esc(line)}) Tj" for line in text.splitlines()[:48])
    stream = f"BT /F1 11 Tf 16 TL 64 780 Td {shown} ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


# --- profiles.ini / installs.ini ------------------------------------------------------------------------

def profiles_ini(name: str) -> bytes:
    rel = f"{name}.default-release"
    return (f"[Profile0]\nName=default-release\nIsRelative=1\nPath={rel}\nDefault=1\n\n"
            f"[General]\nStartWithLastProfile=1\nVersion=2\n\n"
            f"[Install{INSTALL_HASH}]\nDefault={rel}\nLocked=1\n").encode()


def installs_ini(name: str) -> bytes:
    return f"[{INSTALL_HASH}]\nDefault={name}.default-release\nLocked=1\n".encode()


# --- the whole profile --------------------------------------------------------------------------------------

def build_profile(spec: ProfileSpec) -> dict[str, bytes]:
    """Every file of the profile, keyed by path relative to /home/user, in a stable order.

    Folders missing from the spec but named in `SPECIAL_FOLDERS` are added empty; a subfolder's parent
    must be in the spec (or special), so the tree Thunderbird shows is exactly the spec's."""
    if not re.fullmatch(r"[a-z0-9]{4,16}", spec.name):
        raise ValueError(f"profile name={spec.name!r}, but must be 4-16 lowercase letters/digits")
    folders = {f.path: f for f in spec.folders}
    for special in SPECIAL_FOLDERS:
        folders.setdefault(special, Folder(special))
    for path in folders:
        parent = path.rpartition("/")[0]
        if parent and parent not in folders:
            raise ValueError(f"folder {path!r}: its parent {parent!r} is not in the spec")
    base = profile_dir(spec.name)
    files: dict[str, bytes] = {
        ".thunderbird/profiles.ini": profiles_ini(spec.name),
        ".thunderbird/installs.ini": installs_ini(spec.name),
        f"{base}/prefs.js": prefs_js({**QUIET_PREFS, **account_prefs(spec.identity), **spec.prefs}),
        f"{base}/abook.sqlite": abook_sqlite(spec.contacts),
        f"{base}/{FILTER_FILE}": filters_dat(spec.filters),
    }
    for path in sorted(folders):
        files[f"{base}/{folder_file(path)}"] = mbox_bytes(folders[path].messages)
    return files
