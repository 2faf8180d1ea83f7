"""Budget caps and the look-ahead that overlaps tasks' LLM calls: plain values, no server needed."""

from __future__ import annotations

import threading
import time

from forge.llm.ahead import Ahead
from forge.llm.budget import Budget
from kit.dag import LLMCall


def call(tokens: int, cost: float, cached: bool = False) -> LLMCall:
    return LLMCall("content", "openai", tokens, 0, cost, cached)


def test_budget_counts_only_what_was_spent_and_says_which_cap_was_reached():
    budget = Budget(max_cost=0.5, max_tokens=1000)
    budget.add([call(400, 0.2), call(10_000, 9.0, cached=True)])
    assert budget.exhausted() is None and (budget.tokens, budget.cached) == (400, 1)
    budget.add([call(700, 0.1)])
    assert budget.exhausted() == "--max-tokens 1000 reached (spent 1100 tokens)"
    assert Budget(max_cost=0.25).exhausted() is None
    capped = Budget(max_cost=0.25)
    capped.add([call(1, 0.3)])
    assert capped.exhausted() == "--max-cost $0.25 reached (spent $0.3000)"


def test_ahead_overlaps_up_to_width_returns_in_order_and_finishes_what_it_started():
    running, peak, lock = [0], [0], threading.Lock()
    allowed = [True]

    def work(i: int) -> int:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return i * 10

    ahead = Ahead(work, range(10), width=3, may_start=lambda: allowed[0])
    assert [ahead(i) for i in range(4)] == [0, 10, 20, 30]
    allowed[0] = False  # the budget is spent: nothing new starts, what was started is still handed back
    assert [ahead(i) for i in range(4, 10)] == [40, 50, None, None, None, None]
    ahead.close()
    assert peak[0] == 3
    sequential = Ahead(work, range(3), width=1)
    assert [sequential(i) for i in range(3)] == [0, 10, 20] and sequential.pool is None
