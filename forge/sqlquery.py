"""`forge sql`: one read-only statement against the catalog, bounded in time, rows and bytes.

A catalog query is typed by a user or pasted from somewhere, and a shared PostgreSQL catalog has other users
running `forge generate` against it, so a query must not write, must not reach outside the catalog, and must end:
- Writes are refused three times: the first keyword (SELECT, WITH, EXPLAIN, VALUES), exactly one statement
  (sqlite3 runs one per call; PostgreSQL gets it as a prepared statement, so `SELECT 1; COMMIT; DELETE ...` cannot
  leave the transaction), and the database itself (SQLite: a mode=ro file or query_only; PostgreSQL: a read-only
  transaction). Always rolled back.
- PostgreSQL functions whose effects a read-only transaction does not stop (end another session, create a
  replication slot, take an advisory lock, read server files, run SQL text given as a string, ...) are refused
  by name before anything runs (`_PG_DENIED`). The scan looks at the whole statement text, strings and comments
  included: a name inside a string literal is refused too (a refusal costs a rephrased query; a miss could
  end a concurrent run). Names can only be hidden from it with U&"..." identifiers, refused as well, or through
  functions that run a string as SQL, which are on the list.
- Time: `timeout` seconds over the whole query and its fetches (SQLite: a progress handler; PostgreSQL:
  statement_timeout, set again before every fetch to what is left).
- Size: at most `max_rows` rows and `max_bytes` bytes of values come back; when a cap stops the rows the result
  says so (`note`). SQLite also refuses to build any single value above `max_bytes` (SQLITE_LIMIT_LENGTH), so
  `randomblob(1e9)` is an error, not a gigabyte; PostgreSQL rows are fetched from a server-side cursor in
  batches sized to the bytes left (a single row is still fetched whole: PostgreSQL caps one value at 1 GB).
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from kit.errors import CatalogError

_START = re.compile(r"^\s*(select|with|explain|values)\b", re.IGNORECASE)
_EXPLAIN = re.compile(r"^\s*explain\b", re.IGNORECASE)
#: Functions with effects outside the read-only transaction, or that run SQL given as text (so any name could hide
#: in a string built at run time). Matched as whole identifiers, any case, with or without a schema or quotes.
_PG_DENIED_NAMES = (
    r"pg_terminate_backend", r"pg_cancel_backend", r"pg_signal_backend", r"pg_reload_conf", r"pg_rotate_logfile\w*",
    r"pg_(?:create|drop|copy)_\w*replication_slot", r"pg_replication_slot_advance", r"pg_logical_\w+",
    r"pg_replication_origin_\w+", r"pg_create_restore_point", r"pg_switch_(?:wal|xlog)", r"pg_promote",
    r"pg_(?:wal|xlog)_replay_\w+", r"pg_(?:start|stop)_backup", r"pg_backup_\w+", r"pg_stat_\w*reset\w*",
    r"pg_log_backend_memory_contexts", r"pg_import_system_collations",
    r"lo_\w+", r"dblink\w*", r"pg_read_\w*file", r"pg_ls_\w+", r"pg_stat_file", r"pg_file_\w+", r"pg_logdir_ls",
    r"set_config", r"pg_(?:try_)?advisory_\w+", r"nextval", r"setval", r"pg_notify",
    r"query_to_xml\w*", r"cursor_to_xml\w*", r"ts_stat", r"ts_rewrite",
)
_PG_DENIED = re.compile(r"(?<![\w$])(" + "|".join(_PG_DENIED_NAMES) + r")(?![\w$])", re.IGNORECASE)
_UNICODE_IDENTIFIER = re.compile(r'u&"', re.IGNORECASE)
#: Rows per fetch at most (fewer when the rows are large and few bytes are left).
_BATCH = 256


@dataclass(frozen=True)
class Limits:
    """How long a query may run and how much of its result comes back (`forge sql --timeout/--max-rows/--max-bytes`)."""

    timeout: float = 30.0
    max_rows: int = 10_000
    max_bytes: int = 64 << 20

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise CatalogError(f"--timeout {self.timeout}: give a number of seconds above 0")
        if self.max_rows < 1:
            raise CatalogError(f"--max-rows {self.max_rows}: give at least 1")
        if self.max_bytes < 1024:
            raise CatalogError(f"--max-bytes {self.max_bytes}: give at least 1024")


@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    #: Why the rows stop early (a cap was hit), or None when every row is here.
    note: str | None = None


def refuse_side_effects(sql: str) -> None:
    """Refuse a PostgreSQL statement that names a function on the deny list (see the module docstring)."""
    if _UNICODE_IDENTIFIER.search(sql):
        raise CatalogError('forge sql refuses U&"..." identifiers (they can spell any function name); write the '
                           "name plainly; the catalog is unchanged")
    found = _PG_DENIED.search(sql)
    if found:
        raise CatalogError(f"forge sql refuses {found.group(1)}(): it acts outside a read-only query (sessions, "
                           "locks, replication, server files or SQL run from text); the catalog is unchanged")


def run(engine: Engine, sql: str, limits: Limits | None = None) -> QueryResult:
    """Run one read-only statement within `limits` (see the module docstring)."""
    limits = limits or Limits()
    if not _START.match(sql):
        raise CatalogError("forge sql runs read-only queries only (SELECT, WITH, EXPLAIN, VALUES); "
                           "the catalog is unchanged")
    dialect = engine.dialect
    if dialect.name not in ("sqlite", "postgresql"):
        raise CatalogError(f"forge sql supports SQLite and PostgreSQL catalogs, not {dialect.name}")
    if dialect.name == "postgresql":
        refuse_side_effects(sql)
    deadline = time.monotonic() + limits.timeout
    try:
        with engine.connect() as conn:
            try:
                if dialect.name == "sqlite":
                    return _sqlite(conn, sql, limits, deadline)
                return _postgresql(conn, sql, limits, deadline)
            except (SQLAlchemyError, dialect.loaded_dbapi.Error) as exc:
                if time.monotonic() >= deadline or _is_timeout(exc):
                    raise CatalogError(f"query stopped after {limits.timeout:g} s (--timeout); narrow it (WHERE, "
                                       "LIMIT) or give a longer --timeout; the catalog is unchanged") from None
                message = str(getattr(exc, "orig", exc)).strip().splitlines()[0]
                if message == "string or blob too big":
                    message = f"a value would be larger than {limits.max_bytes:,} bytes (--max-bytes)"
                raise CatalogError(f"query failed: {message}; the catalog is unchanged") from None
            finally:
                conn.rollback()
    except SQLAlchemyError as exc:  # connecting failed
        message = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise CatalogError(f"cannot open catalog {engine.url.render_as_string(hide_password=True)}: {message}; "
                           "check --db / FORGE_DATABASE_URL and that the database server is running") from None


def _is_timeout(exc: BaseException) -> bool:
    text = str(getattr(exc, "orig", exc)).lower()
    return "statement timeout" in text or text.strip() == "interrupted"


def _sqlite(conn: Connection, sql: str, limits: Limits, deadline: float) -> QueryResult:
    raw: Any = conn.connection.dbapi_connection
    query_only = conn.exec_driver_sql("PRAGMA query_only").scalar()
    conn.exec_driver_sql("PRAGMA query_only = ON")
    length = raw.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
    raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(length, limits.max_bytes))
    raw.set_progress_handler(lambda: int(time.monotonic() >= deadline), 10_000)
    try:
        cursor = raw.cursor()
        cursor.execute(sql)  # sqlite3 runs one statement per call
        columns = [d[0] for d in cursor.description or ()]
        rows, note = _fetch(lambda n: cursor.fetchmany(n), limits)
        cursor.close()
        return QueryResult(columns, rows, note)
    finally:
        raw.set_progress_handler(None, 0)
        raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, length)
        conn.rollback()
        conn.exec_driver_sql(f"PRAGMA query_only = {int(bool(query_only))}")


def _postgresql(conn: Connection, sql: str, limits: Limits, deadline: float) -> QueryResult:
    cursor: Any = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    conn.exec_driver_sql("SET TRANSACTION READ ONLY")

    def time_left() -> None:
        left = int((deadline - time.monotonic()) * 1000)
        if left <= 0:
            raise CatalogError(f"query stopped after {limits.timeout:g} s (--timeout); narrow it (WHERE, LIMIT) or "
                               "give a longer --timeout; the catalog is unchanged")
        cursor.execute(f"SET LOCAL statement_timeout = {left}")

    time_left()
    if _EXPLAIN.match(sql):  # a plan (even EXPLAIN ANALYZE's) is a few rows; DECLARE cannot wrap it
        cursor.execute(sql, prepare=True)  # a prepared statement is exactly one statement
        rows, note = _fetch(lambda n: cursor.fetchmany(n), limits)
        return QueryResult([d[0] for d in cursor.description or ()], rows, note)
    cursor.execute(f"DECLARE forge_sql NO SCROLL CURSOR FOR {sql}\n", prepare=True)
    columns: list[str] = []

    def fetch(n: int) -> list[Any]:
        time_left()
        cursor.execute(f"FETCH FORWARD {n} FROM forge_sql")
        columns[:] = [d[0] for d in cursor.description or ()]
        return list(cursor.fetchall())

    rows, note = _fetch(fetch, limits)
    return QueryResult(columns, rows, note)


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes | bytearray | memoryview) else 16


def _fetch(fetch: Any, limits: Limits) -> tuple[list[tuple[Any, ...]], str | None]:
    """Rows from `fetch(n)` until the result ends or a cap is hit; returns (rows, note)."""
    rows: list[tuple[Any, ...]] = []
    size = 0
    batch = 16
    while True:
        chunk = fetch(batch)
        if not chunk:
            return rows, None
        for row in chunk:
            if len(rows) >= limits.max_rows:
                return rows, (f"only the first {limits.max_rows:,} rows are shown (--max-rows); add LIMIT/OFFSET or "
                              "WHERE, or raise --max-rows")
            size += sum(_size(v) for v in row)
            if size > limits.max_bytes:
                return rows, (f"only the first {len(rows):,} rows are shown: the next would pass {limits.max_bytes:,} "
                              "bytes (--max-bytes); select fewer or narrower columns, or raise --max-bytes")
            rows.append(tuple(row))
        average = max(1, size // max(1, len(rows)))
        batch = max(1, min(_BATCH, (limits.max_bytes - size) // average, limits.max_rows + 1 - len(rows)))
