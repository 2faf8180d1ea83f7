"""Teacher scripts: a task's oracle as the commands a person at a terminal would type.

An oracle is data (`preparers.ops`), applied by Forge with privileged Python; an agent has a shell. `teach(ops)`
writes the same edit as shell commands, for the teacher control of the gate (verifiers.gate.stages: the commands
run through the student's own sandboxed shell and the rubric must pass) and for teacher trajectories (`forge export
trajectories --teacher`):

- a first command that looks (`look`): the folders the task touches, and what each document holds, read the way
  a person at a terminal would (a sheet's rows, a document's paragraphs, a deck's slide texts, a config's text);
- then the edit: file-tree ops as coreutils lines (`mv`, `cp`, `chmod`, `tar` ...), and each run of document ops as
  one `python3` heredoc that opens every file once with the library a person would use (openpyxl, python-docx,
  python-pptx, Pillow, json) and saves it at the end of the run.

Every op kind registers its snippet next to its op (`preparers/teach/<kind>.py`, `@snippet("xlsx.sort_rows")`); a
document kind registers how a script opens and saves its documents (`language(...)`). An op without a snippet
makes `teach` raise `NotTeachable`: the family then says it needs the GUI (`terminal=False`), or gets a snippet.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kit.registry import import_submodules

HOME = "/home/user"


class NotTeachable(ValueError):
    """An op has no snippet, or its arguments cannot be written as a command."""


@dataclass(frozen=True)
class Language:
    """How a script handles the documents of one ops kind.

    `shell`: the kind's snippets are shell lines (`fn(path, **args)`); otherwise they are Python lines run in one
    heredoc, `fn(var, path, **args)` where `var` names the open document (`path` is its home path), opened by
    `open` after `imports`, and written back by `save`. `peek`: Python lines that print what a person would look
    at in such a file, or '' for a listing only. In `open`, `save` and `peek`, VAR stands for the variable and
    PATH for the quoted path."""

    name: str
    shell: bool = False
    imports: str = ""
    open: str = ""
    save: str = ""
    var: str = "doc"
    peek: str = ""


_SNIPPETS: dict[str, Callable[..., str]] = {}
_LANGUAGES: dict[str, Language] = {}


def language(lang: Language) -> None:
    if lang.name in _LANGUAGES:
        raise ValueError(f"teaching language {lang.name!r} registered twice")
    _LANGUAGES[lang.name] = lang


def snippet(name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Register the snippet of op `name`: `fn(path, **op_args)` or `fn(var, path, **op_args)` -> lines (see
    `Language`)."""
    def wrap(fn: Callable[..., str]) -> Callable[..., str]:
        if name in _SNIPPETS:
            raise ValueError(f"snippet {name!r} registered twice")
        _SNIPPETS[name] = fn
        return fn

    return wrap


def snippets() -> dict[str, Callable[..., str]]:
    import_submodules(__name__)
    return _SNIPPETS


def languages() -> dict[str, Language]:
    import_submodules(__name__)
    return _LANGUAGES


def q(path: str) -> str:
    """A home path as a person types it in a shell: `~/Documents/a b.xlsx` quoted where needed."""
    if path == HOME:
        return "~"
    if path.startswith(HOME + "/"):
        rest = path[len(HOME) + 1:]
        return "~/" + (rest if shlex.quote(rest) == rest else shlex.quote(rest))
    return shlex.quote(path)


def _kind(raw: dict[str, Any]) -> str:
    return str(raw.get("op", "")).split(".", 1)[0]


def _python(run: Sequence[dict[str, Any]]) -> str:
    """One heredoc for a run of document ops: open each file once (in order of first use), edit, save all."""
    langs = languages()
    names: dict[str, str] = {}
    imports: list[str] = []
    opened: list[str] = []
    body: list[str] = []
    for raw in run:
        lang = langs[_kind(raw)]
        path = raw["path"]
        if path not in names:
            count = sum(1 for p in names if langs[_kind(_first(run, p))].var == lang.var)
            names[path] = lang.var if count == 0 else f"{lang.var}{count + 1}"
            for line in lang.imports.splitlines():
                if line not in imports:
                    imports.append(line)
            opened.append(_fill(lang.open, names[path], path))
        args = {k: v for k, v in raw.items() if k not in ("op", "path")}
        body.append(_call(raw["op"], (names[path], path), args))
    saves = [_fill(langs[_kind(_first(run, p))].save, var, p) for p, var in names.items()]
    code = "\n".join([*imports, *opened, *body, *saves])
    return f"python3 - <<'PY'\n{code}\nPY"


def _fill(template: str, var: str, path: str) -> str:
    return template.replace("VAR", var).replace("PATH", repr(path))


def _first(run: Sequence[dict[str, Any]], path: str) -> dict[str, Any]:
    return next(raw for raw in run if raw["path"] == path)


def _call(name: str, target: tuple[str, ...], args: dict[str, Any]) -> str:
    fn = snippets().get(name)
    if fn is None:
        raise NotTeachable(f"op {name} has no teacher snippet (preparers/teach/)")
    try:
        return fn(*target, **args).rstrip("\n")
    except TypeError as exc:
        raise NotTeachable(f"op {name}: {exc}") from None


def teach(ops: Sequence[dict[str, Any]]) -> str:
    """The edit of `ops` as one shell script (lines for the file tree, a heredoc per run of document ops)."""
    langs = languages()
    parts: list[str] = []
    run: list[dict[str, Any]] = []
    for raw in ops:
        kind = _kind(raw)
        if kind not in langs:
            raise NotTeachable(f"op {raw.get('op')}: no teaching language for {kind!r} documents")
        if langs[kind].shell:
            if run:
                parts.append(_python(run))
                run = []
            parts.append(_call(str(raw["op"]), (str(raw["path"]),), {k: v for k, v in raw.items()
                                                                   if k not in ("op", "path")}))
        else:
            run.append(raw)
    if run:
        parts.append(_python(run))
    return "\n".join(parts)


def look(ops: Sequence[dict[str, Any]], existing: Sequence[str]) -> str:
    """What a person looks at before the edit: the folders the ops touch, and each existing document's content.

    `existing`: the home paths of the initial state's files (a document the oracle makes has nothing to show)."""
    langs = languages()
    present = set(existing)
    folders: list[str] = []
    peeks: dict[str, str] = {}
    for raw in ops:
        for key, value in raw.items():
            if key == "op" or not isinstance(value, str) or not value.startswith(HOME + "/"):
                continue
            folder = value.rsplit("/", 1)[0]
            while folder != HOME and not any(p.startswith(folder + "/") for p in present):
                folder = folder.rsplit("/", 1)[0]  # a folder the task makes: list where it will go
            if folder not in folders:
                folders.append(folder)
        lang = langs.get(_kind(raw))
        path = str(raw.get("path", ""))
        held = path in present or any(p.startswith(f"{path}/") for p in present)  # a file, or a profile folder
        if lang and lang.peek and held and path not in peeks:
            peeks[path] = _fill(lang.peek, lang.var, path)
    lines = [f"ls -la {' '.join(q(f) for f in folders)}" if folders else "ls -la ~"]
    if peeks:
        lines.append("python3 - <<'PY'\n" + "\n".join(peeks.values()) + "\nPY")
    return "\n".join(lines)
