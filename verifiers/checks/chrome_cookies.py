"""chrome cookie primitives: which cookies Chrome's cookie store (`Default/Cookies`, SQLite) still holds.

Read from a copy (with its -journal / -wal), read-only, bounded by the state's reader; a file that is not such a
database fails. A cookie is its (host, name, path): the value is encrypted and never compared."""

from __future__ import annotations

from pathlib import Path

from preparers.ops.chrome_cookies import cookie_host, of_site
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.sqlite import copy_connection

MAX_ROWS = 200_000
Cookie = tuple[str, str, str]  # host_key, name, path


def read_cookies(host: Path) -> list[Cookie]:
    with copy_connection(host) as conn:
        return [(str(h), str(n), str(p)) for h, n, p in conn.execute(
            "SELECT host_key, name, path FROM cookies LIMIT ?", (MAX_ROWS,))]


def _cookies(state: State, path: str) -> list[Cookie]:
    return state.read(path, read_cookies, "Chrome Cookies database")


@primitive("chrome.cookies_removed", grounded=("site", "except_site"),
           meaning=Meaning(action=r"cookie|site data|sign(?:ed)? out|log(?:ged)? out|delete|remove|clear"))
def cookies_removed(state: State, path: str, site: str | None = None, except_site: str | None = None) -> Result:
    """Chrome's cookie store (`path`) holds no cookie of `site` (the host and every subdomain), or, with
    `except_site`, no cookie of any other site."""
    if (site is None) == (except_site is None):
        return fail("check misconfigured: give exactly one of site and except_site")
    left = [c for c in _cookies(state, path)
            if (of_site(c[0], site) if site is not None else not of_site(c[0], except_site or ""))]
    what = f"of {site}" if site is not None else f"of sites other than {except_site}"
    if left:
        hosts = sorted({cookie_host(h) for h, _, _ in left})
        return fail(f"{len(left)} cookie(s) {what} are still stored (on {', '.join(hosts[:5])}"
                    + (" ..." if len(hosts) > 5 else "") + ")")
    return ok(f"no cookie {what} is stored")


@primitive("chrome.cookies_kept", grounded=(),
           meaning=Meaning(action=None, why="guards the cookies a task leaves alone (no frame reads the Cookies "
                                            "database)"))
def cookies_kept(state: State, path: str, cookies: list[list[str]]) -> Result:
    """Every `[host_key, name, path]` of `cookies` (the cookies the task leaves alone) is still stored (a site
    visited while doing the task may set more)."""
    have = {(cookie_host(h), n, p) for h, n, p in _cookies(state, path)}
    gone = [f"{n} on {h}" for h, n, p in cookies if (cookie_host(h), n, p) not in have]
    if gone:
        return fail(f"{len(gone)} of the {len(cookies)} cookies the task leaves alone are gone: {', '.join(gone[:5])}")
    return ok(f"all {len(cookies)} other cookies are still stored")
