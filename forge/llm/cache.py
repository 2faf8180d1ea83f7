"""The response cache: answers already paid for, keyed by what determines them.

The key hashes (model, messages, response_format with the schema, sampling params, seed): a re-run or a
resumed run asks the catalog (`llm_cache`) first and spends no tokens on answers it already has. A new
answer is stored as soon as it arrives (`Catalog.store_answer`), so a killed run keeps what it paid for;
if the database is busy with the run's own open transaction, the answer travels with its call
(`LLMResponse.cache_entry`) and is written with its task (`Catalog.record`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from forge.llm.messages import compact
from kit.ids import digest
from kit.llm import CacheEntry


def cache_key(params: Mapping[str, Any]) -> str:
    """sha256 of the request parameters that determine the answer (model, messages, format, sampling, seed)."""
    return digest(compact(dict(params)))


class AnswerCache(Protocol):
    def cached_answer(self, key: str) -> CacheEntry | None: ...

    def store_answer(self, entry: CacheEntry) -> bool:
        """Store now; False if it could not (the entry then travels with its call to `Catalog.record`)."""
        ...


class NoCache:
    """For runs without a catalog (benchmarks of the raw endpoint)."""

    def cached_answer(self, key: str) -> CacheEntry | None:
        return None

    def store_answer(self, entry: CacheEntry) -> bool:
        return True  # nothing to keep
