"""chrome.clear_cookies: the family through the gate with every mutant (both axes moved too), the Cookies op, and
the checks on hand-made cookie stores (a domain cookie left, a sign-in subdomain forgotten, a look-alike site)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers.ops import apply_ops
from preparers.ops.chrome_cookies import build_cookies
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome.clear_cookies import COOKIES, WORKFLOW

T = 13_350_000_000_000_000


def _cookie(host: str, name: str) -> dict:
    return {"host": host, "name": name, "path": "/", "created": T, "expires": T + 10**12, "secret": b"x" * 16}


STORE = [_cookie(".example.com", "_ga"), _cookie("www.example.com", "sid"), _cookie("accounts.example.com", "auth"),
         _cookie(".exampleapp.com", "_ga"), _cookie("news.other.org", "lang")]
OTHERS = [[".exampleapp.com", "_ga", "/"], ["news.other.org", "lang", "/"]]
MINE = [[".example.com", "_ga", "/"], ["www.example.com", "sid", "/"], ["accounts.example.com", "auth", "/"]]


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["site", "keep_site"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope):
    for seed, axes in ((1, {}), (2, {"cookies": "many", "lookalikes": "some"})):
        folder = make_package(WORKFLOW, {"scope": scope, **axes}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][:2] == ["chrome.cookies_removed", "chrome.cookies_kept"]


def _state(tmp_path: Path) -> Path:
    host = tmp_path / COOKIES.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(build_cookies(STORE))
    return host


def _verdict(tmp_path: Path, keep: bool) -> tuple[bool, bool]:
    args = {"except_site": "example.com"} if keep else {"site": "example.com"}
    removed = run_check(State(tmp_path), "chrome.cookies_removed", {"path": COOKIES, **args}).passed
    kept = run_check(State(tmp_path), "chrome.cookies_kept", {"path": COOKIES, "cookies": MINE if keep else OTHERS})
    return removed, kept.passed


@pytest.mark.parametrize(("keep", "ops", "verdict"), [
    (False, [{"site": "example.com"}], (True, True)),
    (False, [{"hosts": ["www.example.com"]}], (False, True)),  # the domain and sign-in cookies left
    (False, [{"site": "example.com"}, {"site": "exampleapp.com"}], (True, False)),  # a look-alike site too
    (False, [{"everything": True}], (True, False)),
    (True, [{"except_site": "example.com"}], (True, True)),
    (True, [{"hosts": ["exampleapp.com", "news.other.org", "accounts.example.com"]}], (True, False)),
    (True, [{"site": "other.org"}], (False, True)),
])
def test_the_checks_judge_what_is_left(tmp_path, keep, ops, verdict):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "chromecookies.delete", "path": COOKIES, **o} for o in ops])
    assert _verdict(tmp_path, keep) == verdict


def test_the_untouched_store_and_a_damaged_file_fail(tmp_path):
    host = _state(tmp_path)
    assert _verdict(tmp_path, False) == (False, True)
    host.write_bytes(b"SQLite format 3\x00" + b"\x00" * 50)
    assert _verdict(tmp_path, False) == (False, False)
