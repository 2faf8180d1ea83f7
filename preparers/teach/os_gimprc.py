"""GIMP preference ops as a person edits the gimprc (GIMP closed): a python3 script that rewrites the values."""

from __future__ import annotations

from preparers.teach import snippet

_SCRIPT = """python3 - <<'PY'
import re
from pathlib import Path
p = Path({path!r})
text = p.read_text()

def block(text, name, start, end):
    m = re.compile(r'\\(' + re.escape(name) + r'(?=[\\s)])').search(text, start, end)
    if not m:
        return None
    depth, at = 0, m.start()
    while at < end:
        depth += {{'(': 1, ')': -1}}.get(text[at], 0)
        at += 1
        if depth == 0:
            return m.start(), at

for key, value in {settings!r}.items():
    *parents, name = key.split('/')
    line = '(' + name + ' ' + value + ')'
    start, end = 0, len(text)
    for parent in parents:
        s, e = block(text, parent, start, end)
        start, end = s + 1, e - 1
    span = block(text, name, start, end)
    if span:
        text = text[:span[0]] + line + text[span[1]:]
    elif parents:
        text = text[:end] + '\\n    ' + line + text[end:]
    else:
        text = text.rstrip('\\n') + '\\n' + line + '\\n'
p.write_text(text)
PY"""


@snippet("fs.gimprc_set")
def gimprc_set(path: str, settings: dict[str, str], top: bool = False) -> str:
    return _SCRIPT.format(path=path, settings=dict(settings))
