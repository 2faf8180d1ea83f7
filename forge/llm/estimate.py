"""`--dry-run`: what a run would spend, before spending anything.

`EstimatingBackend` answers every request with the node's offline generator (so the workflows run
exactly as they would, at no cost) and counts, per node, the tokens the real request would send (the same
messages and schema the OpenAI backend builds; ~4 characters per token) and the answer's size. Requests
the cache already answers are counted as cached: a resumed run's estimate shows what is left to pay.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from dataclasses import dataclass

from forge.llm.cache import AnswerCache, NoCache, cache_key
from forge.llm.config import LLMConfig
from forge.llm.messages import compact
from forge.llm.openai_backend import request_body
from forge.llm.prices import find_price
from kit.llm import LLMRequest, LLMResponse, estimate_tokens


@dataclass
class NodeEstimate:
    calls: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class EstimatingBackend:
    name = "estimate"
    repairs = 0

    def __init__(self, config: LLMConfig, cache: AnswerCache | None = None) -> None:
        self.config = config
        self.cache = cache or NoCache()
        self.price = find_price(config.model, config.prices)
        self.nodes: dict[str, NodeEstimate] = defaultdict(NodeEstimate)
        self._lock = threading.Lock()
        #: `auto` is estimated as the form the catalog knows for this endpoint, else json_schema (not probed:
        #: a dry run sends nothing).
        self.mode: str = config.structured
        if self.mode in ("auto", "probe"):
            from forge.llm.endpoint import DEFAULT_BASE_URL, CatalogEndpoints

            known = CatalogEndpoints(cache).load(config.base_url or DEFAULT_BASE_URL, config.model) if hasattr(
                cache, "session") else None
            self.mode = known.structured if known else "json_schema"

    def complete(self, request: LLMRequest) -> LLMResponse:
        body = request_body(self.config, request, self.mode)
        text = json.dumps(request.offline(request.rng), sort_keys=True, ensure_ascii=False)
        fmt = body.get("response_format") or {}  # a json_schema is read as prompt (OpenAI); a grammar is not
        sent = "".join(m["content"] for m in body["messages"]) + (compact(fmt) if fmt.get("type") == "json_schema"
                                                                   else "")
        prompt_tokens, completion_tokens = estimate_tokens(sent), estimate_tokens(text)
        cached = self.cache.cached_answer(cache_key(body)) is not None
        cost = self.price.cost(prompt_tokens, completion_tokens) if self.price else 0.0
        with self._lock:
            entry = self.nodes[request.node]
            entry.calls += 1
            if cached:
                entry.cached += 1
            else:
                entry.prompt_tokens += prompt_tokens
                entry.completion_tokens += completion_tokens
                entry.cost_usd += cost
        return LLMResponse(text, prompt_tokens, completion_tokens, cost, cached=cached, model=self.config.model)
