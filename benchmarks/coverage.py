"""How much of a public benchmark Forge's families cover (issue 38's reviewer measure).

A coverage map is a TSV with one row per benchmark task, judged by hand (benchmarks/coverage/osworld.tsv maps the
369 tasks of OSWorld's evaluation_examples/test_all.json, the original release):

    id  domain  offline  feasible  status  family  gap  note

- offline: `yes` when the task can be done with no internet (its own setup fetching its files is allowed; live web
  sites, online accounts, app stores and downloads the agent must make are not).
- feasible: `no` when the benchmark marks the task infeasible (the agent must decline it).
- status: `covered` (a Forge family makes tasks that exercise the same skill: same app, same kind of goal and
  check), `near` (same app and cluster, but a variant the family lacks or a small extension of it) or `none`.
- family: the Forge family that covers it or comes nearest (empty for `none`); infeasible tasks map to the app's
  `*.infeasible` family.
- gap: a short tag for what is missing (empty for `covered`), so misses group into capabilities.
- note: our own words, at most 12 (never the benchmark's instruction text).

The measure counts offline feasible tasks only: covered % and covered-or-near %, per domain and in total (the goals
are 50 % and 85 %), then the capabilities most often missing (gap tags of the `near` and `none` rows among those
tasks). Every family the map names must be registered in Forge, so a renamed family fails here (and in
tests/test_coverage_map.py) with the TSV line that names it.

    python benchmarks/coverage.py                       # the OSWorld map
    python benchmarks/coverage.py --domain chrome       # one domain's rows, with each gap's tasks
    python benchmarks/coverage.py --top 30 path/to/other.tsv
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kit.errors import did_you_mean  # noqa: E402
from workflows import families  # noqa: E402

DEFAULT_MAP = Path(__file__).resolve().parent / "coverage" / "osworld.tsv"
COLUMNS = ("id", "domain", "offline", "feasible", "status", "family", "gap", "note")
STATUSES = ("covered", "near", "none")
GOAL_COVERED, GOAL_NEAR = 50.0, 85.0
MAX_NOTE_WORDS = 12


class MapError(ValueError):
    """A coverage map that cannot be read: the message names the file and line."""


@dataclass(frozen=True)
class Row:
    line: int
    id: str
    domain: str
    offline: bool
    feasible: bool
    status: str
    family: str
    gap: str
    note: str

    @property
    def counted(self) -> bool:
        """Whether the measure counts this task (offline and feasible)."""
        return self.offline and self.feasible


def _yes_no(value: str, where: str, column: str) -> bool:
    if value not in ("yes", "no"):
        raise MapError(f"{where}: {column} must be 'yes' or 'no', not {value!r}")
    return value == "yes"


def load(path: Path) -> list[Row]:
    """Read and check a coverage map; MapError names the first bad line."""
    with path.open(newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        header = next(reader, None)
        if header is None or tuple(header) != COLUMNS:
            raise MapError(f"{path}:1: the header must be {' '.join(COLUMNS)} (tab-separated), not {header}")
        rows: list[Row] = []
        seen: set[tuple[str, str]] = set()
        for number, fields in enumerate(reader, start=2):
            where = f"{path.name}:{number}"
            if len(fields) != len(COLUMNS):
                raise MapError(f"{where}: {len(fields)} fields, expected {len(COLUMNS)}")
            raw = dict(zip(COLUMNS, fields, strict=True))
            if raw["status"] not in STATUSES:
                raise MapError(f"{where}: status must be one of {', '.join(STATUSES)}, not {raw['status']!r}")
            if (raw["status"] == "none") != (raw["family"] == ""):
                raise MapError(f"{where}: a family is named exactly when the status is covered or near")
            if (raw["status"] == "covered") != (raw["gap"] == ""):
                raise MapError(f"{where}: a gap tag is given exactly when the status is near or none")
            if len(raw["note"].split()) > MAX_NOTE_WORDS:
                raise MapError(f"{where}: the note has more than {MAX_NOTE_WORDS} words")
            key = (raw["domain"], raw["id"])
            if key in seen:
                raise MapError(f"{where}: task {raw['id']} of {raw['domain']} is mapped twice")
            seen.add(key)
            rows.append(Row(number, raw["id"], raw["domain"], _yes_no(raw["offline"], where, "offline"),
                            _yes_no(raw["feasible"], where, "feasible"), raw["status"], raw["family"], raw["gap"],
                            raw["note"]))
    return rows


def check_families(rows: list[Row], path: Path, known: set[str] | None = None) -> None:
    """Every family the map names must be registered in Forge (a rename must update the map)."""
    registered = set(families()) if known is None else known
    for row in rows:
        if row.family and row.family not in registered:
            hint = did_you_mean(row.family, sorted(registered))
            raise MapError(f"{path.name}:{row.line}: family {row.family!r} is not registered in Forge.{hint}")
        if not row.feasible and row.family and not row.family.endswith(".infeasible"):
            raise MapError(f"{path.name}:{row.line}: an infeasible task maps to an *.infeasible family")


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    - "


def report(rows: list[Row], top: int) -> str:
    domains = sorted({row.domain for row in rows})
    lines = [f"{'domain':<20} {'tasks':>5} {'offline+feasible':>16} {'covered':>8} {'covered %':>9} "
             f"{'+near %':>8}"]
    for name, group in [(d, [r for r in rows if r.domain == d]) for d in domains] + [("TOTAL", rows)]:
        counted = [r for r in group if r.counted]
        covered = sum(r.status == "covered" for r in counted)
        near = sum(r.status == "near" for r in counted)
        if name == "TOTAL":
            lines.append("-" * len(lines[0]))
        lines.append(f"{name:<20} {len(group):>5} {len(counted):>16} {covered:>8} {_pct(covered, len(counted)):>9} "
                     f"{_pct(covered + near, len(counted)):>8}")
    lines.append(f"goal: covered >= {GOAL_COVERED:.0f} %, covered or near >= {GOAL_NEAR:.0f} % "
                 "(of the offline feasible tasks)")
    gaps = Counter(r.gap for r in rows if r.counted and r.status != "covered")
    status_of: dict[str, Counter[str]] = {}
    for r in rows:
        if r.counted and r.status != "covered":
            status_of.setdefault(r.gap, Counter())[r.status] += 1
    lines.append(f"\nmost frequent missing capabilities (gap tags of near/none rows, top {top}):")
    for gap, count in gaps.most_common(top):
        split = status_of[gap]
        lines.append(f"  {count:>3}  {gap:<28} ({split['near']} near, {split['none']} none)")
    return "\n".join(lines)


def domain_detail(rows: list[Row], domain: str) -> str:
    picked = [r for r in rows if r.domain == domain]
    if not picked:
        raise MapError(f"no task of domain {domain!r}; the map has {', '.join(sorted({r.domain for r in rows}))}")
    out = [f"{r.id}  {'offline' if r.offline else 'online '}  {'feasible' if r.feasible else 'infeas. '}  "
           f"{r.status:<7} {r.family or '-':<26} {r.gap or '-':<26} {r.note}" for r in picked]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/coverage.py",
        description=__doc__,
        epilog="Exit status 2 (one line on stderr naming the TSV line) when the map is malformed or names a family "
        "Forge does not register.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("map", nargs="?", type=Path, default=DEFAULT_MAP,
                        help="the coverage map (TSV; default: %(default)s)")
    parser.add_argument("--top", type=int, default=15, metavar="N",
                        help="how many missing capabilities to list (default: %(default)s)")
    parser.add_argument("--domain", metavar="NAME", help="also list this domain's rows, one per task")
    args = parser.parse_args(argv)
    try:
        rows = load(args.map)
        check_families(rows, args.map)
        print(report(rows, args.top))
        if args.domain:
            print(f"\n{args.domain}:\n" + domain_detail(rows, args.domain))
    except (MapError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
