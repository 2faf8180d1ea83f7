"""Package bytes are pinned: one package per seed skill (seed 1, index 0) hashes to the value recorded in
golden/packages.json. A refactor of the families (the family kit, moved modules) must not change a byte; a change
that means to change packages updates the file on purpose:

    FORGE_UPDATE_GOLDEN=1 python3 -m pytest -q tests/workflows/test_golden_packages.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.ids import TaskId, digest
from kit.llm import OfflineBackend
from kit.package import build_package
from kit.taxonomy import Skill, load_taxonomy
from workflows import get_family

GOLDEN = Path(__file__).parent / "golden" / "packages.json"
UPDATE = os.environ.get("FORGE_UPDATE_GOLDEN") == "1"


def package_hash(skill: Skill, seed: int = 1) -> str:
    """The hash of every file of the skill's package (names and bytes, in name order)."""
    workflow = get_family(skill.family)
    ctx = NodeContext(skill.params, seed, skill.id, 0, OfflineBackend())
    package = build_package(TaskId(skill.id, seed, 0), skill, workflow, workflow.run(ctx), ctx.calls)
    return digest(b"".join(name.encode() + b"\0" + digest(data).encode()
                           for name, data in sorted(package.files.items())))


def _families() -> dict[str, list[Skill]]:
    by_family: dict[str, list[Skill]] = {}
    for skill in load_taxonomy().values():
        by_family.setdefault(skill.family, []).append(skill)
    return dict(sorted(by_family.items()))


FAMILIES = _families()


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_packages_keep_their_bytes(family: str, golden: dict[str, str]) -> None:
    hashes = {skill.id: package_hash(skill) for skill in FAMILIES[family]}
    if UPDATE:
        recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        recorded.update(hashes)
        GOLDEN.write_text(json.dumps(dict(sorted(recorded.items())), indent=0) + "\n")
        return
    changed = sorted(skill for skill, value in hashes.items() if golden.get(skill) != value)
    assert not changed, (f"{len(changed)} package(s) of {family} changed bytes: {changed[:5]}; if that is meant, "
                         "rerun with FORGE_UPDATE_GOLDEN=1")
