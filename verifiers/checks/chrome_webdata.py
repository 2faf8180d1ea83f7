"""chrome search engine primitives: the site search shortcuts of Chrome's `Web Data` database (SQLite, table
`keywords`), read from a copy (with its -journal / -wal), read-only, bounded by the state's reader; a file that is
not such a database fails.

A search address compares as Chrome uses it: `%s` and `{searchTerms}` are the same placeholder, the scheme http /
https and the host's case are free; an address without the placeholder searches nothing (it opens one page)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from preparers.ops.chrome_webdata import TERMS, stored_url
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.sqlite import copy_connection

MAX_ROWS = 20_000
Engine = tuple[str, str, str]  # short_name, keyword, url


def read_engines(host: Path) -> list[Engine]:
    with copy_connection(host) as conn:
        return [(str(n), str(k), str(u)) for n, k, u in conn.execute(
            "SELECT short_name, keyword, url FROM keywords LIMIT ?", (MAX_ROWS,))]


def search_url(url: str) -> tuple[str, str, str, str]:
    """A search address as compared (see the module doc)."""
    parts = urlsplit(stored_url(url.strip()))
    return (parts.netloc.casefold(), parts.path.rstrip("/") or "/", parts.query, parts.fragment)


def _engines(state: State, path: str) -> list[Engine]:
    return state.read(path, read_engines, "Chrome Web Data database")


@primitive("chrome.site_search", grounded=("name", "keyword", "url"),
           meaning=Meaning(action=r"search|shortcut|keyword"))
def site_search(state: State, path: str, name: str, keyword: str, url: str) -> Result:
    """Chrome's `Web Data` (`path`) has exactly one search shortcut `keyword`, named `name`, searching `url` (`%s`
    where the query goes)."""
    rows = [e for e in _engines(state, path) if e[1].strip().casefold() == keyword.strip().casefold()]
    if not rows:
        return fail(f"no search shortcut {keyword!r} (shortcuts: "
                    f"{', '.join(sorted(e[1] for e in _engines(state, path))[:12])})")
    if len(rows) > 1:
        return fail(f"{len(rows)} search engines share the shortcut {keyword!r}: {[e[2] for e in rows]}")
    got_name, _, got_url = rows[0]
    if TERMS not in stored_url(got_url):
        return fail(f"the shortcut {keyword!r} opens {got_url!r}, which has no %s for the query: it searches nothing")
    if search_url(got_url) != search_url(url):
        return fail(f"the shortcut {keyword!r} searches {got_url!r}, expected {url}")
    if got_name.strip().casefold() != name.strip().casefold():
        return fail(f"the shortcut {keyword!r} searches the right address but is named {got_name!r}, not {name!r}")
    return ok(f"typing {keyword!r} searches {got_url} ({got_name})")


@primitive("chrome.search_engines_kept", grounded=(),
           meaning=Meaning(action=None, why="guards the search engines a task leaves alone (no frame reads the Web "
                                            "Data database)"))
def search_engines_kept(state: State, path: str, engines: list[list[str]]) -> Result:
    """Every `[keyword, url]` of `engines` (the search engines and shortcuts the task leaves alone) is still there."""
    have = {(e[1].strip().casefold(), search_url(e[2])) for e in _engines(state, path)}
    gone = [k for k, u in engines if (k.strip().casefold(), search_url(u)) not in have]
    if gone:
        return fail(f"{len(gone)} of the {len(engines)} other search engines were removed or changed: "
                    f"{', '.join(gone[:6])}")
    return ok(f"all {len(engines)} other search engines are as they were")
