"""runs/rounds started_at and finished_at, llm_cache.created_at, llm_endpoints.probed_at: timestamptz on PostgreSQL
(they were ISO text, so `finished_at - started_at` failed there); SQLite keeps the same ISO text, which its date
functions read. Python sees the same text either way (forge.tables.Timestamp).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

COLUMNS = (("runs", "started_at", False), ("runs", "finished_at", True), ("rounds", "started_at", False),
           ("rounds", "finished_at", True), ("llm_cache", "created_at", False), ("llm_endpoints", "probed_at", False))


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite: the column stays ISO text (the type its date functions read)
    for table, column, nullable in COLUMNS:
        op.alter_column(table, column, type_=sa.DateTime(timezone=True), existing_type=sa.String(length=40),
                        existing_nullable=nullable, postgresql_using=f"NULLIF({column}::text, '')::timestamptz")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, nullable in COLUMNS:
        op.alter_column(table, column, type_=sa.String(length=40), existing_type=sa.DateTime(timezone=True),
                        existing_nullable=nullable,
                        postgresql_using=f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') "
                                         "|| '+00:00'")
