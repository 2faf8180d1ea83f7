"""Build the training sets of the reference-student experiment from teacher SFT rows (README: "The run").

    python benchmarks/real_student/sets.py base --rows R/teacher_train.jsonl R/teacher_train2.jsonl \
        --families R/families.txt --tasks R --out benchmarks/real_student/data/base.jsonl.gz
    python benchmarks/real_student/sets.py round2 --base benchmarks/real_student/data/base.jsonl.gz \
        --targeted R/teacher_round1.jsonl --uniform R/teacher_uniform.jsonl --families R/families.txt --tasks R \
        --out benchmarks/real_student/data

`base`: every row of the experiment's families, except that a few families are made rare (RARE: at most that many
rows each), so round 1 has weak spots a loop can find. `round2`: `targeted` = base + the loop's round-1 rows of the
experiment's families; `uniform` = base + as many rows drawn (seeded) from a uniform generate run of the same
families. A row's family is read from its package's task.json, found under `--tasks`.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import random
from pathlib import Path

RARE = {"calc.lookup": 4, "calc.text_formula": 5, "os.symlink": 5, "calc.totals_row": 5}


def read(path: str) -> list[dict]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write(path: Path, rows: list[dict]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)


def families_of(tasks: str) -> dict[str, str]:
    return {(t := json.loads(p.read_text()))["id"]: t["family"] for p in Path(tasks).glob("*/*/*/task.json")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("base", "round2"))
    ap.add_argument("--rows", nargs="*", default=[])
    ap.add_argument("--base")
    ap.add_argument("--targeted")
    ap.add_argument("--uniform")
    ap.add_argument("--families", required=True, help="a file of the experiment's family names")
    ap.add_argument("--tasks", required=True, help="a folder whose */*/*/task.json are the packages of the rows")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    keep = set(Path(args.families).read_text().split()) - {"--family"}
    family = families_of(args.tasks)
    if args.what == "base":
        seen: collections.Counter[str] = collections.Counter()
        rows = []
        for path in args.rows:
            for row in read(path):
                name = family.get(row["task_id"], "")
                seen[name] += 1
                if name in keep and seen[name] <= RARE.get(name, 1 << 30):
                    rows.append(row)
        write(Path(args.out), rows)
        print(len(rows), collections.Counter(family[r["task_id"]] for r in rows).most_common())
        return
    base = read(args.base)
    targeted = [r for r in read(args.targeted) if family.get(r["task_id"]) in keep]
    uniform = [r for r in read(args.uniform) if family.get(r["task_id"]) in keep]
    random.Random(args.seed).shuffle(uniform)
    for name, extra in (("targeted", targeted), ("uniform", uniform[:len(targeted)])):
        write(Path(args.out) / f"{name}.jsonl.gz", base + extra)
        print(name, len(base) + len(extra), collections.Counter(family[r["task_id"]] for r in extra).most_common())


if __name__ == "__main__":
    main()
