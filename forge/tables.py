"""The catalog's schema: its tables (SQLAlchemy 2 models) and the statistics views, as users query them.

Users query the catalog with SQL (`forge sql`), so the tables are part of the interface; README.md documents
them and `TABLES` pins their names. Timings, run ids and gate evidence live here, never in packages.
The lowest module of the catalog: `forge.database` creates and migrates this schema, `forge.catalog` reads and
writes it; the migrations in forge/migrations must produce the same schema (tests/forge/test_catalog.py).

Statistics views (created with the catalog's schema, so they exist before any result is ingested; README
"Catalog schema" documents their columns; `forge.stats` reads them):
- `skill_round_stats`: one row per (skill, round);
- `skill_stats`: one row per skill over every round;
- `skill_failure_reasons`: (skill, round, failure_reason, attempts).
Infrastructure failures (a crash, no result.txt) count in `infra_failures` only: attempts, success rate,
mean score and mean steps are over the attempts that ran. `success_rate` = successes / attempts,
`mean_score` = the mean of the scores (fractional scores count as they are). Rates and means are cast to
DOUBLE PRECISION: PostgreSQL would otherwise return NUMERIC (printed `0E-20`, a string in JSON).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    inspect,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeEngine

TABLES = ("skills", "workflows", "runs", "rounds", "tasks", "verifications", "llm_calls", "llm_cache",
          "llm_endpoints", "student_results", "taxonomy_changes")



class Timestamp(TypeDecorator[str]):
    """An instant: in Python the ISO 8601 text `now()` writes (`2026-12-07T12:00:00+00:00`); in the database a typed
    `timestamptz` on PostgreSQL, so `finished_at - started_at` and `started_at > now() - interval '1 day'` work in
    `forge sql` (0007 converts older catalogs), and that same text on SQLite, whose date functions read it."""

    impl = String(40)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        return dialect.type_descriptor(DateTime(timezone=True) if dialect.name == "postgresql" else String(40))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if dialect.name != "postgresql" or not isinstance(value, str):
            return value
        return dt.datetime.fromisoformat(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if isinstance(value, dt.datetime):
            return (value.astimezone(dt.UTC) if value.tzinfo else value).isoformat(timespec="seconds")
        return value


class Base(DeclarativeBase):
    pass


class SkillRow(Base):
    __tablename__ = "skills"
    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    family: Mapped[str] = mapped_column(String(120), index=True)
    app: Mapped[str] = mapped_column(String(40), index=True)
    apps: Mapped[list[str]] = mapped_column(JSON)
    category: Mapped[str] = mapped_column(String(80), default="")
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    description: Mapped[str] = mapped_column(Text)
    difficulty: Mapped[str] = mapped_column(String(10))
    parent: Mapped[str | None] = mapped_column(String(120), nullable=True)
    origin: Mapped[str] = mapped_column(String(20), default="seed")
    status: Mapped[str] = mapped_column(String(20), default="active")
    #: Share of a round's budget relative to other skills (expansion reallocates it; 0 = retired).
    weight: Mapped[float] = mapped_column(Float, default=1.0)
    #: The round the skill joined the taxonomy (0 = seed) and the expansion operator that made it.
    round: Mapped[int] = mapped_column(Integer, default=0)
    operator: Mapped[str | None] = mapped_column(String(40), nullable=True)


class WorkflowRow(Base):
    """One row per workflow family version seen by a run (lineage: tasks name the signature)."""

    __tablename__ = "workflows"
    signature: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(120), index=True)
    version: Mapped[int] = mapped_column(Integer)
    apps: Mapped[list[str]] = mapped_column(JSON)
    description: Mapped[str] = mapped_column(Text, default="")


class RoundRow(Base):
    """A feedback round: generate -> student attempts -> ingest -> expand -> reallocate."""

    __tablename__ = "rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    status: Mapped[str] = mapped_column(String(20), default="open")
    budget: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[str] = mapped_column(Timestamp())
    finished_at: Mapped[str | None] = mapped_column(Timestamp(), nullable=True)
    counts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class RunRow(Base):
    __tablename__ = "runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seed: Mapped[int] = mapped_column(Integer)
    requested: Mapped[int] = mapped_column(Integer)
    selection: Mapped[dict[str, Any]] = mapped_column(JSON)
    out_dir: Mapped[str] = mapped_column(Text)
    backend: Mapped[str] = mapped_column(String(40))
    started_at: Mapped[str] = mapped_column(Timestamp())
    finished_at: Mapped[str | None] = mapped_column(Timestamp(), nullable=True)
    counts: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(20), default="running")
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The process that runs it (host name + pid), so a later run can tell a killed run from a live one.
    host: Mapped[str | None] = mapped_column(String(255), nullable=True)
    pid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: What kind of run: `generate` (tasks through the gate) or `student` (rollouts of a model on tasks).
    kind: Mapped[str] = mapped_column(String(20), default="generate")


class TaskRow(Base):
    __tablename__ = "tasks"
    # (x, status) pairs answer the usual `GROUP BY x, status` counts from the index alone (benchmarks/scale_catalog.py)
    __table_args__ = (Index("ix_tasks_skill_id_status", "skill_id", "status"),
                      Index("ix_tasks_family_status", "family", "status"),
                      Index("ix_tasks_app_status", "app", "status"),
                      Index("ix_tasks_run_id_status", "run_id", "status"))
    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    skill_id: Mapped[str] = mapped_column(String(120))
    family: Mapped[str] = mapped_column(String(120))
    app: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), index=True)
    seed: Mapped[int] = mapped_column(Integer)
    idx: Mapped[int] = mapped_column(Integer)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id"), nullable=True)
    path: Mapped[str | None] = mapped_column(Text, nullable=True)
    instruction: Mapped[str | None] = mapped_column(Text, nullable=True)
    workflow_signature: Mapped[str] = mapped_column(String(40))
    dedup_key: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)
    evidence: Mapped[str] = mapped_column(Text, default="")
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    seconds_generate: Mapped[float] = mapped_column(Float, default=0.0)
    seconds_verify: Mapped[float] = mapped_column(Float, default=0.0)
    round: Mapped[int] = mapped_column(Integer, default=0, index=True)
    #: The instruction's register: `explicit` (a specification) or `natural` (a user's goal in their own voice).
    register: Mapped[str | None] = mapped_column(String(20), nullable=True)


class VerificationRow(Base):
    __tablename__ = "verifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    task_id: Mapped[str] = mapped_column(ForeignKey("tasks.id"), index=True)
    verifier: Mapped[str] = mapped_column(String(60))
    passed: Mapped[bool] = mapped_column(Boolean)
    evidence: Mapped[str] = mapped_column(Text)
    seconds: Mapped[float] = mapped_column(Float, default=0.0)


class LLMCallRow(Base):
    __tablename__ = "llm_calls"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    task_id: Mapped[str] = mapped_column(ForeignKey("tasks.id"), index=True)
    node: Mapped[str] = mapped_column(String(60))
    backend: Mapped[str] = mapped_column(String(40))
    prompt_tokens: Mapped[int] = mapped_column(Integer)
    completion_tokens: Mapped[int] = mapped_column(Integer)
    cost_usd: Mapped[float] = mapped_column(Float)
    cached: Mapped[bool] = mapped_column(Boolean)
    model: Mapped[str] = mapped_column(String(120), default="")
    run_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    latency_s: Mapped[float] = mapped_column(Float, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    ok: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Tokens an offline backend estimates it would have used; the tokens above are those really spent (0 offline).
    #: For a model's call, how many of the tokens above are estimates (a request that timed out before the server
    #: reported its usage: what was sent and what arrived, ~4 characters a token).
    estimated_tokens: Mapped[int] = mapped_column(Integer, default=0)


class LLMCacheRow(Base):
    """Answers already paid for, keyed by a hash of (model, messages, schema, sampling params, seed)."""

    __tablename__ = "llm_cache"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(String(120))
    response: Mapped[str] = mapped_column(Text)
    prompt_tokens: Mapped[int] = mapped_column(Integer)
    completion_tokens: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(Timestamp())
    #: Why the answer was unusable (refusal, truncated, empty), so a cached bad answer is repaired the same way.
    problem: Mapped[str] = mapped_column(Text, default="")


class LLMEndpointRow(Base):
    """What a server accepts as structured output, probed once per (base URL, model) and reused."""

    __tablename__ = "llm_endpoints"
    base_url: Mapped[str] = mapped_column(String(500), primary_key=True)
    model: Mapped[str] = mapped_column(String(120), primary_key=True)
    #: json_schema, json_object_schema, json_object or text
    structured: Mapped[str] = mapped_column(String(40))
    evidence: Mapped[str] = mapped_column(Text, default="")
    probed_at: Mapped[str] = mapped_column(Timestamp())


class StudentResultRow(Base):
    """One attempt of the student at one task (OSWorld result folder or JSONL row)."""

    __tablename__ = "student_results"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: The attempt's identity, per record (forge.feedback's docstring defines it): re-ingesting the same results,
    #: moved, reordered or with lines added, adds only the new ones.
    attempt_key: Mapped[str] = mapped_column(String(64), unique=True)
    task_id: Mapped[str] = mapped_column(String(160), index=True)
    skill_id: Mapped[str] = mapped_column(String(120), index=True)
    round: Mapped[int] = mapped_column(Integer, index=True)
    model: Mapped[str] = mapped_column(String(120), default="")
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    success: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    steps: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    failure_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    infra: Mapped[bool] = mapped_column(Boolean, default=False)
    source: Mapped[str] = mapped_column(Text)
    #: A hash of the content the record was read from (an OSWorld task folder: its identity; a JSONL file: its
    #: records when ingested) and a hash of the record's content: the same record under another name adds nothing.
    source_run: Mapped[str] = mapped_column(Text, default="")
    record_hash: Mapped[str] = mapped_column(String(64), default="")
    #: Ids of the rubric checks the attempt failed, when known (from the results or by re-running the rubric).
    failed_checks: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)


class TaxonomyChangeRow(Base):
    """Every change the expander makes (add, reweight, retire, refuse), with its reason and statistics."""

    __tablename__ = "taxonomy_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round: Mapped[int] = mapped_column(Integer, index=True)
    operator: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(20))
    skill_id: Mapped[str] = mapped_column(String(120), index=True)
    parent: Mapped[str | None] = mapped_column(String(120), nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    stats: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


def now() -> str:
    """Wall-clock time, for catalog rows only (never for packages)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")



_COLUMNS = """
    skill_id,
    SUM(CASE WHEN infra THEN 0 ELSE 1 END) AS attempts,
    SUM(CASE WHEN infra THEN 0 WHEN success THEN 1 ELSE 0 END) AS successes,
    SUM(CASE WHEN infra THEN 1 ELSE 0 END) AS infra_failures,
    CAST(SUM(CASE WHEN infra THEN 0 WHEN success THEN 1 ELSE 0 END) AS DOUBLE PRECISION)
        / NULLIF(SUM(CASE WHEN infra THEN 0 ELSE 1 END), 0) AS success_rate,
    CAST(AVG(CASE WHEN infra THEN NULL ELSE score END) AS DOUBLE PRECISION) AS mean_score,
    CAST(AVG(CASE WHEN infra THEN NULL ELSE CAST(steps AS DOUBLE PRECISION) END) AS DOUBLE PRECISION) AS mean_steps
"""

VIEWS = {
    "skill_round_stats": f"SELECT round, {_COLUMNS} FROM student_results GROUP BY skill_id, round",
    "skill_stats": f"SELECT {_COLUMNS} FROM student_results GROUP BY skill_id",
    "skill_failure_reasons": "SELECT skill_id, round, failure_reason, COUNT(*) AS attempts FROM student_results "
                             "WHERE failure_reason IS NOT NULL GROUP BY skill_id, round, failure_reason",
}


def create_views(conn: Connection, *, refresh: bool = False) -> None:
    """Create the views that are missing (with `refresh`, drop and create all: a changed definition, e.g. after
    `forge db upgrade`). Runs in the caller's transaction (the schema lock when the catalog is created)."""
    present = set(inspect(conn).get_view_names())
    for name, query in VIEWS.items():
        if name in present and not refresh:
            continue
        if name in present:
            conn.execute(text(f"DROP VIEW {name}"))
        conn.execute(text(f"CREATE VIEW {name} AS {query}"))


def drop_views(conn: Connection) -> None:
    """Drop the statistics views (before a migration rebuilds the tables they read)."""
    for name in VIEWS:
        conn.execute(text(f"DROP VIEW IF EXISTS {name}"))


def views_missing(conn: Connection) -> bool:
    return not set(VIEWS) <= set(inspect(conn).get_view_names())
