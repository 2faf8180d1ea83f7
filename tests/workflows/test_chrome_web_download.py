"""chrome.web_download: the family through the gate with every mutant, and the check on hand-made end states (the
look-alike's guide under the right name, the page saved instead, a link to the server's copy, a folder in its
place, a guide with other bytes)."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome import site as web
from workflows.chrome.web_download import FOLDERS, NATURAL, PHRASINGS, WORKFLOW

SITE = web.draw_site(random.Random(7))
PRODUCT = SITE.products[5]
TWIN = SITE.twin(PRODUCT)
NAME = PRODUCT.guide.rsplit("/", 1)[-1]
DOWNLOADS = FOLDERS["downloads"]


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["downloads", "documents"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, folder):
    for seed in (1, 2):
        package = make_package(WORKFLOW, {"folder": folder}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(package, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((package / "task.json").read_text())
        check = task["rubric"][0]
        assert check["primitive"] == "chrome.file_downloaded" and check["args"]["folder"] == FOLDERS[folder]
        assert check["args"]["file"] not in task["instruction"]


def _check(root: Path) -> tuple[bool, str]:
    data = SITE.files()[PRODUCT.guide]
    result = run_check(State(root), "chrome.file_downloaded",
                       {"folder": DOWNLOADS, "file": NAME, "sha256": hashlib.sha256(data).hexdigest(),
                        "site": SITE.home, "page": PRODUCT.name})
    return result.passed, result.evidence


def _home(tmp_path: Path, content: bytes | None = None) -> tuple[Path, Path]:
    folder = tmp_path / DOWNLOADS.removeprefix("/home/user/")
    folder.mkdir(parents=True)
    if content is not None:
        (folder / NAME).write_bytes(content)
    return tmp_path, folder / NAME


def test_the_check_accepts_the_guide_and_rejects_wrong_end_states(tmp_path):
    files = SITE.files()
    assert _check(_home(tmp_path / "ok", files[PRODUCT.guide])[0])[0]
    passed, evidence = _check(_home(tmp_path / "none")[0])
    assert not passed and "does not exist" in evidence
    assert not _check(_home(tmp_path / "twin", files[TWIN.guide])[0])[0]  # the look-alike's guide, renamed
    assert not _check(_home(tmp_path / "page", files[PRODUCT.page])[0])[0]  # the page's HTML under the name
    assert not _check(_home(tmp_path / "edited", files[PRODUCT.guide] + b"\n")[0])[0]
    root, path = _home(tmp_path / "link")
    os.symlink("/home/user/.local/share/www/x.txt", path)  # a link to the server's copy is no download
    assert not _check(root)[0]
    root, path = _home(tmp_path / "dir")
    path.mkdir()
    assert not _check(root)[0]


def test_every_phrasing_names_the_site_product_and_folder_but_not_the_file():
    facts = {"shop": SITE.name, "site": SITE.home, "product": PRODUCT.name, "folder": DOWNLOADS, "keep": ""}
    for phrasing in (*PHRASINGS, *NATURAL):
        text = phrasing.format(**facts)
        assert SITE.home in text and PRODUCT.name in text and DOWNLOADS in text and "download" in text.lower()
        assert NAME not in text
