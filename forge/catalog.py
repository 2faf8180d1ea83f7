"""The task catalog: the one way Forge reads and writes its database (SQLite by default, or any SQLAlchemy URL).

The tables are `forge.tables` (re-exported here: callers name `forge.catalog.TaskRow`); opening, creating and
migrating the database is `forge.database`. Users query the catalog with SQL (`forge sql`, `forge.sqlquery`).
"""

from __future__ import annotations

import datetime as dt
import os
import socket
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import Integer, case, delete, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from forge.database import SQLITE_BUSY_MS, ensure_schema, open_engine, require_catalog
from forge.sqlquery import Limits, QueryResult
from forge.sqlquery import run as run_query
from forge.tables import (
    TABLES,
    Base,
    LLMCacheRow,
    LLMCallRow,
    LLMEndpointRow,
    RoundRow,
    RunRow,
    SkillRow,
    StudentResultRow,
    TaskRow,
    TaxonomyChangeRow,
    VerificationRow,
    WorkflowRow,
    now,
)
from kit.llm import CacheEntry, ledger_tokens
from kit.scratch import process_alive

__all__ = ["TABLES", "Base", "Catalog", "LLMCacheRow", "LLMCallRow", "LLMEndpointRow", "RoundRow", "RunRow",
           "SkillRow", "StudentResultRow", "TaskRow", "TaxonomyChangeRow", "VerificationRow", "WorkflowRow", "now",
           "resolve_url"]

DEFAULT_URL = "sqlite:///forge.db"
def resolve_url(url: str | None) -> str:
    """`--db` if given, else FORGE_DATABASE_URL, else ./forge.db. A bare path means a SQLite file."""
    url = url or os.environ.get("FORGE_DATABASE_URL") or DEFAULT_URL
    return url if "://" in url else f"sqlite:///{url}"


def _epoch(timestamp: str) -> float | None:
    """A `now()` timestamp as epoch seconds (None when unreadable: then only the pid's liveness counts)."""
    try:
        return dt.datetime.fromisoformat(timestamp).timestamp()
    except (TypeError, ValueError):
        return None


def _made(session: Session, run_id: int) -> dict[str, int]:
    """The tasks run `run_id` recorded, per gate class (the counts of a run that ended without saying so)."""
    rows = session.execute(select(TaskRow.status, func.count()).where(TaskRow.run_id == run_id)
                           .group_by(TaskRow.status)).all()
    return {str(status): int(count) for status, count in sorted(rows)}


#: Skill columns `sync_skills` never overwrites on an existing row (rounds own them).
_KEPT = frozenset({"id", "status"})


class Catalog:
    def __init__(self, url: str | None = None, *, read_only: bool = False) -> None:
        """Open (an empty database: create) the catalog at `url`; see forge.database for the schema contract.

        `read_only` (commands that only read: sql, show, stats, report, skills history): the catalog must exist
        at the head revision; a missing file, an empty database or another application's is a one-line error and
        nothing is created or changed (`forge.database.require_catalog`)."""
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

    def start_run(self, *, seed: int, requested: int, selection: dict[str, Any], out_dir: str, backend: str,
                  kind: str = "generate", round: int | None = None) -> int:
        """Record a new `running` run owned by this process (host and pid), after marking the runs this host
        left `running` in processes that are gone (`interrupt_dead_runs`). `kind`: generate or student."""
        self.interrupt_dead_runs()
        with self.session() as session, session.begin():
            run = RunRow(seed=seed, requested=requested, selection=selection, out_dir=out_dir, backend=backend,
                         started_at=now(), counts={}, host=socket.gethostname(), pid=os.getpid(), kind=kind,
                         round=round)
            session.add(run)
            session.flush()
            return run.id

    def interrupt_dead_runs(self) -> list[int]:
        """Mark `interrupted` the runs still `running` that this host started in a process that is no longer
        there (killed with SIGKILL, the machine rebooted) or whose pid now belongs to a later process; returns
        their ids. Runs of other hosts, and rows without host or pid (made before revision 0005), are left."""
        with self.session() as session, session.begin():
            rows = session.execute(select(RunRow.id, RunRow.pid, RunRow.started_at).where(
                RunRow.status == "running", RunRow.host == socket.gethostname(), RunRow.pid.is_not(None))).all()
            dead = [row.id for row in rows if not process_alive(row.pid, since=_epoch(row.started_at))]
            if dead:
                session.execute(update(RunRow).where(RunRow.id.in_(dead), RunRow.status == "running")
                                .values(status="interrupted", finished_at=now()))
                for run_id in dead:  # what it did record, not the `{}` it started with
                    if made := _made(session, run_id):
                        session.execute(update(RunRow).where(RunRow.id == run_id).values(counts=made))
        return dead

    def finish_run(self, run_id: int, counts: dict[str, int], status: str = "finished") -> None:
        with self.session() as session, session.begin():
            run = session.get(RunRow, run_id)
            if run is not None:
                run.finished_at, run.counts, run.status = now(), counts, status

    def set_run_counts(self, run_id: int, counts: dict[str, int]) -> None:
        """The counts of a run still going (written as its batches land, so a run killed later shows them)."""
        with self.session() as session, session.begin():
            session.execute(update(RunRow).where(RunRow.id == run_id, RunRow.status == "running").values(counts=counts))

    def end_flow_run(self, flow_run_id: str, status: str) -> list[int]:
        """Mark `status` (`interrupted`: crashed, `cancelled`) the runs still `running` that the Prefect flow run
        `flow_run_id` started (`selection["flow_run"]`), each with the counts of the tasks it recorded (by gate
        class); returns their ids. A run that finished or failed keeps its status; one the flow marked
        `interrupted` as it was stopped may become `cancelled` (Prefect's cancellation terminates the process)."""
        with self.session() as session, session.begin():
            running = session.scalars(select(RunRow).where(RunRow.status.in_(("running", "interrupted")))).all()
            ended = [run for run in running if (run.selection or {}).get("flow_run") == flow_run_id]
            for run in ended:
                run.status, run.finished_at = status, now()
                run.counts = _made(session, run.id) or run.counts
        return [run.id for run in ended]

    def record(self, session: Session, task: TaskRow, stages: Sequence[Any], calls: Sequence[Any]) -> None:
        """Insert or replace a task with its verifications and LLM calls (inside the caller's transaction)."""
        self._record_batch(session, [(task, stages, calls)])

    def record_all(self, results: Iterable[tuple[TaskRow, Sequence[Any], Sequence[Any]]]) -> None:
        """`record` every (task, stages, calls) in one short write transaction."""
        with self.session() as session, session.begin():
            self._record_batch(session, list(results))

    def _record_batch(self, session: Session, results: list[tuple[TaskRow, Sequence[Any], Sequence[Any]]]) -> None:
        """One statement per table for a whole batch (the generator records every 25 tasks from its main thread,
        which also generates: per-row ORM round trips there slowed the whole pipeline)."""
        if not results:
            return
        ids = [task.id for task, _, _ in results]
        session.execute(delete(VerificationRow).where(VerificationRow.task_id.in_(ids)))
        # The ledger keeps what earlier runs spent on this task; only this run's rows are replaced.
        for run_id in {task.run_id for task, _, _ in results}:
            mine = [task.id for task, _, _ in results if task.run_id == run_id]
            session.execute(delete(LLMCallRow).where(LLMCallRow.task_id.in_(mine),
                                                     LLMCallRow.run_id.is_not_distinct_from(run_id)))
        list(session.scalars(select(TaskRow).where(TaskRow.id.in_(ids))))  # one query: merge() finds them loaded
        for task, _, _ in results:
            session.merge(task)
        session.flush()
        verifications = [{"task_id": task.id, "verifier": stage.name, "passed": stage.passed,
                          "evidence": stage.evidence, "seconds": round(stage.seconds, 6)}
                         for task, stages, _ in results for stage in stages]
        if verifications:
            session.execute(insert(VerificationRow), verifications)
        ledger = []
        for task, _, calls in results:
            for call in calls:
                prompt, completion, estimated = ledger_tokens(call.backend, call.prompt_tokens, call.completion_tokens,
                                                              getattr(call, "estimated_tokens", 0))
                ledger.append({"task_id": task.id, "node": call.node, "backend": call.backend,
                               "prompt_tokens": prompt, "completion_tokens": completion,
                               "estimated_tokens": estimated, "cost_usd": call.cost_usd, "cached": call.cached,
                               "model": call.model, "run_id": task.run_id, "latency_s": round(call.latency_s, 6),
                               "attempts": call.attempts, "ok": call.ok})
                entry = call.cache_entry
                if entry is not None:  # a fresh answer: cached with its task, in the same transaction
                    session.merge(LLMCacheRow(key=entry.key, model=entry.model, response=entry.text,
                                              problem=entry.problem, prompt_tokens=entry.prompt_tokens,
                                              completion_tokens=entry.completion_tokens, created_at=now()))
        if ledger:
            session.execute(insert(LLMCallRow), ledger)

    def record_turns(self, task_id: str, run_id: int, turns: Sequence[Any]) -> None:
        """One `llm_calls` row per turn of a student's episode (`forge.agent` turns: what the model really spent)."""
        with self.session() as session, session.begin():
            for turn in turns:
                session.add(LLMCallRow(task_id=task_id, node=turn.node, backend=turn.backend,
                                       prompt_tokens=turn.prompt_tokens, completion_tokens=turn.completion_tokens,
                                       cost_usd=turn.cost_usd, cached=turn.cached, model=turn.model, run_id=run_id,
                                       latency_s=round(turn.latency_s, 6), attempts=turn.attempts, ok=turn.ok,
                                       estimated_tokens=getattr(turn, "estimated_tokens", 0)))

    def store_answer(self, entry: Any) -> bool:
        """Cache a fresh answer (`forge.llm.CacheEntry`) now, in its own transaction, so a killed run keeps what
        it paid for. False when SQLite is held by the run's own open transaction: the answer is then stored with
        its task (`record`); waiting would block the very thread that holds the lock."""
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
        """Run one read-only statement with the default limits (see `forge.sqlquery`); returns (column names, rows)."""
        result = self.run_sql(sql)
        return result.columns, result.rows

    def run_sql(self, sql: str, limits: Limits | None = None) -> QueryResult:
        """`forge sql`: one read-only statement within `limits` (default: `forge.sqlquery.Limits()`), with the note
        that says when a cap cut the rows."""
        return run_query(self.engine, sql, limits)

    def sqlite_file(self) -> Path | None:
        """The SQLite catalog's file (relative package paths of old catalogs resolve from its folder), else None."""
        database = self.engine.url.database if self.engine.dialect.name == "sqlite" else None
        return Path(database) if database and database != ":memory:" else None

    def task_owners(self, task_ids: Sequence[str], chunk: int = 500) -> list[tuple[str, int | None]]:
        """(status, run id) of those of `task_ids` recorded: which run made each (`forge.flowkit.batch_counts`)."""
        found: list[tuple[str, int | None]] = []
        with self.session() as session:
            for i in range(0, len(task_ids), chunk):
                found += [(row.status, row.run_id) for row in session.execute(
                    select(TaskRow.status, TaskRow.run_id).where(TaskRow.id.in_(task_ids[i:i + chunk])))]
        return found

    def accepted_in_round(self, round_n: int) -> list[tuple[str, str | None]]:
        """(id, package path) of the accepted tasks of a round, by id."""
        with self.session() as session:
            return [(row.id, row.path) for row in session.execute(select(TaskRow.id, TaskRow.path).where(
                TaskRow.round == round_n, TaskRow.status == "accepted").order_by(TaskRow.id))]

    # ---- rounds ----

    def round_numbers(self) -> tuple[int | None, int]:
        """(the oldest round not yet closed, or None; the highest round recorded, 0 when none)."""
        with self.session() as session:
            unfinished = session.scalar(select(func.min(RoundRow.id)).where(RoundRow.status != "closed"))
            return unfinished, int(session.scalar(select(func.max(RoundRow.id))) or 0)

    # ---- the feedback loop (forge.rounds, forge.expand, forge.feedback, forge.student) ----
    # Each method is one question the loop asks, in one transaction: a round that crashes resumes from what
    # the committed transactions left (forge.rounds), so these boundaries are part of its contract.

    def round_row(self, round_n: int) -> RoundRow | None:
        with self.session() as session:
            return session.get(RoundRow, round_n)

    def start_round(self, round_n: int, *, budget: int, seed: int, out: str) -> None:
        """Record round N as `preparing` (a rerun of an unprepared round starts it again)."""
        with self.session() as session, session.begin():
            session.merge(RoundRow(id=round_n, status="preparing", budget=budget, seed=seed, started_at=now(),
                                   counts={"out": out}))

    def open_round(self, round_n: int, counts: dict[str, Any]) -> None:
        """Round N is prepared: `open`, with its counts (the plan among them)."""
        with self.session() as session, session.begin():
            row = session.get(RoundRow, round_n)
            if row is None:
                raise LookupError(f"round {round_n} is not recorded; start it first")
            row.status, row.counts = "open", counts

    def file_round_tasks(self, round_n: int, task_ids: Sequence[str], chunk: int = 500
                         ) -> tuple[Counter[str], Counter[str]]:
        """Mark `task_ids` (those recorded) as round N's; returns the round's tasks per status and its accepted
        tasks per app, read in the same transaction."""
        with self.session() as session, session.begin():
            for i in range(0, len(task_ids), chunk):
                session.execute(update(TaskRow).where(TaskRow.id.in_(task_ids[i:i + chunk])).values(round=round_n))
            statuses = Counter(session.scalars(select(TaskRow.status).where(TaskRow.round == round_n)))
            apps = Counter(session.scalars(select(TaskRow.app).where(TaskRow.round == round_n,
                                                                     TaskRow.status == "accepted")))
        return statuses, apps

    def close_round(self, round_n: int, counts: Mapping[str, Any]) -> None:
        """Round N is `closed`: `counts` are merged over the counts recorded when it opened."""
        with self.session() as session, session.begin():
            row = session.get(RoundRow, round_n)
            if row is None:
                raise LookupError(f"round {round_n} is not recorded; it cannot be closed")
            row.status, row.finished_at = "closed", now()
            row.counts = {**row.counts, **counts}

    def skill_rows(self) -> list[SkillRow]:
        """Every skill row (seed skills and those rounds added), retired ones included."""
        with self.session() as session:
            return list(session.scalars(select(SkillRow)))

    def skill_weights(self) -> dict[str, float]:
        with self.session() as session:
            return {row.id: row.weight for row in session.execute(select(SkillRow.id, SkillRow.weight))}

    def skills_of_round(self, round_n: int) -> set[str]:
        """Ids of the skills round N added."""
        with self.session() as session:
            return set(session.scalars(select(SkillRow.id).where(SkillRow.round == round_n)))

    def set_weights(self, decisions: Iterable[tuple[str, float, bool]]) -> None:
        """(skill id, new weight, retire?) for each decision, in one transaction; unknown ids are skipped."""
        with self.session() as session, session.begin():
            for skill_id, weight, retire in decisions:
                row = session.get(SkillRow, skill_id)
                if row is not None:
                    row.weight = weight
                    if retire:
                        row.status = "retired"

    def add_round_skills(self, round_n: int, added: Iterable[tuple[Any, str]]) -> None:
        """Admit (skill, operator) pairs as active skills of round N (origin `round-N`, weight 1), in one
        transaction; `skill` is a `kit.taxonomy.Skill`."""
        with self.session() as session, session.begin():
            for s, operator in added:
                session.merge(SkillRow(id=s.id, family=s.family, app=s.app, apps=list(s.apps), category=s.category,
                                       params=dict(s.params), description=s.description, difficulty=s.difficulty,
                                       parent=s.parent, origin=f"round-{round_n}", status="active", weight=1.0,
                                       round=round_n, operator=operator))

    def record_changes(self, round_n: int, changes: Iterable[TaxonomyChangeRow]) -> int:
        """Write `taxonomy_changes` rows as round N's, in one transaction; returns how many."""
        rows = list(changes)
        with self.session() as session, session.begin():
            for row in rows:
                row.round = round_n
                session.add(row)
        return len(rows)

    def reweighted_in_round(self, round_n: int, operators: Sequence[str]) -> bool:
        """Whether one of `operators` already reweighed a skill in round N (a rerun after a crash must not
        halve weights twice)."""
        with self.session() as session:
            return session.scalar(select(TaxonomyChangeRow.id).where(
                TaxonomyChangeRow.round == round_n, TaxonomyChangeRow.operator.in_(list(operators)),
                TaxonomyChangeRow.action == "reweight").limit(1)) is not None

    def refused_skill_ids(self) -> set[str]:
        """Ids of every candidate a round refused."""
        with self.session() as session:
            return set(session.scalars(select(TaxonomyChangeRow.skill_id)
                                       .where(TaxonomyChangeRow.action == "refuse")))

    def round_attempts(self, round_n: int) -> list[tuple[str, bool, list[str] | None]]:
        """(skill id, success, failed checks) of every attempt of round N that ran (no infra failures), in the
        order they were ingested."""
        with self.session() as session:
            rows = session.execute(select(StudentResultRow.skill_id, StudentResultRow.success,
                                          StudentResultRow.failed_checks)
                                   .where(StudentResultRow.round == round_n, StudentResultRow.infra.is_(False))
                                   .order_by(StudentResultRow.id))
            return [(r.skill_id, bool(r.success), list(r.failed_checks) if r.failed_checks else None) for r in rows]

    def round_task_attempts(self, round_n: int) -> list[tuple[str, str, str, str | None, str | None, bool,
                                                              list[str] | None]]:
        """(task id, skill id, app, package path, instruction, success, failed checks) of every attempt of round N
        that ran (no infra failures) at a task the catalog holds, in the order they were ingested: what failure
        mining (`forge.mining`) reads."""
        with self.session() as session:
            rows = session.execute(
                select(StudentResultRow.task_id, TaskRow.skill_id, TaskRow.app, TaskRow.path, TaskRow.instruction,
                       StudentResultRow.success, StudentResultRow.failed_checks)
                .join(TaskRow, TaskRow.id == StudentResultRow.task_id)
                .where(StudentResultRow.round == round_n, StudentResultRow.infra.is_(False))
                .order_by(StudentResultRow.id))
            return [(r.task_id, r.skill_id, r.app, r.path, r.instruction, bool(r.success),
                     list(r.failed_checks) if r.failed_checks else None) for r in rows]

    def attempts_per_skill(self, model: str, before_round: int) -> Counter[str]:
        """Attempts (infra failures left out) `model` made at each skill in rounds before `before_round`."""
        with self.session() as session:
            return Counter(session.scalars(select(StudentResultRow.skill_id).where(
                StudentResultRow.model == model, StudentResultRow.round < before_round,
                StudentResultRow.infra.is_(False))))

    def accepted_skills_in_round(self, round_n: int) -> list[tuple[str, str, str]]:
        """(id, skill id, app) of the accepted tasks of round N, by id."""
        with self.session() as session:
            return [(row.id, row.skill_id, row.app) for row in session.execute(
                select(TaskRow.id, TaskRow.skill_id, TaskRow.app)
                .where(TaskRow.round == round_n, TaskRow.status == "accepted").order_by(TaskRow.id))]

    def task_paths(self, task_ids: Sequence[str], chunk: int = 500) -> dict[str, str | None]:
        """id -> package path of those of `task_ids` recorded."""
        with self.session() as session:
            return {row.id: row.path for i in range(0, len(task_ids), chunk) for row in session.execute(
                select(TaskRow.id, TaskRow.path).where(TaskRow.id.in_(task_ids[i:i + chunk])))}

    def add_attempts(self, attempts: Sequence[Any], round_n: int | None, chunk: int = 500
                     ) -> list[tuple[str, int | None]]:
        """Add a student's attempts (`forge.feedback.Attempt`) in one transaction; returns, per attempt in order,
        (`added` | `already` | `unknown`, the round it is filed under). An attempt is filed under `round_n` when
        given, else under its task's round; one whose `key` is stored already is `already`, one whose task the
        catalog does not hold is `unknown`. Two processes adding the same attempts at once add each once: the
        insert skips a key another transaction holds (ON CONFLICT DO NOTHING waits for it to commit), and the
        attempt is `already`."""
        out: list[tuple[str, int | None]] = []
        with self.session() as session, session.begin():
            ids = sorted({a.task_id for a in attempts})
            tasks: dict[str, tuple[str, int | None]] = {}
            for i in range(0, len(ids), chunk):
                query = select(TaskRow.id, TaskRow.skill_id, TaskRow.round).where(TaskRow.id.in_(ids[i:i + chunk]))
                tasks.update({row.id: (row.skill_id, row.round) for row in session.execute(query)})
            keys = [a.key for a in attempts]
            stored: set[str] = set()
            for i in range(0, len(keys), chunk):
                stored.update(session.scalars(select(StudentResultRow.attempt_key)
                                              .where(StudentResultRow.attempt_key.in_(keys[i:i + chunk]))))
            rows: dict[str, dict[str, Any]] = {}
            for a, key in zip(attempts, keys, strict=True):
                if a.task_id in tasks and key not in stored and key not in rows:
                    skill_id, task_round = tasks[a.task_id]
                    rows[key] = dict(attempt_key=key, task_id=a.task_id, skill_id=skill_id,
                                     round=task_round if round_n is None else round_n, model=a.model, score=a.score,
                                     success=a.success, steps=a.steps, tokens=a.tokens,
                                     failure_reason=a.failure_reason, infra=a.infra, source=a.source,
                                     source_run=a.source_run, record_hash=a.record_hash,
                                     failed_checks=a.failed_checks)
            insert: Any = (pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert)(StudentResultRow)
            statement = insert.on_conflict_do_nothing(index_elements=[StudentResultRow.attempt_key]) \
                .returning(StudentResultRow.attempt_key)
            added: set[str] = set()
            values = list(rows.values())
            for i in range(0, len(values), chunk):
                added.update(session.scalars(statement, values[i:i + chunk]))
            for a, key in zip(attempts, keys, strict=True):
                if a.task_id not in tasks:
                    out.append(("unknown", None))
                    continue
                _, task_round = tasks[a.task_id]
                round_of = task_round if round_n is None else round_n
                if key in added:
                    added.discard(key)  # the same attempt twice in one ingest: the second is `already`
                    out.append(("added", round_of))
                else:
                    out.append(("already", round_of))
        return out

    def close(self) -> None:
        """Release the catalog's connections (a temporary catalog before its folder is removed)."""
        self.engine.dispose()

    # ---- the report's aggregates (forge.report); every one tolerates empty tables ----

    def active_skills(self) -> list[tuple[str, int, int]]:
        """(app, round that added it, skills) of the skills not retired."""
        with self.session() as session:
            return [(row[0], int(row[1] or 0), int(row[2])) for row in session.execute(
                select(SkillRow.app, SkillRow.round, func.count()).where(SkillRow.status != "retired")
                .group_by(SkillRow.app, SkillRow.round))]

    def tasks_by_status(self) -> list[tuple[str, int]]:
        with self.session() as session:
            return [(row[0], int(row[1])) for row in session.execute(
                select(TaskRow.status, func.count()).group_by(TaskRow.status))]

    def student_outcomes(self) -> list[tuple[str, int, bool, str]]:
        """(family, or the skill id of a skill no longer in the catalog; round; success; model) of every scored
        attempt (infrastructure failures left out)."""
        with self.session() as session:
            return [(row[0], row[1], bool(row[2]), row[3]) for row in session.execute(
                select(func.coalesce(SkillRow.family, StudentResultRow.skill_id), StudentResultRow.round,
                       StudentResultRow.success, StudentResultRow.model)
                .outerjoin(SkillRow, SkillRow.id == StudentResultRow.skill_id)
                .where(StudentResultRow.infra.is_(False), StudentResultRow.success.is_not(None)))]

    def model_usage_by_app(self) -> list[tuple[str, int, float, float]]:
        """(app, tasks, tokens, USD) of the tasks of runs that used a model (a task's own answers, counted once)."""
        with self.session() as session:
            return [(row[0], int(row[1]), float(row[2] or 0), float(row[3] or 0)) for row in session.execute(
                select(TaskRow.app, func.count(), func.sum(TaskRow.prompt_tokens + TaskRow.completion_tokens),
                       func.sum(TaskRow.cost_usd))
                .join(RunRow, RunRow.id == TaskRow.run_id)
                .where(RunRow.backend != "offline").group_by(TaskRow.app))]

    def recent_runs(self, limit: int) -> list[tuple[RunRow, int]]:
        """The last `limit` finished runs, newest first, each with the number of tasks it recorded itself."""
        with self.session() as session:
            runs = list(session.scalars(select(RunRow).where(RunRow.finished_at.is_not(None))
                                        .order_by(RunRow.id.desc()).limit(limit)))
            made = {row[0]: row[1] for row in session.execute(
                select(TaskRow.run_id, func.count()).where(TaskRow.run_id.in_([r.id for r in runs]))
                .group_by(TaskRow.run_id))} if runs else {}
        return [(run, int(made.get(run.id, 0))) for run in runs]

    def run_history(self) -> list[tuple[RunRow, dict[str, int]]]:
        """Every run, oldest first, with the tasks it recorded itself per gate class (the report's runs view)."""
        with self.session() as session:
            runs = list(session.scalars(select(RunRow).order_by(RunRow.id)))
            made: dict[int, dict[str, int]] = {}
            for run_id, status, count in session.execute(
                    select(TaskRow.run_id, TaskRow.status, func.count()).where(TaskRow.run_id.is_not(None))
                    .group_by(TaskRow.run_id, TaskRow.status)):
                made.setdefault(int(run_id or 0), {})[str(status)] = int(count)
        return [(run, made.get(run.id, {})) for run in runs]

    def sizes(self) -> dict[str, int]:
        """How many skills, tasks, accepted tasks, student attempts and runs the catalog holds."""
        with self.session() as session:
            count = lambda query: int(session.scalar(query) or 0)  # noqa: E731
            return {
                "skills": count(select(func.count()).select_from(SkillRow)),
                "tasks": count(select(func.count()).select_from(TaskRow)),
                "accepted": count(select(func.count()).select_from(TaskRow).where(TaskRow.status == "accepted")),
                "student attempts": count(select(func.count()).select_from(StudentResultRow)),
                "runs": count(select(func.count()).select_from(RunRow)),
            }

    # ---- the taxonomy's history (forge.history) ----

    def skill(self, skill_id: str) -> SkillRow | None:
        with self.session() as session:
            return session.get(SkillRow, skill_id)

    def skill_ids(self) -> list[str]:
        with self.session() as session:
            return list(session.scalars(select(SkillRow.id)))

    def changes(self, skill_id: str) -> list[TaxonomyChangeRow]:
        """Every taxonomy change made to `skill_id`, oldest first."""
        with self.session() as session:
            return list(session.scalars(select(TaxonomyChangeRow).where(TaxonomyChangeRow.skill_id == skill_id)
                                        .order_by(TaxonomyChangeRow.id)))

    def skill_rounds(self) -> tuple[list[tuple[str, str, int]], Counter[int], list[int]]:
        """(id, app, round joined) of every skill, retirements per round, and the recorded rounds' numbers."""
        with self.session() as session:
            skills = [(row.id, row.app, row.round) for row in session.execute(
                select(SkillRow.id, SkillRow.app, SkillRow.round))]
            retired = Counter(session.scalars(select(TaxonomyChangeRow.round)
                                              .where(TaxonomyChangeRow.action == "retire")))
            rounds = list(session.scalars(select(RoundRow.id)))
        return skills, retired, rounds

    # ---- exports (forge.export.source) ----

    def accepted_ids(self, round: int | None = None, apps: Sequence[str] = ()) -> list[str]:
        """Ids of the accepted tasks (of `round`, of a domain in `apps`, when given), sorted."""
        query = select(TaskRow.id).where(TaskRow.status == "accepted").order_by(TaskRow.id)
        if round is not None:
            query = query.where(TaskRow.round == round)
        if apps:
            query = query.where(TaskRow.app.in_(list(apps)))
        with self.session() as session:
            return list(session.scalars(query))

    def tasks(self, task_ids: Sequence[str]) -> list[TaskRow]:
        """The rows of `task_ids` (those recorded), by id."""
        with self.session() as session:
            return list(session.scalars(select(TaskRow).where(TaskRow.id.in_(list(task_ids))).order_by(TaskRow.id)))

    # ---- the LLM ledger and endpoints (forge.llm.ledger, forge.llm.endpoint) ----

    def llm_usage(self, run_id: int) -> list[tuple[str, int, int, int, int, int, int, float]]:
        """Per node of a run's model calls: (node, calls, cached, failed, attempts, prompt tokens, completion tokens,
        cost); tokens and cost count fresh calls only (cached answers are free)."""
        fresh = ~LLMCallRow.cached
        spent = lambda column: func.coalesce(func.sum(case((fresh, column), else_=0)), 0)  # noqa: E731
        query = (select(LLMCallRow.node, func.count(), func.sum(LLMCallRow.cached.cast(Integer)),
                        func.sum((~LLMCallRow.ok).cast(Integer)), func.sum(LLMCallRow.attempts),
                        spent(LLMCallRow.prompt_tokens), spent(LLMCallRow.completion_tokens),
                        spent(LLMCallRow.cost_usd))
                 .where(LLMCallRow.run_id == run_id, LLMCallRow.backend != "offline")
                 .group_by(LLMCallRow.node).order_by(LLMCallRow.node))
        with self.session() as session:
            return [(str(r[0]), int(r[1]), int(r[2] or 0), int(r[3] or 0), int(r[4] or 0), int(r[5]), int(r[6]),
                     float(r[7])) for r in session.execute(query)]

    def run_spend(self, run_id: int) -> tuple[int, float, int]:
        """(tokens, USD, offline estimated tokens) a run's fresh model calls spent (cached answers are free). A
        model's call may carry estimated tokens too (a timed-out request): those are spent, counted in `tokens`."""
        offline = case((LLMCallRow.backend == "offline", LLMCallRow.estimated_tokens), else_=0)
        with self.session() as session:
            tokens, cost, estimated = session.execute(select(
                func.coalesce(func.sum(LLMCallRow.prompt_tokens + LLMCallRow.completion_tokens), 0),
                func.coalesce(func.sum(LLMCallRow.cost_usd), 0.0),
                func.coalesce(func.sum(offline), 0),
            ).where(LLMCallRow.run_id == run_id, LLMCallRow.cached.is_(False))).one()
        return int(tokens), float(cost), int(estimated)

    def endpoint(self, base_url: str, model: str) -> LLMEndpointRow | None:
        with self.session() as session:
            return session.get(LLMEndpointRow, (base_url, model))

    def save_endpoint(self, base_url: str, model: str, structured: str, evidence: str) -> bool:
        """Keep an endpoint's probe verdict; False when the catalog was busy with another writer (the next run
        probes again, nothing is lost)."""
        try:
            with self.session() as session, session.begin():
                session.merge(LLMEndpointRow(base_url=base_url, model=model, structured=structured,
                                             evidence=evidence, probed_at=now()))
        except OperationalError:
            return False
        return True
