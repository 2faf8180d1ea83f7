"""Frozen copy of forge/catalog.py as of commit 907e9bc (before migrations), to make a catalog the way that
version did: tests/forge/test_catalog.py upgrades it in place. Do not edit: it stands for what users have on disk."""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, Text, create_engine, delete, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from kit.errors import CatalogError

DEFAULT_URL = "sqlite:///forge.db"
TABLES = ("skills", "runs", "tasks", "verifications", "llm_calls")


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


class TaskRow(Base):
    __tablename__ = "tasks"
    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    skill_id: Mapped[str] = mapped_column(String(120), index=True)
    family: Mapped[str] = mapped_column(String(120), index=True)
    app: Mapped[str] = mapped_column(String(40), index=True)
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


_READ_ONLY_START = re.compile(r"^\s*(select|with|explain|values)\b", re.IGNORECASE)


def now() -> str:
    """Wall-clock time, for catalog rows only (never for packages)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class Catalog:
    def __init__(self, url: str | None = None) -> None:
        self.url = resolve_url(url)
        try:
            self.engine: Engine = create_engine(self.url)
            database = self.engine.url.database
            if self.engine.dialect.name == "sqlite" and database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            Base.metadata.create_all(self.engine)
        except (SQLAlchemyError, ImportError) as exc:
            raise CatalogError(f"cannot open catalog {self.url}: {str(exc).splitlines()[0]}; "
                               "check --db / FORGE_DATABASE_URL") from None

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def sync_skills(self, skills: Iterable[Any]) -> None:
        with self.session() as session, session.begin():
            for s in skills:
                session.merge(SkillRow(id=s.id, family=s.family, app=s.app, apps=list(s.apps), category=s.category,
                                       params=dict(s.params), description=s.description, difficulty=s.difficulty,
                                       parent=s.parent, origin=s.origin, status=s.status))

    def start_run(self, *, seed: int, requested: int, selection: dict[str, Any], out_dir: str, backend: str) -> int:
        with self.session() as session, session.begin():
            run = RunRow(seed=seed, requested=requested, selection=selection, out_dir=out_dir, backend=backend,
                         started_at=now(), counts={})
            session.add(run)
            session.flush()
            return run.id

    def finish_run(self, run_id: int, counts: dict[str, int], status: str = "finished") -> None:
        with self.session() as session, session.begin():
            run = session.get(RunRow, run_id)
            if run is not None:
                run.finished_at, run.counts, run.status = now(), counts, status

    def record(self, session: Session, task: TaskRow, stages: Sequence[Any], calls: Sequence[Any]) -> None:
        """Insert or replace a task with its verifications and LLM calls (inside the caller's transaction)."""
        session.execute(delete(VerificationRow).where(VerificationRow.task_id == task.id))
        session.execute(delete(LLMCallRow).where(LLMCallRow.task_id == task.id))
        session.merge(task)
        session.flush()
        for stage in stages:
            session.add(VerificationRow(task_id=task.id, verifier=stage.name, passed=stage.passed,
                                        evidence=stage.evidence, seconds=round(stage.seconds, 6)))
        for call in calls:
            session.add(LLMCallRow(task_id=task.id, node=call.node, backend=call.backend,
                                   prompt_tokens=call.prompt_tokens, completion_tokens=call.completion_tokens,
                                   cost_usd=call.cost_usd, cached=call.cached))

    def find_duplicate(self, key: str, task_id: str) -> str | None:
        with self.session() as session:
            return session.scalar(select(TaskRow.id).where(TaskRow.dedup_key == key, TaskRow.status == "accepted",
                                                           TaskRow.id != task_id).limit(1))

    def task(self, task_id: str) -> TaskRow | None:
        with self.session() as session:
            return session.get(TaskRow, task_id)

    def verifications(self, task_id: str) -> list[VerificationRow]:
        with self.session() as session:
            return list(session.scalars(select(VerificationRow).where(VerificationRow.task_id == task_id)
                                        .order_by(VerificationRow.id)))

    def query(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one read-only statement. Writes are refused twice: by the statement's first keyword and
        by a read-only transaction in the database itself; the transaction is always rolled back."""
        if not _READ_ONLY_START.match(sql):
            raise CatalogError("forge sql runs read-only queries only (SELECT, WITH, EXPLAIN, VALUES); "
                               "the catalog is unchanged")
        with self.engine.connect() as conn:
            try:
                if self.engine.dialect.name == "sqlite":
                    conn.exec_driver_sql("PRAGMA query_only = ON")
                elif self.engine.dialect.name == "postgresql":
                    conn.exec_driver_sql("SET TRANSACTION READ ONLY")
                result = conn.execute(text(sql))
                columns = list(result.keys())
                rows = [tuple(r) for r in result.fetchall()]
            except SQLAlchemyError as exc:
                message = str(getattr(exc, "orig", exc)).splitlines()[0]
                raise CatalogError(f"query failed: {message}; the catalog is unchanged") from None
            finally:
                conn.rollback()
                if self.engine.dialect.name == "sqlite":
                    conn.exec_driver_sql("PRAGMA query_only = OFF")
        return columns, rows
