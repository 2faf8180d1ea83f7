"""chrome.clear_history: the family through the gate with every mutant, the History op, and the checks on hand-made
History databases (a subdomain left behind, orphaned visits, a bookmarked address Chrome keeps at zero counts)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from preparers.ops import apply_ops
from preparers.ops.chrome_history import build_history
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome.clear_history import HISTORY, WORKFLOW

T = 13_350_000_000_000_000  # a Chrome time (microseconds since 1601)
ENTRIES = [
    {"url": "https://www.example.com/", "title": "Example", "visits": [T, T + 5], "typed": 1},
    {"url": "https://docs.example.com/faq", "title": "FAQ - Example", "visits": [T + 9]},
    {"url": "https://www.exampleapp.com/", "title": "ExampleApp", "visits": [T + 3]},
    {"url": "https://news.other.org/", "title": "Other", "visits": [T + 1, T + 2, T + 4]},
    {"url": "https://www.google.com/search?q=example", "title": "example - Google Search", "visits": [T + 6],
     "typed": 1, "search": "example"},
]
KEPT = [["https://www.exampleapp.com/", 1], ["https://news.other.org/", 3],
        ["https://www.google.com/search?q=example", 1]]


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["site", "page"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope):
    for seed, axes in ((1, {}), (2, {"history": "long", "lookalikes": "some"})):
        folder = make_package(WORKFLOW, {"scope": scope, **axes}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][:2] == ["chrome.history_removed", "chrome.history_kept"]


def _state(tmp_path: Path) -> Path:
    host = tmp_path / HISTORY.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(build_history(ENTRIES))
    return host


def _removed(tmp_path: Path, **args) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "chrome.history_removed", {"path": HISTORY, **args})
    return result.passed, result.evidence


def _kept(tmp_path: Path) -> bool:
    return run_check(State(tmp_path), "chrome.history_kept", {"path": HISTORY, "visits": KEPT}).passed


def test_the_op_removes_the_site_on_every_subdomain_and_nothing_else(tmp_path):
    _state(tmp_path)
    assert _removed(tmp_path, site="example.com")[0] is False
    apply_ops(tmp_path, [{"op": "chromehist.delete", "path": HISTORY, "site": "example.com"}])
    assert _removed(tmp_path, site="example.com") == (True, "nothing of example.com is left in the history "
                                                            "(3 addresses remain)")
    assert _kept(tmp_path)


@pytest.mark.parametrize(("ops", "removed", "kept"), [
    ([{"hosts": ["www.example.com"]}], False, True),  # docs.example.com left behind
    ([{"site": "example.com", "keep_visits": True}], False, True),  # orphaned visits
    ([{"site": "example.com", "keep_urls": True}], False, True),  # still suggested
    ([{"everything": True}], True, False),
    ([{"site": "example.com"}, {"site": "exampleapp.com"}], True, False),  # a look-alike removed too
])
def test_slips_fail_the_checks(tmp_path, ops, removed, kept):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "chromehist.delete", "path": HISTORY, **o} for o in ops])
    assert (_removed(tmp_path, site="example.com")[0], _kept(tmp_path)) == (removed, kept)


def test_a_bookmarked_address_chrome_keeps_at_zero_counts_is_no_history(tmp_path):
    host = _state(tmp_path)
    conn = sqlite3.connect(host)
    conn.execute("DELETE FROM visits WHERE url IN (SELECT id FROM urls WHERE url LIKE '%example.com/%')")
    conn.execute("DELETE FROM urls WHERE url = 'https://docs.example.com/faq'")
    conn.execute("UPDATE urls SET visit_count = 0, typed_count = 0 WHERE url = 'https://www.example.com/'")
    conn.commit()
    conn.close()
    assert _removed(tmp_path, site="example.com")[0] is True
    assert _removed(tmp_path, url="https://docs.example.com/faq")[0] is True


def test_a_file_that_is_no_database_fails(tmp_path):
    host = _state(tmp_path)
    host.write_bytes(b"not sqlite at all" * 10)
    assert _removed(tmp_path, site="example.com")[0] is False
    assert _kept(tmp_path) is False
