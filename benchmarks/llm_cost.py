"""Tokens per accepted task, per node, with a model that answers like a weak real one, against a loopback
OpenAI-compatible server.

The server (tests/llmserver.py) answers each request with realistic lengths: each node's offline generator's
answer for that exact prompt (for a node with a `Sketch`, the sketch: what the model is asked to write; the
templates write the rest), the same answer for the same prompt. `--off-schema` of the first answers of every node
are off-schema the way small models get them wrong (prose around the JSON, a required field renamed), and the
repair turn then gets the right answer, so repairs are paid for as they would be. `--server llama_cpp` makes the
server behave like llama.cpp's Python server (HTTP 500 to json_schema, a grammar builder that fails on maxLength):
the run probes it and uses `json_object_schema`. Tokens are ~4 characters each of what the server reads (messages
and response_format) and writes. The batch runs through the real `openai` client, the full gate and the catalog
(`Generator.run`), so the ledger is the real one, and it must equal what the server counted (the endpoint probe is
counted apart: the ledger has no row for it).

    python benchmarks/llm_cost.py [-n 24] [--seed 1] [--off-schema 0.5] [--server openai|llama_cpp] [--app APP]

Prints spent prompt / completion tokens per node and per accepted task, against the goal of <= 2,000 tokens
per accepted task (and the ratio to the 85K tokens per task of the original pipeline).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from forge.catalog import Catalog  # noqa: E402
from forge.generate import Generator, Selection, plan, select_skills  # noqa: E402
from forge.llm.config import LLMConfig  # noqa: E402
from forge.llm.endpoint import CatalogEndpoints  # noqa: E402
from forge.llm.openai_backend import OpenAIBackend  # noqa: E402
from kit.dag import NodeContext  # noqa: E402
from kit.ids import TaskId  # noqa: E402
from kit.llm import LLMRequest, LLMResponse, OfflineBackend, estimate_tokens  # noqa: E402
from kit.sandbox import Sandbox  # noqa: E402
from kit.taxonomy import Skill, load_taxonomy  # noqa: E402
from tests.llmserver import LLMServer, Reply, Server, prompt_of  # noqa: E402
from workflows import get_family  # noqa: E402

PAPER_TOKENS_PER_TASK = 85_000
GOAL = 2_000
SERVERS = {"openai": Server(), "llama_cpp": Server(json_schema=False, grammar_limited=True)}


def off_schema(text: str, rng: random.Random) -> str:
    """How small models miss a schema: prose around the JSON, or a required field under another name."""
    answer = json.loads(text)
    if rng.random() < 0.5 or not isinstance(answer, dict) or not answer:
        return f"Sure! Here is the JSON you asked for:\n{text}\nLet me know if you need anything else."
    first = sorted(answer)[0]
    answer[f"{first}_value"] = answer.pop(first)
    return json.dumps(answer)


class _Deterministic(OfflineBackend):
    """A model that gives one answer per prompt: the first node generator's answer recorded for it. Two tasks can
    send the same prompt (an OS pool's prompt names only the scenario) while their generators differ; a model
    answers both alike, and the later task's instruction prompt is then built on that answer, so it is recorded
    from that answer too (recording each generator's own answer would leave the server without an answer)."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def complete(self, request: LLMRequest) -> LLMResponse:
        if request.prompt not in self.answers:
            self.answers[request.prompt] = super().complete(request).text
        text = self.answers[request.prompt]
        return LLMResponse(text, estimate_tokens(request.prompt), estimate_tokens(text))


def recorded_answers(taxonomy: dict[str, Skill], task_ids: list[TaskId]) -> dict[str, str]:
    """prompt -> the answer the loopback model gives to it (see `_Deterministic`)."""
    answers: dict[str, str] = {}
    backend = _Deterministic(answers)
    for task_id in task_ids:
        skill = taxonomy[task_id.skill_id]
        get_family(skill.family).run(NodeContext(skill.params, task_id.seed, skill.id, task_id.index, backend))
    return answers


def weak_model(answers: dict[str, str], rate: float, seed: int) -> Any:
    rng, lock = random.Random(seed), threading.Lock()

    def answer(body: dict) -> Reply:
        text = answers[prompt_of(body)]
        if len(body["messages"]) > 2:  # the repair turn: the model gets it right
            return Reply(text)
        with lock:
            wrong = rng.random() < rate
            return Reply(off_schema(text, rng) if wrong else text)

    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--off-schema", type=float, default=0.5, help="share of first answers that are off-schema")
    parser.add_argument("--server", choices=sorted(SERVERS), default="openai")
    parser.add_argument("--app", action="append", default=[])
    args = parser.parse_args()
    taxonomy = load_taxonomy()
    task_ids = plan(select_skills(taxonomy, Selection(apps=tuple(args.app))), args.n, args.seed)
    answers = recorded_answers(taxonomy, task_ids)
    with (tempfile.TemporaryDirectory() as tmp,
          LLMServer(weak_model(answers, args.off_schema, args.seed), SERVERS[args.server]) as server):
        db = Path(tmp) / "forge.db"
        catalog = Catalog(f"sqlite:///{db}")
        config = LLMConfig(backend="openai", model="gpt-4o-mini", base_url=server.base_url)
        run_id = catalog.start_run(seed=args.seed, requested=args.n, selection={}, out_dir=tmp, backend="openai")
        backend = OpenAIBackend(config, catalog, endpoints=CatalogEndpoints(catalog))
        counts = Generator(Path(tmp) / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=run_id,
                           backend=backend).run(task_ids)
        rows = sqlite3.connect(db).execute(
            "SELECT node, count(*), sum(prompt_tokens), sum(completion_tokens), sum(cost_usd) FROM llm_calls "
            "WHERE NOT cached GROUP BY node ORDER BY node").fetchall()
        served = (server.served.prompt_tokens, server.served.completion_tokens)
    accepted = max(1, counts["accepted"])
    print(f"{args.n} tasks ({dict(counts)}), {server.served.requests} requests + {server.served.probes} probe "
          f"request(s); server {args.server}: structured output {backend.mode}; off-schema first answers "
          f"{args.off_schema:.0%}")
    print(f"{'node':<16}{'calls':>7}{'prompt':>12}{'completion':>12}{'per accepted task':>20}{'per task':>10}")
    for node, calls, prompt, completion, _ in rows:
        print(f"{node:<16}{calls:>7}{prompt:>12,}{completion:>12,}{(prompt + completion) / accepted:>20,.0f}"
              f"{(prompt + completion) / args.n:>10,.0f}")
    prompt, completion = sum(r[2] for r in rows), sum(r[3] for r in rows)
    assert (prompt, completion) == served, f"ledger {(prompt, completion)} != server {served}"
    per_task = (prompt + completion) / accepted
    print(f"tokens per accepted task: {per_task:,.0f} (prompt {prompt / accepted:,.0f} / completion "
          f"{completion / accepted:,.0f}); per task generated: {(prompt + completion) / args.n:,.0f}; "
          f"gpt-4o-mini cost per accepted task ${sum(r[4] for r in rows) / accepted:.5f}")
    print(f"goal <= {GOAL:,} tokens per accepted task: {'met' if per_task <= GOAL else 'NOT met'}; ratio to the "
          f"paper's {PAPER_TOKENS_PER_TASK:,} per task: {per_task / PAPER_TOKENS_PER_TASK:.3f}")


if __name__ == "__main__":
    main()
