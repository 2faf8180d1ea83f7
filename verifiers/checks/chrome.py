"""chrome primitives: bookmarks (the `Bookmarks` file) and settings (the `Preferences` file) of a profile.

Written to accept what Chrome itself saves:
- URLs typed into the bookmark editor or settings are fixed up (`example.com` -> `http://example.com/`), so
  URLs compare by `same_url`: scheme http/https alike, host case-insensitive, a trailing slash ignored;
- a folder path starts with the root label Chrome shows ("Bookmarks bar", "Other bookmarks",
  "Mobile bookmarks"; older builds say "Bookmarks Bar"), then folder names compared exactly;
- unset prefs mean Chrome's defaults: the home page is the New Tab page, startup opens the New Tab
  page (`session.restore_on_startup` 5; 1 = continue where you left off, 4 = open specific pages),
  and the default search engine is Google.
The profile path is not part of the instruction (the user works in Chrome's UI), so it is not grounded.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from preparers.chrome import children, folders_at, walk
from preparers.ops.json_doc import get_at
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.grounding import kept_bookmarks
from verifiers.meaning import Meaning, Said, Visible, choice, when
from verifiers.readers import StateError
from verifiers.readers.json import chrome_prefs, folder_nodes, parse_bookmarks

#: restore_on_startup values by mode name.
STARTUP = {"continue": 1, "urls": 4, "new_tab": 5}
DEFAULT_STARTUP = 5
GOOGLE = {"short_name": "Google", "keyword": "google.com"}


def same_url(a: str, b: str) -> bool:
    return _norm_url(a) == _norm_url(b)


def _norm_url(url: str) -> tuple[str, str, str, str, str]:
    text = str(url).strip()
    if "://" not in text and not text.startswith(("about:", "chrome:", "data:", "javascript:")):
        text = "https://" + text
    parts = urlsplit(text)
    scheme = "https" if parts.scheme.lower() in ("http", "https") else parts.scheme.lower()
    return scheme, parts.netloc.lower(), parts.path.rstrip("/"), parts.query, parts.fragment


def _label(folder: list[str]) -> str:
    return " > ".join(folder)


def _listing(nodes: list[dict[str, Any]]) -> str:
    items = [f"{c.get('name')!r}" + (f" ({c.get('url')})" if c.get("type") == "url" else " [folder]")
             for node in nodes for c in children(node)]
    return ", ".join(items[:12]) + (" ..." if len(items) > 12 else "") if items else "nothing"


@primitive("chrome.bookmark_exists", grounded=("name", "url", "folder"), meaning=Meaning(action=r"bookmark"))
def bookmark_exists(state: State, path: str, name: str, url: str, folder: list[str]) -> Result:
    """The folder `folder` (root label first) holds exactly one bookmark called `name`, and it points at `url`.

    A second bookmark with that name pointing elsewhere makes the name ambiguous (which one did the user mean?),
    and a second copy of the same bookmark is clutter the task did not ask for: both fail."""
    _, nodes = folder_nodes(state, path, folder)
    if not nodes:
        return fail(f"there is no bookmark folder {_label(folder)}")
    links = [c for node in nodes for c in children(node) if c.get("type") == "url"]
    named = [c for c in links if str(c.get("name", "")).strip() == name.strip()]
    if not any(same_url(str(c.get("url", "")), url) for c in named):
        return fail(f"{_label(folder)} has no bookmark {name!r} -> {url}; it holds {_listing(nodes)}")
    if len(named) > 1:
        return fail(f"{_label(folder)} holds {len(named)} bookmarks called {name!r}: "
                    + ", ".join(str(c.get("url")) for c in named) + f"; only one, -> {url}, was asked for")
    return ok(f"{_label(folder)} holds {name!r} -> {url}")


@primitive("chrome.bookmark_absent", grounded=("name", "url", "folder"),
           meaning=Meaning(action=r"bookmark|delete|remove"))
def bookmark_absent(state: State, path: str, url: str | None = None, name: str | None = None,
                    folder: list[str] | None = None) -> Result:
    """No bookmark matching `url` and/or `name` remains in `folder` (anywhere, when no folder is given)."""
    if url is None and name is None:
        raise StateError("chrome.bookmark_absent needs a url or a name to look for")
    tree = state.read(path, parse_bookmarks, "Chrome Bookmarks file")
    scope = _label(folder) if folder else "the bookmarks"
    nodes = ([(folder, c) for node in folders_at(tree, folder) for c in children(node)] if folder is not None
             else walk(tree))
    for where, node in nodes:
        if node.get("type") == "url" and (url is None or same_url(str(node.get("url", "")), url)) and (
                name is None or str(node.get("name", "")).strip() == name.strip()):
            return fail(f"{scope} still hold {node.get('name')!r} -> {node.get('url')} (in {_label(where)})")
    wanted = " -> ".join(repr(x) for x in (name, url) if x is not None)
    return ok(f"no bookmark {wanted} in {scope}")


@primitive("chrome.folder_exists", grounded=("folder",), meaning=Meaning(action=r"folder|bookmark"))
def folder_exists(state: State, path: str, folder: list[str]) -> Result:
    """The bookmark folder `folder` (root label first, then folder names) exists."""
    tree, nodes = folder_nodes(state, path, folder)
    if nodes:
        return ok(f"folder {_label(folder)} exists")
    parent = folders_at(tree, folder[:-1])
    return fail(f"there is no folder {_label(folder)}" + (f"; {_label(folder[:-1])} holds {_listing(parent)}"
                                                          if parent else ""))


@primitive("chrome.folder_absent", grounded=("folder",), meaning=Meaning(action=r"folder|bookmark|delete|remove"))
def folder_absent(state: State, path: str, folder: list[str]) -> Result:
    """No bookmark folder is left at the path `folder`."""
    _, nodes = folder_nodes(state, path, folder)
    if nodes:
        return fail(f"folder {_label(folder)} still exists, holding {_listing(nodes)}")
    return ok(f"no folder {_label(folder)}")


@primitive("chrome.bookmarks_kept", grounded=("bookmarks",),
           meaning=Meaning(action=None, why="guards the bookmarks a task leaves alone",
                           args={"bookmarks": Visible(kept_bookmarks)}))
def bookmarks_kept(state: State, path: str, bookmarks: list[list[Any]], total: int | None = None) -> Result:
    """Each `[folder path, name, url]` in `bookmarks` is still a bookmark at that place; with `total`, the
    profile holds exactly that many bookmarks (nothing removed was re-added elsewhere)."""
    tree = state.read(path, parse_bookmarks, "Chrome Bookmarks file")
    missing = []
    for folder, name, url in bookmarks:
        links = [c for node in folders_at(tree, folder) for c in children(node) if c.get("type") == "url"]
        if not any(str(c.get("name", "")).strip() == name and same_url(str(c.get("url", "")), url) for c in links):
            missing.append(f"{name!r} in {_label(folder)}")
    if missing:
        return fail(f"{len(missing)} of {len(bookmarks)} bookmarks that should stay are gone or moved: "
                    + ", ".join(missing[:6]) + (" ..." if len(missing) > 6 else ""))
    if total is not None:
        count = sum(node.get("type") == "url" for _, node in walk(tree))
        if count != total:
            return fail(f"the other bookmarks are in place, but there are {count} bookmarks in all, expected {total}")
    return ok(f"all {len(bookmarks)} other bookmarks are still in place")


@primitive("chrome.homepage", grounded=("url", "new_tab", "show_button"),
           meaning=Meaning(action=r"home",
                           args={"new_tab": Said("home", when("new_tab")),
                                 "show_button": Said("home", choice({True: "shown", False: "hidden"}))}))
def homepage(state: State, path: str, url: str | None = None, new_tab: bool = False,
             show_button: bool | None = None) -> Result:
    """The home page is `url` (or, with `new_tab`, the New Tab page); optionally the Home button is shown/hidden."""
    prefs = chrome_prefs(state, path)
    is_ntp = get_at(prefs, "homepage_is_newtabpage", True) is True
    page = get_at(prefs, "homepage", "")
    if new_tab:
        if not (is_ntp or same_url(str(page), "chrome://newtab/")):
            return fail(f"the home page is {page!r}, not the New Tab page")
        evidence = "the home page is the New Tab page"
    else:
        if url is None:
            raise StateError("chrome.homepage needs a url unless new_tab is true")
        if is_ntp:
            return fail(f"the home page is set to the New Tab page (homepage {page!r} is not used)")
        if not same_url(str(page), url):
            return fail(f"the home page is {page!r}, expected {url}")
        evidence = f"the home page is {page}"
    if show_button is not None:
        shown = get_at(prefs, "browser.show_home_button", False) is True
        if shown != show_button:
            return fail(f"{evidence}, but the Home button is {'shown' if shown else 'hidden'}")
        evidence += f"; the Home button is {'shown' if shown else 'hidden'}"
    return ok(evidence)


@primitive("chrome.startup_pages", grounded=("mode", "urls"),
           meaning=Meaning(action=r"start|onstartup|launch|opens? these pages|make it open",
                           args={"mode": Said("startup")}))
def startup_pages(state: State, path: str, mode: str, urls: list[str] | None = None) -> Result:
    """On startup Chrome opens `mode`: "new_tab", "continue", or "urls" = exactly the pages `urls` (any order)."""
    if mode not in STARTUP:
        raise StateError(f"mode={mode!r}, but must be one of {sorted(STARTUP)}")
    prefs = chrome_prefs(state, path)
    actual = get_at(prefs, "session.restore_on_startup", DEFAULT_STARTUP)
    names = {v: k for k, v in STARTUP.items()}
    if actual != STARTUP[mode]:
        return fail(f"on startup Chrome is set to {names.get(actual, actual)!r} "
                    f"(restore_on_startup={actual}), expected {mode!r}")
    if mode != "urls":
        return ok(f"on startup Chrome opens {mode!r}")
    pages = get_at(prefs, "session.startup_urls", [])
    pages = [str(p) for p in pages] if isinstance(pages, list) else []
    wanted = list(urls or [])
    missing = [u for u in wanted if not any(same_url(p, u) for p in pages)]
    extra = [p for p in pages if not any(same_url(p, u) for u in wanted)]
    if missing or extra or len(pages) != len(wanted):
        return fail(f"startup pages are {pages}; missing {missing}, unexpected {extra}")
    return ok(f"on startup Chrome opens exactly {pages}")


@primitive("chrome.search_engine", grounded=("name", "keyword"), meaning=Meaning(action=r"search"))
def search_engine(state: State, path: str, name: str, keyword: str) -> Result:
    """The default search engine is the one called `name` with shortcut `keyword`."""
    prefs = chrome_prefs(state, path)
    data = get_at(prefs, "default_search_provider_data.template_url_data")
    engine = data if isinstance(data, dict) and data.get("short_name") else GOOGLE
    got_name, got_key = str(engine.get("short_name", "")), str(engine.get("keyword", ""))
    if got_name.strip().casefold() != name.strip().casefold() or got_key.strip().casefold() != keyword.casefold():
        return fail(f"the default search engine is {got_name!r} ({got_key}), expected {name!r} ({keyword})")
    url = engine.get("url")
    if url is not None and not _searches_site(str(url), keyword):
        return fail(f"the default search engine is called {got_name!r} ({got_key}) but searches {str(url)!r}, "
                    f"not {keyword}")
    return ok(f"the default search engine is {got_name!r} ({got_key})")


def _searches_site(url: str, keyword: str) -> bool:
    """Does the engine's search URL go to the site `keyword` names (a built-in engine's shortcut is its domain)?
    The name and shortcut alone are labels: an engine called Google that searches DuckDuckGo is not Google.
    Chrome writes Google's URL as a template starting with `{google:baseURL}` (its country's Google site)."""
    site = keyword.strip().casefold()
    if url.startswith("{google:baseURL}"):
        return site == "google.com"
    host = (urlsplit(url.strip() if "://" in url else "https://" + url.strip()).hostname or "").casefold()
    return host == site or host.endswith("." + site)
