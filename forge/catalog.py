"""The task catalog: SQLAlchemy 2 models over SQLite (default) or any SQLAlchemy URL.

Users query it with SQL (`forge sql`), so the tables are part of the interface; README.md documents
them and `TABLES` pins their names. Timings, run ids and gate evidence live here, never in packages.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

DEFAULT_URL = "sqlite:///forge.db"
TABLES = ("skills", "workflows", "runs", "rounds", "tasks", "verifications", "llm_calls", "llm_cache",
          "llm_endpoints", "student_results", "taxonomy_changes")


def resolve_url(url: str | None) -> str:
    """`--db` if given, else FORGE_DATABASE_URL, else ./forge.db. A bare path means a SQLite file."""
    url = url or os.environ.get("FORGE_DATABASE_URL") or DEFAULT_URL
    return url if "://" in url else f"sqlite:///{url}"


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
    started_at: Mapped[str] = mapped_column(String(40))
    finished_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    counts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class RunRow(Base):
    __tablename__ = "runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seed: Mapped[int] = mapped_column(Integer)
    requested: Mapped[int] = mapped_column(Integer)
    selection: Mapped[dict[str, Any]] = mapped_column(JSON)
    out_dir: Mapped[str] = mapped_column(Text)
    backend: Mapped[str] = mapped_column(String(40))
    started_at: Mapped[str] = mapped_column(String(40))
    finished_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
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
    estimated_tokens: Mapped[int] = mapped_column(Integer, default=0)


class LLMCacheRow(Base):
    """Answers already paid for, keyed by a hash of (model, messages, schema, sampling params, seed)."""

    __tablename__ = "llm_cache"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(String(120))
    response: Mapped[str] = mapped_column(Text)
    prompt_tokens: Mapped[int] = mapped_column(Integer)
    completion_tokens: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String(40))
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
    probed_at: Mapped[str] = mapped_column(String(40))


class StudentResultRow(Base):
    """One attempt of the student at one task (OSWorld result folder or JSONL row)."""

    __tablename__ = "student_results"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: Hash of (task id, model, source_run, record_hash, occurrence): re-ingesting the same results is a no-op
    #: (forge.feedback's docstring defines the identity).
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
    #: Identity of the run that produced the record (its run folder's identity, not the file name) and a hash of
    #: the record's content: the same record under another name adds nothing.
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


def _epoch(timestamp: str) -> float | None:
    """A `now()` timestamp as epoch seconds (None when unreadable: then only the pid's liveness counts)."""
    try:
        return dt.datetime.fromisoformat(timestamp).timestamp()
    except (TypeError, ValueError):
        return None


#: Skill columns `sync_skills` never overwrites on an existing row (rounds own them).
_KEPT = frozenset({"id", "status"})


class Catalog:
    def __init__(self, url: str | None = None, *, read_only: bool = False) -> None:
        """Open (an empty database: create) the catalog at `url`; see forge.database for the schema contract.

        `read_only` (commands that only read: sql, show, stats, report, skills history): the catalog must exist
        at the head revision; a missing file, an empty database or another application's is a one-line error and
        nothing is created or changed (`forge.database.require_catalog`)."""
        from forge.database import ensure_schema, open_engine, require_catalog

        self.url = resolve_url(url)
        self.read_only = read_only
        self.engine: Engine = open_engine(self.url, read_only=read_only)
        if read_only:
            require_catalog(self.engine)
        else:
            ensure_schema(self.engine)

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def sync_skills(self, skills: Iterable[Any]) -> None:
        """Insert or update the skills' rows in one upsert (two processes syncing at once both succeed).
        An existing row keeps its lifecycle (`status`): a skill a round retired stays retired."""
        rows = [dict(id=s.id, family=s.family, app=s.app, apps=list(s.apps), category=s.category,
                     params=dict(s.params), description=s.description, difficulty=s.difficulty, parent=s.parent,
                     origin=s.origin, status=s.status) for s in skills]
        if not rows:
            return
        insert: Any = (pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert)(SkillRow)
        upsert = insert.on_conflict_do_update(index_elements=[SkillRow.id],
                                              set_={k: insert.excluded[k] for k in rows[0] if k not in _KEPT})
        with self.session() as session, session.begin():
            session.execute(upsert, rows)

    def sync_workflows(self, workflows: Iterable[Any]) -> None:
        """Record the family versions a run uses (tasks name them by `workflow_signature`)."""
        rows = [dict(signature=w.signature, name=w.name, version=w.version, apps=list(w.apps),
                     description=w.description) for w in workflows]
        if rows:
            insert: Any = (pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert)(WorkflowRow)
            with self.session() as session, session.begin():
                session.execute(insert.on_conflict_do_nothing(index_elements=[WorkflowRow.signature]), rows)

    def start_run(self, *, seed: int, requested: int, selection: dict[str, Any], out_dir: str, backend: str) -> int:
        """Record a new `running` run owned by this process (host and pid), after marking the runs this host
        left `running` in processes that are gone (`interrupt_dead_runs`)."""
        self.interrupt_dead_runs()
        with self.session() as session, session.begin():
            run = RunRow(seed=seed, requested=requested, selection=selection, out_dir=out_dir, backend=backend,
                         started_at=now(), counts={}, host=socket.gethostname(), pid=os.getpid())
            session.add(run)
            session.flush()
            return run.id

    def interrupt_dead_runs(self) -> list[int]:
        """Mark `interrupted` the runs still `running` that this host started in a process that is no longer
        there (killed with SIGKILL, the machine rebooted) or whose pid now belongs to a later process; returns
        their ids. Runs of other hosts, and rows without host or pid (made before revision 0005), are left."""
        from forge.scratch import process_alive

        with self.session() as session, session.begin():
            rows = session.execute(select(RunRow.id, RunRow.pid, RunRow.started_at).where(
                RunRow.status == "running", RunRow.host == socket.gethostname(), RunRow.pid.is_not(None))).all()
            dead = [row.id for row in rows if not process_alive(row.pid, since=_epoch(row.started_at))]
            if dead:
                session.execute(update(RunRow).where(RunRow.id.in_(dead), RunRow.status == "running")
                                .values(status="interrupted", finished_at=now()))
        return dead

    def finish_run(self, run_id: int, counts: dict[str, int], status: str = "finished") -> None:
        with self.session() as session, session.begin():
            run = session.get(RunRow, run_id)
            if run is not None:
                run.finished_at, run.counts, run.status = now(), counts, status

    def record(self, session: Session, task: TaskRow, stages: Sequence[Any], calls: Sequence[Any]) -> None:
        """Insert or replace a task with its verifications and LLM calls (inside the caller's transaction)."""
        session.execute(delete(VerificationRow).where(VerificationRow.task_id == task.id))
        # The ledger keeps what earlier runs spent on this task; only this run's rows are replaced.
        session.execute(delete(LLMCallRow).where(LLMCallRow.task_id == task.id,
                                                 LLMCallRow.run_id.is_not_distinct_from(task.run_id)))
        session.merge(task)
        session.flush()
        for stage in stages:
            session.add(VerificationRow(task_id=task.id, verifier=stage.name, passed=stage.passed,
                                        evidence=stage.evidence, seconds=round(stage.seconds, 6)))
        from forge.llm.base import ledger_tokens

        for call in calls:
            prompt, completion, estimated = ledger_tokens(call.backend, call.prompt_tokens, call.completion_tokens)
            session.add(LLMCallRow(task_id=task.id, node=call.node, backend=call.backend,
                                   prompt_tokens=prompt, completion_tokens=completion, estimated_tokens=estimated,
                                   cost_usd=call.cost_usd, cached=call.cached, model=call.model,
                                   run_id=task.run_id, latency_s=round(call.latency_s, 6),
                                   attempts=call.attempts, ok=call.ok))
            entry = call.cache_entry
            if entry is not None:  # a fresh answer: cached with its task, in the same transaction
                session.merge(LLMCacheRow(key=entry.key, model=entry.model, response=entry.text,
                                          problem=entry.problem, prompt_tokens=entry.prompt_tokens,
                                          completion_tokens=entry.completion_tokens, created_at=now()))

    def store_answer(self, entry: Any) -> bool:
        """Cache a fresh answer (`forge.llm.CacheEntry`) now, in its own transaction, so a killed run keeps what
        it paid for. False when SQLite is held by the run's own open transaction: the answer is then stored with
        its task (`record`); waiting would block the very thread that holds the lock."""
        from sqlalchemy.exc import OperationalError

        from forge.database import SQLITE_BUSY_MS

        sqlite = self.engine.dialect.name == "sqlite"
        insert: Any = (sqlite_insert if sqlite else pg_insert)(LLMCacheRow).values(
            key=entry.key, model=entry.model, response=entry.text, problem=entry.problem,
            prompt_tokens=entry.prompt_tokens, completion_tokens=entry.completion_tokens, created_at=now())
        try:
            with self.engine.connect() as conn:
                if sqlite:
                    conn.exec_driver_sql("PRAGMA busy_timeout = 100")
                try:
                    conn.execute(insert.on_conflict_do_nothing(index_elements=[LLMCacheRow.key]))
                    conn.commit()
                finally:
                    if sqlite:
                        conn.exec_driver_sql(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
        except OperationalError:
            return False
        return True

    def cached_answer(self, key: str) -> Any:
        """The `llm_cache` entry for `key` as a `forge.llm.CacheEntry`, or None."""
        from forge.llm.base import CacheEntry

        with self.session() as session:
            row = session.get(LLMCacheRow, key)
        if row is None:
            return None
        return CacheEntry(row.key, row.model, row.response, row.problem or "", row.prompt_tokens,
                          row.completion_tokens)

    def find_duplicate(self, key: str, task_id: str) -> str | None:
        with self.session() as session:
            return session.scalar(select(TaskRow.id).where(TaskRow.dedup_key == key, TaskRow.status == "accepted",
                                                           TaskRow.id != task_id).limit(1))

    def recorded(self, task_ids: Sequence[str], chunk: int = 500) -> dict[str, tuple[str, str | None, str]]:
        """id -> (status, path, workflow signature) for those of `task_ids` already recorded (to resume)."""
        found: dict[str, tuple[str, str | None, str]] = {}
        columns = (TaskRow.id, TaskRow.status, TaskRow.path, TaskRow.workflow_signature)
        with self.session() as session:
            for i in range(0, len(task_ids), chunk):
                for row in session.execute(select(*columns).where(TaskRow.id.in_(task_ids[i:i + chunk]))):
                    found[row.id] = (row.status, row.path, row.workflow_signature)
        return found

    def task(self, task_id: str) -> TaskRow | None:
        with self.session() as session:
            return session.get(TaskRow, task_id)

    def verifications(self, task_id: str) -> list[VerificationRow]:
        with self.session() as session:
            return list(session.scalars(select(VerificationRow).where(VerificationRow.task_id == task_id)
                                        .order_by(VerificationRow.id)))

    def query(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one read-only statement with the default limits (see `forge.sqlquery`); returns (column names, rows).
        `forge sql` calls `forge.sqlquery.run` itself, to print the note when a cap cut the rows."""
        from forge.sqlquery import run

        result = run(self.engine, sql)
        return result.columns, result.rows
