"""The student's answer cache is keyed on what produced the answers: the endpoint, the model name, and the
checkpoint behind that name.

A chat answer is replayed from the catalog (`llm_cache`) when the same request was answered before; keyed on the
model name alone, a new checkpoint served under the old name (the usual way a training loop deploys one) would
replay the old checkpoint's answers silently, and a round would measure a model that is no longer served. So the
cache key (forge.llm.cache.cache_key of the request body) is scoped by:
- the endpoint (`--base-url`) and the model name;
- the checkpoint: `--checkpoint NAME` when given (the user names it: nothing is asked of the server), else a
  fingerprint the server reports, asked once per run: its `/v1/models` entry for the model (id, owner, root,
  parent, size and metadata; a `created` that is the request's own time, as llama.cpp and vLLM report it, is left
  out), the `system_fingerprint` of a short greedy probe answer, and that answer's text (the weights speak: a
  fine-tune of the same architecture has the same metadata but rarely the same first greedy tokens).
A server that cannot be asked gives no fingerprint: nothing is replayed or stored for that run (a note says so).
`--no-cache` neither replays nor stores.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from forge.llm.cache import AnswerCache, NoCache
from forge.llm.config import LLMConfig
from kit.ids import digest
from kit.llm import CacheEntry

#: The probe: a fixed request, greedy and short, whose answer depends on the weights.
PROBE = [{"role": "user", "content": "Continue this list with ten more words, one per line: apple, river, stone,"}]
PROBE_TOKENS = 16
#: A `created` this close to now is the time of the request (llama.cpp, vLLM), not the checkpoint's.
_VOLATILE_S = 600
_MODEL_FIELDS = ("id", "object", "owned_by", "root", "parent", "created", "meta", "size", "digest", "details",
                 "modified_at", "max_model_len")


class ScopedCache:
    """An `AnswerCache` whose keys are the request's key scoped by endpoint, model and checkpoint. The scope is
    worked out on first use (a run that stops before its first turn asks the server nothing); None: no cache."""

    def __init__(self, inner: AnswerCache, scope: Callable[[], str | None]) -> None:
        self.inner = inner
        self._make_scope = scope
        self._scope: str | None = None
        self._ready = False
        self._lock = threading.Lock()

    def scope(self) -> str | None:
        with self._lock:
            if not self._ready:
                self._scope, self._ready = self._make_scope(), True
            return self._scope

    def scoped(self, key: str) -> str | None:
        scope = self.scope()
        return None if scope is None else digest(f"student-cache\x1f{scope}\x1f{key}")

    def cached_answer(self, key: str) -> CacheEntry | None:
        scoped = self.scoped(key)
        return None if scoped is None else self.inner.cached_answer(scoped)

    def store_answer(self, entry: CacheEntry) -> bool:
        scoped = self.scoped(entry.key)
        return True if scoped is None else self.inner.store_answer(dataclasses.replace(entry, key=scoped))


def _plain(value: Any) -> Any:
    """An SDK object (pydantic) or dict as plain JSON data."""
    if hasattr(value, "model_dump"):
        return value.model_dump()
    return value if isinstance(value, dict) else {}


def server_fingerprint(config: LLMConfig, client: Any = None) -> str:
    """What the server says about the checkpoint behind `config.model` (see the module docstring), hashed; raises
    the client's error when the server cannot be asked."""
    import openai

    client = client or openai.OpenAI(base_url=config.base_url, api_key=config.api_key(),
                                     timeout=min(config.timeout, 60.0), max_retries=1)
    said: dict[str, Any] = {}
    try:
        entries = [_plain(m) for m in client.models.list().data]
    except openai.NotFoundError:  # a server without /v1/models: the probe answer still speaks
        entries = []
    entry = next((e for e in entries if e.get("id") == config.model), entries[0] if len(entries) == 1 else {})
    said["model"] = {k: entry[k] for k in _MODEL_FIELDS if k in entry}
    created = said["model"].get("created")
    if isinstance(created, int | float) and abs(created - time.time()) < _VOLATILE_S:
        del said["model"]["created"]
    answer = _plain(client.chat.completions.create(model=config.model, messages=PROBE, temperature=0, seed=0,
                                                   max_tokens=PROBE_TOKENS))
    said["system_fingerprint"] = answer.get("system_fingerprint")
    choices = answer.get("choices") or [{}]
    said["probe"] = ((choices[0] or {}).get("message") or {}).get("content")
    return digest(json.dumps(said, sort_keys=True, default=str))[:24]


class StudentCache(ScopedCache):
    """The cache of one student run (see the module docstring); `note` says what it was keyed on."""

    def __init__(self, inner: AnswerCache, config: LLMConfig, *, checkpoint: str | None = None,
                 client: Any = None) -> None:
        super().__init__(inner, self._key)
        self.config, self.checkpoint, self.client = config, checkpoint, client
        self.where = f"{config.base_url or 'api.openai.com'} {config.model}"
        self.note = f"answer cache keyed on {self.where} (not used yet)"

    def _key(self) -> str | None:
        if self.checkpoint:
            self.note = f"answer cache keyed on {self.where}, checkpoint {self.checkpoint!r} (--checkpoint)"
            return f"{self.where}\x1fcheckpoint:{self.checkpoint}"
        try:
            fingerprint = server_fingerprint(self.config, self.client)
        except Exception as exc:  # noqa: BLE001  (any failure to ask: no replay; the run reports the server itself)
            first = (str(exc).splitlines() or [type(exc).__name__])[0][:120]
            self.note = (f"answer cache off: the server's checkpoint could not be read ({first}); pass "
                         "--checkpoint NAME to cache by name")
            return None
        self.note = (f"answer cache keyed on {self.where}, server fingerprint {fingerprint[:12]} "
                     "(--checkpoint NAME to name it)")
        return f"{self.where}\x1ffingerprint:{fingerprint}"


class CacheOff(NoCache):
    """`--no-cache`: nothing replayed, nothing stored."""

    note = "answer cache off (--no-cache): every turn asked the model"


def student_cache(cache: AnswerCache, config: LLMConfig, *, checkpoint: str | None = None, no_cache: bool = False,
                  client: Any = None) -> StudentCache | CacheOff:
    """The cache a student run uses; its `note` (after the run) says what it was keyed on."""
    if no_cache:
        return CacheOff()
    return StudentCache(cache, config, checkpoint=checkpoint, client=client)
