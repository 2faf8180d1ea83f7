"""Peak memory of generation is flat in the number of tasks (streaming: nothing is held per task).

Runs `Generator.run` for a small and a large batch of the same mix, each in a fresh child process, and
compares their peak resident set sizes (the Forge process itself; check workers and sandboxes are
separate processes with their own limits).

    python benchmarks/memory.py [--small 1000] [--large 20000] [--app libreoffice_calc] [--real-apps off]

Prints both peaks and their ratio; the goal is large/small <= 1.20.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def child(n: int, app: str, real_apps: str) -> None:
    from forge.catalog import Catalog
    from forge.generate import Generator, Selection, plan, select_skills
    from forge.realapps import Policy
    from kit.sandbox import Sandbox
    from kit.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    task_ids = plan(select_skills(taxonomy, Selection(apps=(app,) if app else ())), n, seed=11)
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Catalog(f"sqlite:///{tmp}/bench.db")
        catalog.sync_skills(taxonomy.values())
        generator = Generator(Path(tmp) / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy,
                              real_apps=Policy(real_apps))
        start = time.perf_counter()
        done = 0

        def sample(_outcome: object) -> None:  # the RSS curve: flat means nothing is held per task
            nonlocal done
            done += 1
            if done % max(1, n // 20) == 0:
                print(f"  {done:>6}/{n} tasks: RSS {_rss_mb():7.1f} MB", file=sys.stderr, flush=True)

        counts = generator.run(task_ids, sample)
        seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"n": n, "peak_mb": peak_mb, "seconds": seconds, "classes": dict(counts)}))


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measure(n: int, app: str, real_apps: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", str(n), "--app", app, "--real-apps", real_apps],
                         stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=20000)
    parser.add_argument("--app", default="libreoffice_calc", help="'' for the whole default mix")
    parser.add_argument("--real-apps", default="off")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.app, args.real_apps)
        return
    small = measure(args.small, args.app, args.real_apps)
    large = measure(args.large, args.app, args.real_apps)
    for run in (small, large):
        print(f"{run['n']:>6} tasks: peak RSS {run['peak_mb']:7.1f} MB in {run['seconds']:7.1f} s  {run['classes']}")
    print(f"ratio large/small peak RSS: {large['peak_mb'] / small['peak_mb']:.3f} (goal <= 1.20)")


if __name__ == "__main__":
    main()
