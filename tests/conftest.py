"""Shared fixtures. Fast unit tests and integration tests (real bwrap, real Prefect) live side by side;
integration tests are marked `slow` (see tests/README.md)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pgkit import db_url  # noqa: F401  (an empty catalog on SQLite and on PostgreSQL, for any test)


@pytest.fixture(scope="session")
def prefect_harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One Prefect test server for the whole session (it takes ~10 s to start)."""
    home = tmp_path_factory.mktemp("prefect-home")
    os.environ["PREFECT_HOME"] = str(home)
    os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "out"
