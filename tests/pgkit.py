"""A throwaway PostgreSQL server for tests and benchmarks, and fresh databases on any server.

`.ci/run` starts one server with `python3 -m tests.pgkit start DIR` and exports FORGE_TEST_POSTGRES_URL; without
that variable the tests start their own through `Server`. initdb refuses to run as root, so as root the server runs
as the `postgres` user (the Debian package creates it). Trust authentication on loopback only; fsync is off
unless `durable=True` (the data is thrown away, and benchmarks want the real cost of a commit).

    eval "$(python3 -m tests.pgkit start /tmp/forge-pg)"    # prints: export FORGE_TEST_POSTGRES_URL=...
    python3 -m tests.pgkit stop /tmp/forge-pg

Tests take the server from the session fixture `postgres_server` (import it from here) and a database of their
own from `fresh_database`. Under CI (CI=true) a missing server fails the test instead of skipping it.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, text

ENV = "FORGE_TEST_POSTGRES_URL"


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl (Debian keeps them out of PATH), or None when not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    return Path(versions[-1]).parent if versions else None


def why_not() -> str | None:
    """Why this machine cannot start a throwaway server (None when it can)."""
    if binaries() is None:
        return "PostgreSQL is not installed (apt-get install postgresql) and FORGE_TEST_POSTGRES_URL is not set"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no `postgres` user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """initdb + pg_ctl start in `folder` (a new temp folder by default); `stop()` ends it and removes the folder."""

    def __init__(self, folder: Path | None = None, *, durable: bool = False) -> None:
        reason = why_not()
        if reason:
            raise RuntimeError(reason)
        self.bin = binaries()
        self.folder = folder or Path(tempfile.mkdtemp(prefix="forge-pg-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.data = self.folder / "data"
        self.port = _free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options, "-w", "start")

    def _run(self, program: str, *args: str) -> None:
        assert self.bin is not None
        user = "postgres" if self._as_postgres else None
        done = subprocess.run([str(self.bin / program), *args], user=user, group=user, capture_output=True,
                              text=True, cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stderr.strip() or done.stdout.strip()}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def fresh_database(server_url: str) -> str:
    """Create an empty database on the server at `server_url`; returns its URL (drop it with `drop_database`)."""
    name = f"forge_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    name = make_url(url).database
    engine = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """URL of a running PostgreSQL server: $FORGE_TEST_POSTGRES_URL, else a throwaway one for this session."""
    url = os.environ.get(ENV)
    if url:
        yield url
        return
    reason = why_not()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
        pytest.skip(reason)
    server = Server()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty catalog database: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'forge.db'}"
        return
    url = fresh_database(request.getfixturevalue("postgres_server"))
    yield url
    drop_database(url)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: python3 -m tests.pgkit start|stop FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    if argv[0] == "start":
        server = Server(folder)
        (folder / "url").write_text(server.url)
        print(f"export {ENV}={server.url}")
    else:
        binary = binaries()
        assert binary is not None
        user = "postgres" if os.geteuid() == 0 else None
        subprocess.run([str(binary / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "-w", "stop"],
                       user=user, group=user, check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
