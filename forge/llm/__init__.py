"""LLM backends behind the kernel's small interface (`kit.llm`: `Backend.complete(LLMRequest) -> LLMResponse`, the
offline backend, the default). Here, the application's side: openai_backend: any OpenAI-compatible server
(structured output, retries, cache, concurrency limit); messages: what is sent; config: flags / environment /
TOML file; endpoint: which structured-output form a server enforces (probed once, kept in the catalog); slots:
requests in flight (adapting when the server serializes them); prices; cache (key; the rows live in the
catalog's `llm_cache`); budget (`--max-cost`, `--max-tokens`); ahead (tasks whose calls overlap); ledger (spend
per node, backend factory); estimate (`--dry-run`). Repairs of bad answers happen in the node
(kit.dag.llm_node), for every backend.
"""
