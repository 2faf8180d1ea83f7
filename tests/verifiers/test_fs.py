"""Unit tests for the fs primitives: each passes on a right state and fails, with evidence, on a wrong one, a
missing file and a corrupt file — plus the fs ops they are usually paired with (confined to the state root)."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from preparers.ops import OpError, apply_ops
from verifiers.checks import State, run_check

H = "/home/user"


def _check(root: Path, name: str, **args):
    return run_check(State(root), name, args)


def _write(root: Path, rel: str, data: bytes | str, mode: int = 0o644) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    path.chmod(mode)
    return path


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def _passes(result) -> None:
    assert result.passed, result.evidence


def _fails(result, *words: str) -> None:
    assert not result.passed, result.evidence
    for word in words:
        assert word in result.evidence, result.evidence


# --- existence and modes ----------------------------------------------------------------------------

def test_exists_absent_and_is_dir(tmp_path):
    _write(tmp_path, "Documents/a.txt", "x")
    _passes(_check(tmp_path, "fs.exists", path=f"{H}/Documents/a.txt", kind="file"))
    _passes(_check(tmp_path, "fs.is_dir", path=f"{H}/Documents"))
    _fails(_check(tmp_path, "fs.is_dir", path=f"{H}/Documents/a.txt"), "a file", "expected a folder")
    _fails(_check(tmp_path, "fs.exists", path=f"{H}/Documents/b.txt"), "does not exist")
    _passes(_check(tmp_path, "fs.absent", path=f"{H}/Documents/b.txt"))
    _fails(_check(tmp_path, "fs.absent", path=f"{H}/Documents/a.txt"), "still exists")
    os.symlink("a.txt", tmp_path / "Documents/link")
    _fails(_check(tmp_path, "fs.exists", path=f"{H}/Documents/link", kind="file"), "a symlink")


def test_file_mode_exact(tmp_path):
    _write(tmp_path, "secret.env", "K=v\n", 0o600)
    _passes(_check(tmp_path, "fs.file_mode", path=f"{H}/secret.env", mode="600"))
    _fails(_check(tmp_path, "fs.file_mode", path=f"{H}/secret.env", mode="400"), "has mode 600, expected 400")
    _fails(_check(tmp_path, "fs.file_mode", path=f"{H}/missing.env", mode="600"), "does not exist")


def test_mode_bits_accepts_plus_x_and_u_plus_x(tmp_path):
    for mode in (0o755, 0o744):
        _write(tmp_path, "run.sh", "#!/bin/bash\n", mode)
        _passes(_check(tmp_path, "fs.mode_bits", path=f"{H}/run.sh", require="500"))
    _write(tmp_path, "run.sh", "#!/bin/bash\n", 0o644)
    _fails(_check(tmp_path, "fs.mode_bits", path=f"{H}/run.sh", require="500"), "missing")
    _fails(_check(tmp_path, "fs.mode_bits", path=f"{H}/run.sh", forbid="044"), "must be clear")
    _fails(_check(tmp_path, "fs.mode_bits", path=f"{H}/nope.sh", require="500"), "does not exist")


def test_dir_modes_exact_and_at_least(tmp_path):
    _write(tmp_path, "bin/a.sh", "x", 0o755)
    _write(tmp_path, "bin/notes.md", "x", 0o644)
    _passes(_check(tmp_path, "fs.dir_modes", path=f"{H}/bin", modes={"a.sh": "+500", "notes.md": "644"}))
    _fails(_check(tmp_path, "fs.dir_modes", path=f"{H}/bin", modes={"a.sh": "700", "notes.md": "644"}),
           "a.sh has mode 755, expected 700")
    _fails(_check(tmp_path, "fs.dir_modes", path=f"{H}/bin", modes={"b.sh": "+500"}), "b.sh is missing")
    _fails(_check(tmp_path, "fs.dir_modes", path=f"{H}/nope", modes={}), "not a folder")


# --- links ------------------------------------------------------------------------------------------

def test_symlink_to_accepts_absolute_and_relative_targets(tmp_path):
    _write(tmp_path, "Documents/r.pdf", "%PDF")
    (tmp_path / "Desktop").mkdir()
    os.symlink(f"{H}/Documents/r.pdf", tmp_path / "Desktop/r.pdf")
    os.symlink("../Documents/r.pdf", tmp_path / "Desktop/rel.pdf")
    for link in ("r.pdf", "rel.pdf"):
        _passes(_check(tmp_path, "fs.symlink_to", path=f"{H}/Desktop/{link}", target=f"{H}/Documents/r.pdf"))
    _fails(_check(tmp_path, "fs.symlink_to", path=f"{H}/Desktop/r.pdf", target=f"{H}/Documents/other.pdf"),
           "expected /home/user/Documents/other.pdf")
    _write(tmp_path, "Desktop/copy.pdf", "%PDF")
    _fails(_check(tmp_path, "fs.symlink_to", path=f"{H}/Desktop/copy.pdf", target=f"{H}/Documents/r.pdf"),
           "not a symlink")
    _fails(_check(tmp_path, "fs.symlink_to", path=f"{H}/Desktop/none", target=f"{H}/Documents/r.pdf"),
           "does not exist")
    os.symlink(f"{H}/Documents/gone.pdf", tmp_path / "Desktop/dangling")
    _fails(_check(tmp_path, "fs.symlink_to", path=f"{H}/Desktop/dangling", target=f"{H}/Documents/gone.pdf"),
           "does not exist")


def test_links_leading_out_of_the_root_are_refused(tmp_path):
    os.symlink("/etc", tmp_path / "etc")
    _fails(_check(tmp_path, "fs.text_contains", path=f"{H}/etc/hostname", text="x"), "outside")
    _fails(_check(tmp_path, "fs.dir_listing", path=f"{H}/etc", names=[]), "outside")


# --- content ----------------------------------------------------------------------------------------

def test_same_content(tmp_path):
    _write(tmp_path, "a.csv", "x,y\n")
    _passes(_check(tmp_path, "fs.same_content", path=f"{H}/a.csv", sha256=_sha("x,y\n")))
    _fails(_check(tmp_path, "fs.same_content", path=f"{H}/a.csv", sha256=_sha("other")), "different content")
    _fails(_check(tmp_path, "fs.same_content", path=f"{H}/b.csv", sha256=_sha("x")), "does not exist")


@pytest.mark.parametrize(("name", "good", "bad", "why"), [
    ("fs.text_equals", {"text": "hello\nworld"}, {"text": "hello"}, "expected 'hello'"),
    ("fs.text_contains", {"text": "wor"}, {"text": "moon"}, "does not contain 'moon'"),
    ("fs.line_present", {"line": "world"}, {"line": "wor"}, "has no line 'wor'"),
    ("fs.line_absent", {"line": "moon"}, {"line": "world"}, "still has the line 'world'"),
    ("fs.lines_equal", {"lines": ["hello", "world"]}, {"lines": ["world", "hello"]}, "differs at line 1"),
    ("fs.line_count", {"count": 2}, {"count": 3}, "has 2 lines, expected 3"),
])
def test_text_primitives(tmp_path, name, good, bad, why):
    _write(tmp_path, "t.txt", "hello\nworld  \n\n")
    _passes(_check(tmp_path, name, path=f"{H}/t.txt", **good))
    _fails(_check(tmp_path, name, path=f"{H}/t.txt", **bad), why)
    _fails(_check(tmp_path, name, path=f"{H}/missing.txt", **good), "does not exist")
    _write(tmp_path, "bin.txt", b"\xff\xfe\x00binary")
    _fails(_check(tmp_path, name, path=f"{H}/bin.txt", **good), "not a readable UTF-8 text file")


def test_answer_equals_numbers_text_and_lists(tmp_path):
    _write(tmp_path, "count.txt", " 7\n")
    _passes(_check(tmp_path, "fs.answer_equals", path=f"{H}/count.txt", answer=7))
    _fails(_check(tmp_path, "fs.answer_equals", path=f"{H}/count.txt", answer=8), "not the expected answer")
    _write(tmp_path, "names.txt", "a.pdf\nb.pdf\n\n")
    _passes(_check(tmp_path, "fs.answer_equals", path=f"{H}/names.txt", answer=["a.pdf", "b.pdf"]))
    _fails(_check(tmp_path, "fs.answer_equals", path=f"{H}/names.txt", answer=["b.pdf", "a.pdf"]), "not the expected")
    _fails(_check(tmp_path, "fs.answer_equals", path=f"{H}/none.txt", answer=1), "does not exist")
    _write(tmp_path, "bad.txt", b"\x80\x81")
    _fails(_check(tmp_path, "fs.answer_equals", path=f"{H}/bad.txt", answer=1), "not a readable")


# --- config files -----------------------------------------------------------------------------------

INI = "# app\n[export]\nquality = 90\nenabled=true\n\n[upload]\nenabled = false\nretries: 3\n"


def test_config_value_accepts_spacing_and_quotes_but_not_duplicates(tmp_path):
    _write(tmp_path, "app.ini", INI.replace("quality = 90", 'quality="75"'))
    _passes(_check(tmp_path, "fs.config_value", path=f"{H}/app.ini", key="quality", value="75", section="export"))
    _fails(_check(tmp_path, "fs.config_value", path=f"{H}/app.ini", key="enabled", value="true", section="upload"),
           "[upload] enabled = 'false', expected 'true'")
    _fails(_check(tmp_path, "fs.config_value", path=f"{H}/app.ini", key="x", value="1", section="nope"),
           "no section [nope]")
    _write(tmp_path, "dup.ini", INI + "[export]\nquality = 75\n")
    _fails(_check(tmp_path, "fs.config_value", path=f"{H}/dup.ini", key="quality", value="75", section="export"),
           "set 2 times")
    _write(tmp_path, ".env", "export TOKEN=abc\n# TOKEN=old\n")
    _passes(_check(tmp_path, "fs.config_value", path=f"{H}/.env", key="TOKEN", value="abc"))
    _fails(_check(tmp_path, "fs.config_value", path=f"{H}/none.ini", key="a", value="b"), "does not exist")
    _write(tmp_path, "bin.ini", b"\xff\x00")
    _fails(_check(tmp_path, "fs.config_value", path=f"{H}/bin.ini", key="a", value="b"), "not a readable")


def test_config_matches_requires_every_key_unchanged(tmp_path):
    _write(tmp_path, "app.ini", INI)
    entries = {"export": {"quality": "90", "enabled": "true"}, "upload": {"enabled": "false"}}
    _passes(_check(tmp_path, "fs.config_matches", path=f"{H}/app.ini", entries=entries))
    _fails(_check(tmp_path, "fs.config_matches", path=f"{H}/app.ini",
                  entries={**entries, "upload": {"enabled": "true"}}), "[upload] enabled")
    _fails(_check(tmp_path, "fs.config_matches", path=f"{H}/app.ini", entries={"export": entries["export"]}),
           "[upload] enabled is set but should not be")


def test_commented(tmp_path):
    _write(tmp_path, "a.conf", "#  quality = 90\nretries = 3\n")
    _passes(_check(tmp_path, "fs.commented", path=f"{H}/a.conf", line="quality = 90"))
    _fails(_check(tmp_path, "fs.commented", path=f"{H}/a.conf", line="retries = 3"), "still has")
    _fails(_check(tmp_path, "fs.commented", path=f"{H}/a.conf", line="timeout = 5"), "no commented-out")
    _fails(_check(tmp_path, "fs.commented", path=f"{H}/b.conf", line="x"), "does not exist")


# --- folders and archives ---------------------------------------------------------------------------

def test_dir_listing_flat_recursive_and_contents(tmp_path):
    _write(tmp_path, "P/a.txt", "a")
    _write(tmp_path, "P/sub/b.txt", "b")
    _passes(_check(tmp_path, "fs.dir_listing", path=f"{H}/P", names=["a.txt", "sub"]))
    _passes(_check(tmp_path, "fs.dir_listing", path=f"{H}/P", names=["a.txt", "sub/b.txt"], recursive=True,
                   contents={"sub/b.txt": _sha("b")}))
    _fails(_check(tmp_path, "fs.dir_listing", path=f"{H}/P", names=["a.txt"]), "unexpected ['sub']")
    _fails(_check(tmp_path, "fs.dir_listing", path=f"{H}/P", names=["a.txt", "sub"], contents={"a.txt": _sha("z")}),
           "not the original files")
    _fails(_check(tmp_path, "fs.dir_listing", path=f"{H}/Q", names=[]), "does not exist")


def _tar(members: dict[str, bytes], compression: str = "gz") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=f"w:{compression}" if compression else "w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_archive_contains_tar_gz_with_and_without_a_leading_folder(tmp_path):
    files = {"a.txt": b"a", "d/b.csv": b"b"}
    _write(tmp_path, "x.tar.gz", _tar(files))
    _write(tmp_path, "y.tar.gz", _tar({f"./site/{k}": v for k, v in files.items()}))
    for name in ("x", "y"):
        _passes(_check(tmp_path, "fs.archive_contains", path=f"{H}/{name}.tar.gz", format="tar.gz",
                       members=sorted(files), contents={"a.txt": _sha("a")}))
    _fails(_check(tmp_path, "fs.archive_contains", path=f"{H}/x.tar.gz", format="tar.gz", members=["a.txt"]),
           "unexpected ['d/b.csv']")
    _fails(_check(tmp_path, "fs.archive_contains", path=f"{H}/x.tar.gz", format="tar.gz", members=sorted(files),
                  contents={"a.txt": _sha("z")}), "differ from the original")
    _write(tmp_path, "plain.tar.gz", _tar(files, ""))
    _fails(_check(tmp_path, "fs.archive_contains", path=f"{H}/plain.tar.gz", format="tar.gz", members=sorted(files)),
           "is a tar archive, expected tar.gz")


def test_archive_contains_zip_and_garbage(tmp_path):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("home/user/P/a.txt", "a")
        zf.writestr("home/user/P/", "")
    _write(tmp_path, "a.zip", out.getvalue())
    _passes(_check(tmp_path, "fs.archive_contains", path=f"{H}/a.zip", format="zip", members=["a.txt"]))
    _fails(_check(tmp_path, "fs.archive_contains", path=f"{H}/a.zip", format="zip", members=["b.txt"]), "missing")
    _write(tmp_path, "junk.zip", b"PK\x03\x04 this is not really a zip")
    _fails(_check(tmp_path, "fs.archive_contains", path=f"{H}/junk.zip", format="zip", members=[]), "not a readable")
    _fails(_check(tmp_path, "fs.archive_contains", path=f"{H}/none.zip", format="zip", members=[]), "does not exist")


def test_unreadable_folder_is_a_fail_not_a_crash(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads everything")
    _write(tmp_path, "P/a.txt", "a")
    (tmp_path / "P").chmod(0o000)
    try:
        _fails(_check(tmp_path, "fs.dir_listing", path=f"{H}/P", names=["a.txt"]), "cannot inspect")
    finally:
        (tmp_path / "P").chmod(0o755)


# --- ops ------------------------------------------------------------------------------------------

def test_ops_move_chmod_symlink_archive_extract_round_trip(tmp_path):
    _write(tmp_path, "Downloads/a.pdf", "%PDF")
    _write(tmp_path, "Downloads/b.txt", "b\n")
    apply_ops(tmp_path, [
        {"op": "fs.move", "path": f"{H}/Downloads/a.pdf", "dest": f"{H}/Documents/PDFs/a.pdf"},
        {"op": "fs.chmod", "path": f"{H}/Downloads/b.txt", "mode": "600"},
        {"op": "fs.symlink", "path": f"{H}/Desktop/a.pdf", "target": f"{H}/Documents/PDFs/a.pdf"},
        {"op": "fs.zip_create", "path": f"{H}/b.zip", "members": [f"{H}/Downloads"], "base": H},
        {"op": "fs.extract", "path": f"{H}/b.zip", "dest": f"{H}/out"},
    ])
    _passes(_check(tmp_path, "fs.symlink_to", path=f"{H}/Desktop/a.pdf", target=f"{H}/Documents/PDFs/a.pdf"))
    _passes(_check(tmp_path, "fs.file_mode", path=f"{H}/Downloads/b.txt", mode="600"))
    _passes(_check(tmp_path, "fs.archive_contains", path=f"{H}/b.zip", format="zip", members=["b.txt"]))
    _passes(_check(tmp_path, "fs.dir_listing", path=f"{H}/out", names=["Downloads/b.txt"], recursive=True))


@pytest.mark.parametrize("op", [
    {"op": "fs.delete", "path": "/etc/passwd"},
    {"op": "fs.move", "path": f"{H}/a.txt", "dest": f"{H}/../a.txt"},
    {"op": "fs.symlink", "path": f"{H}/l", "target": "/etc/passwd"},
    {"op": "fs.symlink", "path": f"{H}/l", "target": "../../etc"},
    {"op": "fs.write_text", "path": f"{H}/out/x.txt", "text": "escape through a link"},
])
def test_ops_refuse_to_leave_the_state_root(tmp_path, op):
    root = tmp_path / "home"
    _write(root, "a.txt", "a")
    os.symlink(tmp_path, root / "out")
    with pytest.raises(OpError):
        apply_ops(root, [op])


def test_extract_refuses_members_that_climb_out(tmp_path):
    _write(tmp_path, "evil.tar", _tar({"../evil.txt": b"x"}, ""))
    with pytest.raises(OpError, match="outside the destination"):
        apply_ops(tmp_path, [{"op": "fs.extract", "path": f"{H}/evil.tar", "dest": f"{H}/x"}])
    assert not (tmp_path / "evil.txt").exists()


def test_ops_text_edits_copies_and_tar(tmp_path):
    _write(tmp_path, "P/notes.txt", "one\ntwo\n")
    _write(tmp_path, "P/sub/a.csv", "x\n")
    apply_ops(tmp_path, [
        {"op": "fs.mkdir", "path": f"{H}/Empty/inner"},
        {"op": "fs.append_text", "path": f"{H}/P/notes.txt", "text": "three\n"},
        {"op": "fs.replace_in_file", "path": f"{H}/P/notes.txt", "old": "two", "new": "2"},
        {"op": "fs.copy", "path": f"{H}/P", "dest": f"{H}/Backup/P"},
        {"op": "fs.rename", "path": f"{H}/Backup/P/notes.txt", "name": "notes.bak"},
        {"op": "fs.tar_create", "path": f"{H}/p.tar.bz2", "members": [f"{H}/P"], "base": f"{H}/P",
         "compression": "bz2"},
        {"op": "fs.delete", "path": f"{H}/P/sub"},
    ])
    _passes(_check(tmp_path, "fs.is_dir", path=f"{H}/Empty/inner"))
    _passes(_check(tmp_path, "fs.lines_equal", path=f"{H}/P/notes.txt", lines=["one", "2", "three"]))
    _passes(_check(tmp_path, "fs.dir_listing", path=f"{H}/Backup/P", names=["notes.bak", "sub/a.csv"],
                   recursive=True, contents={"sub/a.csv": _sha("x\n")}))
    _passes(_check(tmp_path, "fs.archive_contains", path=f"{H}/p.tar.bz2", format="tar.bz2",
                   members=["notes.txt", "sub/a.csv"]))
    _passes(_check(tmp_path, "fs.absent", path=f"{H}/P/sub"))
    with pytest.raises(OpError, match="does not occur"):
        apply_ops(tmp_path, [{"op": "fs.replace_in_file", "path": f"{H}/P/notes.txt", "old": "zzz", "new": "y"}])
