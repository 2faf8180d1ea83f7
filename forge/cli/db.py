"""`forge db`: the catalog's schema revision (Alembic migrations by name): upgrade, current, history, stamp."""

from __future__ import annotations

from typing import Annotated

import typer

from forge.cli.base import DbOption, console, group

db_app = group("db", "The catalog's schema: upgrade an older catalog in place, show its revision.")


@db_app.command("upgrade")
def upgrade(db: DbOption = None) -> None:
    """Bring the catalog to the newest schema revision in place (back it up first).

    An empty database is created at the newest revision; a catalog made before migrations existed is
    recognized by its tables and upgraded too. The upgrade runs in one transaction: on error nothing changes.
    Example: forge db upgrade --db postgresql+psycopg://forge@db-host/forge
    """
    from forge import database
    from forge.catalog import resolve_url

    url = resolve_url(db)
    before, after = database.upgrade(database.open_engine(url))
    change = f"already at {after} (head)" if before == after else f"{before or 'empty'} -> {after} (head)"
    console.print(f"catalog {database.shown(url)}: {change}", highlight=False)


@db_app.command("current")
def current(db: DbOption = None) -> None:
    """Print the catalog's schema revision and whether `forge db upgrade` is needed (exit 1 if it is)."""
    from forge import database
    from forge.catalog import resolve_url

    url = resolve_url(db)
    revision = database.revision_of(database.open_engine(url))
    if revision is None:
        state = "empty (Forge creates the tables at the newest revision on first use)"
    elif revision == database.head():
        state = f"{revision} (head)"
    else:
        state = f"{revision}, the newest is {database.head()}: run `forge db upgrade --db {database.shown(url)}`"
    console.print(f"catalog {database.shown(url)}: {state}", highlight=False)
    if revision is not None and revision != database.head():
        raise typer.Exit(1)


@db_app.command("history")
def history(db: DbOption = None) -> None:
    """List the schema revisions, oldest first, with what each one changed; with --db (or $FORGE_DATABASE_URL),
    the catalog's own revision is marked (`<- catalog`). Nothing is created or changed."""
    import os

    from forge import database
    from forge.catalog import resolve_url

    mine = None
    if db or os.environ.get("FORGE_DATABASE_URL"):
        url = resolve_url(db)
        mine = database.revision_of(database.open_engine(url, read_only=True))
    for revision, summary in database.history():
        mark = "  <- catalog" if revision == mine else ""
        console.print(f"{revision}  {summary}{mark}", highlight=False, markup=False)


@db_app.command("stamp")
def stamp(
    revision: Annotated[str, typer.Argument(help="A revision id from `forge db history`, or head.")],
    db: DbOption = None,
) -> None:
    """Record REVISION as the catalog's schema without changing any table (for a schema fixed by hand)."""
    from forge import database
    from forge.catalog import resolve_url

    url = resolve_url(db)
    database.stamp(database.open_engine(url), revision)
    console.print(f"catalog {database.shown(url)}: stamped {revision}", highlight=False)
