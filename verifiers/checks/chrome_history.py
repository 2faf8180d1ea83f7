"""chrome history primitives: what Chrome's History database (`Default/History`, SQLite) still remembers.

The file is read from a copy (with its -journal / -wal beside it, so a hot journal rolls back there, never in the
state), read-only queries only, bounded by the state's reader (`State.read`: size limits before any parse). A file
that is not such a database fails the check.

What Chrome's History page shows is the `visits` of each `urls` row; the address bar suggests `urls` rows that have
visits or typed counts. Chrome keeps the row of a bookmarked address when its visits go, with both counts at zero,
so such a row is no history left behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from preparers.ops.chrome_history import on_site
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.sqlite import copy_connection

MAX_ROWS = 200_000


@dataclass(frozen=True)
class History:
    urls: dict[int, tuple[str, int, int]]  # id -> (address, visit_count, typed_count)
    visits: dict[int, int]  # urls.id a visit points at -> how many visits point there
    terms: set[int]  # urls ids that hold address-bar search terms


def read_history(host: Path) -> History:
    with copy_connection(host) as conn:
        urls = {int(i): (str(u), int(v or 0), int(t or 0)) for i, u, v, t in conn.execute(
            "SELECT id, url, visit_count, typed_count FROM urls LIMIT ?", (MAX_ROWS,))}
        visits = {int(u): int(n) for u, n in conn.execute(
            "SELECT url, COUNT(*) FROM visits GROUP BY url LIMIT ?", (MAX_ROWS,))}
        terms = {int(u) for (u,) in conn.execute("SELECT DISTINCT url_id FROM keyword_search_terms LIMIT ?",
                                                 (MAX_ROWS,))}
    return History(urls, visits, terms)


def _history(state: State, path: str) -> History:
    return state.read(path, read_history, "Chrome History database")


@primitive("chrome.history_removed", grounded=("site", "url"),
           meaning=Meaning(action=r"history|delete|remove|clear|erase|forget|wipe"))
def history_removed(state: State, path: str, site: str | None = None, url: str | None = None) -> Result:
    """Chrome's history (`path`) remembers nothing of `site` (the host and every subdomain) or of the one address
    `url`: no visit, no address with a visit or typed count, no search term; and no visit is left behind pointing at
    an address that is gone."""
    if (site is None) == (url is None):
        return fail("check misconfigured: give exactly one of site and url")
    hist = _history(state, path)
    def hit(address: str) -> bool:
        return on_site(address, site) if site is not None else address == url

    what = site if site is not None else url
    seen = [(i, a, v, t) for i, (a, v, t) in hist.urls.items() if hit(a)]
    problems = [f"{a} still has {hist.visits[i]} visit(s)" for i, a, _, _ in seen if hist.visits.get(i)]
    problems += [f"{a} is still suggested (visit count {v}, typed {t})" for i, a, v, t in seen
                 if (v or t) and not hist.visits.get(i)]
    problems += [f"{a} keeps its address-bar searches" for i, a, _, _ in seen if i in hist.terms]
    orphans = sum(n for u, n in hist.visits.items() if u not in hist.urls)
    if orphans:
        problems.append(f"{orphans} visit(s) are left behind pointing at addresses that are gone")
    if problems:
        return fail(f"the history still remembers {what}: " + "; ".join(problems[:5])
                    + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))
    return ok(f"nothing of {what} is left in the history ({len(hist.urls)} addresses remain)")


@primitive("chrome.history_kept", grounded=(),
           meaning=Meaning(action=None, why="guards the history a task leaves alone (no frame reads the History "
                                            "database)"))
def history_kept(state: State, path: str, visits: list[list[str | int]]) -> Result:
    """Every `[address, n]` of `visits` (the history the task leaves alone) is still in Chrome's history (`path`)
    with at least its n visits (browsing while doing the task may add some)."""
    hist = _history(state, path)
    counts: dict[str, int] = {}
    for i, (address, _, _) in hist.urls.items():
        counts[address] = counts.get(address, 0) + hist.visits.get(i, 0)
    gone = [str(a) for a, _ in visits if str(a) not in counts]
    fewer = [f"{a} ({counts[str(a)]} of {n} visits)" for a, n in visits
             if str(a) in counts and counts[str(a)] < int(n)]
    if gone or fewer:
        parts = ([f"{len(gone)} address(es) removed: {', '.join(gone[:4])}"] if gone else []) + (
            [f"visits removed from {', '.join(fewer[:4])}"] if fewer else [])
        return fail(f"history the task leaves alone is gone: {'; '.join(parts)}")
    return ok(f"all {len(visits)} other addresses keep their visits")
