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
- Size: at most `max_rows` rows and `max_bytes` bytes of values come back, and no more than that is ever held:
  the size is known before a row is fetched. SQLite refuses to build any single value above `max_bytes`
  (SQLITE_LIMIT_LENGTH: `randomblob(1e9)` is an error, not a gigabyte) and its rows are stepped one at a time;
  PostgreSQL computes each row's size and the running total on the server (the query wrapped in a window sum)
  and sends the values of rows within the cap only, from a server-side cursor. When a cap stops the rows the
  result says so (`note`); when not even the first row fits, it is a one-line error naming --max-bytes.
- Portable values: the same catalog prints the same on both backends. JSON columns come back as JSON values
  (SQLite's text parsed, as psycopg parses PostgreSQL's), booleans as booleans (SQLite stores 0/1), timestamps as
  ISO 8601 text (`2026-12-07T12:00:00+00:00`, typed timestamptz on PostgreSQL so date arithmetic works there).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
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
#: A trailing `;` (and a comment after it): the query is wrapped in a subquery, where it would be a syntax error.
_TRAILING = re.compile(r"(?:;\s*(?:--[^\n]*)?\s*)+$")


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


def _json_value(data: bytes) -> Any:
    """A JSON column's text as a JSON value, on both backends; text that is not JSON, or is nested too deeply for
    Python's parser, stays text."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return data.decode("utf-8", errors="replace")


# Converters by declared column type, used only by forge sql's own connection (PARSE_DECLTYPES; the ORM's
# connections do not ask for them): SQLite gives JSON and booleans as PostgreSQL does.
sqlite3.register_converter("JSON", _json_value)
sqlite3.register_converter("BOOLEAN", lambda data: bool(int(data)) if data.strip().isdigit() else data.decode())


@contextlib.contextmanager
def _typed_sqlite(conn: Connection) -> Iterator[Any]:
    """A raw connection to the catalog file that converts values by declared type (a file: a new read-only one;
    an in-memory catalog: the engine's own, untyped)."""
    database = conn.engine.url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        yield conn.connection.dbapi_connection
        return
    uri = f"file:{urllib.parse.quote(str(Path(database).resolve()))}?mode=ro"
    raw = sqlite3.connect(uri, uri=True, detect_types=sqlite3.PARSE_DECLTYPES, check_same_thread=False)
    try:
        raw.execute("PRAGMA busy_timeout = 60000")
        yield raw
    finally:
        raw.close()


def _sqlite(conn: Connection, sql: str, limits: Limits, deadline: float) -> QueryResult:
    with _typed_sqlite(conn) as raw:
        query_only = raw.execute("PRAGMA query_only").fetchone()[0]
        raw.execute("PRAGMA query_only = ON")
        length = raw.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
        raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(length, limits.max_bytes))
        raw.set_progress_handler(lambda: int(time.monotonic() >= deadline), 10_000)
        try:
            cursor = raw.cursor()
            cursor.execute(sql)  # sqlite3 runs one statement per call
            columns = [d[0] for d in cursor.description or ()]
            # one row at a time: SQLite steps in this process, so no batch is ever built past the cap
            rows, note = _fetch(lambda n: cursor.fetchmany(1), limits)
            cursor.close()
            return QueryResult(columns, rows, note)
        finally:
            raw.set_progress_handler(None, 0)
            raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, length)
            raw.rollback()
            raw.execute(f"PRAGMA query_only = {int(bool(query_only))}")


def _postgresql(conn: Connection, sql: str, limits: Limits, deadline: float) -> QueryResult:
    from psycopg.types.json import set_json_loads

    cursor: Any = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    set_json_loads(lambda data: _json_value(bytes(data) if not isinstance(data, str) else data.encode()), cursor)
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
        plan, note = _fetch(lambda n: cursor.fetchmany(n), limits)
        return QueryResult([d[0] for d in cursor.description or ()], plan, note)
    body = _TRAILING.sub("", sql)
    cursor.execute(f"DECLARE forge_probe NO SCROLL CURSOR FOR {body}\n", prepare=True)
    cursor.execute("FETCH 0 FROM forge_probe")  # the columns, no row
    columns = [d[0] for d in cursor.description or ()]
    cursor.execute("CLOSE forge_probe")
    if not columns:  # SELECT FROM t: rows without values
        cursor.execute(f"DECLARE forge_sql NO SCROLL CURSOR FOR {body}\n", prepare=True)

        def fetch(n: int) -> list[Any]:
            time_left()
            cursor.execute(f"FETCH FORWARD {n} FROM forge_sql")
            return list(cursor.fetchall())

        empty, note = _fetch(fetch, limits)
        return QueryResult(columns, empty, note)
    # Each row's size (its values as text) and the running total are computed on the server; a row past the cap
    # comes back with its size only, so the client never receives more than --max-bytes of values.
    names = [f"c{i}" for i in range(len(columns))]
    size = " + ".join(f"coalesce(octet_length({n}::text), 0)" for n in names)
    kept = ", ".join(f"CASE WHEN forge_total <= {limits.max_bytes} THEN {n} END" for n in names)
    cursor.execute(f"DECLARE forge_sql NO SCROLL CURSOR FOR SELECT forge_total, {kept} FROM (SELECT "
                   f"sum({size}) OVER (ROWS UNBOUNDED PRECEDING) AS forge_total, {', '.join(names)} FROM ({body}\n"
                   f") AS forge_q({', '.join(names)})) AS forge_s", prepare=True)
    rows: list[tuple[Any, ...]] = []
    total, batch = 0, 1  # batches sized to the bytes left, so the server computes few rows past the cap
    while len(rows) <= limits.max_rows:
        time_left()
        cursor.execute(f"FETCH FORWARD {batch} FROM forge_sql")
        chunk = cursor.fetchall()
        if not chunk:
            return QueryResult(columns, [_portable(r) for r in rows])
        for total, *values in chunk:
            if total > limits.max_bytes:
                return QueryResult(columns, [_portable(r) for r in rows], _bytes_note(len(rows), limits))
            rows.append(tuple(values))
        average = max(1, int(total) // len(rows))
        batch = max(1, min(_BATCH, (limits.max_bytes - int(total)) // average, limits.max_rows + 1 - len(rows)))
    return QueryResult(columns, [_portable(r) for r in rows[:limits.max_rows]], _rows_note(limits))


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes | bytearray | memoryview) else 16


def _rows_note(limits: Limits) -> str:
    return (f"only the first {limits.max_rows:,} rows are shown (--max-rows); add LIMIT/OFFSET or WHERE, or raise "
            "--max-rows")


def _bytes_note(shown: int, limits: Limits) -> str:
    if shown == 0:
        raise CatalogError(f"the first row alone is larger than {limits.max_bytes:,} bytes (--max-bytes); nothing "
                           "was fetched. Select fewer or narrower columns (substr, length), or raise --max-bytes")
    return (f"only the first {shown:,} rows are shown: the next would pass {limits.max_bytes:,} bytes (--max-bytes); "
            "select fewer or narrower columns, or raise --max-bytes")


def _portable(row: Any) -> tuple[Any, ...]:
    """A row's values as both backends print them: a PostgreSQL timestamp as the ISO text SQLite holds."""
    return tuple((v.astimezone(dt.UTC) if isinstance(v, dt.datetime) and v.tzinfo else v).isoformat()
                 if isinstance(v, dt.datetime | dt.date) else v for v in row)


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
                return rows, _rows_note(limits)
            size += sum(_size(v) for v in row)
            if size > limits.max_bytes:
                return rows, _bytes_note(len(rows), limits)
            rows.append(_portable(row))
        average = max(1, size // max(1, len(rows)))
        batch = max(1, min(_BATCH, (limits.max_bytes - size) // average, limits.max_rows + 1 - len(rows)))
