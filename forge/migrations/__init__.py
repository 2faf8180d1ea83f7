"""Alembic migrations of the catalog (see forge.schema for how Forge runs them; README: PostgreSQL and migrations)."""
