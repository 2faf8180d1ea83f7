"""The LLM options of a run as given (command line or flow parameters), resolved into `LLMConfig` settings.

`forge generate`, `forge demo`, `forge student run` (forge.cli) and the Prefect flows (forge.flowkit) all build an
`LLMFlags` and call `settings()`, so an option means the same wherever it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from forge.llm.config import LLMConfig, load_config
from forge.llm.ledger import check_priced
from kit.llm import LLMConfigError


def check_url(flag: str, url: str | None) -> None:
    """A URL option must be http(s)://host...: a typo would otherwise surface as one failed request per task."""
    if url is None:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LLMConfigError(f"{flag} {url!r}: not an http(s) URL; give e.g. http://127.0.0.1:8000/v1 "
                             "(also checked in the config file's [llm] base_url and FORGE_LLM_BASE_URL)")


@dataclass(frozen=True)
class LLMFlags:
    """The LLM flags of `generate` / `demo`; None means 'not given' (config file or environment decide)."""

    config: Path | None = None
    backend: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float | None = None
    max_tokens_per_call: int | None = None
    timeout: float | None = None
    concurrency: int | None = None
    max_cost: float | None = None
    max_tokens: int | None = None
    dry_run: bool = False
    judge: bool = False
    structured: str | None = None

    def settings(self) -> LLMConfig:
        overrides = {"backend": self.backend, "model": self.model, "base_url": self.base_url,
                     "api_key_env": self.api_key_env, "temperature": self.temperature,
                     "max_tokens_per_call": self.max_tokens_per_call, "timeout": self.timeout,
                     "concurrency": self.concurrency, "structured": self.structured}
        config = load_config(self.config, overrides)
        check_url("--base-url", config.base_url)
        if self.max_cost is not None:
            check_priced(config)
        if self.judge and config.backend == "offline":
            raise LLMConfigError("--llm-judge needs a model: add --llm openai --model NAME (or set them in --config)")
        return config
