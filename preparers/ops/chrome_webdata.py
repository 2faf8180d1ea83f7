"""Chrome's search engines and site search shortcuts (`~/.config/google-chrome/Default/Web Data`, an SQLite
database, table `keywords`): the builder of an initial Web Data file and the `chromewebdata.*` ops that edit it.

One `keywords` row per engine: `short_name` (the name Settings shows), `keyword` (the shortcut typed in the address
bar before a space), `url` (the search address, `{searchTerms}` where the query goes; Settings shows and takes it
as `%s`), `prepopulate_id` (non-zero for Chrome's built-in engines), times in Chrome's microseconds since 1601.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from preparers.ops import OpError, op
from preparers.ops.sqlite_doc import sqlite_kind

SCHEMA = """
CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);
CREATE TABLE keywords (id INTEGER PRIMARY KEY, short_name VARCHAR NOT NULL, keyword VARCHAR NOT NULL,
  favicon_url VARCHAR NOT NULL, url VARCHAR NOT NULL, safe_for_autoreplace INTEGER, originating_url VARCHAR,
  date_created INTEGER DEFAULT 0, usage_count INTEGER DEFAULT 0, input_encodings VARCHAR, suggest_url VARCHAR,
  prepopulate_id INTEGER DEFAULT 0, created_by_policy INTEGER DEFAULT 0, last_modified INTEGER DEFAULT 0,
  sync_guid VARCHAR, alternate_urls VARCHAR, image_url VARCHAR, search_url_post_params VARCHAR,
  suggest_url_post_params VARCHAR, image_url_post_params VARCHAR, new_tab_url VARCHAR, last_visited INTEGER DEFAULT 0,
  created_from_play_api INTEGER DEFAULT 0, is_active INTEGER DEFAULT 0, starter_pack_id INTEGER DEFAULT 0,
  enforced_by_policy INTEGER DEFAULT 0, featured_by_policy INTEGER DEFAULT 0);
"""
META = (("mmap_status", "-1"), ("version", "122"), ("last_compatible_version", "121"))
TERMS = "{searchTerms}"


def stored_url(url: str) -> str:
    """A search address as Chrome stores it: the `%s` typed in Settings becomes `{searchTerms}`."""
    return url.replace("%s", TERMS)


def build_webdata(engines: Iterable[dict[str, Any]]) -> bytes:
    """A Web Data database with the `keywords` of `engines`: {"name", "keyword", "url" (with %s or
    {searchTerms}), "prepopulate_id", "created", "guid", "favicon"}."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", META)
        for i, e in enumerate(engines, start=1):
            conn.execute("INSERT INTO keywords (id, short_name, keyword, favicon_url, url, safe_for_autoreplace, "
                         "date_created, usage_count, input_encodings, prepopulate_id, last_modified, sync_guid, "
                         "alternate_urls, is_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'UTF-8', ?, ?, ?, '[]', 1)",
                         (i, e["name"], e["keyword"], e.get("favicon", ""), stored_url(e["url"]),
                          int(bool(e.get("prepopulate_id"))), e["created"], e.get("usage", 0),
                          e.get("prepopulate_id", 0), e["created"], e["guid"]))
        conn.commit()
        return bytes(conn.serialize())
    finally:
        conn.close()


sqlite_kind("chromewebdata", "Web Data")


@op("chromewebdata.set_site_search")
def set_site_search(conn: sqlite3.Connection, name: str, keyword: str, url: str, replace: str | None = None,
                    guid: str = "", created: int = 0) -> None:
    """Add the site search `name` / `keyword` / `url` (Settings > Search engine > Manage search engines and site
    search > Site search > Add), or, with `replace`, edit the one whose shortcut is `replace` into it."""
    if replace is not None:
        cur = conn.execute("UPDATE keywords SET short_name = ?, keyword = ?, url = ? WHERE keyword = ?",
                           (name, keyword, stored_url(url), replace))
        if cur.rowcount == 0:
            raise OpError(f"chromewebdata.set_site_search: no shortcut {replace!r} to edit")
        return
    conn.execute("INSERT INTO keywords (short_name, keyword, favicon_url, url, safe_for_autoreplace, date_created, "
                 "input_encodings, last_modified, sync_guid, alternate_urls, is_active) "
                 "VALUES (?, ?, '', ?, 0, ?, 'UTF-8', ?, ?, '[]', 1)",
                 (name, keyword, stored_url(url), created, created, guid))
