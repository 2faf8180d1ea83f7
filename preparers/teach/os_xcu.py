"""LibreOffice option ops as a person edits the profile: a python3 script that rewrites the asked values."""

from __future__ import annotations

from preparers.teach import snippet

_SCRIPT = """python3 - <<'PY'
import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr
p = Path({path!r})
text = p.read_text()
for key, value in {settings!r}.items():
    item, prop = key.rsplit(':', 1)
    head = '<item oor:path=' + quoteattr(item) + '><prop oor:name=' + quoteattr(prop) + ' oor:op="fuse"><value>'
    text, n = re.subn(re.escape(head) + '[^<]*</value>', lambda m: head + escape(value) + '</value>', text)
    if not n:
        text = text.replace('</oor:items>', head + escape(value) + '</value></prop></item>\\n</oor:items>')
p.write_text(text)
PY"""


@snippet("fs.xcu_set")
def xcu_set(path: str, settings: dict[str, str]) -> str:
    return _SCRIPT.format(path=path, settings=dict(settings))
