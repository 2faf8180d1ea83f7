"""Desktop option ops as a person at a terminal writes them: a short python3 script that edits mimeapps.list."""

from __future__ import annotations

from preparers.teach import snippet

_MIME_SCRIPT = """python3 - <<'PY'
from pathlib import Path
p = Path({path!r})
section, app, todo = {section!r}, {app!r}, {mimes!r}
lines = p.read_text().splitlines()
current, end = None, None
for i, raw in enumerate(lines):
    s = raw.strip()
    if s.startswith('[') and s.endswith(']'):
        current = s[1:-1]
        continue
    if current != section or not s or s[0] in '#;':
        continue
    end = i + 1
    key, _, old = s.partition('=')
    if key.strip() in todo:
        lines[i] = key.strip() + '=' + {value}
        todo.remove(key.strip())
new = [m + '=' + {new_value} for m in todo]
if end is None:
    lines += ['', '[' + section + ']'] + new
else:
    lines[end:end] = new
p.write_text('\\n'.join(lines) + '\\n')
PY"""


@snippet("fs.mime_default")
def mime_default(path: str, mimes: list[str], app: str, section: str = "Default Applications",
                 place: str = "first") -> str:
    if section == "Default Applications":
        value = new_value = "app"
    else:
        others = "[x for x in old.split(';') if x.strip() and x.strip() != app]"
        value = (f"';'.join([app] + {others}) + ';'" if place == "first" else f"';'.join({others} + [app]) + ';'")
        new_value = "app + ';'"
    return _MIME_SCRIPT.format(path=path, section=section, app=app, mimes=list(mimes), value=value,
                               new_value=new_value)
