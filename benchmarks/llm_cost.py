"""Tokens per accepted task with a model, against a loopback OpenAI-compatible server.

The server (tests/llmserver.py) answers every request as a well-behaved model would, with realistic answer
lengths: each node's offline generator's answer for that exact prompt; `--bad-rate` of the `content`
answers are first answered with broken JSON, so repair requests are paid for too. It counts tokens as ~4
characters each of what it reads (messages and response_format schema) and writes. The batch runs through
the real `openai` client, the full gate and the catalog (`Generator.run`), so the ledger is the real one.

    python benchmarks/llm_cost.py [-n 60] [--seed 1] [--bad-rate 0.1] [--app APP ...]

Prints spent prompt / completion tokens per node, tokens per accepted task, and the ratio to the 85K tokens
per task of the original pipeline (goal: <= 8.5K, a ratio <= 0.10).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from forge.catalog import Catalog  # noqa: E402
from forge.generate import Generator, Selection, plan, select_skills  # noqa: E402
from forge.llm.config import LLMConfig  # noqa: E402
from forge.llm.openai_backend import OpenAIBackend  # noqa: E402
from forge.sandbox import Sandbox  # noqa: E402
from forge.taxonomy import load_taxonomy  # noqa: E402
from tests.llmserver import LLMServer, Reply, prompt_of, recorded_answers  # noqa: E402

PAPER_TOKENS_PER_TASK = 85_000
GOAL = 8_500


def responder(answers: dict[str, str], bad_rate: float, seed: int):
    rng, lock = random.Random(seed), threading.Lock()

    def answer(body: dict) -> Reply:
        first_try = len(body["messages"]) == 2 and body["response_format"]["json_schema"]["name"] == "content"
        with lock:
            broken = first_try and rng.random() < bad_rate
        text = answers[prompt_of(body)]
        return Reply(text[: len(text) // 2] if broken else text)

    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bad-rate", type=float, default=0.1)
    parser.add_argument("--app", action="append", default=[])
    args = parser.parse_args()
    taxonomy = load_taxonomy()
    task_ids = plan(select_skills(taxonomy, Selection(apps=tuple(args.app))), args.n, args.seed)
    answers = recorded_answers(taxonomy, task_ids)
    with tempfile.TemporaryDirectory() as tmp, LLMServer(responder(answers, args.bad_rate, args.seed)) as server:
        db = Path(tmp) / "forge.db"
        catalog = Catalog(f"sqlite:///{db}")
        config = LLMConfig(backend="openai", model="gpt-4o-mini", base_url=server.base_url)
        run_id = catalog.start_run(seed=args.seed, requested=args.n, selection={}, out_dir=tmp, backend="openai")
        counts = Generator(Path(tmp) / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=run_id,
                           backend=OpenAIBackend(config, catalog)).run(task_ids)
        rows = sqlite3.connect(db).execute(
            "SELECT node, count(*), sum(prompt_tokens), sum(completion_tokens), sum(cost_usd) FROM llm_calls "
            "WHERE NOT cached GROUP BY node ORDER BY node").fetchall()
        served = (server.served.prompt_tokens, server.served.completion_tokens)
    accepted = counts["accepted"]
    print(f"{args.n} tasks ({dict(counts)}), {server.served.requests} requests, bad-rate {args.bad_rate}")
    print(f"{'node':<16}{'calls':>7}{'prompt':>12}{'completion':>12}{'per accepted task':>20}")
    for node, calls, prompt, completion, _ in rows:
        print(f"{node:<16}{calls:>7}{prompt:>12,}{completion:>12,}{(prompt + completion) / max(1, accepted):>20,.0f}")
    prompt, completion = sum(r[2] for r in rows), sum(r[3] for r in rows)
    assert (prompt, completion) == served, f"ledger {(prompt, completion)} != server {served}"
    per_task = (prompt + completion) / max(1, accepted)
    print(f"tokens per accepted task: {per_task:,.0f} (prompt {prompt / max(1, accepted):,.0f} / completion "
          f"{completion / max(1, accepted):,.0f}); gpt-4o-mini cost per accepted task "
          f"${sum(r[4] for r in rows) / max(1, accepted):.5f}")
    print(f"ratio to the paper's {PAPER_TOKENS_PER_TASK:,}: {per_task / PAPER_TOKENS_PER_TASK:.3f} "
          f"(goal <= {GOAL / PAPER_TOKENS_PER_TASK:.2f}: {'met' if per_task <= GOAL else 'NOT met'})")


if __name__ == "__main__":
    main()
