"""LLM settings from a config file, the environment and CLI flags (in rising order of precedence).

The config file is TOML (`--config FILE` or FORGE_CONFIG):

    [llm]
    backend = "openai"            # or "offline" (the default)
    model = "gpt-4o-mini"
    base_url = "http://127.0.0.1:8000/v1"   # any OpenAI-compatible server: vLLM, SGLang, Ollama, LiteLLM
    api_key_env = "OPENAI_API_KEY"          # the *name* of the variable holding the key, never the key
    temperature = 0.7
    max_tokens_per_call = 4096
    max_attempts = 4              # per call: 429 / 5xx / timeouts / connection errors are retried
    concurrency = 4               # calls in flight at once
    timeout = 120                 # seconds one request may take in all, from sending to the last byte (time waiting
                                  # for a free slot not counted); when not set, raised to fit a slow server
    structured = "auto"           # probe the server once (kept in the catalog; "probe" probes again), or force
                                  # json_schema, json_object_schema (llama.cpp's Python server), json_object, text

    [prices."my-model"]
    input_per_mtok = 0.2
    output_per_mtok = 0.8

Environment: FORGE_LLM, FORGE_LLM_MODEL, FORGE_LLM_BASE_URL, FORGE_LLM_API_KEY_ENV.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from forge.llm.prices import Price
from kit.llm import LLMConfigError

ENV = {"backend": "FORGE_LLM", "model": "FORGE_LLM_MODEL", "base_url": "FORGE_LLM_BASE_URL",
       "api_key_env": "FORGE_LLM_API_KEY_ENV"}


class LLMConfig(BaseModel):
    """How to reach the model; a frozen value (the cache key takes the sampling fields from it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: Literal["offline", "openai"] = "offline"
    model: str = ""
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    max_tokens_per_call: int = Field(default=4096, ge=16)
    timeout: float = Field(default=120.0, gt=0)
    max_attempts: int = Field(default=4, ge=1, le=20)
    concurrency: int = Field(default=4, ge=1, le=256)
    #: How the answer's schema is sent (forge.llm.messages); `auto` probes the server once (forge.llm.endpoint).
    structured: Literal["auto", "probe", "json_schema", "json_object_schema", "json_object", "text"] = "auto"
    #: Base of the exponential backoff between attempts (seconds); the wait is capped by max_wait.
    backoff: float = Field(default=1.0, ge=0.0)
    max_wait: float = Field(default=60.0, ge=0.0)
    prices: dict[str, Price] = Field(default_factory=dict)

    def api_key(self) -> str:
        """The key from the environment variable the config names; local servers accept any key."""
        key = os.environ.get(self.api_key_env, "")
        if key:
            return key
        if self.base_url is None:
            raise LLMConfigError(f"no API key: set the environment variable {self.api_key_env} (or name another "
                                 "with --api-key-env), or point --base-url at a local server")
        return "none"  # vLLM / Ollama / SGLang ignore it, but the client requires one


class _PriceEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


def load_config(path: Path | None = None, overrides: Mapping[str, Any] | None = None,
                environ: Mapping[str, str] | None = None) -> LLMConfig:
    """Defaults < config file < environment < `overrides` (CLI flags; None values are ignored).

    Errors name the file or flag, the field and the value, and raise `LLMConfigError`."""
    environ = os.environ if environ is None else environ
    path = path or (Path(environ["FORGE_CONFIG"]) if environ.get("FORGE_CONFIG") else None)
    values: dict[str, Any] = {}
    source = "flags/environment"
    if path is not None:
        source = str(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise LLMConfigError(f"config file {path}: not found; check --config / FORGE_CONFIG") from None
        except tomllib.TOMLDecodeError as exc:
            raise LLMConfigError(f"config file {path}: not valid TOML ({exc})") from None
        unknown = sorted(set(data) - {"llm", "prices"})
        if unknown:
            raise LLMConfigError(f"config file {path}: unknown table(s) {unknown}; use [llm] and [prices.<model>]")
        values.update(data.get("llm", {}))
        prices = {}
        for model, entry in data.get("prices", {}).items():
            try:
                parsed = _PriceEntry.model_validate(entry)
            except ValidationError as exc:
                raise LLMConfigError(f"config file {path}: [prices.{model!r}] {_first(exc)}; expected "
                                     "input_per_mtok and output_per_mtok in USD per million tokens") from None
            prices[model] = Price(parsed.input_per_mtok, parsed.output_per_mtok)
        values["prices"] = prices
    values.update({field: environ[var] for field, var in ENV.items() if environ.get(var)})
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        config = LLMConfig.model_validate(values)
    except ValidationError as exc:
        raise LLMConfigError(f"LLM settings ({source}): {_first(exc)}") from None
    if config.backend == "openai" and not config.model:
        raise LLMConfigError("--llm openai needs a model: pass --model NAME, set FORGE_LLM_MODEL, or add "
                             "model = \"...\" under [llm] in the config file")
    return config


def _first(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"]) or "<root>"
    return f"field {where}={error.get('input')!r}: {error['msg']}"
