"""Chrome's cookie store (`~/.config/google-chrome/Default/Cookies`, an SQLite database): the builder of an initial
Cookies file and the `chromecookies.*` ops that edit one.

One `cookies` row per cookie (`host_key` ".example.com" for a domain cookie, "www.example.com" for a host-only one,
`name`, `path`, times in Chrome's microseconds since 1601, the value encrypted in `encrypted_value`: Chrome on Linux
without a keyring writes "v10" + AES-CBC; the builder writes opaque bytes of that shape, never read back), and the
`meta` table with the schema version. What Settings > Privacy and security > Site data deletes for a site is every
cookie whose host is the site or one of its subdomains.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from preparers.ops import OpError, op
from preparers.ops.sqlite_doc import sqlite_kind

SCHEMA = """
CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);
CREATE TABLE cookies(creation_utc INTEGER NOT NULL, host_key TEXT NOT NULL, top_frame_site_key TEXT NOT NULL,
  name TEXT NOT NULL, value TEXT NOT NULL, encrypted_value BLOB NOT NULL, path TEXT NOT NULL,
  expires_utc INTEGER NOT NULL, is_secure INTEGER NOT NULL, is_httponly INTEGER NOT NULL,
  last_access_utc INTEGER NOT NULL, has_expires INTEGER NOT NULL, is_persistent INTEGER NOT NULL,
  priority INTEGER NOT NULL, samesite INTEGER NOT NULL, source_scheme INTEGER NOT NULL, source_port INTEGER NOT NULL,
  last_update_utc INTEGER NOT NULL, source_type INTEGER NOT NULL, has_cross_site_ancestor INTEGER NOT NULL);
CREATE UNIQUE INDEX cookies_unique_index ON cookies(host_key, top_frame_site_key, has_cross_site_ancestor, name,
  path, source_scheme, source_port);
"""
META = (("mmap_status", "-1"), ("version", "23"), ("last_compatible_version", "23"))


def cookie_host(host_key: str) -> str:
    return host_key.strip().casefold().lstrip(".")


def of_site(host_key: str, site: str) -> bool:
    """Does a cookie of `host_key` belong to `site` (a host name: the host itself or any of its subdomains)?"""
    host, site = cookie_host(host_key), site.strip().casefold().removeprefix("www.")
    return host == site or host.endswith("." + site)


def build_cookies(cookies: Iterable[dict[str, Any]]) -> bytes:
    """A Cookies database of `cookies`: {"host", "name", "path", "created", "expires", "secret" (bytes),
    "httponly"} (Chrome times)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", META)
        for c in cookies:
            conn.execute("INSERT INTO cookies VALUES (?, ?, '', ?, '', ?, ?, ?, 1, ?, ?, 1, 1, 1, ?, 2, 443, ?, 0, 0)",
                         (c["created"], c["host"], c["name"], b"v10" + c["secret"], c["path"], c["expires"],
                          int(c.get("httponly", False)), c["created"], c.get("samesite", -1), c["created"]))
        conn.commit()
        return bytes(conn.serialize())
    finally:
        conn.close()


sqlite_kind("chromecookies", "Cookies")


@op("chromecookies.delete")
def delete(conn: sqlite3.Connection, site: str | None = None, except_site: str | None = None,
           hosts: list[str] | None = None, everything: bool = False) -> None:
    """Delete the cookies of `site` (and its subdomains), every cookie but `except_site`'s, the cookies whose host
    is exactly one of `hosts` (a leading dot ignored), or (`everything`) all of them."""
    rows = conn.execute("SELECT rowid, host_key FROM cookies").fetchall()
    if everything:
        doomed = [row_id for row_id, _ in rows]
    elif site is not None:
        doomed = [row_id for row_id, key in rows if of_site(str(key), site)]
    elif except_site is not None:
        doomed = [row_id for row_id, key in rows if not of_site(str(key), except_site)]
    elif hosts is not None:
        names = {h.casefold().lstrip(".") for h in hosts}
        doomed = [row_id for row_id, key in rows if cookie_host(str(key)) in names]
    else:
        raise OpError("chromecookies.delete needs site, except_site, hosts or everything")
    if not doomed:
        raise OpError(f"chromecookies.delete: no cookie matches {site or except_site or hosts}")
    conn.execute(f"DELETE FROM cookies WHERE rowid IN ({','.join('?' * len(doomed))})", doomed)
