"""Alembic environment for the catalog. Forge builds the Alembic Config in code (forge.database.alembic_config) and
hands over an open connection, so migrations run inside the caller's transaction and lock; no alembic.ini."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from forge.tables import Base

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # plain `alembic` command line with sqlalchemy.url set
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            run()
        return
    # render_as_batch: SQLite cannot ALTER most things in place; batch mode copies the table instead.
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("forge migrations run online only: use `forge db upgrade --db URL`")
run()
