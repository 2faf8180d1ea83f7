"""Catalog at scale: bulk insert rate and typical aggregate query latency at 300,000 task rows, on SQLite and
PostgreSQL. Goals (issue 7): inserts >= 5,000 rows/s, queries < 200 ms.

    python benchmarks/scale_catalog.py [--rows 300000] [--postgres URL] [--no-postgres]

Both catalogs are made by `Catalog(url)` (migrated schema, WAL SQLite file on local disk). Rows go in the way a
bulk import would (Core executemany, 10,000 per transaction); the generator's own path (`Catalog.record`: a task
with 6 verifications and 1 LLM call per call, a commit every 25 tasks) is measured on a sample. Queries run through
`Catalog.query` (what `forge sql` does: a new read-only transaction each time) after ANALYZE (VACUUM ANALYZE on
PostgreSQL, as autovacuum would); each is timed 5
times and the median printed. "Typical" = the counts by class per app/family/skill/run (index-served); averages
of per-row timings read every row and are printed apart.

Beside wall time the script prints this process's CPU time: for SQLite that is the whole cost (what an idle core
would take), for PostgreSQL only the client's share. On a shared, busy machine compare the CPU figures.
PostgreSQL: --postgres URL, else $FORGE_TEST_POSTGRES_URL, else a throwaway local server with durable settings
(fsync on) from tests/pgkit.py. `main()` returns the numbers (benchmarks/scale.py calls it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from forge.catalog import Catalog, TaskRow
from kit.dag import LLMCall
from verifiers.gate.stages import Stage

INSERT_GOAL, QUERY_GOAL_MS = 5_000.0, 200.0
APPS = ("libreoffice_calc", "libreoffice_writer", "libreoffice_impress", "thunderbird", "os", "chrome", "vs_code",
        "gimp", "multi_apps")
STATUSES = ("accepted",) * 7 + ("lax", "trivial", "duplicate", "setup_fail", "strict")
#: The counts users and the feedback loop ask for; each is answered from an index.
QUERIES = {
    "status counts": "SELECT status, count(*) FROM tasks GROUP BY status",
    "app x status": "SELECT app, status, count(*) FROM tasks GROUP BY app, status",
    "family x status": "SELECT family, status, count(*) FROM tasks GROUP BY family, status",
    "top skills by accepted": "SELECT skill_id, count(*) AS n, sum(CASE WHEN status = 'accepted' THEN 1 ELSE 0 END) "
    "AS accepted FROM tasks GROUP BY skill_id ORDER BY accepted DESC LIMIT 20",
    "one run by class": "SELECT status, count(*) FROM tasks WHERE run_id = 3 GROUP BY status",
    "one skill by class": "SELECT status, count(*) FROM tasks WHERE skill_id = 'libreoffice_calc.family7.skill42' "
    "GROUP BY status",
    "dedup lookup": "SELECT id FROM tasks WHERE dedup_key = 'k000123456' AND status = 'accepted' LIMIT 1",
}
#: Aggregates of per-row values (timings, cost) read every row; printed for information, not held to the budget.
SCANS = {
    "verify time + cost per family": "SELECT family, avg(seconds_verify), sum(cost_usd) FROM tasks GROUP BY family",
}


def _rows(start: int, n: int, run_id: int) -> list[dict[str, Any]]:
    rows = []
    for i in range(start, start + n):
        app = APPS[i % len(APPS)]
        family = f"{app}.family{(i // 7) % 12}"
        skill = f"{family}.skill{(i // 3) % 86}"
        rows.append(dict(id=f"{skill}--s{run_id}--{i:07d}", skill_id=skill, family=family, app=app,
                         status=STATUSES[i % len(STATUSES)], seed=run_id, idx=i, run_id=run_id,
                         path=f"/data/tasks/{app}/{skill}--s{run_id}--{i:07d}", instruction="Sort the table.",
                         workflow_signature="0123456789abcdef", dedup_key=f"k{i:09d}", evidence="oracle passed",
                         prompt_tokens=420, completion_tokens=96, cost_usd=0.0004, seconds_generate=0.012,
                         seconds_verify=0.031 + (i % 13) / 1000, round=0))
    return rows


def bulk_insert(catalog: Catalog, total: int, batch: int = 10_000) -> tuple[float, float]:
    """Insert `total` task rows over 10 runs; returns rows per second of wall time and of this process's CPU."""
    run_ids = [catalog.start_run(seed=s, requested=total // 10, selection={}, out_dir="out", backend="offline")
               for s in range(10)]
    wall = cpu = 0.0
    for offset in range(0, total, batch):
        rows = _rows(offset, min(batch, total - offset), run_ids[(offset * 10) // total])  # not timed: test data
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        with catalog.engine.begin() as conn:
            conn.execute(insert(TaskRow), rows)
        wall, cpu = wall + time.perf_counter() - wall_start, cpu + time.process_time() - cpu_start
    return total / wall, total / cpu


def record_rate(catalog: Catalog, n: int = 1_000) -> tuple[float, float]:
    """Tasks per second (wall, CPU) through `Catalog.record`, as the generator writes them."""
    stages = [Stage(name, True, "ok", 0.01) for name in ("schema", "grounding", "setup", "noop", "oracle", "dedup")]
    calls = [LLMCall("instruction", "offline", 420, 96, 0.0004, False)]
    session = catalog.session()
    wall, cpu = time.perf_counter(), time.process_time()
    for i, row in enumerate(_rows(10_000_000, n, 1)):
        catalog.record(session, TaskRow(**row), stages, calls)
        if (i + 1) % 25 == 0:
            session.commit()
    session.commit()
    session.close()
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu)


def query_latency(catalog: Catalog, queries: dict[str, str], repeat: int = 5) -> dict[str, tuple[float, float]]:
    """Median (wall ms, this process's CPU ms) per query. CPU is the whole cost for SQLite (in process) and
    only the client's share for PostgreSQL; on a busy machine wall time also counts waiting for a core."""
    latency = {}
    for name, sql in queries.items():
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            catalog.query(sql)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
        latency[name] = (statistics.median(walls), statistics.median(cpus))
    return latency


def measure(label: str, url: str, rows: int) -> dict[str, Any]:
    catalog = Catalog(url)
    inserted = bulk_insert(catalog, rows)
    recorded = record_rate(catalog)
    # What autovacuum does to a live catalog soon after a bulk load: statistics, and on PostgreSQL the visibility
    # map too (VACUUM), without which its GROUP BY queries cannot be answered from the (app|family|..., status)
    # indexes alone. VACUUM runs outside a transaction.
    with catalog.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE" if catalog.engine.dialect.name == "postgresql" else "ANALYZE")
    typical, scans = query_latency(catalog, QUERIES), query_latency(catalog, SCANS)
    count = catalog.query("SELECT count(*) FROM tasks")[1][0][0]
    catalog.engine.dispose()
    worst = max(wall for wall, _ in typical.values())
    print(f"\n{label}: {count:,} task rows")
    print(f"  bulk insert      {inserted[0]:10,.0f} rows/s   ({inserted[0] / INSERT_GOAL:.1f}x the goal of "
          f"{INSERT_GOAL:,.0f}; per cpu second {inserted[1]:,.0f})")
    print(f"  Catalog.record   {recorded[0]:10,.0f} tasks/s  (each with 6 verifications + 1 LLM call; per cpu second "
          f"{recorded[1]:,.0f})")
    for name, (wall, cpu) in typical.items():
        print(f"  query {name:<32} {wall:8.1f} ms  (cpu {cpu:6.1f} ms)")
    print(f"  slowest typical query {worst:.1f} ms = {worst / QUERY_GOAL_MS:.2f}x the {QUERY_GOAL_MS:.0f} ms budget")
    for name, (wall, cpu) in scans.items():
        print(f"  full scan {name:<28} {wall:8.1f} ms  (cpu {cpu:6.1f} ms)")
    return {"rows": count, "insert_rows_per_s": inserted[0], "record_tasks_per_s": recorded[0],
            "query_ms": {name: wall for name, (wall, _) in typical.items()}, "slowest_query_ms": worst,
            "scan_ms": {name: wall for name, (wall, _) in scans.items()}}


def _postgres(url: str | None) -> tuple[str, Callable[[], None]]:
    """A scratch database on `url`'s server, $FORGE_TEST_POSTGRES_URL's, or a throwaway server's; and its cleanup."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests import pgkit

    server = None
    base = url or os.environ.get(pgkit.ENV)
    if base is None:
        server = pgkit.Server(durable=True)
        base = server.url
    database = pgkit.fresh_database(base)

    def cleanup() -> None:
        pgkit.drop_database(database)
        if server is not None:
            server.stop()

    return database, cleanup


def main(rows: int = 300_000, postgres_url: str | None = None, postgres: bool = True) -> dict[str, dict[str, Any]]:
    """Measure SQLite and (unless `postgres` is False) PostgreSQL; print and return the numbers per backend."""
    results = {}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times include waiting for a core)")
    with tempfile.TemporaryDirectory() as scratch:
        results["sqlite"] = measure("SQLite (WAL)", f"sqlite:///{scratch}/forge.db", rows)
    if postgres:
        url, cleanup = _postgres(postgres_url)
        try:
            results["postgresql"] = measure("PostgreSQL", url, rows)
        finally:
            cleanup()
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--postgres", help="A PostgreSQL server URL (a scratch database is created on it).")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only.")
    args = parser.parse_args()
    main(args.rows, args.postgres, not args.no_postgres)
