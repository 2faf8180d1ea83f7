"""File-tree teacher snippets (preparers/teach/fs.py): the shell lines a person would type leave the same tree as
the op they teach, run exactly as a student's command runs (forge.agent.shell.AgentShell, bubblewrap)."""

from __future__ import annotations

import os
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers.ops import apply_ops
from preparers.teach import NotTeachable, look, teach

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")

H = "/home/user"


def _state(root: Path) -> None:
    (root / "Downloads").mkdir(parents=True)
    (root / "Downloads" / "q3 report.pdf").write_bytes(b"%PDF-1.4 q3")
    (root / "Downloads" / "notes.txt").write_text("alpha beta\nbeta gamma\n")
    (root / "work" / "site" / "img").mkdir(parents=True)
    (root / "work" / "site" / "index.html").write_text("<h1>hi</h1>\n")
    (root / "work" / "site" / "img" / "logo.png").write_bytes(b"\x89PNG fake")
    (root / "bin").mkdir()
    (root / "bin" / "run.sh").write_text("#!/bin/sh\necho ok\n")
    with zipfile.ZipFile(root / "Downloads" / "pack.zip", "w") as zf:
        zf.writestr("a.txt", "A\n")
        zf.writestr("sub/b.txt", "B\n")
    with tarfile.open(root / "Downloads" / "pack.tar.gz", "w:gz") as tar:
        tar.add(root / "work" / "site" / "index.html", arcname="site/index.html")


def _tree(root: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        mode = path.lstat().st_mode & 0o7777
        if path.is_symlink():
            seen[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            seen[rel] = ("dir", mode)
        elif path.suffix in (".zip", ".gz"):  # archives: the members, not the bytes (timestamps differ)
            seen[rel] = ("archive", mode, _members(path))
        else:
            seen[rel] = ("file", mode, path.read_bytes())
    return seen


def _members(path: Path) -> list[tuple[str, bytes]]:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as zf:
            return sorted((i.filename.rstrip("/"), zf.read(i)) for i in zf.infolist() if not i.is_dir())
    with tarfile.open(path) as tar:
        return sorted((m.name, tar.extractfile(m).read()) for m in tar.getmembers() if m.isreg())  # type: ignore


CASES = [
    [{"op": "fs.move", "path": f"{H}/Downloads/q3 report.pdf", "dest": f"{H}/Documents/Reports/q3 report.pdf"}],
    [{"op": "fs.copy", "path": f"{H}/work/site", "dest": f"{H}/backup/site"}],
    [{"op": "fs.rename", "path": f"{H}/Downloads/notes.txt", "name": "notes-2024.txt"}],
    [{"op": "fs.delete", "path": f"{H}/work/site/img"}],
    [{"op": "fs.mkdir", "path": f"{H}/Projects/2025/drafts"}],
    [{"op": "fs.chmod", "path": f"{H}/bin/run.sh", "mode": "755"},
     {"op": "fs.chmod", "path": f"{H}/work/site", "mode": "750", "recursive": True}],
    [{"op": "fs.symlink", "path": f"{H}/Desktop/site", "target": f"{H}/work/site"}],
    [{"op": "fs.write_text", "path": f"{H}/todo.txt", "text": "call Ana\n"},
     {"op": "fs.write_text", "path": f"{H}/count.txt", "text": "42"}],
    [{"op": "fs.append_text", "path": f"{H}/Downloads/notes.txt", "text": "delta 'quoted' $HOME\n"}],
    [{"op": "fs.replace_in_file", "path": f"{H}/Downloads/notes.txt", "old": "beta", "new": "BETA", "count": 1}],
    [{"op": "fs.tar_create", "path": f"{H}/Desktop/site.tar.gz", "members": [f"{H}/work/site"], "base": f"{H}/work"}],
    [{"op": "fs.zip_create", "path": f"{H}/site.zip", "members": [f"{H}/work/site/index.html"],
      "base": f"{H}/work/site"}],
    [{"op": "fs.extract", "path": f"{H}/Downloads/pack.zip", "dest": f"{H}/unpacked"}],
    [{"op": "fs.extract", "path": f"{H}/Downloads/pack.tar.gz", "dest": f"{H}/unpacked"}],
]


@pytest.mark.parametrize("ops", CASES, ids=[case[0]["op"] + str(i) for i, case in enumerate(CASES)])
def test_the_snippet_leaves_the_tree_the_op_leaves(tmp_path: Path, ops: list[dict[str, Any]]) -> None:
    by_op, by_shell = tmp_path / "op", tmp_path / "shell"
    _state(by_op)
    apply_ops(by_op, ops)
    _state(by_shell)
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(by_shell)
    shell = AgentShell(sandbox)
    seen = shell.run(by_shell, look(ops, [f"{H}/{p.relative_to(by_shell).as_posix()}"
                                          for p in by_shell.rglob("*") if p.is_file()]))
    assert seen.exit_code == 0, seen.shown
    done = shell.run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _tree(by_shell) == _tree(by_op)


def test_an_op_without_a_snippet_is_not_teachable() -> None:
    with pytest.raises(NotTeachable, match="no teaching language"):
        teach([{"op": "nosuch.thing", "path": f"{H}/a"}])


def test_a_missing_snippet_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from preparers import teach as module

    monkeypatch.delitem(module.snippets(), "fs.move")
    with pytest.raises(NotTeachable, match="fs.move has no teacher snippet"):
        teach(CASES[0])
