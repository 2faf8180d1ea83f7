"""What issues 5-8 need (commit 847cfb4): workflows, rounds, llm_cache, student_results, taxonomy_changes;
skills.weight/round/operator, runs.round, tasks.round, llm_calls.model/run_id/latency_s/attempts/ok.

New NOT NULL columns carry a server default so rows already in an upgraded catalog get the models' defaults.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "llm_cache",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.String(length=40), nullable=False),
        sa.Column("finished_at", sa.String(length=40), nullable=True),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "student_results",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("attempt_key", sa.String(length=64), nullable=False),
        sa.Column("task_id", sa.String(length=160), nullable=False),
        sa.Column("skill_id", sa.String(length=120), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("success", sa.Boolean(), nullable=True),
        sa.Column("steps", sa.Integer(), nullable=True),
        sa.Column("tokens", sa.Integer(), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("infra", sa.Boolean(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("attempt_key"),
    )
    for column in ("round", "skill_id", "task_id"):
        op.create_index(op.f(f"ix_student_results_{column}"), "student_results", [column], unique=False)
    op.create_table(
        "taxonomy_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("operator", sa.String(length=40), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("skill_id", sa.String(length=120), nullable=False),
        sa.Column("parent", sa.String(length=120), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("stats", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_taxonomy_changes_round"), "taxonomy_changes", ["round"], unique=False)
    op.create_index(op.f("ix_taxonomy_changes_skill_id"), "taxonomy_changes", ["skill_id"], unique=False)
    op.create_table(
        "workflows",
        sa.Column("signature", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("apps", sa.JSON(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("signature"),
    )
    op.create_index(op.f("ix_workflows_name"), "workflows", ["name"], unique=False)
    op.add_column("llm_calls", sa.Column("model", sa.String(length=120), nullable=False, server_default=""))
    op.add_column("llm_calls", sa.Column("run_id", sa.Integer(), nullable=True))
    op.add_column("llm_calls", sa.Column("latency_s", sa.Float(), nullable=False, server_default="0"))
    op.add_column("llm_calls", sa.Column("attempts", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("llm_calls", sa.Column("ok", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.create_index(op.f("ix_llm_calls_run_id"), "llm_calls", ["run_id"], unique=False)
    op.add_column("runs", sa.Column("round", sa.Integer(), nullable=True))
    op.add_column("skills", sa.Column("weight", sa.Float(), nullable=False, server_default="1.0"))
    op.add_column("skills", sa.Column("round", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("skills", sa.Column("operator", sa.String(length=40), nullable=True))
    op.add_column("tasks", sa.Column("round", sa.Integer(), nullable=False, server_default="0"))
    op.create_index(op.f("ix_tasks_round"), "tasks", ["round"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_tasks_round"), table_name="tasks")
    op.drop_index(op.f("ix_llm_calls_run_id"), table_name="llm_calls")
    for table, columns in (("tasks", ["round"]), ("skills", ["operator", "round", "weight"]), ("runs", ["round"]),
                           ("llm_calls", ["ok", "attempts", "latency_s", "run_id", "model"])):
        with op.batch_alter_table(table) as batch:
            for column in columns:
                batch.drop_column(column)
    for table in ("workflows", "taxonomy_changes", "student_results", "rounds", "llm_cache"):
        op.drop_table(table)
