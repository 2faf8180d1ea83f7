"""The OS app's shared pieces: the tree preparer (real, reproducible files), the offline content pool, the
families' contracts (phrasings, determinism) and the os taxonomy."""

from __future__ import annotations

import io
import random
import tarfile
import zipfile

import jsonschema
import pytest
from PIL import Image

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from kit.taxonomy import load_taxonomy
from preparers import tree
from preparers.tree import FileSpec
from workflows.os import archive as os_archive
from workflows.os import cleanup as os_cleanup
from workflows.os import config_edit as os_config_edit
from workflows.os import copy as os_copy
from workflows.os import count as os_count
from workflows.os import extract as os_extract
from workflows.os import organize as os_organize
from workflows.os import permissions as os_permissions
from workflows.os import rename as os_rename
from workflows.os import symlink as os_symlink
from workflows.os.content import POOL_SCHEMA, SCENARIOS, generate_pool

FAMILIES = (os_archive, os_cleanup, os_config_edit, os_copy, os_count, os_extract, os_organize, os_permissions,
            os_rename, os_symlink)
H = "/home/user"


@pytest.mark.parametrize(("name", "magic"), [
    ("a.pdf", b"%PDF-1.4"), ("a.png", b"\x89PNG\r\n\x1a\n"), ("a.jpg", b"\xff\xd8\xff\xe0"), ("a.gif", b"GIF89a"),
    ("a.wav", b"RIFF"), ("a.mp3", b"ID3"), ("a.docx", b"PK\x03\x04"), ("a.xlsx", b"PK\x03\x04"),
    ("a.tar.gz", b"\x1f\x8b"), ("a.tar.bz2", b"BZh"), ("a.zip", b"PK\x03\x04"),
])
def test_tree_renders_real_files_with_their_magic_bytes(name, magic):
    member = FileSpec("notes/x.txt", "text", "hello\n")
    spec = FileSpec(f"{H}/{name}", tree.kind_for(name), "a caption", rows=(("a", "b"), ("1", "2")), members=(member,))
    data = tree.render(spec)
    assert data.startswith(magic)
    assert data == tree.render(spec)  # reproducible


def test_images_open_and_differ_by_caption():
    for ext in ("png", "jpg", "gif"):
        one, two = (tree.render(FileSpec(f"{H}/p.{ext}", ext, caption)) for caption in ("beach", "forest"))
        assert one != two
        Image.open(io.BytesIO(one)).load()


def test_archives_hold_their_members():
    members = (FileSpec("a.txt", "text", "a\n"), FileSpec("d/b.jpg", "jpg", "b"))
    with tarfile.open(fileobj=io.BytesIO(tree.render(FileSpec(f"{H}/x.tar.gz", "tar.gz", members=members)))) as tar:
        assert tar.getnames() == ["a.txt", "d/b.jpg"]
    with zipfile.ZipFile(io.BytesIO(tree.render(FileSpec(f"{H}/x.zip", "zip", members=members)))) as zf:
        assert zf.namelist() == ["a.txt", "d/b.jpg"]


def test_build_refuses_paths_outside_home_and_duplicates():
    with pytest.raises(ValueError, match="under /home/user"):
        tree.build([FileSpec("/etc/x", "text")])
    with pytest.raises(ValueError, match="twice"):
        tree.build([FileSpec(f"{H}/a", "text"), FileSpec(f"{H}/a", "text")])
    assets = tree.build([FileSpec(f"{H}/bin/run.sh", "text", "#!/bin/bash\n", mode=0o755)])
    assert (assets[0].mode, assets[0].app) == (0o755, "")


@pytest.mark.parametrize("scenario", [s.name for s in SCENARIOS])
def test_offline_pool_fits_its_schema_and_is_deterministic(scenario):
    pool = generate_pool(random.Random(7), scenario)
    jsonschema.validate(pool, POOL_SCHEMA)
    assert pool == generate_pool(random.Random(7), scenario)
    stems = [d["stem"] for d in pool["documents"]] + pool["photos"] + pool["tracks"]
    assert len(stems) == len(set(stems))


@pytest.mark.parametrize("module", FAMILIES, ids=lambda m: m.NAME)
def test_family_contract(module):
    wf = module.WORKFLOW
    wf.validate()
    assert len(module.PHRASINGS) >= 5
    assert not any(ch.isdigit() for text in module.PHRASINGS for ch in text), "phrasings could leak counts"
    params = {knob: values[-1] for knob, values in wf.knobs.items()}
    runs = [wf.run(NodeContext(params, 3, "os.test", 0, OfflineBackend())) for _ in range(2)]
    first, second = ([(a.dest, a.data, a.mode) for a in run["assets"]] for run in runs)
    assert first == second
    assert runs[0]["instruction"] == runs[1]["instruction"]
    assert runs[0]["launch"] == ["gnome-terminal"]
    assert len(runs[0]["solutions"]) >= 3  # an oracle and at least two near-misses


def test_os_taxonomy_covers_every_family_with_distinct_skills():
    skills = [s for s in load_taxonomy().values() if s.apps == ("os",)]
    assert len(skills) >= 75
    from workflows import families

    registered = {name: wf for name, wf in families().items() if name.startswith("os.")}
    assert {m.NAME for m in FAMILIES} <= set(registered)
    assert {s.family for s in skills} == set(registered)
    keys = [(s.family, tuple(sorted(s.params.items()))) for s in skills]
    assert len(keys) == len(set(keys))
    for skill in skills:
        assert registered[skill.family].check_params(dict(skill.params)) is None, skill.id
