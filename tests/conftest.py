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


# --- one family: `pytest --family NAME` (what `forge family test NAME` runs) -----------------------------------

def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--family", default=None, metavar="NAME",
                     help="Keep only the tests about this workflow family: the parametrized cases of the suites "
                          "that pick up every family (forge.family_info.SUITES) whose parameter is the family, one "
                          "of its skills or its module, and every test of tests/workflows/test_<family>.py.")


def about_family(item: pytest.Item, name: str, skill_families: dict[str, str]) -> bool:
    """Is `item` a test of family `name`? Its own test file, or a case parametrized by the family's name, a skill
    id of it, a `Skill`, a `Workflow` or a family module."""
    if item.path.name == f"test_{name.replace('.', '_')}.py":
        return True
    callspec = getattr(item, "callspec", None)
    for value in (callspec.params.values() if callspec is not None else ()):
        if isinstance(value, str) and (value == name or skill_families.get(value) == name):
            return True
        if name in (getattr(value, "family", None), getattr(value, "NAME", None)):
            return True
        if type(value).__name__.endswith("Workflow") and getattr(value, "name", None) == name:
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    name = config.getoption("--family")
    if not name:
        return
    from kit.errors import did_you_mean
    from kit.taxonomy import load_taxonomy
    from workflows import families

    if name not in families():
        raise pytest.UsageError(f"--family {name!r}: no such family.{did_you_mean(name, sorted(families()))} "
                                "See `forge family list`.")
    skill_families = {skill.id: skill.family for skill in load_taxonomy().values()}
    kept = [item for item in items if about_family(item, name, skill_families)]
    config.hook.pytest_deselected(items=[item for item in items if not about_family(item, name, skill_families)])
    items[:] = kept
