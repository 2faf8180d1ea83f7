"""The Chrome profile preparer, the `chromebm` edit ops and the chrome.* primitives."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from preparers import chrome
from preparers.ops import OpError, apply_ops
from verifiers.checks import State, run_check
from verifiers.checks.chrome import same_url

PROFILE = "/home/user/.config/google-chrome/Default"
BOOKMARKS = f"{PROFILE}/Bookmarks"
PREFS = f"{PROFILE}/Preferences"
BAR = "Bookmarks bar"
SPEC: dict[str, list[dict[str, Any]]] = {
    "bookmark_bar": [{"name": "News", "children": [{"name": "BBC News", "url": "https://www.bbc.com/news"},
                                                   {"name": "NPR", "url": "https://www.npr.org/"}]},
                     {"name": "GitHub", "url": "https://github.com/"}],
    "other": [{"name": "Etsy", "url": "https://www.etsy.com/"}],
}


def _profile(tmp_path: Path, prefs: dict | None = None, ops: list[dict] | None = None) -> Path:
    folder = tmp_path / ".config/google-chrome/Default"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Bookmarks").write_bytes(chrome.build_bookmarks(SPEC, random.Random(3)))
    (folder / "Preferences").write_bytes(chrome.build_preferences(prefs or {"browser": {"show_home_button": False}}))
    if ops:
        apply_ops(tmp_path, ops)
    return folder


def _bm(op: str, **args) -> dict:
    return {"op": f"chromebm.{op}", "path": BOOKMARKS, **args}


def _check(tmp_path: Path, primitive: str, path: str = BOOKMARKS, **args):
    return run_check(State(tmp_path), primitive, {"path": path, **args})


# --- preparer ---------------------------------------------------------------------------------------

def test_bookmarks_are_deterministic_and_shaped_like_chromes():
    data = chrome.build_bookmarks(SPEC, random.Random(3))
    assert data == chrome.build_bookmarks(SPEC, random.Random(3))
    tree = json.loads(data)
    bar = tree["roots"]["bookmark_bar"]
    assert (bar["id"], bar["name"], bar["guid"]) == ("1", BAR, "0bc5d13f-2cba-5d74-951f-3f233fe6c908")
    news = bar["children"][0]
    assert news["type"] == "folder" and news["children"][0]["type"] == "url"
    assert len(news["guid"]) == 36 and news["guid"][14] == "4"
    assert 13_200_000_000_000_000 < int(news["date_added"]) < 13_400_000_000_000_000  # 2019..2025 since 1601
    assert data.startswith(b'{\n   "roots"')  # Chrome's 3-space indent, sorted keys


def test_same_url_accepts_what_chrome_fixes_up():
    assert same_url("http://GitHub.com", "https://github.com/")
    assert same_url("docs.python.org/3", "https://docs.python.org/3/")
    assert not same_url("https://github.com/about", "https://github.com/")


# --- ops ---------------------------------------------------------------------------------------------

def test_ops_add_move_rename_delete(tmp_path):
    _profile(tmp_path, ops=[
        _bm("add_folder", folder=[BAR], name="Later"),
        _bm("move_bookmark", folder=[BAR, "News"], name="NPR", to=[BAR, "Later"]),
        _bm("add_bookmark", folder=["Other bookmarks"], name="REI", url="https://www.rei.com/"),
        _bm("rename", folder=[BAR], name="GitHub", new_name="Code"),
        _bm("set_url", folder=[BAR], name="Code", url="https://gitlab.com/"),
        _bm("delete", folder=["Other bookmarks"], name="Etsy"),
    ])
    tree = json.loads((tmp_path / ".config/google-chrome/Default/Bookmarks").read_text())
    names = [(path, n["name"], n.get("url")) for path, n in chrome.walk(tree)]
    assert ([BAR, "Later"], "NPR", "https://www.npr.org/") in names
    assert ([BAR], "Code", "https://gitlab.com/") in names
    assert (["Other bookmarks"], "REI", "https://www.rei.com/") in names
    assert not any(n == "Etsy" for _, n, _ in names)
    ids = [n["id"] for _, n in chrome.walk(tree)]
    assert len(ids) == len(set(ids))


def test_ops_on_missing_nodes_raise(tmp_path):
    _profile(tmp_path)
    with pytest.raises(OpError, match="no bookmark or folder 'Nope'"):
        apply_ops(tmp_path, [_bm("delete", folder=[BAR], name="Nope")])
    with pytest.raises(OpError, match="no bookmark folder"):
        apply_ops(tmp_path, [_bm("add_bookmark", folder=[BAR, "Ghost"], name="x", url="https://x.org/")])


# --- bookmark primitives -------------------------------------------------------------------------------

def test_bookmark_exists_passes_in_the_right_folder_and_fails_elsewhere(tmp_path):
    _profile(tmp_path)
    assert _check(tmp_path, "chrome.bookmark_exists", name="NPR", url="http://www.npr.org", folder=[BAR, "News"]).passed
    assert _check(tmp_path, "chrome.bookmark_exists", name="NPR", url="https://www.npr.org/",
                  folder=["Bookmarks Bar", "News"]).passed  # older label
    result = _check(tmp_path, "chrome.bookmark_exists", name="NPR", url="https://www.npr.org/", folder=[BAR])
    assert not result.passed and "has no bookmark 'NPR'" in result.evidence and "'GitHub'" in result.evidence
    result = _check(tmp_path, "chrome.bookmark_exists", name="npr", url="https://www.npr.org/", folder=[BAR, "News"])
    assert not result.passed
    result = _check(tmp_path, "chrome.bookmark_exists", name="X", url="https://x.org/", folder=[BAR, "Ghost"])
    assert not result.passed and "no bookmark folder" in result.evidence


def test_bookmark_absent_scoped_and_anywhere(tmp_path):
    _profile(tmp_path)
    assert _check(tmp_path, "chrome.bookmark_absent", url="https://www.npr.org/", folder=[BAR]).passed
    result = _check(tmp_path, "chrome.bookmark_absent", url="https://www.npr.org/")
    assert not result.passed and "in Bookmarks bar > News" in result.evidence
    assert not _check(tmp_path, "chrome.bookmark_absent", name="Etsy", folder=["Other bookmarks"]).passed
    result = _check(tmp_path, "chrome.bookmark_absent")
    assert not result.passed and "needs a url or a name" in result.evidence


def test_folders_and_kept_bookmarks(tmp_path):
    _profile(tmp_path, ops=[_bm("move_bookmark", folder=[BAR], name="GitHub", to=["Other bookmarks"])])
    assert _check(tmp_path, "chrome.folder_exists", folder=[BAR, "News"]).passed
    result = _check(tmp_path, "chrome.folder_exists", folder=[BAR, "Later"])
    assert not result.passed and "'BBC News'" not in result.evidence and "'News' [folder]" in result.evidence
    assert _check(tmp_path, "chrome.folder_absent", folder=[BAR, "Later"]).passed
    assert not _check(tmp_path, "chrome.folder_absent", folder=[BAR, "News"]).passed
    kept = [[[BAR, "News"], "NPR", "https://www.npr.org/"], [["Other bookmarks"], "Etsy", "https://www.etsy.com/"]]
    assert _check(tmp_path, "chrome.bookmarks_kept", bookmarks=kept, total=4).passed
    result = _check(tmp_path, "chrome.bookmarks_kept", bookmarks=kept, total=3)
    assert not result.passed and "4 bookmarks in all, expected 3" in result.evidence
    result = _check(tmp_path, "chrome.bookmarks_kept", bookmarks=[*kept, [[BAR], "GitHub", "https://github.com/"]])
    assert not result.passed and "'GitHub' in Bookmarks bar" in result.evidence


# --- settings primitives -------------------------------------------------------------------------------

def test_homepage(tmp_path):
    _profile(tmp_path, prefs={"homepage": "http://news.ycombinator.com", "homepage_is_newtabpage": False,
                              "browser": {"show_home_button": True}})
    assert _check(tmp_path, "chrome.homepage", PREFS, url="https://news.ycombinator.com/", show_button=True).passed
    result = _check(tmp_path, "chrome.homepage", PREFS, url="https://lobste.rs/")
    assert not result.passed and "expected https://lobste.rs/" in result.evidence
    assert not _check(tmp_path, "chrome.homepage", PREFS, new_tab=True).passed
    _profile(tmp_path, prefs={"homepage": "https://lobste.rs/"})  # New Tab page is Chrome's default
    result = _check(tmp_path, "chrome.homepage", PREFS, url="https://lobste.rs/")
    assert not result.passed and "set to the New Tab page" in result.evidence
    result = _check(tmp_path, "chrome.homepage", PREFS, new_tab=True, show_button=True)
    assert not result.passed and "Home button is hidden" in result.evidence


def test_startup_pages(tmp_path):
    urls = ["https://a.example.org/", "https://b.example.org/x"]
    _profile(tmp_path, prefs={"session": {"restore_on_startup": 4, "startup_urls": list(reversed(urls))}})
    assert _check(tmp_path, "chrome.startup_pages", PREFS, mode="urls", urls=urls).passed
    result = _check(tmp_path, "chrome.startup_pages", PREFS, mode="urls", urls=urls[:1])
    assert not result.passed and "unexpected ['https://b.example.org/x']" in result.evidence
    result = _check(tmp_path, "chrome.startup_pages", PREFS, mode="continue")
    assert not result.passed and "expected 'continue'" in result.evidence
    _profile(tmp_path, prefs={})
    assert _check(tmp_path, "chrome.startup_pages", PREFS, mode="new_tab").passed  # Chrome's default


def test_search_engine_defaults_to_google(tmp_path):
    _profile(tmp_path, prefs={})
    assert _check(tmp_path, "chrome.search_engine", PREFS, name="Google", keyword="google.com").passed
    _profile(tmp_path, prefs={"default_search_provider_data": {"template_url_data": {
        "short_name": "DuckDuckGo", "keyword": "duckduckgo.com", "url": "https://duckduckgo.com/?q={searchTerms}"}}})
    assert _check(tmp_path, "chrome.search_engine", PREFS, name="DuckDuckGo", keyword="duckduckgo.com").passed
    result = _check(tmp_path, "chrome.search_engine", PREFS, name="Bing", keyword="bing.com")
    assert not result.passed and "is 'DuckDuckGo' (duckduckgo.com), expected 'Bing'" in result.evidence


def test_missing_and_corrupt_files_fail_with_evidence(tmp_path):
    result = _check(tmp_path, "chrome.bookmark_exists", name="a", url="https://a.org/", folder=[BAR])
    assert not result.passed and "does not exist" in result.evidence
    folder = _profile(tmp_path)
    (folder / "Bookmarks").write_text('{"roots": [')
    (folder / "Preferences").write_text("[1, 2]")
    result = _check(tmp_path, "chrome.folder_exists", folder=[BAR])
    assert not result.passed and "not a readable Chrome Bookmarks file" in result.evidence
    result = _check(tmp_path, "chrome.homepage", PREFS, new_tab=True)
    assert not result.passed and "not a readable Chrome Preferences file" in result.evidence
