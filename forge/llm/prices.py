"""USD prices per million tokens, by model. Users add or override models in the config file:

    [prices."my-model"]
    input_per_mtok = 0.20
    output_per_mtok = 0.80

A model matches its exact name first, then the longest listed prefix (so dated snapshots such as
`gpt-4o-mini-2024-07-18` take `gpt-4o-mini`'s price)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Price:
    input_per_mtok: float
    output_per_mtok: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok) / 1_000_000


#: List prices of common hosted models (USD per 1M tokens). Local servers (vLLM, Ollama ...) cost 0:
#: give them a price in the config file if you want a budget in dollars to mean something.
PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "o4-mini": Price(1.10, 4.40),
    "o3-mini": Price(1.10, 4.40),
}


def find_price(model: str, extra: Mapping[str, Price] | None = None) -> Price | None:
    """The price of `model` (user entries first, then the built-in table), or None if unknown."""
    table = {**PRICES, **(extra or {})}
    if model in table:
        return table[model]
    prefixes = sorted((name for name in table if model.startswith(name)), key=len, reverse=True)
    return table[prefixes[0]] if prefixes else None
