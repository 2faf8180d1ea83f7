"""Thunderbird: compose a message and save it as a draft (`tb.save_draft`), as File > Save > Save as Draft leaves it:
the message appended to the Drafts mbox (or another folder, for a near-miss that saves a template), read, with the
files attached under their own names.

The attachments are files of the home folder (`/home/user/...`), read when the op runs, so the draft carries the
bytes the file holds then."""

from __future__ import annotations

import datetime as dt
import mimetypes
import posixpath

from preparers import thunderbird as tb
from preparers.ops import op, resolve
from preparers.ops.thunderbird import Profile


@op("tb.save_draft")
def save_draft(profile: Profile, sender: str, to: list[str], subject: str, body: str, message_id: str, date: str,
               attachments: list[str] | None = None, cc: list[str] | None = None, folder: str = "Drafts") -> None:
    """Append a draft from `sender` to `to` (and `cc`) with `subject`, `body` and the files `attachments` to
    `folder`'s mbox; `date` is ISO 8601 with a time zone, `message_id` without angle brackets."""
    files = []
    for path in attachments or []:
        ctype = mimetypes.guess_type(posixpath.basename(path))[0] or "application/octet-stream"
        files.append(tb.Attachment(posixpath.basename(path), ctype, resolve(profile.root, path).read_bytes()))
    when = dt.datetime.fromisoformat(date)
    message = tb.Message(message_id, sender, ", ".join(to), subject, when, body, read=True,
                         attachments=tuple(files))
    entry = tb.render_message(message)
    if cc:
        head, sep, rest = entry.partition(b"\nSubject: ")
        entry = head + b"\nCc: " + ", ".join(cc).encode() + sep + rest
    box = profile.folder(folder)
    box.parent.mkdir(parents=True, exist_ok=True)
    old = box.read_bytes() if box.is_file() else b""
    box.write_bytes(old + (b"" if not old or old.endswith(b"\n") else b"\n") + entry)
