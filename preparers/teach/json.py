"""JSON settings ops (`json.*`: VS Code's settings.json and keybindings.json, a workspace file, Chrome's
Preferences) as the Python a person types: read the file, change the value at its key path, write it back in the
file's own layout.

VS Code's files are JSONC: comment lines (`// ...`) above some keys, and keybindings.json's header comment. A person
editing the text keeps them, as VS Code's own settings editor does (and as `preparers.ops.json_doc` keeps them): the
script reads the data with the comment lines blanked out, and writes each comment line back above the line it
annotated. Chrome's Preferences is one line with sorted keys, and stays so.
"""

from __future__ import annotations

from typing import Any

from preparers.ops.json_doc import key_path
from preparers.teach import Language, language, snippet

#: Helpers every script that edits a JSON file defines once (`Language.imports` keeps each line once: no line of
#: them may repeat, see test_teach_json).
_HELPERS = r'''import itertools
import json
import re
from pathlib import Path
def read_jsonc(path):
    """The file's data (a missing or empty file is an empty object) and its text; // comment lines are skipped."""
    text = Path(path).read_text() if Path(path).exists() else ''
    data = re.sub(r'(?m)^\s*//.*$', '', text).strip()
    return (json.loads(data) if data else {}), text
def write_jsonc(path, data, text):
    """Write `data` in the layout of `text`: one line stays one line; else its indent, and each block of comment
    lines above the line it stood above (a removed key's comments above the next key, or its closing bracket)."""
    if text.strip() and '\n' not in text.strip():
        Path(path).write_text(json.dumps(data, separators=(',', ':'), sort_keys=True, ensure_ascii=False))
        return
    indent = re.search(r'\n([ \t]+)\S', text)
    new = json.dumps(data, indent=indent.group(1) if indent else 4, ensure_ascii=False).splitlines()
    anchor = lambda line: line.split(':')[0].rstrip().rstrip(',')  # a line's indent and key, or its bracket
    present, lines, notes, out = {anchor(n) for n in new}, text.splitlines(), {}, []
    for i, line in enumerate(lines):
        if line.strip().startswith('//') and not (i and lines[i - 1].strip().startswith('//')):
            block = list(itertools.takewhile(lambda c: c.strip().startswith('//'), lines[i:]))
            below = [anchor(b) for b in lines[i + len(block):] if not b.strip().startswith('//')] or [anchor(new[-1])]
            depth = len(below[0]) - len(below[0].lstrip())
            home = next((b for b in below if len(b) - len(b.lstrip()) <= depth and b in present), anchor(new[-1]))
            notes.setdefault(home, []).extend(block)
    for line in new:
        out += notes.pop(anchor(line), [])
        out.append(line)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text('\n'.join(out) + '\n')
'''

language(Language(
    "json", imports=_HELPERS, open="VAR, VAR_text = read_jsonc(PATH)", save="write_jsonc(PATH, VAR, VAR_text)",
    var="data", peek="print(open(PATH).read()[:4000])"))


def _at(var: str, steps: list[str | int], *, create: bool) -> str:
    """The expression of the container at `steps`: missing objects made on the way when `create`."""
    expr = var
    for step in steps:
        expr += f".setdefault({step!r}, {{}})" if create and isinstance(step, str) else f"[{step!r}]"
    return expr


@snippet("json.set")
def set_value(data: str, path: str, key: str | list[str | int], value: Any) -> str:
    steps = key_path(key)
    if not steps:
        return f"{data} = {value!r}"
    return f"{_at(data, steps[:-1], create=True)}[{steps[-1]!r}] = {value!r}"


@snippet("json.delete")
def delete(data: str, path: str, key: str | list[str | int], missing_ok: bool = False) -> str:
    steps = key_path(key)
    line = f"del {_at(data, steps[:-1], create=False)}[{steps[-1]!r}]"
    if missing_ok:
        return f"try:\n    {line}\nexcept (KeyError, IndexError):\n    pass  # not set: nothing to remove"
    return line


@snippet("json.append")
def append(data: str, path: str, key: str | list[str | int], value: Any, unique: bool = False) -> str:
    steps = key_path(key)
    if steps:
        lines = [f"items = {_at(data, steps[:-1], create=True)}.setdefault({steps[-1]!r}, [])"]
    else:
        lines = [f"{data} = {data} or []  # a new file: an empty list", f"items = {data}"]
    if unique:
        return "\n".join([*lines, f"if {value!r} not in items:", f"    items.append({value!r})"])
    return "\n".join([*lines, f"items.append({value!r})"])
