"""runs.host/pid/kind, tasks.register, llm_calls.estimated_tokens, student_results.source_run/record_hash/
failed_checks, and the llm_endpoints table: the columns the hardening, student runner, registers, honest ledger
and endpoint-probe work need, defined once so that work shares one schema.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("host", sa.String(length=255), nullable=True))
    op.add_column("runs", sa.Column("pid", sa.Integer(), nullable=True))
    op.add_column("runs", sa.Column("kind", sa.String(length=20), nullable=False, server_default="generate"))
    op.add_column("tasks", sa.Column("register", sa.String(length=20), nullable=True))
    op.add_column("llm_calls", sa.Column("estimated_tokens", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("student_results", sa.Column("source_run", sa.Text(), nullable=False, server_default=""))
    op.add_column("student_results", sa.Column("record_hash", sa.String(length=64), nullable=False,
                                               server_default=""))
    op.add_column("student_results", sa.Column("failed_checks", sa.JSON(), nullable=True))
    op.create_table(
        "llm_endpoints",
        sa.Column("base_url", sa.String(length=500), nullable=False),
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("structured", sa.String(length=40), nullable=False),
        sa.Column("evidence", sa.Text(), nullable=False),
        sa.Column("probed_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("base_url", "model"),
    )


def downgrade() -> None:
    op.drop_table("llm_endpoints")
    for table, column in (("student_results", "failed_checks"), ("student_results", "record_hash"),
                          ("student_results", "source_run"), ("llm_calls", "estimated_tokens"),
                          ("tasks", "register"), ("runs", "kind"), ("runs", "pid"), ("runs", "host")):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
