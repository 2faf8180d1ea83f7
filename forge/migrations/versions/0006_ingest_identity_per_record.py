"""student_results.attempt_key per record: a JSONL row is (task id, model, record hash, occurrence), no longer tied
to its file's record prefix (a line prepended to an ingested file re-added every row after it); an OSWorld folder
is (task id, model, content hash). Stored keys are recomputed so that re-ingesting old results adds nothing.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import hashlib
import re

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: A JSONL row's `source` is "path:line"; an OSWorld folder's is the folder path.
_JSONL_SOURCE = re.compile(r":\d+$")


def _key(task_id: str, model: str, folder_content: str, record_hash: str, occurrence: int) -> str:
    """forge.feedback.attempt_key, frozen here as this revision defines it."""
    text = "\x1f".join((task_id, model, folder_content, record_hash, str(occurrence)))
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def upgrade() -> None:
    conn = op.get_bind()
    table = sa.table("student_results", sa.column("id", sa.Integer), sa.column("attempt_key", sa.String),
                     sa.column("task_id", sa.String), sa.column("model", sa.String), sa.column("source", sa.Text),
                     sa.column("source_run", sa.Text), sa.column("record_hash", sa.String))
    rows = conn.execute(sa.select(table.c.id, table.c.task_id, table.c.model, table.c.source, table.c.source_run,
                                  table.c.record_hash).order_by(table.c.id)).all()
    seen: dict[tuple[str, str, str], int] = {}
    keys: list[dict[str, object]] = []
    for row in rows:
        if _JSONL_SOURCE.search(row.source or "") and row.record_hash:
            group = (row.task_id, row.model or "", row.record_hash)
            occurrence = seen.get(group, 0)  # unique by construction: the n-th stored copy of one record
            seen[group] = occurrence + 1
            keys.append({"row": row.id, "key": _key(row.task_id, row.model or "", "", row.record_hash, occurrence)})
        elif row.source_run:
            keys.append({"row": row.id, "key": _key(row.task_id, row.model or "", row.source_run, "", 0)})
        # else: a row from before record hashes keeps its key
    update = sa.update(table).where(table.c.id == sa.bindparam("row")).values(attempt_key=sa.bindparam("key"))
    if keys:  # through temporary keys: a new key may equal another row's old one
        conn.execute(update, [{"row": k["row"], "key": f"migrating-{k['row']}"} for k in keys])
        conn.execute(update, keys)


def downgrade() -> None:
    pass  # the old keys hashed the whole file's record prefix, which the rows do not keep; the new keys stay unique
