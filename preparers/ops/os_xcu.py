"""LibreOffice option ops (fs document kind): set values in the user profile's registrymodifications.xcu.

`fs.xcu_set` edits the file as text, the way a person with an editor would while LibreOffice is closed: the
`<value>` of each asked `<item path>:<prop>` is replaced where the item is written on one line (as LibreOffice
writes it); a setting the file lacks is added as a new item line before `</oor:items>`.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from kit import bounded
from preparers.ops import op
from preparers.ops.fs import FsHandle, _need, _write


def item_line(key: str, value: str) -> str:
    """One setting as LibreOffice writes it (`key` = '<item path>:<prop>')."""
    path, prop = key.rsplit(":", 1)
    return (f"<item oor:path={quoteattr(path)}><prop oor:name={quoteattr(prop)} oor:op=\"fuse\">"
            f"<value>{escape(value)}</value></prop></item>")


@op("fs.xcu_set")
def xcu_set(h: FsHandle, settings: dict[str, str]) -> None:
    """Give each setting of `settings` ({'<item path>:<prop>': value}) its value (see the module doc)."""
    _need(h.host)
    text = bounded.read_file(h.host).decode("utf-8")
    for key, value in settings.items():
        path, prop = key.rsplit(":", 1)
        pattern = re.compile(r'(<item oor:path=' + re.escape(quoteattr(path)) + r'><prop oor:name='
                             + re.escape(quoteattr(prop)) + r' oor:op="fuse"><value>)[^<]*(</value>)')
        new = escape(value).replace("\\", "\\\\")  # a backslash in the value stays one
        text, found = pattern.subn(r"\g<1>" + new + r"\g<2>", text)
        if not found:
            text = text.replace("</oor:items>", item_line(key, value) + "\n</oor:items>")
    _write(h.host, text.encode("utf-8"))
