"""The ledger (`llm_calls`, one row per call) summed per node for a run, and the backend a config asks for.

Spent = calls answered by the endpoint in this run (`NOT cached`); cached calls cost nothing. The same
sums are one `forge sql` away (README: "LLM backends").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, case, func, select

from forge.catalog import Catalog, LLMCallRow
from forge.llm.base import Backend, LLMConfigError, OfflineBackend
from forge.llm.config import LLMConfig
from forge.llm.prices import find_price


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
    fresh = ~LLMCallRow.cached
    spent = lambda column: func.coalesce(func.sum(case((fresh, column), else_=0)), 0)  # noqa: E731
    query = (select(LLMCallRow.node, func.count(), func.sum(LLMCallRow.cached.cast(Integer)),
                    func.sum((~LLMCallRow.ok).cast(Integer)), func.sum(LLMCallRow.attempts),
                    spent(LLMCallRow.prompt_tokens), spent(LLMCallRow.completion_tokens), spent(LLMCallRow.cost_usd))
             .where(LLMCallRow.run_id == run_id, LLMCallRow.backend != "offline")
             .group_by(LLMCallRow.node).order_by(LLMCallRow.node))
    with catalog.session() as session:
        return [NodeUsage(str(r[0]), int(r[1]), int(r[2] or 0), int(r[3] or 0), int(r[4] or 0), int(r[5]),
                          int(r[6]), float(r[7])) for r in session.execute(query)]


def check_priced(config: LLMConfig) -> None:
    """A --max-cost cap needs the model's price, else it could never be reached."""
    if config.backend != "offline" and find_price(config.model, config.prices) is None:
        raise LLMConfigError(f"--max-cost needs a price for model {config.model!r}: add [prices.\"{config.model}\"] "
                             "with input_per_mtok and output_per_mtok to the config file (--config), "
                             "or cap tokens with --max-tokens instead")


def make_backend(config: LLMConfig, catalog: Catalog | None) -> Backend:
    """The backend `config` names, answering from `catalog`'s cache first."""
    if config.backend == "offline":
        return OfflineBackend()
    from forge.llm.endpoint import CatalogEndpoints
    from forge.llm.openai_backend import OpenAIBackend

    cache: Any = catalog
    return OpenAIBackend(config, cache, endpoints=CatalogEndpoints(catalog) if catalog is not None else None)
