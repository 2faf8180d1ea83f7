"""chrome.site_search: the family through the gate with every mutant, the Web Data op, and the checks on hand-made
keyword tables (an address without %s, a duplicate shortcut, Chrome's {searchTerms} form)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers.ops import apply_ops
from preparers.ops.chrome_webdata import build_webdata
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome.site_search import WEBDATA, WORKFLOW

WIKI = "https://en.wikipedia.org/w/index.php?search=%s"
ENGINES = [{"name": "Google", "keyword": "google.com", "url": "{google:baseURL}search?q={searchTerms}",
            "prepopulate_id": 1, "created": 1, "guid": "g"},
           {"name": "GitHub", "keyword": "gh", "url": "https://github.com/search?q=%s", "created": 2, "guid": "h"}]
KEPT = [["google.com", "{google:baseURL}search?q={searchTerms}"], ["gh", "https://github.com/search?q=%s"]]


@pytest.mark.slow
@pytest.mark.parametrize("initial", ["new", "repoint"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, initial):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"initial": initial}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][:2] == ["chrome.site_search", "chrome.search_engines_kept"]


def _state(tmp_path: Path) -> None:
    host = tmp_path / WEBDATA.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(build_webdata(ENGINES))


def _verdict(tmp_path: Path, ops: list[dict]) -> tuple[bool, bool]:
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "chromewebdata.set_site_search", "path": WEBDATA, **o} for o in ops])
    found = run_check(State(tmp_path), "chrome.site_search", {"path": WEBDATA, "name": "Wikipedia", "keyword": "w",
                                                              "url": WIKI}).passed
    kept = run_check(State(tmp_path), "chrome.search_engines_kept", {"path": WEBDATA, "engines": KEPT}).passed
    return found, kept


@pytest.mark.parametrize(("ops", "verdict"), [
    ([], (False, True)),
    ([{"name": "Wikipedia", "keyword": "w", "url": WIKI}], (True, True)),
    ([{"name": "wikipedia ", "keyword": "W", "url": WIKI.replace("https", "http")}], (True, True)),
    ([{"name": "Wikipedia", "keyword": "w", "url": "https://en.wikipedia.org/"}], (False, True)),  # no %s
    ([{"name": "Wikipedia", "keyword": "w", "url": WIKI}, {"name": "Wiki", "keyword": "w", "url": WIKI}],
     (False, True)),  # two engines share the shortcut
    ([{"name": "Wikipedia", "keyword": "w", "url": WIKI, "replace": "gh"}], (True, False)),  # GitHub's edited
])
def test_the_checks_read_the_keywords_table(tmp_path, ops, verdict):
    assert _verdict(tmp_path, ops) == verdict
