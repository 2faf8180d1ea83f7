"""The tasks every export reads: accepted catalog rows with their package folders."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from forge.catalog import Catalog, TaskRow
from kit.errors import ForgeError, PackageError
from kit.package import Package, load_package


def accepted_packages(catalog: Catalog, round: int | None = None,
                      apps: Sequence[str] = ()) -> list[tuple[TaskRow, Package]]:
    """Accepted tasks (of `round`, of a domain in `apps`, when given) by id, with their packages.

    Raises `ForgeError` when none matches and `PackageError` when a task's package folder is gone."""
    return list(iter_accepted(catalog, round, apps))


#: Catalog rows read per query while streaming an export (memory stays flat for any catalog size).
CHUNK = 200


def iter_accepted(catalog: Catalog, round: int | None = None, apps: Sequence[str] = ()
                  ) -> Iterator[tuple[TaskRow, Package]]:
    """`accepted_packages` one task at a time: the ids are read first (the error when none matches comes before
    anything is written), then rows and packages in chunks of CHUNK, so an export of any size holds one chunk."""
    ids = catalog.accepted_ids(round, apps)
    if not ids:
        raise ForgeError(f"no accepted task matches round={round} apps={list(apps)} in {catalog.url}; see what "
                         "there is with: forge sql \"SELECT app, round, count(*) FROM tasks WHERE status = "
                         "'accepted' GROUP BY 1, 2\"")
    return _stream(catalog, ids)


def _stream(catalog: Catalog, ids: list[str]) -> Iterator[tuple[TaskRow, Package]]:
    for i in range(0, len(ids), CHUNK):
        for row in catalog.tasks(ids[i:i + CHUNK]):
            yield row, _package(catalog, row)


def package_folder(catalog: Catalog, path: str | None) -> Path | None:
    """Where a task's package is. New catalogs store absolute paths; a relative one (catalogs written before that)
    is tried from the current folder, then from the folder of the SQLite catalog file (where `forge` usually ran)."""
    if not path:
        return None
    candidates = [Path(path)]
    database = catalog.sqlite_file()
    if not Path(path).is_absolute() and database is not None:
        candidates.append(database.resolve().parent / path)
    return next((c for c in candidates if (c / "task.json").is_file()), None)


def _package(catalog: Catalog, row: TaskRow) -> Package:
    folder = package_folder(catalog, row.path)
    if folder is None:
        raise PackageError(f"task {row.id}: its package folder {row.path!r} is missing; restore it or "
                           "re-generate the task, then export again")
    return load_package(folder)
