"""Thunderbird: a message saved as a file (File > Save As > File, an `.eml`).

The saved file is judged as a mail program reads it, not byte for byte: Thunderbird keeps its own status headers
(`X-Mozilla-*`) in the file or not, and may write the body's `From ` lines escaped (`>From `). It must be the stated
message (its Message-ID, Date, From and Subject), with the same text and the same attachments (names and bytes).
A file that does not parse as a message fails."""

from __future__ import annotations

import hashlib
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parseaddr, parsedate_to_datetime
from pathlib import Path
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning


def body_digest(text: str) -> str:
    """A message text as compared: line ends and trailing spaces free, `>From ` unescaped."""
    lines = [line.rstrip().removeprefix(">") if line.lstrip(">").startswith("From ") else line.rstrip()
             for line in text.replace("\r\n", "\n").split("\n")]
    return hashlib.sha256("\n".join(lines).strip().encode()).hexdigest()


def read_message(host: Path) -> EmailMessage:
    data = host.read_bytes()
    if data.startswith(b"From "):  # an mbox envelope line above the headers: no header of the message
        data = data.partition(b"\n")[2]
    msg = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)
    return msg


def facts(msg: EmailMessage) -> dict[str, Any]:
    """What the check compares of a message: Message-ID, Date, From address, Subject, text digest, attachments."""
    body = msg.get_body(preferencelist=("plain",))
    try:
        date = parsedate_to_datetime(str(msg["Date"])).isoformat() if msg["Date"] else ""
    except (TypeError, ValueError):
        date = str(msg["Date"])
    atts = []
    for part in msg.iter_attachments():
        payload = part.get_payload(decode=True)
        atts.append([str(part.get_filename() or ""),
                     hashlib.sha256(payload if isinstance(payload, bytes) else b"").hexdigest()])
    return {"message_id": str(msg["Message-ID"] or "").strip().strip("<>"), "date": date,
            "from": parseaddr(str(msg["From"] or ""))[1].casefold(), "subject": str(msg["Subject"] or ""),
            "body": body_digest(body.get_content()) if body is not None else "", "attachments": sorted(atts)}


@primitive("tb.message_saved", grounded=("path", "subject"),
           meaning=Meaning(action=r"save|export|eml|file|copy|keep"))
def message_saved(state: State, path: str, subject: str, expected: dict[str, Any]) -> Result:
    """The file at `path` is the message '`subject`' as a mail file: the `expected` facts (`facts` of the stated
    message: its Message-ID, Date, From, Subject, text and attachments) all hold."""
    got = facts(state.read(path, read_message, "mail message (.eml)"))
    names = {"message_id": "Message-ID", "date": "Date", "from": "From address", "subject": "Subject",
             "body": "text", "attachments": "attachments"}
    wrong = [key for key in names if got.get(key) != expected.get(key)]
    if wrong:
        shown = {"body": "differs", "attachments": [a for a, _ in got["attachments"]] or "none"}
        return fail(f"{path} is not the message '{subject}' as a mail file: "
                    + "; ".join(f"{names[k]} {shown.get(k, repr(got[k]) if got[k] else 'missing')}" for k in wrong))
    count = len(got["attachments"])
    return ok(f"{path} is the message '{subject}' (Message-ID {got['message_id']}, {count} attachment(s))")
