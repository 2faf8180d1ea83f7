"""Synthetic rows for a CPU smoke test of train.py and generate.py (no Forge tasks needed).

    python benchmarks/real_student/make_synth.py OUT_DIR [--rows 400] [--prompts 50] [--seed 0]
    python benchmarks/real_student/make_synth.py --score ANSWERS.jsonl OUT_DIR/prompts.jsonl

Writes OUT_DIR/train.jsonl (SFT rows in the `forge export trajectories` chat format: an inspection command, its
output, then `mv`/`cp`/`chmod` commands) and OUT_DIR/prompts.jsonl (the `forge student prompts` shape, plus an
`expected` key that only `--score` reads: the share of answers whose commands equal the teacher's).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

WORDS = ["sales", "budget", "notes", "report", "draft", "plan", "invoice", "photo", "summary", "agenda", "minutes",
         "list", "letter", "memo"]
DIRS = ["Documents", "Desktop", "Downloads", "Pictures"]
EXTS = ["txt", "xlsx", "docx", "pptx", "png", "csv"]
SYSTEM = "You work through a terminal. Run shell commands with the `shell` tool."


def task(rng: random.Random, number: int) -> tuple[dict, list[str], str, str]:
    folder, other = rng.sample(DIRS, 2)
    a, b = rng.sample(WORDS, 2)
    ext = rng.choice(EXTS)
    files = [f"{folder}/{a}.{ext}", *(f"{rng.choice(DIRS)}/{w}.{rng.choice(EXTS)}" for w in rng.sample(WORDS, 3))]
    kind = rng.choice(["mv", "cp", "chmod", "mvdir"])
    if kind == "mv":
        text, cmd = f"Rename {folder}/{a}.{ext} to {b}.{ext}.", f"mv ~/{folder}/{a}.{ext} ~/{folder}/{b}.{ext}"
    elif kind == "cp":
        text, cmd = f"Put a copy of {a}.{ext} in {other}.", f"cp ~/{folder}/{a}.{ext} ~/{other}/"
    elif kind == "chmod":
        text, cmd = f"Make {a}.{ext} read-only for everyone.", f"chmod 444 ~/{folder}/{a}.{ext}"
    else:
        text, cmd = f"Move {a}.{ext} into {other} as {b}.{ext}.", f"mv ~/{folder}/{a}.{ext} ~/{other}/{b}.{ext}"
    listing = "\n".join(f"/home/user/{f}" for f in sorted(files))
    prompt = f"{text}\n\nYour home folder:\n{listing}"
    return {"task_id": f"synth-{number:05d}", "kind": kind}, ["find ~ -type f | head", cmd], prompt, listing


def row(meta: dict, commands: list[str], prompt: str, listing: str) -> dict:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
    for n, command in enumerate(commands):
        messages.append({"role": "assistant", "content": "", "tool_calls": [{
            "id": f"call_{n}", "type": "function",
            "function": {"name": "shell", "arguments": json.dumps({"command": command})}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{n}",
                         "content": "exit 0\n" + (listing if n == 0 else "")})
    messages.append({"role": "assistant", "content": "DONE"})
    return {**meta, "score": 1.0, "messages": messages}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=400)
    ap.add_argument("--prompts", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--score", help="answers JSONL to score against OUT (a prompts file)")
    args = ap.parse_args()
    if args.score:
        expected = {p["task_id"]: p["expected"] for p in map(json.loads, Path(args.out).read_text().splitlines())}
        answers = [json.loads(line) for line in Path(args.score).read_text().splitlines()]
        right = sum(a.get("commands") == expected.get(a["task_id"]) for a in answers)
        print(f"{right}/{len(answers)} answers equal the teacher's commands")
        return
    rng, out = random.Random(args.seed), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "train.jsonl").open("w") as sink:
        for n in range(args.rows):
            sink.write(json.dumps(row(*task(rng, n))) + "\n")
    with (out / "prompts.jsonl").open("w") as sink:
        for n in range(args.rows, args.rows + args.prompts):
            meta, commands, prompt, _ = task(rng, n)
            messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
            sink.write(json.dumps({"task_id": meta["task_id"], "messages": messages, "expected": commands}) + "\n")
    print(f"wrote {args.rows} rows and {args.prompts} prompts under {out}")


if __name__ == "__main__":
    main()
