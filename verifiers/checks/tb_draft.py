"""A message saved as a draft (tb.save_draft): in the Drafts folder's mbox, read as Thunderbird reads it.

The Drafts mbox is untrusted: read through `kit.bounded.read_file` (at most `MAX_BYTES`), split into entries as
Thunderbird splits it, entries marked expunged (0008) skipped, at most `MAX_ENTRIES` parsed. The draft is the one
live entry with the asked subject (saved twice is two drafts); its To addresses are the asked ones (any order,
case-insensitive), its text holds the asked sentence, and it carries the asked file as an attachment of that name
with the very bytes the file holds in the end state."""

from __future__ import annotations

import hashlib
import posixpath
import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path

from kit import bounded
from preparers import thunderbird as tb
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.thunderbird import require_profile

MAX_BYTES = 64 << 20
MAX_ENTRIES = 500


def read_drafts(host: Path) -> list[EmailMessage]:
    """The live messages of an mbox file (the first `MAX_ENTRIES`)."""
    entries = [e for e in tb.split_mbox(bounded.read_file(host, MAX_BYTES)) if not tb.status_flags(e) & tb.EXPUNGED]
    out = []
    for entry in entries[:MAX_ENTRIES]:
        msg = BytesParser(policy=policy.default).parsebytes(entry.partition(b"\n")[2])
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


def _file_bytes(host: Path) -> bytes:
    return bounded.read_file(host, MAX_BYTES)


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace(">From ", "From ")).strip().casefold()


def _text(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    content = body.get_content()
    if body.get_content_subtype() == "html":
        content = re.sub(r"<[^>]+>", " ", content)
    return str(content)


@primitive("tb.draft_saved", grounded=("to", "subject", "attachment", "body"),
           meaning=Meaning(action=r"draft"))
def draft_saved(state: State, path: str, to: list[str], subject: str, attachment: str, body: str,
                folder: str = "Drafts") -> Result:
    """`folder` holds exactly one live message with Subject `subject`: to exactly the addresses `to`, its text
    containing `body`, with the home file `attachment` attached under its name and with its bytes."""
    require_profile(state, path)
    box = f"{path}/{tb.folder_file(folder)}"
    if not state.is_file(box):
        return fail(f"there is no {folder} folder")
    messages = state.read(box, read_drafts, "mbox folder")
    same = [m for m in messages if re.sub(r"\s+", " ", str(m["Subject"] or "")).strip() == subject.strip()]
    if not same:
        found = [str(m["Subject"] or "") for m in messages][:5]
        return fail(f"{folder} holds no message with the subject {subject!r} (subjects: {found or 'none'})")
    if len(same) > 1:
        return fail(f"{folder} holds {len(same)} messages with the subject {subject!r}, not one draft")
    msg = same[0]
    got = sorted({a.casefold() for _, a in getaddresses([str(v) for v in msg.get_all("To", [])]) if a})
    want = sorted({a.casefold() for a in to})
    if got != want:
        return fail(f"the draft {subject!r} is addressed to {got or 'nobody'}, not {want}")
    if _words(body) not in _words(_text(msg)):
        return fail(f"the draft {subject!r} does not say {body!r}")
    name = posixpath.basename(attachment)
    data = state.read(attachment, _file_bytes, "file")
    digest = hashlib.sha256(data).hexdigest()
    parts = [(str(p.get_filename() or ""), p.get_payload(decode=True)) for p in msg.iter_attachments()]
    named = [payload for filename, payload in parts if filename == name]
    if not named:
        names = [f for f, _ in parts] or "none"
        return fail(f"the draft {subject!r} has no attachment {name!r} (attachments: {names})")
    if not any(isinstance(p, bytes) and hashlib.sha256(p).hexdigest() == digest for p in named):
        return fail(f"the draft's attachment {name!r} is not the bytes of {attachment}")
    return ok(f"{folder} holds the draft {subject!r} to {', '.join(want)} with {name} attached")
