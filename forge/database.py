"""The catalog's database: engines for SQLite and PostgreSQL, and the schema kept at the newest migration.

Contract of `ensure_schema` (run by every `Catalog(...)`): an empty database is created at the head revision
(`create_all` + stamp, the models and the migrations being the same schema: tests/forge/test_catalog.py compares
them); a catalog at the head opens as it is; an older one is refused with one line that says to run
`forge db upgrade` (explicit, because a shared PostgreSQL catalog is used by several machines and versions at once:
the one that happens to start first must not change the schema under the others, and users back up first).

Migrations are Alembic revisions in forge/migrations/versions, named NNNN_slug.py; the Config is built here, in
code, so no alembic.ini is needed. Catalogs made before migrations existed have no `alembic_version` table:
their revision is read off their tables (`legacy_revision`) and they upgrade in place.
Schema changes hold a lock (PostgreSQL advisory lock; SQLite BEGIN IMMEDIATE), so processes opening one new
catalog at the same time create it once.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, event, inspect, make_url, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError

from forge.tables import Base, create_views, drop_views, views_missing
from kit.errors import CatalogError, CatalogUnreachable

MIGRATIONS = Path(__file__).with_name("migrations")
#: pg_advisory_xact_lock key for schema changes ("forge" in ASCII).
_PG_LOCK = 0x666F726765
#: How long a SQLite writer waits for another process's transaction before giving up.
SQLITE_BUSY_MS = 60_000
#: Errors that say the database was unreachable or busy (a server restarting, a lock held too long): a retry may
#: succeed, unlike an error in the statement or the schema.
UNREACHABLE: tuple[type[SQLAlchemyError], ...] = (OperationalError, InterfaceError)


def shown(url: str) -> str:
    """The URL as printed in messages: the password masked (also in a URL that does not parse)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        return re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", url)


def parse_url(url: str) -> Any:
    """`url` as a SQLAlchemy URL; one that does not parse (a port that is not a number, ...) is one `CatalogError`
    line naming the --db value (password masked), not a traceback."""
    try:
        return make_url(url)
    except (SQLAlchemyError, ValueError) as exc:
        port = re.search(r"@[^/@]*:([^/@]*?)(?:/|$)", url)
        why = (f"the port {port.group(1)!r} is not a number; write host:PORT with digits (postgresql+psycopg://"
               f"user:password@host:5432/db)" if port and not port.group(1).isdigit() else
               f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; write a SQLAlchemy URL "
               "(postgresql+psycopg://user:password@host:5432/db) or a SQLite file path")
        raise CatalogError(f"--db {shown(url)}: {why}") from None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never block the writer and a second process writing waits (busy_timeout) instead of failing;
    # synchronous=NORMAL is crash-safe in WAL mode (a killed process loses nothing committed).
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
    tables = {row[0] for row in cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and "tasks" not in tables:  # another application's file: leave its journal mode (it is refused)
        cursor.close()
        return
    for attempt in range(100):  # switching a new file to WAL needs a moment alone; busy_timeout does not cover it
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 99:
                raise
            time.sleep(0.05)
    cursor.execute("PRAGMA synchronous = NORMAL")
    # No mmap and SQLite's default 2 MiB page cache: both grow a process's RSS with the size of the catalog
    # (a long `forge generate` must stay flat in memory, benchmarks/memory.py); the OS page cache keeps a
    # large catalog's aggregates fast anyway (benchmarks/scale_catalog.py).
    cursor.close()


def open_engine(url: str, *, read_only: bool = False) -> Engine:
    """An engine for a SQLAlchemy URL (the folder of a SQLite file is created). Connects lazily.

    `read_only`: for commands that only read (`sql`, `show`, `stats`, `report`, `skills history`): a SQLite file
    must exist and is opened with mode=ro (nothing is created, no pragma changes it: not even the switch to WAL);
    a PostgreSQL session starts with default_transaction_read_only. Whether it holds a Forge catalog is
    `require_catalog`'s job."""
    parse_url(url)
    if read_only:
        return _open_read_only(url)
    try:
        engine = create_engine(url, pool_pre_ping=url.startswith("postgresql"))
    except (SQLAlchemyError, ImportError) as exc:
        raise CatalogError(f"cannot open catalog {shown(url)}: {str(exc).splitlines()[0]}; check --db / "
                           "FORGE_DATABASE_URL (PostgreSQL: postgresql+psycopg://user:password@host/db)") from None
    if engine.dialect.name == "sqlite":
        database = engine.url.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _open_read_only(url: str) -> Engine:
    try:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if not database or database == ":memory:" or database.startswith("file:"):
                raise CatalogError(f"--db {shown(url)}: give the path of an existing catalog file")
            path = Path(database)
            if not path.is_file():
                what = "is not a file" if path.exists() else "does not exist"
                raise CatalogError(f"catalog {path} {what}; nothing was created. Check --db / FORGE_DATABASE_URL "
                                   "(`forge generate` or `forge demo` make a catalog)")
            uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
            engine = create_engine(url, creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))
            event.listen(engine, "connect", _sqlite_read_only_pragmas)
            return engine
        args = {"options": "-c default_transaction_read_only=on"} if parsed.get_backend_name() == "postgresql" else {}
        return create_engine(url, pool_pre_ping=True, connect_args=args)
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        raise CatalogError(f"cannot open catalog {shown(url)}: {str(exc).splitlines()[0]}; check --db / "
                           "FORGE_DATABASE_URL (PostgreSQL: postgresql+psycopg://user:password@host/db)") from None


def _sqlite_read_only_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
    cursor.execute("PRAGMA query_only = ON")
    cursor.close()


def _tables(conn: Connection) -> set[str]:
    return set(inspect(conn).get_table_names())


def _not_a_catalog(url: str, tables: set[str]) -> CatalogError:
    """A database that holds tables but not Forge's: another application's, never to be touched."""
    listed = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
    return CatalogError(f"{url} is not a Forge catalog (it holds other tables: {listed}); nothing was changed. "
                        "Check --db / FORGE_DATABASE_URL, or give a new file or an empty database for a new catalog")


def require_catalog(engine: Engine) -> None:
    """For read-only commands: the database must hold a Forge catalog at the head revision. A missing or empty
    database, another application's tables, or an older or newer schema is a one-line error; nothing is written."""
    url = engine.url.render_as_string(hide_password=True)
    try:
        with engine.connect() as conn:
            tables = _tables(conn)
            revision = current(conn)
    except SQLAlchemyError as exc:
        raise connect_error(engine, exc) from None
    if not tables:
        raise CatalogError(f"{url} holds no catalog (it is empty); nothing was created. Check --db / "
                           "FORGE_DATABASE_URL (`forge generate` or `forge demo` make a catalog)")
    if revision is None:
        raise _not_a_catalog(url, tables)
    if revision != head():
        raise _revision_error(url, revision)


def _revision_error(url: str, revision: str) -> CatalogError:
    if revision in revisions():
        return CatalogError(f"catalog {url} has schema revision {revision}, this Forge needs {head()}: back it up, "
                            f"then run `forge db upgrade --db {url}`")
    return CatalogError(f"catalog {url} has schema revision {revision!r}, which this Forge does not know "
                        f"(its newest is {head()}): it was made by a newer Forge; upgrade Forge")


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's Config in code: the migrations shipped in forge/migrations, run on `connection`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    config.attributes["connection"] = connection
    return config


@functools.cache
def history() -> tuple[tuple[str, str], ...]:
    """(revision id, first line of its docstring) for every revision, oldest first; the last is the head."""
    script = ScriptDirectory.from_config(alembic_config())
    return tuple((r.revision, (r.doc or "").splitlines()[0]) for r in reversed(list(script.walk_revisions())))


def revisions() -> tuple[str, ...]:
    return tuple(revision for revision, _ in history())


def head() -> str:
    return revisions()[-1]


def legacy_revision(conn: Connection) -> str | None:
    """The revision of a catalog made before migrations (no alembic_version): 907e9bc's had no `rounds` table.
    None when the database holds no catalog tables."""
    tables = set(inspect(conn).get_table_names())
    if "tasks" not in tables:
        return None
    return "0002" if "rounds" in tables else "0001"


def current(conn: Connection) -> str | None:
    """The catalog's revision (recorded by Alembic, else read off a pre-migration catalog's tables); None when
    the database holds no Forge catalog (an `alembic_version` without Forge's tables is another application's)."""
    if "tasks" not in _tables(conn):
        return None
    return MigrationContext.configure(conn).get_current_revision() or legacy_revision(conn)


def revision_of(engine: Engine) -> str | None:
    """`current` on a new connection; a database that cannot be reached is one `CatalogError` line."""
    try:
        with engine.connect() as conn:
            return current(conn)
    except SQLAlchemyError as exc:
        raise connect_error(engine, exc) from None


@contextlib.contextmanager
def schema_lock(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that holds the schema lock; committed on success."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})
        elif engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        yield conn
        conn.commit()


def _create(conn: Connection) -> None:
    """Create the catalog's tables in an empty database. A SQLite file that already holds other tables belongs
    to another application: refused (a shared PostgreSQL database may hold other schemas' tables and is kept)."""
    tables = _tables(conn)
    if tables and (conn.dialect.name == "sqlite" or "alembic_version" in tables):
        raise _not_a_catalog(conn.engine.url.render_as_string(hide_password=True), tables)
    Base.metadata.create_all(conn)
    command.stamp(alembic_config(conn), "head")


def connect_error(engine: Engine, exc: SQLAlchemyError) -> CatalogError:
    message = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
    # A database server that does not answer may answer later (batch tasks retry it); a SQLite file cannot.
    unreachable = isinstance(exc, UNREACHABLE) and engine.dialect.name != "sqlite"
    kind = CatalogUnreachable if unreachable else CatalogError
    return kind(f"cannot open catalog {engine.url.render_as_string(hide_password=True)}: {message}; "
                "check --db / FORGE_DATABASE_URL and that the database server is running")


def ensure_schema(engine: Engine) -> None:
    """Create an empty catalog at the head revision; refuse an older or unknown one (see the module docstring)."""
    try:
        with engine.connect() as conn:
            revision = current(conn)
            if revision == head() and not views_missing(conn):
                return
        with schema_lock(engine) as conn:  # check again: another process may have just created it
            revision = current(conn)
            if revision is None:
                _create(conn)
            if revision in (None, head()):
                create_views(conn)  # the statistics views are part of the schema (missing in older catalogs)
                return
    except SQLAlchemyError as exc:
        raise connect_error(engine, exc) from None
    raise _revision_error(engine.url.render_as_string(hide_password=True), revision)


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Bring the catalog to the head revision in place; returns (revision before, revision after)."""
    try:
        with schema_lock(engine) as conn:
            before = current(conn)
            if before is None:
                _create(conn)
            elif before not in revisions():
                raise CatalogError(f"catalog has schema revision {before!r}, which this Forge does not know "
                                   f"(its newest is {head()}): upgrade Forge")
            else:
                config = alembic_config(conn)
                if MigrationContext.configure(conn).get_current_revision() is None:
                    command.stamp(config, before)  # a pre-migration catalog: record what it is, then upgrade
                drop_views(conn)  # SQLite cannot rebuild a table (batch migrations) that a view names
                command.upgrade(config, "head")
            create_views(conn)  # views follow the models: made again with this Forge's definitions
    except SQLAlchemyError as exc:
        raise CatalogError(f"upgrade failed, the catalog is unchanged: "
                           f"{str(getattr(exc, 'orig', None) or exc).strip().splitlines()[0]}") from None
    return before, head()


def stamp(engine: Engine, revision: str) -> None:
    """Record `revision` as the catalog's schema without changing any table (for a schema fixed by hand)."""
    if revision != "head" and revision not in revisions():
        raise CatalogError(f"unknown revision {revision!r}; known: {', '.join(revisions())}")
    with schema_lock(engine) as conn:
        command.stamp(alembic_config(conn), revision, purge=True)


def new_revision(message: str) -> Path:
    """Write the next revision (NNNN_slug.py) with the operations that turn the head schema into the models'
    schema (Alembic autogenerate against a scratch SQLite catalog upgraded from nothing). Review it: renames
    show up as drop + add, and new NOT NULL columns need a server_default for the rows already there."""
    import tempfile  # a developer's tool: what only it needs is imported when it runs, not by every Catalog

    from alembic.autogenerate import compare_metadata

    with tempfile.TemporaryDirectory() as scratch:
        engine = open_engine(f"sqlite:///{scratch}/catalog.db")
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
            if not compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata):
                raise CatalogError(f"the models in forge/tables.py match revision {head()}: nothing to migrate")
            rev_id = f"{int(head()) + 1:04d}"
            script = command.revision(alembic_config(conn), message=message, autogenerate=True, rev_id=rev_id)
        engine.dispose()
    history.cache_clear()
    assert script is not None and not isinstance(script, list)
    return Path(script.path)


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "revision":
        sys.exit('usage: python -m forge.database revision "what changed"')
    try:
        print(new_revision(sys.argv[2]))
    except CatalogError as exc:
        sys.exit(f"Error: {exc}")
