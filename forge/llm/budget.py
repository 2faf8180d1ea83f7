"""Budget caps for a run: `--max-cost USD` and `--max-tokens N` over what the run actually spends.

Cached answers cost nothing. The generator asks `exhausted()` before it starts each task: a run stops
cleanly after the tasks in flight, everything recorded so far is kept, and rerunning the same command
(with a higher cap) continues where it stopped.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any


class Budget:
    def __init__(self, max_cost: float | None = None, max_tokens: int | None = None) -> None:
        self.max_cost = max_cost
        self.max_tokens = max_tokens
        self.cost_usd = 0.0
        self.tokens = 0
        self.calls = 0
        self.cached = 0
        self._lock = threading.Lock()

    def add(self, calls: Iterable[Any]) -> None:
        """Count LLM calls (`kit.dag.LLMCall`s) of a finished task."""
        with self._lock:
            for call in calls:
                self.calls += 1
                if call.cached:
                    self.cached += 1
                    continue
                self.cost_usd += call.cost_usd
                self.tokens += call.prompt_tokens + call.completion_tokens

    def exhausted(self) -> str | None:
        """None while under both caps, else what was reached (for the stop message)."""
        with self._lock:
            if self.max_cost is not None and self.cost_usd >= self.max_cost:
                return f"--max-cost ${self.max_cost:g} reached (spent ${self.cost_usd:.4f})"
            if self.max_tokens is not None and self.tokens >= self.max_tokens:
                return f"--max-tokens {self.max_tokens} reached (spent {self.tokens} tokens)"
        return None
