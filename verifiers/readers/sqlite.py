"""A SQLite file from an agent's end state, opened without touching it: a copy with its -journal / -wal beside it
(a hot journal rolls back in the copy, never in the state), closed when the block ends. The caller bounds what it
reads (`LIMIT`); the state's reader bounds the file's size and the time."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def copy_connection(host: Path) -> Iterator[sqlite3.Connection]:
    with tempfile.TemporaryDirectory(prefix="forge-sqlite-") as tmp:
        copy = Path(tmp) / host.name
        shutil.copyfile(host, copy)
        for suffix in ("-journal", "-wal"):
            beside = host.with_name(host.name + suffix)
            if beside.is_file() and not beside.is_symlink():
                shutil.copyfile(beside, copy.with_name(copy.name + suffix))
        conn = sqlite3.connect(copy)
        try:
            yield conn
        finally:
            conn.close()
