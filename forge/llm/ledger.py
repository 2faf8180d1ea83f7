"""The ledger (`llm_calls`, one row per call) summed per node for a run, and the backend a config asks for.

Spent = calls answered by the endpoint in this run (`NOT cached`); cached calls cost nothing. The same
sums are one `forge sql` away (README: "LLM backends").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from forge.catalog import Catalog
from forge.llm.config import LLMConfig
from forge.llm.prices import find_price
from kit.llm import Backend, LLMConfigError, OfflineBackend


@dataclass(frozen=True)
class NodeUsage:
    node: str
    calls: int
    cached: int
    failed: int
    attempts: int
    prompt_tokens: int  # spent in this run (cached calls excluded)
    completion_tokens: int
    cost_usd: float


def run_usage(catalog: Catalog, run_id: int) -> list[NodeUsage]:
    """Per node: what the run's calls spent (cached calls are counted, not charged)."""
    return [NodeUsage(*row) for row in catalog.llm_usage(run_id)]


def check_priced(config: LLMConfig) -> None:
    """A --max-cost cap needs the model's price, else it could never be reached."""
    if config.backend != "offline" and find_price(config.model, config.prices) is None:
        raise LLMConfigError(f"--max-cost needs a price for model {config.model!r}: add [prices.\"{config.model}\"] "
                             "with input_per_mtok and output_per_mtok to the config file (--config), "
                             "or cap tokens with --max-tokens instead")


def make_backend(config: LLMConfig, catalog: Catalog | None, progress: Callable[[str], None] | None = None) -> Backend:
    """The backend `config` names, answering from `catalog`'s cache first; `progress` gets a line now and then
    while requests are in flight (a slow server otherwise looks like a hang)."""
    if config.backend == "offline":
        return OfflineBackend()
    # imported here, not at the top: the openai client costs an offline run (the default) start-up time for nothing
    from forge.llm.endpoint import CatalogEndpoints
    from forge.llm.openai_backend import OpenAIBackend

    cache: Any = catalog
    return OpenAIBackend(config, cache, endpoints=CatalogEndpoints(catalog) if catalog is not None else None,
                         progress=progress)
