"""Scale-out: generate-flow throughput with batches on a local Dask cluster of 1 and of 2 worker processes
(goal: 2 workers >= 1.7x one), then the catalog half (benchmarks/scale_catalog.py: bulk insert rate and
aggregate query latency at 300,000 task rows on SQLite and PostgreSQL), when that script is present.

    python benchmarks/scale.py [-n 240] [--batch-size 40] [--app libreoffice_calc] [--rows 300000]
                               [--no-pin] [--postgres URL | --no-postgres] [--no-catalog]

Both cluster runs generate the same plan (same seed) into fresh folders and catalogs; the clock runs from
the flow call to its return, after each cluster's workers have imported Forge. Prefect runs on a temporary
local server, which the Dask workers reach like any Prefect API.

Each worker stands for one machine of a cluster: worker i is pinned to core i (CPU affinity, inherited by the
check workers and sandboxes its batches start), and a batch sizes its gate to the cores it may use. Without
pinning (`--no-pin`), a single worker's batch already spreads over both cores of a 2-core machine, so the
second worker has no core of its own to add and the ratio measures the machine, not the scale-out.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _warm(dask_worker: Any = None) -> str:
    import forge.flows  # noqa: F401  (import cost stays out of the clock)

    return "ok"


def _pin(core: int, dask_worker: Any = None) -> list[int]:
    """Pin every thread of this worker process to `core` (threads and children started later inherit it)."""
    for tid in os.listdir("/proc/self/task"):
        os.sched_setaffinity(int(tid), {core})
    return sorted(os.sched_getaffinity(0))


def throughput(workers: int, n: int, batch_size: int, app: str, seed: int, root: Path, pin: bool
               ) -> dict[str, Any]:
    """Accepted tasks per second for one generate flow with batches on a LocalCluster of `workers` processes
    (with `pin`, worker i runs on core i only)."""
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)  # scheduler/worker chatter would bury the numbers

    from forge.flows import generate_flow

    out, db = root / f"out-{workers}", root / f"cat-{workers}.db"
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(_warm)
        cores = []
        if pin:
            for i, address in enumerate(sorted(client.scheduler_info()["workers"])):
                cores += client.run(_pin, i % (os.cpu_count() or 1), workers=[address]).values()
        start = time.perf_counter()
        totals = generate_flow(n=n, seed=seed, out=str(out), db=f"sqlite:///{db}", apps=[app], batch_size=batch_size,
                               dask_address=cluster.scheduler_address, real_apps="off")
        seconds = time.perf_counter() - start
    rows = sqlite3.connect(db).execute("SELECT count(*) FROM tasks").fetchone()[0]
    assert rows == n, f"{workers} workers: {rows} catalog rows for {n} tasks"
    accepted = totals.get("accepted", 0)
    return {"workers": workers, "tasks": n, "accepted": accepted, "seconds": seconds, "per_s": accepted / seconds,
            "cores": cores}


def catalog_half(rows: int, postgres_url: str | None, postgres: bool) -> None:
    path = REPO / "benchmarks" / "scale_catalog.py"
    if not path.exists():
        print("\ncatalog: benchmarks/scale_catalog.py is not here; skipped")
        return
    spec = importlib.util.spec_from_file_location("scale_catalog", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print()
    module.main(rows=rows, postgres_url=postgres_url, postgres=postgres)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=240, help="Tasks per run.")
    parser.add_argument("--batch-size", type=int, default=40, help="Tasks per batch (each batch pays ~1 s to start "
                        "its check workers, so small batches measure start-up).")
    parser.add_argument("--no-pin", action="store_true", help="Do not give each Dask worker its own core.")
    parser.add_argument("--app", default="libreoffice_calc")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", type=int, default=300_000, help="Task rows for the catalog half.")
    parser.add_argument("--postgres", help="PostgreSQL server URL for the catalog half (scratch database).")
    parser.add_argument("--no-postgres", action="store_true", help="Catalog half on SQLite only.")
    parser.add_argument("--no-catalog", action="store_true", help="Skip the catalog half.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="forge-scale-") as tmp:
        root = Path(tmp)
        os.environ.setdefault("PREFECT_HOME", str(root / "prefect"))
        os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
        os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
        from prefect.testing.utilities import prefect_test_harness

        with prefect_test_harness(server_startup_timeout=120):  # one temporary server both runs report to
            one = throughput(1, args.n, args.batch_size, args.app, args.seed, root, not args.no_pin)
            two = throughput(2, args.n, args.batch_size, args.app, args.seed, root, not args.no_pin)
        same = _same_files(root / "out-1", root / "out-2")
    pinning = "unpinned" if args.no_pin else "worker i pinned to core i"
    print(f"generate flow on Dask, {args.n} {args.app} tasks in batches of {args.batch_size}; nproc={os.cpu_count()}, "
          f"{pinning}, load average {os.getloadavg()[0]:.1f} (the ratio needs two free cores)")
    for r in (one, two):
        print(f"  {r['workers']:.0f} worker(s): {r['accepted']:.0f} accepted in {r['seconds']:.1f} s "
              f"= {r['per_s']:.2f} tasks/s" + (f" (cores per worker: {r['cores']})" if r["cores"] else ""))
    ratio = two["per_s"] / one["per_s"] if one["per_s"] else float("nan")
    print(f"  ratio 2/1 workers: {ratio:.2f}x (goal >= 1.7x: {'met' if ratio >= 1.7 else 'NOT met'}); "
          f"packages identical: {same}")
    if not args.no_catalog:
        catalog_half(args.rows, args.postgres, not args.no_postgres)


def _same_files(a: Path, b: Path) -> bool:
    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    return files(a) == files(b)


if __name__ == "__main__":
    main()
