"""llm_cache.problem: why a cached answer was unusable (refusal, truncated, empty), so it is repaired the same way.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("llm_cache", sa.Column("problem", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("llm_cache") as batch:
        batch.drop_column("problem")
