"""chrome.web_lookup: the family through the gate with every mutant, the teacher reading each fact off the site's
files, and the check on hand-made end states (the look-alike's price, a dollar sign, another day's hours)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from preparers.teach import teach
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome import site as web
from workflows.chrome.web_lookup import HOW, NATURAL, PATTERNS, PHRASINGS, WORKFLOW

SITE = web.draw_site(random.Random(11))
PRODUCT = SITE.products[2]
TWIN = SITE.twin(PRODUCT)
ANSWER = "/home/user/Documents/answer.txt"


@pytest.mark.slow
@pytest.mark.parametrize("fact", ["price", "item", "hours"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, fact):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"fact": fact}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        check = task["rubric"][0]
        assert check["primitive"] == "fs.answer_equals" and check["args"]["answer"] not in task["instruction"]


def _site(root: Path) -> Path:
    for rel, data in SITE.files().items():
        path = root / f"{SITE.root}/{rel}".removeprefix("/home/user/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def _taught(root: Path, pattern: str, find: str | None) -> str:
    op = {"op": "fs.write_found", "path": ANSWER, "text": "(unused by the teacher)", "site_dir": SITE.root,
          "pattern": pattern, "find": find}
    script = teach([op]).replace("/home/user", str(root)).replace("~/", f"{root}/")
    subprocess.run(["bash", "-c", script], check=True, capture_output=True)
    return (root / ANSWER.removeprefix("/home/user/")).read_text()


def test_the_teacher_reads_each_fact_off_the_sites_files(tmp_path):
    root = _site(tmp_path)
    assert _taught(root, PATTERNS["price"], PRODUCT.name) == PRODUCT.price + "\n"
    assert _taught(root, PATTERNS["item"], TWIN.name) == TWIN.item + "\n"
    day, hours = SITE.hours[5]
    assert _taught(root, rf"<td>{day}</td><td>([^<]+)</td>", None) == hours + "\n"


def _answer(root: Path, text: str | None, want: str) -> bool:
    if text is not None:
        path = root / ANSWER.removeprefix("/home/user/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return run_check(State(root), "fs.answer_equals", {"path": ANSWER, "answer": want}).passed


def test_the_check_rejects_wrong_end_states(tmp_path):
    assert _answer(tmp_path / "ok", f" {PRODUCT.price}\n", PRODUCT.price)
    assert not _answer(tmp_path / "none", None, PRODUCT.price)
    assert not _answer(tmp_path / "twin", TWIN.price, PRODUCT.price)
    assert not _answer(tmp_path / "dollar", f"${PRODUCT.price}", PRODUCT.price)
    assert not _answer(tmp_path / "both", f"{PRODUCT.price}\n{TWIN.price}\n", PRODUCT.price)
    assert not _answer(tmp_path / "day", f"{SITE.hours[5][0]} {SITE.hours[5][1]}", SITE.hours[5][1])


def test_every_phrasing_names_the_site_the_fact_and_the_file():
    for how in HOW.values():
        facts = {"shop": SITE.name, "site": SITE.home, "what": f"the price of the '{PRODUCT.name}'", "how": how,
                 "path": ANSWER}
        for phrasing in (*PHRASINGS, *NATURAL):
            text = phrasing.format(**facts)
            assert SITE.home in text and ANSWER in text and how in text and PRODUCT.price not in text
