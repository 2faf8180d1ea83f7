"""Build the training sets of the reference-student experiment from teacher SFT rows (README: "The run").

    python benchmarks/real_student/sets.py base --rows R/teacher_train.jsonl R/teacher_train2.jsonl \
        --families R/families.txt --tasks R --out benchmarks/real_student/data/base.jsonl.gz
    python benchmarks/real_student/sets.py round2 --base benchmarks/real_student/data/base.jsonl.gz \
        --targeted R/teacher_round1.jsonl --uniform R/teacher_uniform.jsonl --families R/families.txt --tasks R \
        --out benchmarks/real_student/data

`base`: every row of the experiment's families, except that a few families are made rare (RARE: at most that many
rows each), so round 1 has weak spots a loop can find. Held-out skills: in each family of at least HOLD_MIN skills,
a seeded fifth of its skills (at least one) is kept out of every training set (`base` writes them to
`heldout_skills.txt` beside its output; `round2` reads that file), so the held-out evaluation holds skills no
model saw as well as seeds none saw. `round2`: `targeted` = base + the loop's round-1 rows of the
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
HOLD_MIN = 4


def read(path: str) -> list[dict]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write(path: Path, rows: list[dict]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)


def tasks_of(tasks: str) -> dict[str, tuple[str, str]]:
    """task id -> (family, skill) of every package under `tasks`."""
    return {(t := json.loads(p.read_text()))["id"]: (t["family"], t["skill_id"])
            for p in Path(tasks).glob("*/*/*/task.json")}


def held_out(tasks: dict[str, tuple[str, str]], keep: set[str], seed: int) -> set[str]:
    """A seeded fifth (at least one) of the skills of each kept family that has HOLD_MIN skills or more."""
    skills: dict[str, set[str]] = collections.defaultdict(set)
    for name, skill in tasks.values():
        skills[name].add(skill)
    rng, out = random.Random(seed), set()
    for name in sorted(keep & skills.keys()):
        if len(skills[name]) >= HOLD_MIN:
            out.update(rng.sample(sorted(skills[name]), max(1, len(skills[name]) // 5)))
    return out


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
    tasks = tasks_of(args.tasks)
    family = {task_id: name for task_id, (name, _) in tasks.items()}

    def usable(row: dict) -> bool:
        name, skill = tasks.get(row["task_id"], ("", ""))
        return name in keep and skill not in hold

    if args.what == "base":
        hold = held_out(tasks, keep, args.seed)
        (Path(args.out).parent / "heldout_skills.txt").write_text("".join(f"{s}\n" for s in sorted(hold)))
        seen: collections.Counter[str] = collections.Counter()
        rows = []
        for path in args.rows:
            for row in read(path):
                if usable(row):
                    seen[family[row["task_id"]]] += 1
                    if seen[family[row["task_id"]]] <= RARE.get(family[row["task_id"]], 1 << 30):
                        rows.append(row)
        write(Path(args.out), rows)
        print(len(rows), "rows;", len(hold), "skills held out:", " ".join(sorted(hold)))
        print(collections.Counter(family[r["task_id"]] for r in rows).most_common())
        return
    hold = set((Path(args.base).parent / "heldout_skills.txt").read_text().split())
    base = read(args.base)
    targeted = [r for r in read(args.targeted) if usable(r)]
    uniform = [r for r in read(args.uniform) if usable(r)]
    random.Random(args.seed).shuffle(uniform)
    for name, extra in (("targeted", targeted), ("uniform", uniform[:len(targeted)])):
        write(Path(args.out) / f"{name}.jsonl.gz", base + extra)
        print(name, len(base) + len(extra), collections.Counter(family[r["task_id"]] for r in extra).most_common())


if __name__ == "__main__":
    main()
