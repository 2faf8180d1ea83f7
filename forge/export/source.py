"""The tasks every export reads: accepted catalog rows with their package folders."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import select

from forge.catalog import Catalog, TaskRow
from forge.errors import ForgeError, PackageError
from forge.package import Package, load_package


def accepted_packages(catalog: Catalog, round: int | None = None,
                      apps: Sequence[str] = ()) -> list[tuple[TaskRow, Package]]:
    """Accepted tasks (of `round`, of a domain in `apps`, when given) by id, with their packages.

    Raises `ForgeError` when none matches and `PackageError` when a task's package folder is gone."""
    query = select(TaskRow).where(TaskRow.status == "accepted").order_by(TaskRow.id)
    if round is not None:
        query = query.where(TaskRow.round == round)
    if apps:
        query = query.where(TaskRow.app.in_(list(apps)))
    with catalog.session() as session:
        rows = list(session.scalars(query))
    if not rows:
        raise ForgeError(f"no accepted task matches round={round} apps={list(apps)} in {catalog.url}; see what "
                         "there is with: forge sql \"SELECT app, round, count(*) FROM tasks WHERE status = "
                         "'accepted' GROUP BY 1, 2\"")
    return [(row, _package(row)) for row in rows]


def _package(row: TaskRow) -> Package:
    if not row.path or not (Path(row.path) / "task.json").is_file():
        raise PackageError(f"task {row.id}: its package folder {row.path!r} is missing; restore it or "
                           "re-generate the task, then export again")
    return load_package(Path(row.path))
