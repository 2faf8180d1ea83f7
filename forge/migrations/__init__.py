"""Alembic migrations of the catalog (see forge.database for how Forge runs them; README: PostgreSQL and migrations)."""
