"""chrome.web_bookmark: the family through the gate with every mutant, the site it ships, the bookmark op, the check
on hand-made end states (the look-alike's page, Chrome's proposed name, a second bookmark with the name), and the
teacher's search of the server's folder."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from preparers import chrome
from preparers.ops import OpError, apply_ops
from preparers.teach import teach
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome import kit as chc
from workflows.chrome import site as web
from workflows.chrome.web_bookmark import NATURAL, PHRASINGS, WORKFLOW

SITE = web.draw_site(random.Random(4))
PRODUCT = SITE.products[3]
TWIN = SITE.twin(PRODUCT)
FOLDER = [chc.BAR, "Gear"]


@pytest.mark.slow
@pytest.mark.parametrize("location", ["bar", "bar_folder", "other_folder"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, location):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"location": location}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "chrome.page_bookmarked"
        url = task["rubric"][0]["args"]["url"]
        assert url.startswith("http://127.0.0.1:") and url not in task["instruction"]
        assert task["setup"]["launch"][:2] == ["bash", "-c"] and "http.server" in task["setup"]["launch"][2]


def test_the_site_links_every_page_and_is_deterministic():
    files = SITE.files()
    assert files == web.draw_site(random.Random(4)).files()
    assert files != web.draw_site(random.Random(5)).files()
    text = b"".join(files.values()).decode()
    for product in SITE.products:
        assert f'href="../{product.page}"' in text and f"<h1>{product.name}</h1>" in files[product.page].decode()
        assert f'href="../{product.guide}"' in files[product.page].decode()
    assert SITE.twin(TWIN) == PRODUCT and TWIN.category == PRODUCT.category
    assert all(a.dest.startswith(web.WWW + "/") for a in SITE.assets())


def _home(tmp_path: Path, extra: list[dict] | None = None) -> Path:
    spec = {"bookmark_bar": [{"name": "Gear", "children": [{"name": "REI", "url": "https://www.rei.com/"}]}],
            "other": [], "synced": []}
    host = tmp_path / chc.BOOKMARKS.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(chrome.build_bookmarks(spec, random.Random(0)))
    for rel, data in SITE.files().items():
        path = tmp_path / f"{SITE.root}/{rel}".removeprefix("/home/user/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if extra:
        apply_ops(tmp_path, extra)
    return tmp_path


def _mark(url: str, name: str = PRODUCT.name, folder: list[str] = FOLDER) -> dict:
    return chc.bm("bookmark_page", folder=folder, name=name, url=url, site=SITE.home, site_dir=SITE.root,
                  find=PRODUCT.name)


def _check(root: Path) -> tuple[bool, str]:
    result = run_check(State(root), "chrome.page_bookmarked",
                       {"path": chc.BOOKMARKS, "name": PRODUCT.name, "folder": FOLDER, "site": SITE.home,
                        "page": PRODUCT.name, "url": SITE.url(PRODUCT.page)})
    return result.passed, result.evidence


def test_the_check_accepts_the_page_and_rejects_wrong_end_states(tmp_path):
    assert _check(_home(tmp_path / "ok", [_mark(SITE.url(PRODUCT.page))]))[0]
    passed, evidence = _check(_home(tmp_path / "none"))
    assert not passed and "not bookmarked" in evidence
    assert not _check(_home(tmp_path / "twin", [_mark(SITE.url(TWIN.page))]))[0]
    assert not _check(_home(tmp_path / "home", [_mark(SITE.home)]))[0]  # the shop's home page
    assert not _check(_home(tmp_path / "title", [_mark(SITE.url(PRODUCT.page), name=f"{PRODUCT.name} | x")]))[0]
    both = [_mark(SITE.url(TWIN.page)), _mark(SITE.url(PRODUCT.page))]  # two bookmarks with the name
    assert not _check(_home(tmp_path / "both", both))[0]
    # a hostile Bookmarks file fails, it does not raise
    bad = _home(tmp_path / "bad")
    (bad / chc.BOOKMARKS.removeprefix("/home/user/")).write_text("{not json")
    assert not _check(bad)[0]


def test_the_op_refuses_a_page_of_another_site(tmp_path):
    with pytest.raises(OpError, match="not a page of"):
        apply_ops(_home(tmp_path), [_mark("https://example.com/p/x.html")])


def test_the_teacher_finds_the_page_in_the_servers_folder(tmp_path):
    root = _home(tmp_path)
    script = teach([_mark(SITE.url(PRODUCT.page))]).replace("/home/user", str(root))
    subprocess.run(["bash", "-c", script], check=True, capture_output=True)
    assert _check(root)[0]


def test_every_phrasing_names_the_site_and_the_product_but_not_the_page():
    facts = {"shop": SITE.name, "site": SITE.home, "product": PRODUCT.name, "where": "directly on the Bookmarks bar"}
    for phrasing in (*PHRASINGS, *NATURAL):
        text = phrasing.format(**facts)
        assert SITE.home in text and PRODUCT.name in text and "bookmark" in text.lower()
        assert SITE.url(PRODUCT.page) not in text
