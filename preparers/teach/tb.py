"""Thunderbird ops as the Python a person types against a closed Thunderbird's profile folder.

An op's path is the profile folder; each mail action is one `python3` heredoc that names it
(`profile = '/home/user/.thunderbird/<x>.default-release'`) and writes the files itself, as Thunderbird leaves them:
- a Local Folders folder is an mbox file (`Mail/Local Folders/Inbox.sbd/Clients` for Inbox/Clients);
- a message's read/flagged/deleted state is its `X-Mozilla-Status` header (hex: 0001 read, 0004 flagged, 0008
  expunged), rewritten in place at the same width; a moved message is appended to the target folder and its source
  copy marked expunged (Thunderbird compacts it away later); every other byte of the mbox stays as it was;
- a filter is a block of `msgFilterRules.dat` lines, a pref a `user_pref(...)` line of prefs.js, a contact the
  `properties` rows of the address book's sqlite file (a vCard plus cached fields).
Messages are picked as the instruction says (a sender or subject containing a word, a date, a Message-ID), by
their decoded headers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from preparers import tbfilters
from preparers import thunderbird as tb
from preparers.teach import Language, language, snippet

Snippet = Callable[..., str]

language(Language(
    "tb", shell=True, var="profile",
    peek=("import email, email.policy, os, re\n"
          "VAR = PATH\n"
          "local = VAR + '/Mail/Local Folders'\n"
          "for folder, dirs, files in sorted(os.walk(local)):\n"
          "    for name in sorted(files):\n"
          "        if name.endswith(('.msf', '.dat', '.json')):\n"
          "            continue\n"
          "        box = os.path.join(folder, name)\n"
          "        print('==', os.path.relpath(box, local))\n"
          "        for entry in re.split(rb'(?m)^(?=From )', open(box, 'rb').read()):\n"
          "            if entry:\n"
          "                msg = email.message_from_bytes(entry.split(b'\\n', 1)[1], policy=email.policy.default)\n"
          "                print('  ', msg['X-Mozilla-Status'], msg['Date'], '|', msg['From'], '|', msg['Subject'],\n"
          "                      '|', msg['Message-ID'], [p.get_filename() for p in msg.iter_attachments()])\n"
          "if os.path.exists(local + '/msgFilterRules.dat'):\n"
          "    print(open(local + '/msgFilterRules.dat').read())")))

def _mail_action(name: str) -> Callable[[Snippet], Snippet]:
    """Register `fn(profile_var, path, **args)` as op `name`'s snippet: one `python3` heredoc per mail action.

    A mail action is its own command, not a line of a document run: a later op of the task may open the file it
    writes (an attachment saved, then edited as a workbook), which a run opens before its first line."""
    def wrap(fn: Snippet) -> Snippet:
        def heredoc(path: str, **args: Any) -> str:
            body = fn("profile", path, **args)
            head = f"profile = {path!r}  # the Thunderbird profile (Thunderbird is closed)"
            return f"python3 - <<'PY'\n{head}\n{body}\nPY"

        snippet(name)(heredoc)
        return fn

    return wrap


_STATUS = "rb'(?m)^X-Mozilla-Status: *([0-9A-Fa-f]{1,4})[ \\t]*$'"

#: Lines that split an mbox file into its messages (`entries`, each starting with its `From ` line) and read one.
_ENTRIES = """\
def read_entries(box):
    return [e for e in re.split(rb'(?m)^(?=From )', open(box, 'rb').read()) if e]
def headers(entry):
    return email.message_from_bytes(entry.split(b'\\n', 1)[1], policy=email.policy.default)
def status(entry):
    found = re.search(STATUS, entry.partition(b'\\n\\n')[0])
    return int(found.group(1), 16) if found else 0""".replace("STATUS", _STATUS)

_SET_STATUS = """\
def set_status(entry, flags):
    head, sep, body = entry.partition(b'\\n\\n')
    line = b'X-Mozilla-Status: %04x' % flags
    found = re.search(STATUS, head)
    if found:
        head = head[:found.start()] + line + head[found.end():]
    else:
        head = head.replace(b'\\n', b'\\n' + line + b'\\n', 1)
    return head + sep + body""".replace("STATUS", _STATUS)


def _box(profile: str, folder: str) -> str:
    return f"{profile} + {'/' + tb.folder_file(folder)!r}"


def _wanted(field: str, value: str) -> list[str]:
    """`wanted(msg)`: does a message meet the instruction's criterion (`preparers.thunderbird.matches`)?"""
    if field in ("from", "subject"):
        test = f"{value.casefold()!r} in str(msg[{field.capitalize()!r}] or '').casefold()"
    elif field == "before":
        year, month, day = (int(part) for part in value.split("-"))
        return ["from datetime import datetime, timezone",
                "from email.utils import parsedate_to_datetime",
                "def wanted(msg):",
                "    date = parsedate_to_datetime(msg['Date'])",
                "    if date.tzinfo is None:",
                "        date = date.replace(tzinfo=timezone.utc)",
                f"    return date < datetime({year}, {month}, {day}, tzinfo=timezone.utc)"]
    elif field == "message_id":
        test = f"str(msg['Message-ID'] or '').strip().strip('<>').strip() == {value!r}"
    elif field == "any":
        test = "True"
    else:
        raise ValueError(f"field={field!r}, but must be one of {list(tb.MATCH_FIELDS)}")
    return ["def wanted(msg):", f"    return {test}"]


def _chosen(entries: str, field: str, value: str, limit: int | None) -> list[str]:
    cut = f"[:{limit}]" if limit else ""
    return [*_wanted(field, value),
            f"chosen = [i for i, e in enumerate({entries}) if not status(e) & 0x0008 and wanted(headers(e))]{cut}",
            "assert chosen, 'no message matches'"]


def _flag(profile: str, folder: str, field: str, value: str, bit: int, on: bool, limit: int | None) -> str:
    change = f"status(entries[i]) | 0x{bit:04x}" if on else f"status(entries[i]) & ~0x{bit:04x}"
    return "\n".join(["import email, email.policy, re", _ENTRIES, _SET_STATUS,
                      f"box = {_box(profile, folder)}",
                      "entries = read_entries(box)",
                      *_chosen("entries", field, value, limit),
                      "for i in chosen:",
                      f"    entries[i] = set_status(entries[i], {change})",
                      "open(box, 'wb').write(b''.join(entries))"])


@_mail_action("tb.mark_read")
def mark_read(profile: str, path: str, folder: str, field: str, value: str, read: bool = True,
              limit: int | None = None) -> str:
    return _flag(profile, folder, field, value, tb.READ, read, limit)


@_mail_action("tb.mark_flagged")
def mark_flagged(profile: str, path: str, folder: str, field: str, value: str, flagged: bool = True,
                 limit: int | None = None) -> str:
    return _flag(profile, folder, field, value, tb.FLAGGED, flagged, limit)


@_mail_action("tb.create_folder")
def create_folder(profile: str, path: str, folder: str) -> str:
    return "\n".join(["import os",
                      f"box = {_box(profile, folder)}  # a folder is an mbox file; a subfolder lives in <Parent>.sbd",
                      "os.makedirs(os.path.dirname(box), exist_ok=True)",
                      "assert not os.path.exists(box)",
                      "open(box, 'wb').close()"])


@_mail_action("tb.move_messages")
def move_messages(profile: str, path: str, source: str, target: str, field: str, value: str, copy: bool = False,
                  limit: int | None = None) -> str:
    lines = ["import email, email.policy, re", _ENTRIES, _SET_STATUS,
             f"box = {_box(profile, source)}",
             f"target = {_box(profile, target)}",
             "entries = read_entries(box)",
             *_chosen("entries", field, value, limit),
             "moved = b''.join(entries[i].rstrip(b'\\n') + b'\\n\\n' for i in chosen)",
             "existing = open(target, 'rb').read()",
             "open(target, 'wb').write((existing.rstrip(b'\\n') + b'\\n\\n' if existing.strip() else b'') + moved)"]
    if not copy:
        lines += ["for i in chosen:  # the source copy stays until Thunderbird compacts the folder: marked expunged",
                  "    entries[i] = set_status(entries[i], status(entries[i]) | 0x0008)",
                  "open(box, 'wb').write(b''.join(entries))"]
    return "\n".join(lines)


@_mail_action("tb.add_filter")
def add_filter(profile: str, path: str, name: str, conditions: list[list[str]], actions: list[list[str]],
               match: str = "AND", enabled: bool = True, type: int = 17) -> str:  # noqa: A002 - the file's key
    block = tbfilters.filter_block(tbfilters.Filter(
        name, tuple((c[0], c[1], c[2]) for c in conditions), tuple((a[0], a[1]) for a in actions), match, enabled,
        type))
    written = "\n".join(f"    {line + chr(10)!r}" for line in block.splitlines())
    return "\n".join(["import os",
                      f"rules = {profile} + {'/' + tb.FILTER_FILE!r}",
                      "text = open(rules).read() if os.path.exists(rules) else ''",
                      "if not text.strip():",
                      f"    text = {tbfilters.FILTER_HEADER!r}",
                      "if not text.endswith('\\n'):",
                      "    text += '\\n'",
                      f"text += (  # one filter: type {type} = new mail + run manually; folders as mailbox URIs",
                      written,
                      ")",
                      "open(rules, 'w').write(text)"])


def _vesc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")


@_mail_action("tb.add_contact")
def add_contact(profile: str, path: str, display_name: str, email: str, first: str = "", last: str = "",
                book: str = "abook.sqlite") -> str:
    vcard = ["BEGIN:VCARD", "VERSION:4.0", f"EMAIL;PREF=1:{email}", f"FN:{_vesc(display_name)}"]
    if first or last:
        vcard.append(f"N:{_vesc(last)};{_vesc(first)};;;")
    fields = {"DisplayName": display_name, "FirstName": first, "LastName": last, "PrimaryEmail": email}
    rows = "\n".join(f"    ({name!r}, {value!r})," for name, value in fields.items() if value)
    schema = "\n".join(f"        {statement!r}," for statement in tb.ABOOK_SCHEMA)
    return "\n".join([
        "import sqlite3, time, uuid",
        f"db = sqlite3.connect({profile} + {'/' + book!r})",
        "if not db.execute(\"SELECT name FROM sqlite_master WHERE name = 'properties'\").fetchone():",
        "    for statement in (  # Thunderbird's address book schema",
        schema,
        "    ):",
        "        db.execute(statement)",
        "card = str(uuid.uuid4())",
        f"vcard = ''.join(line + '\\r\\n' for line in {[*vcard]!r} + ['UID:' + card, 'END:VCARD'])",
        "rows = [",
        "    ('_vCard', vcard),",
        rows,
        "    ('LastModifiedDate', str(int(time.time()))),",
        "    ('PopularityIndex', '0'),",
        "]",
        "db.executemany('INSERT INTO properties VALUES (?, ?, ?)', [(card, name, value) for name, value in rows])",
        "db.commit()",
        "db.close()"])


@_mail_action("tb.set_pref")
def set_pref(profile: str, path: str, name: str, value: Any, file: str = "prefs.js") -> str:
    if file not in ("prefs.js", "user.js"):
        raise ValueError(f"file={file!r}, but must be 'prefs.js' or 'user.js'")
    return "\n".join([
        "import os, re",
        f"prefs = {profile} + {'/' + file!r}",
        "lines = open(prefs).read().splitlines() if os.path.exists(prefs) else []",
        f"same = re.compile(r'\\s*user_pref\\(\\s*' + re.escape({json.dumps(name)!r}) + r'\\s*,')",
        f"lines = [line for line in lines if not same.match(line)] + [{tb.pref_line(name, value)!r}]",
        "open(prefs, 'w').write('\\n'.join(lines) + '\\n')"])


@_mail_action("tb.save_attachment")
def save_attachment(profile: str, path: str, folder: str, message_id: str, filename: str, dest: str) -> str:
    return "\n".join([
        "import email, email.policy, os, re", _ENTRIES,
        f"for entry in read_entries({_box(profile, folder)}):",
        "    msg = headers(entry)",
        f"    if not status(entry) & 0x0008 and str(msg['Message-ID']).strip().strip('<>') == {message_id!r}:",
        f"        part = next(p for p in msg.iter_attachments() if p.get_filename() == {filename!r})",
        f"        os.makedirs({dest.rsplit('/', 1)[0]!r}, exist_ok=True)",
        f"        open({dest!r}, 'wb').write(part.get_payload(decode=True))",
        "        break",
        "else:",
        f"    raise SystemExit('no message {message_id}')"])
