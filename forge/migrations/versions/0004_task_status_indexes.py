"""tasks: (skill_id, status), (family, status), (app, status), (run_id, status) indexes replace the single-column
ones on skill_id, family and app, so the usual counts by skill/family/app/run and class read the index alone.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_PAIRS = ("skill_id", "family", "app", "run_id")


def upgrade() -> None:
    for column in _PAIRS:
        op.create_index(f"ix_tasks_{column}_status", "tasks", [column, "status"], unique=False)
    for column in ("skill_id", "family", "app"):
        op.drop_index(f"ix_tasks_{column}", table_name="tasks")


def downgrade() -> None:
    for column in ("skill_id", "family", "app"):
        op.create_index(f"ix_tasks_{column}", "tasks", [column], unique=False)
    for column in _PAIRS:
        op.drop_index(f"ix_tasks_{column}_status", table_name="tasks")
