"""SQLite document kinds (Chrome's Cookies, History, Web Data): the database held in memory while ops edit it,
written back whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from preparers.ops import OpError, document_kind


def sqlite_kind(kind: str, what: str) -> None:
    """Register the document kind `kind` for SQLite files; `what` names such a file in errors ("Cookies")."""

    def load(host: Path, root: Path) -> sqlite3.Connection:
        if not host.is_file():
            raise OpError(f"{host.name}: no {what} database to edit")
        conn = sqlite3.connect(":memory:")
        conn.deserialize(host.read_bytes())
        return conn

    def save(conn: sqlite3.Connection, host: Path) -> None:
        conn.commit()
        host.write_bytes(bytes(conn.serialize()))
        conn.close()

    document_kind(kind, load=load, save=save)
