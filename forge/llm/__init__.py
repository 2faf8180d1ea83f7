"""LLM backends behind one small interface (`Backend.complete(LLMRequest) -> LLMResponse`).

base: the interface and the offline backend (the default); openai_backend: any OpenAI-compatible server
(structured output, retries, cache, concurrency limit); messages: what is sent; config: flags / environment /
TOML file; prices; cache (key; the rows live in the catalog's `llm_cache`); budget (`--max-cost`,
`--max-tokens`); ahead (tasks whose calls overlap); ledger (spend per node, backend factory); estimate
(`--dry-run`). Repairs of bad answers happen in the node (forge.dag.llm_node), for every backend.
"""

from forge.llm.base import (
    Backend,
    CacheEntry,
    LLMConfigError,
    LLMRequest,
    LLMResponse,
    LLMUnavailableError,
    OfflineBackend,
    Repair,
    estimate_tokens,
)

__all__ = ["Backend", "CacheEntry", "LLMConfigError", "LLMRequest", "LLMResponse", "LLMUnavailableError",
           "OfflineBackend", "Repair", "estimate_tokens"]
