"""The canonical model of the home folder's file tree, and its frame.

Facts (path relative to /home/user -> canonical text): `d:<u>` a folder, `f:<u>:<sha256 12>` a file, `l:<target>`
a symbolic link, `o:<kind>` anything else (a fifo, a socket); `<u>` is the owner's permission digit (read, write,
execute), the one a person changes ("make it read-only"): the group and other digits follow the session's umask
and are noise. An office document's content is `*` (a workbook's own frame, verifiers/frame/xlsx.py, and the goal
checks judge it; an app re-saving it is not a change of the tree).

What is walked: every entry whose path has no hidden part (a name beginning with "."), the Trash
(.local/share/Trash), and each hidden folder the task prepares a file in (a config folder: a stray `.bak` beside
`pos.conf` is a change). Application profiles and caches (.config/libreoffice, .cache, lock files) are not.

A frame keeps one digest per folder of its entries the task does not change. Every change of the end state must
lie in diff(initial, oracle) (a file the task moves away must be gone, a folder it makes must be a folder) or be
the Trash holding what the task deletes (a person deletes into the Trash; a copy of a file the task *moves* left
in the Trash is not a deletion).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

TRASH = ".local/share/Trash"
#: Hidden folders that are an application's own profile: the app rewrites them as it runs; their own state kinds
#: judge them, never the tree.
APP_PROFILES = (".thunderbird/", ".mozilla/", ".config/google-chrome/", ".config/chromium/", ".config/Code/",
                ".vscode/extensions/",  # VS Code's installed extensions: vscode.extension_installed judges them
                ".git/",  # a repository's own bookkeeping (index, logs, objects): git.branch_created judges its refs
                ".config/libreoffice/", ".config/GIMP/",
                ".config/vlc/")  # VLC writes vlc-qt-interface.conf as it runs; vlcrc has its own frame
MAX_ENTRIES = 20_000
MAX_HASHED = 64 << 20
UNHASHED = (".xlsx", ".docx", ".pptx")  # office documents: judged by their own frame and goal checks
#: Folders a desktop session makes in every home (xdg-user-dirs, snap): part of the model only when not empty.
ENVIRONMENT = frozenset({"Desktop", "Documents", "Downloads", "Music", "Pictures", "Public", "Templates", "Videos",
                         "snap"})


def _fact(entry: os.DirEntry[str]) -> str:
    info = entry.stat(follow_symlinks=False)
    owner = str((info.st_mode >> 6) & 0o7)
    if stat.S_ISLNK(info.st_mode):
        return f"l:{os.readlink(entry.path)}"
    if stat.S_ISDIR(info.st_mode):
        return f"d:{owner}"
    if not stat.S_ISREG(info.st_mode):
        return f"o:{stat.S_IFMT(info.st_mode):o}"
    if entry.name.lower().endswith(UNHASHED):
        return f"f:{owner}:*"
    if info.st_size > MAX_HASHED:
        return f"f:{owner}:size={info.st_size}"
    digest = hashlib.sha256()
    fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return f"f:{owner}:{digest.hexdigest()[:12]}"


def _walked(rel: str, hidden: frozenset[str]) -> bool:
    """Is the entry at `rel` part of the model: no hidden part, or inside the Trash, or a hidden folder the task
    prepares files in (or on the way to one)? Never what lies inside a bare repository (`origin.git/`): git's own
    objects and refs, which the git checks judge."""
    parts = rel.split("/")
    if any(p.endswith(".git") for p in parts[:-1]):
        return False
    if not any(p.startswith(".") for p in parts):
        return True
    if rel == TRASH or rel.startswith(TRASH + "/") or TRASH.startswith(rel + "/"):
        return True
    return any(rel == h or rel.startswith(h + "/") and "/" not in rel[len(h) + 1:] or h.startswith(rel + "/")
               for h in hidden)


def tree_facts(root: Path, hidden: Iterable[str] = ()) -> dict[str, str]:
    """The model of the tree under `root` (standing for /home/user). `hidden`: the hidden folders walked too.
    Bounded: at most `MAX_ENTRIES` entries (then `#truncated`), files hashed up to `MAX_HASHED` bytes, no link
    followed, no fifo opened."""
    keep = frozenset(hidden)
    facts: dict[str, str] = {}
    stack = [("", str(root))]
    while stack:
        rel, folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            facts[rel or "."] = f"o:unreadable {exc.strerror}"
            continue
        for entry in entries:
            path = f"{rel}/{entry.name}" if rel else entry.name
            if not _walked(path, keep):
                continue
            if _trash_frame(path) or (not rel and entry.name in ENVIRONMENT and _empty_dir(entry)):
                stack.append((path, entry.path))  # walked, but the Trash's own folders are not facts
                continue
            if len(facts) >= MAX_ENTRIES:
                facts["#truncated"] = str(MAX_ENTRIES)
                return facts
            try:
                facts[path] = _fact(entry)
            except OSError as exc:
                facts[path] = f"o:unreadable {exc.strerror}"
                continue
            if facts[path].startswith("d:"):
                stack.append((path, entry.path))
    return facts


def _trash_frame(rel: str) -> bool:
    """The folders on the way to what the Trash holds (.local, .local/share, the Trash, its files/ and info/): a
    first deletion makes them; they are not a change of their own."""
    return TRASH.startswith(rel) and (rel == TRASH or TRASH[len(rel)] == "/") or (
        rel.startswith(TRASH + "/") and rel.count("/") == TRASH.count("/") + 1)


def _empty_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False) and not any(os.scandir(entry.path))
    except OSError:
        return False


def _trash_name(key: str) -> str:
    """The name a Trash entry stands for: its info file without `.trashinfo`, a counter the Trash adds to a second
    entry of one name (`notes.2.txt`) taken out."""
    name = key.rpartition("/")[2].removesuffix(".trashinfo")
    return re.sub(r"\.\d+(?=\.[^.]*$|$)", "", name)


def _parent(key: str) -> str:
    return key.rpartition("/")[0] or "."


def _digests(facts: Mapping[str, str], allowed: Mapping[str, str]) -> dict[str, str]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for key, value in facts.items():
        if key not in allowed and not _in_trash(key):
            groups.setdefault(_parent(key), []).append((key, value))
    return {group: hashlib.sha256(json.dumps(sorted(items)).encode()).hexdigest()[:12]
            for group, items in groups.items()}


def _in_trash(key: str) -> bool:
    return key.startswith(TRASH + "/")


def _allowed_kind(fact: str | None) -> str:
    """What an end state may hold where the task changes the tree: a file (its content and mode are the goal checks'
    question), a folder with the oracle's owner permissions (a folder made and then made read-only is not asked), a
    link, or nothing (`-`)."""
    if fact is None:
        return "-"
    return fact if fact.startswith("d:") else fact[0]


def derive(initial: Mapping[str, str], oracle: Mapping[str, str]) -> dict[str, Any]:
    """The tree frame: the paths that differ (with the kind of entry the oracle left: `f`, `d`, `l`, `o` or `-`
    for none), the digests of every folder's other entries, and the names the Trash may receive (what the task
    deletes and does not put anywhere else)."""
    allowed = {key: _allowed_kind(oracle.get(key)) for key in sorted(set(initial) | set(oracle))
               if initial.get(key) != oracle.get(key) and not _in_trash(key)}
    # a file whose content the task puts at a new path was moved, not deleted: a copy of it in the Trash is a leftover
    moved_to = {oracle[key].split(":", 2)[2] for key in allowed if oracle.get(key, "").startswith("f:")}
    deleted = sorted(key.rpartition("/")[2] for key, kind in allowed.items() if kind == "-" and key in initial
                     and not (initial[key].startswith("f:") and initial[key].split(":", 2)[2] in moved_to))
    # what the Trash held before the task and still holds after the oracle (a restore takes out only the asked
    # items) may stay there; which items a restore takes out is the goal checks' question
    stayed = sorted({_trash_name(key) for key in initial if _in_trash(key) and key.count("/") == TRASH.count("/") + 2
                     and oracle.get(key) == initial[key]} - set(deleted))
    return {"allowed": allowed, "kept": _digests(initial, allowed), "trash": deleted + stayed}


def judge(frame: Mapping[str, Any], end: Mapping[str, str]) -> list[str]:
    """Every change of `end` out of the frame, one phrase each (empty: the end state lies inside it)."""
    allowed: Mapping[str, str] = frame["allowed"]
    kept: Mapping[str, str] = frame["kept"]
    trash = set(frame.get("trash") or ())
    problems = []
    if "#truncated" in end:
        problems.append(f"the home folder holds more than {MAX_ENTRIES} entries")
    for key, kind in allowed.items():
        got = (end[key] if end[key].startswith("d:") and kind.startswith("d:") else end[key][0]) if key in end else "-"
        if got != kind:
            wanted = {"-": "gone", "f": "a file", "l": "a link"}.get(kind, f"a folder ({kind})" if kind[0] == "d"
                                                                  else kind)
            problems.append(f"{key} is {'gone' if got == '-' else end[key][:40]} where the task leaves {wanted}")
    for key in end:
        if _in_trash(key) and key.count("/") == TRASH.count("/") + 2:  # Trash/files/<name>, Trash/info/<name>
            name = _trash_name(key)
            if name not in trash and key.rpartition("/")[2].removesuffix(".trashinfo") not in trash:
                problems.append(f"{key} is in the Trash, but the task deletes no {name!r}")
    now = _digests(end, allowed)
    for group in sorted(set(kept) | set(now)):
        if kept.get(group) == now.get(group):
            continue
        entries = [f"{k.rpartition('/')[2]}={v[:14]}" for k, v in sorted(end.items())
                   if _parent(k) == group and k not in allowed and not _in_trash(k)][:5]
        where = "the home folder" if group == "." else group
        problems.append(f"{where} {'gained entries' if group not in kept else 'changed'} "
                        f"({', '.join(entries) if entries else 'now empty'})")
    return list(dict.fromkeys(problems))
