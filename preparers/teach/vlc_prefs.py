"""VLC preference ops as a person edits vlcrc with VLC closed: a python3 script that sets each option's line (the
set line rewritten, else the commented-out default uncommented, else the line added to its section)."""

from __future__ import annotations

from preparers.teach import snippet

_SCRIPT = """python3 - <<'PY'
from pathlib import Path
p = Path({path!r})
text = p.read_text(encoding='utf-8')
bom = '\\ufeff' if text.startswith('\\ufeff') else ''
rows = text.removeprefix('\\ufeff').split('\\n')
for name, value in {options!r}.items():
    line = {line}
    hits = [i for i, r in enumerate(rows) if r.startswith(name + '=')] or \\
        [i for i, r in enumerate(rows) if r.startswith('#' + name + '=')]
    if hits:
        rows[hits[-1]] = line
        continue
    head = next((i for i, r in enumerate(rows) if r.startswith('[' + {section!r} + ']')), None)
    if head is None:
        rows += ['', '[' + {section!r} + ']', '', line, '']
        continue
    end = next((i for i in range(head + 1, len(rows)) if rows[i].startswith('[')), len(rows))
    while end > head + 1 and not rows[end - 1].strip():
        end -= 1
    rows[end:end] = ['', line]
p.write_text(bom + '\\n'.join(rows), encoding='utf-8')
PY"""
_LINES = {"plain": "name + '=' + value", "commented": "'#' + name + '=' + value", "spaced": "name + ' = ' + value"}


@snippet("fs.vlcrc_set")
def vlcrc_set(path: str, options: dict[str, str], section: str, form: str = "plain") -> str:
    return _SCRIPT.format(path=path, options=dict(options), section=section, line=_LINES[form])
