"""Thunderbird's File > Save As > File (`tb.save_message`) as the Python a person types: find the message in the
folder's mbox file by its Message-ID and write it out, its mbox `From ` line dropped."""

from __future__ import annotations

from preparers.teach.tb import _ENTRIES, _box, _mail_action


@_mail_action("tb.save_message")
def save_message(profile: str, path: str, folder: str, message_id: str, dest: str, mode: str = "eml") -> str:
    if mode != "eml":
        raise ValueError(f"tb.save_message: only mode 'eml' is a solution, not {mode!r}")
    return "\n".join([
        "import email, email.policy, os, re", _ENTRIES,
        f"for entry in read_entries({_box(profile, folder)}):",
        "    msg = headers(entry)",
        f"    if not status(entry) & 0x0008 and str(msg['Message-ID']).strip().strip('<>') == {message_id!r}:",
        "        lines = entry.split(b'\\n', 1)[1].split(b'\\n')",
        "        text = b'\\n'.join(line[1:] if line.startswith(b'>From ') else line for line in lines)",
        f"        os.makedirs({dest.rsplit('/', 1)[0]!r}, exist_ok=True)",
        f"        open({dest!r}, 'wb').write(text)",
        "        break",
        "else:",
        f"    raise SystemExit('no message {message_id}')"])
