"""Chrome's browsing history (`~/.config/google-chrome/Default/History`, an SQLite database): the builder of an
initial History file and the `chromehist.*` ops that edit one.

The schema is the part of Chrome's that holds what the History page and the address bar show: `urls` (one row per
address: title, visit_count, typed_count, last_visit_time), `visits` (one row per visit, `url` = urls.id),
`keyword_search_terms` (searches typed in the address bar, per urls row), `segments` / `segment_usage` (the New Tab
page's most visited), and `meta` (the schema version). Times are Chrome's: microseconds since 1601-01-01.

Removing a site from history the way Chrome does it deletes its visits, then each of its addresses left without a
visit, and the search terms and segments of those addresses.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from preparers.ops import OpError, op
from preparers.ops.sqlite_doc import sqlite_kind

SCHEMA = """
CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);
CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT, url LONGVARCHAR, title LONGVARCHAR,
  visit_count INTEGER DEFAULT 0 NOT NULL, typed_count INTEGER DEFAULT 0 NOT NULL, last_visit_time INTEGER NOT NULL,
  hidden INTEGER DEFAULT 0 NOT NULL);
CREATE TABLE visits(id INTEGER PRIMARY KEY AUTOINCREMENT, url INTEGER NOT NULL, visit_time INTEGER NOT NULL,
  from_visit INTEGER, external_referrer_url TEXT, transition INTEGER DEFAULT 0 NOT NULL, segment_id INTEGER,
  visit_duration INTEGER DEFAULT 0 NOT NULL, incremented_omnibox_typed_score BOOLEAN DEFAULT FALSE NOT NULL,
  opener_visit INTEGER, originator_cache_guid TEXT, originator_visit_id INTEGER, originator_from_visit INTEGER,
  originator_opener_visit INTEGER, is_known_to_sync BOOLEAN DEFAULT FALSE NOT NULL,
  consider_for_ntp_most_visited BOOLEAN DEFAULT FALSE NOT NULL, visited_link_id INTEGER DEFAULT 0 NOT NULL,
  app_id TEXT);
CREATE TABLE keyword_search_terms(keyword_id INTEGER NOT NULL, url_id INTEGER NOT NULL, term LONGVARCHAR NOT NULL,
  normalized_term LONGVARCHAR NOT NULL);
CREATE TABLE segments(id INTEGER PRIMARY KEY, name VARCHAR, url_id INTEGER NON NULL);
CREATE TABLE segment_usage(id INTEGER PRIMARY KEY, segment_id INTEGER NOT NULL, time_slot INTEGER NOT NULL,
  visit_count INTEGER DEFAULT 0 NOT NULL);
CREATE INDEX visits_url_index ON visits(url);
CREATE INDEX visits_time_index ON visits(visit_time);
CREATE INDEX urls_url_index ON urls(url);
CREATE INDEX keyword_search_terms_index2 ON keyword_search_terms(url_id);
CREATE INDEX segments_name ON segments(name);
CREATE INDEX segments_url_id ON segments(url_id);
"""
#: `meta` rows as Chrome 120-124 writes them.
META = (("mmap_status", "-1"), ("version", "66"), ("last_compatible_version", "16"))
#: A visit's page transition: a link followed (0), typed in the address bar (1), both as a chain's start and end.
LINK, TYPED = 0x30000000, 0x30000001


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").casefold()


def on_site(url: str, site: str) -> bool:
    """Is `url` on `site` (a host name such as "mozilla.org": the host itself or any of its subdomains)?"""
    host, site = host_of(url), site.strip().casefold().removeprefix("www.")
    return host == site or host.endswith("." + site)


def build_history(entries: Iterable[dict[str, Any]]) -> bytes:
    """A History database of `entries`, in order: {"url", "title", "visits": [Chrome times], "typed": n,
    "search": term or None (a search typed in the address bar that led there)}."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", META)
        for entry in entries:
            times = sorted(entry["visits"])
            cur = conn.execute("INSERT INTO urls(url, title, visit_count, typed_count, last_visit_time, hidden) "
                               "VALUES (?, ?, ?, ?, ?, 0)",
                               (entry["url"], entry["title"], len(times), entry.get("typed", 0), times[-1]))
            url_id = cur.lastrowid
            typed = entry.get("typed", 0)
            for i, when in enumerate(times):
                conn.execute("INSERT INTO visits(url, visit_time, from_visit, transition, segment_id, "
                             "visit_duration) VALUES (?, ?, 0, ?, 0, ?)",
                             (url_id, when, TYPED if i < typed else LINK, (when % 97) * 1_000_000))
            if entry.get("search"):
                term = str(entry["search"])
                conn.execute("INSERT INTO keyword_search_terms VALUES (2, ?, ?, ?)", (url_id, term, term.lower()))
        conn.commit()
        return bytes(conn.serialize())
    finally:
        conn.close()


# --- the document kind: the database held in memory, written back whole -------------------------------------

sqlite_kind("chromehist", "History")


@op("chromehist.delete")
def delete(conn: sqlite3.Connection, site: str | None = None, url: str | None = None, hosts: list[str] | None = None,
           everything: bool = False, keep_visits: bool = False, keep_urls: bool = False) -> None:
    """Remove from history every address on `site` (and its subdomains), the one address `url`, the addresses on
    exactly the host names `hosts`, or (`everything`) the whole history, as Chrome's History page does.

    Slips, for near-misses: `keep_visits` deletes the address rows but leaves their visits behind; `keep_urls`
    deletes the visits but leaves the address rows with their counts (the address bar still suggests them)."""
    rows = conn.execute("SELECT id, url FROM urls").fetchall()
    if everything:
        doomed = [row_id for row_id, _ in rows]
    elif site is not None:
        doomed = [row_id for row_id, address in rows if on_site(str(address), site)]
    elif url is not None:
        doomed = [row_id for row_id, address in rows if address == url]
    elif hosts is not None:
        names = {h.casefold() for h in hosts}
        doomed = [row_id for row_id, address in rows if host_of(str(address)) in names]
    else:
        raise OpError("chromehist.delete needs site, url, hosts or everything")
    if not doomed:
        raise OpError(f"chromehist.delete: nothing in history matches {site or url or hosts}")
    marks = ",".join("?" * len(doomed))
    if not keep_visits:
        conn.execute(f"DELETE FROM visits WHERE url IN ({marks})", doomed)
    if not keep_urls:
        conn.execute(f"DELETE FROM keyword_search_terms WHERE url_id IN ({marks})", doomed)
        conn.execute(f"DELETE FROM segment_usage WHERE segment_id IN (SELECT id FROM segments WHERE url_id IN "
                     f"({marks}))", doomed)
        conn.execute(f"DELETE FROM segments WHERE url_id IN ({marks})", doomed)
        conn.execute(f"DELETE FROM urls WHERE id IN ({marks})", doomed)


@op("chromehist.visit")
def visit(conn: sqlite3.Connection, url: str, title: str) -> None:
    """Record one visit of `url` (a link followed: a form sent, a page opened) a second after the history's last
    visit, as Chrome does: the address's row (added with `title` when new) counts it and the visit gets its row."""
    last = conn.execute("SELECT MAX(visit_time) FROM visits").fetchone()[0] or 13_350_000_000_000_000
    when = int(last) + 1_000_000
    row = conn.execute("SELECT id FROM urls WHERE url = ?", (url,)).fetchone()
    if row is None:
        url_id = conn.execute("INSERT INTO urls(url, title, visit_count, typed_count, last_visit_time, hidden) "
                              "VALUES (?, ?, 1, 0, ?, 0)", (url, title, when)).lastrowid
    else:
        url_id = row[0]
        conn.execute("UPDATE urls SET visit_count = visit_count + 1, last_visit_time = ? WHERE id = ?",
                     (when, url_id))
    conn.execute("INSERT INTO visits(url, visit_time, from_visit, transition, segment_id, visit_duration) "
                 "VALUES (?, ?, 0, ?, 0, 0)", (url_id, when, LINK))
