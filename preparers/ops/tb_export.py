"""Thunderbird: save a message as a file (`tb.save_message`), as File > Save As > File does: the message as it is
stored, an `.eml` file that any mail program opens.

The near-miss modes are what a person saves instead: the body text alone (copied out of the reading pane), the
message without its attachments, or a new message retyped with the same From, To, Subject and text (no Message-ID
or Date of the original)."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

from preparers import thunderbird as tb
from preparers.ops import op, resolve
from preparers.ops.thunderbird import Profile

MODES = ("eml", "body", "no_attachments", "retyped")


def stored(entry: bytes) -> bytes:
    """The message of an mbox entry as Thunderbird saves it: the `From ` line dropped, `>From ` lines unescaped."""
    _, _, rest = entry.partition(b"\n")
    return b"\n".join(line[1:] if line.startswith(b">From ") else line for line in rest.split(b"\n"))


@op("tb.save_message")
def save_message(profile: Profile, folder: str, message_id: str, dest: str, mode: str = "eml") -> None:
    """Save the live message `message_id` of `folder` to `dest` (under /home/user); `mode` as in the module doc."""
    if mode not in MODES:
        raise ValueError(f"mode={mode!r}, but must be one of {MODES}")
    for entry in profile.entries(folder):
        if tb.status_flags(entry) & tb.EXPUNGED or tb.message_id(tb.read_headers(entry)) != message_id:
            continue
        data = stored(entry)
        if mode != "eml":
            msg = tb.parse_entry(entry)
            body = msg.get_body(preferencelist=("plain",))
            text = body.get_content() if body is not None else ""
            if mode == "body":
                data = text.encode("utf-8")
            else:
                new = EmailMessage()
                keep = ("From", "To", "Subject") if mode == "retyped" else \
                    ("Message-ID", "Date", "MIME-Version", "From", "To", "Subject")
                for name in keep:
                    if msg[name] is not None:
                        new[name] = str(msg[name])
                new.set_content(text)
                data = new.as_bytes(policy=SMTP.clone(linesep="\n"))
        target = resolve(profile.root, dest)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return
    raise ValueError(f"folder {folder!r} holds no live message {message_id!r}")
