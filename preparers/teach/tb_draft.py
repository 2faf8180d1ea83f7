"""Thunderbird's Save as Draft (`tb.save_draft`) as the Python a person types: build the message with the email
package, attach the file, and append it to the Drafts mbox file with its `From -` line (Thunderbird is closed)."""

from __future__ import annotations

from preparers.teach.tb import _box, _mail_action


@_mail_action("tb.save_draft")
def save_draft(profile: str, path: str, sender: str, to: list[str], subject: str, body: str, message_id: str,
               date: str, attachments: list[str] | None = None, cc: list[str] | None = None,
               folder: str = "Drafts") -> str:
    if folder != "Drafts" or cc:
        raise ValueError("tb.save_draft: only a draft in Drafts addressed with To is a solution")
    lines = ["import email.policy, email.utils, mimetypes, os, datetime",
             "from email.message import EmailMessage",
             "msg = EmailMessage()",
             "msg['X-Mozilla-Status'] = '0001'",
             f"msg['Message-ID'] = {'<' + message_id + '>'!r}",
             f"msg['Date'] = email.utils.format_datetime(datetime.datetime.fromisoformat({date!r}))",
             f"msg['From'] = {sender!r}",
             f"msg['To'] = {', '.join(to)!r}",
             f"msg['Subject'] = {subject!r}",
             f"msg.set_content({body!r})"]
    for file in attachments or []:
        lines += [f"kind = (mimetypes.guess_type({file!r})[0] or 'application/octet-stream').split('/')",
                  f"msg.add_attachment(open({file!r}, 'rb').read(), maintype=kind[0], subtype=kind[1], "
                  f"filename={file.rsplit('/', 1)[1]!r})"]
    lines += [f"box = {_box(profile, folder)}",
              "data = msg.as_bytes(policy=email.policy.SMTP.clone(linesep='\\n'))",
              "stamp = datetime.datetime.now().strftime('%a %b %d %H:%M:%S %Y')",
              "old = open(box, 'rb').read() if os.path.exists(box) else b''",
              "if old and not old.endswith(b'\\n'):",
              "    old += b'\\n'",
              "with open(box, 'wb') as out:",
              "    out.write(old + b'From - ' + stamp.encode() + b'\\n' + data.replace(b'\\nFrom ', b'\\n>From ')"
              " + b'\\n')"]
    return "\n".join(lines)
