"""What the Prefect flows (forge/flows.py) need around the plain library calls: LLM options as a flow parameter,
infrastructure-only retries, progress logging from inside a batch, the seed of a scheduled run, and the
run's summary artifact. Kept apart so forge/flows.py reads as orchestration only.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from forge.database import UNREACHABLE
from forge.llm.flags import LLMFlags
from kit.errors import CatalogUnreachable, ForgeError

F = TypeVar("F", bound=Callable[..., Any])

#: Evidence the Generator gives a task it skips because an earlier run recorded it (forge/generate.py).
RESUMED = "resumed"


class LLMOptions(BaseModel):
    """The LLM a flow's batches use; empty fields fall back to `config` (a TOML file), then the environment
    (FORGE_LLM, FORGE_LLM_MODEL ...), then offline. The API key never travels as a parameter: each machine
    running batches reads it from the variable `api_key_env` names."""

    model_config = ConfigDict(extra="forbid")

    backend: Literal["offline", "openai"] | None = Field(
        None, description="offline (deterministic, free) or openai (any OpenAI-compatible server)")
    model: str | None = Field(None, description="model name as the server knows it, e.g. gpt-4o-mini")
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")
    api_key_env: str | None = Field(None, description="environment variable holding the API key on every worker "
                                                      "(default OPENAI_API_KEY)")
    config: str | None = Field(None, description="TOML file with [llm] settings and [prices.<model>] (see README); "
                                                 "an absolute path every worker can read")
    max_cost: float | None = Field(None, ge=0, description="stop the run once it has spent this many USD")
    max_tokens: int | None = Field(None, ge=0, description="stop the run once it has spent this many tokens")
    concurrency: int | None = Field(None, ge=1, description="LLM calls in flight at once per batch")

    def flags(self) -> LLMFlags:
        return LLMFlags(config=Path(self.config) if self.config else None, backend=self.backend, model=self.model,
                        base_url=self.base_url, api_key_env=self.api_key_env, concurrency=self.concurrency,
                        max_cost=self.max_cost, max_tokens=self.max_tokens)

    def absolute(self) -> LLMOptions:
        """The same options with `config` as an absolute path (batches may start in another folder)."""
        if not self.config:
            return self
        return self.model_copy(update={"config": str(Path(self.config).expanduser().resolve())})


def backend_name(llm: dict[str, Any] | None) -> str:
    """The backend the options resolve to (validating the config file and the price for --max-cost)."""
    return str(LLMOptions(**(llm or {})).flags().settings().backend)


def documented(fn: F) -> F:
    """`fn` with a Google-style "Args:" section built from its parameters' `Field(description=...)`: Prefect takes a
    flow's parameter descriptions (shown in the UI next to each parameter) from the docstring only, and the
    annotations stay the one place they are written."""
    import inspect
    from typing import get_type_hints

    hints = get_type_hints(fn, include_extras=True)
    lines = []
    for name in inspect.signature(fn).parameters:
        meta = next((m for m in getattr(hints.get(name), "__metadata__", ()) if getattr(m, "description", None)), None)
        if meta is not None:
            lines.append(f"    {name}: {meta.description}")
    fn.__doc__ = inspect.cleandoc(fn.__doc__ or "") + ("\n\nArgs:\n" + "\n".join(lines) if lines else "")
    return fn


# --- retries -----------------------------------------------------------------------------------------------

class BatchInfraError(ForgeError, RuntimeError):
    """A batch ended with `infra_fail` tasks; raised only while retries remain, so Prefect retries the batch
    (the rerun skips what is recorded and redoes the infrastructure failures)."""


def is_infra(exc: BaseException) -> bool:
    """An error of the machine, network or database (worth retrying: a catalog server that does not answer
    included), not of the input (a ForgeError such as an unknown skill or a rejected API key, which a retry
    would only repeat)."""
    if isinstance(exc, BatchInfraError | CatalogUnreachable):  # the catalog's server down or restarting
        return True
    if isinstance(exc, ForgeError):
        return False
    if isinstance(exc, PermissionError | FileNotFoundError | NotADirectoryError | IsADirectoryError | FileExistsError):
        return False  # a wrong path or permission: the same on every retry
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(exc, (OSError, MemoryError, BrokenProcessPool, *UNREACHABLE))


def retry_on_infra(_task: Any, _task_run: Any, state: Any) -> bool:
    """Prefect's retry condition for batch tasks: retry infrastructure failures only."""
    try:
        state.result()
    except BaseException as exc:  # noqa: BLE001 - the failed state's own exception, classified below
        return is_infra(exc)
    return False


def attempt() -> int:
    """Which run of the current Prefect task this is (1 = the first), or 1 outside a task run."""
    from prefect import runtime

    try:
        return int(runtime.task_run.run_count or 1)
    except Exception:  # noqa: BLE001 - no task-run context (the task's `.fn` called directly)
        return 1


# --- progress ------------------------------------------------------------------------------------------------

def run_logger() -> logging.Logger | logging.LoggerAdapter[logging.Logger]:
    """Prefect's run logger inside a flow or task run (shown in the UI), else the `forge` logger."""
    from prefect import get_run_logger
    from prefect.exceptions import MissingContextError

    try:
        return get_run_logger()
    except MissingContextError:
        return logging.getLogger("forge")


class Progress:
    """Counts a batch's outcomes as they come (new work and resumed tasks apart) and logs every ~10 % and at
    least every `every_s` seconds, so a long batch shows where it is before it ends. (The batch's result comes
    from the catalog, `batch_counts`.)"""

    def __init__(self, label: str, total: int, every_s: float = 30.0) -> None:
        self.label, self.total, self.every_s = label, total, every_s
        self.new: Counter[str] = Counter()
        self.resumed: Counter[str] = Counter()
        self.log = run_logger()
        self._step = max(1, total // 10)
        self._last = time.monotonic()

    def __call__(self, outcome: Any) -> None:
        resumed = str(outcome.evidence).startswith(RESUMED)
        (self.resumed if resumed else self.new)[outcome.status] += 1
        done = sum(self.new.values()) + sum(self.resumed.values())
        if done % self._step == 0 or done == self.total or time.monotonic() - self._last >= self.every_s:
            self._last = time.monotonic()
            self.log.info("%s: %d/%d done; new: %s; resumed: %d", self.label, done, self.total,
                          dict(sorted(self.new.items())) or "none", sum(self.resumed.values()))



def batch_counts(catalog: Any, run_id: int, task_ids: list[str], chunk: int = 500) -> dict[str, dict[str, int]]:
    """{"new": tasks per gate class this run recorded, "resumed": those an earlier run had recorded} for a batch,
    read from the catalog: a retried batch's first attempt counts as this run's work, not as resumed."""
    new: Counter[str] = Counter()
    resumed: Counter[str] = Counter()
    for status, owner in catalog.task_owners(task_ids, chunk):
        (new if owner == run_id else resumed)[status] += 1
    return {"new": dict(new), "resumed": dict(resumed)}


def counts(new: dict[str, int], resumed: int) -> dict[str, int]:
    """A run's counts as the catalog keeps them: new tasks by gate class, plus `resumed` when some were."""
    return {**new, **({"resumed": resumed} if resumed else {})}


def gather(results: list[dict[str, dict[str, int]]]) -> tuple[dict[str, int], int]:
    """(new tasks by gate class, tasks resumed) summed over the batches."""
    new: Counter[str] = Counter()
    resumed = 0
    for result in results:
        new.update(result["new"])
        resumed += sum(result["resumed"].values())
    return dict(sorted(new.items())), resumed


# --- seeds ---------------------------------------------------------------------------------------------------

#: Scheduled seeds count seconds from here: 2**31 seconds later (the catalog's seed column is 32-bit) is 2088.
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)


def seed_of(scheduled: datetime) -> int:
    """The seed of a scheduled run: whole seconds from 2020-01-01 UTC to its scheduled start (~220 million in
    2026). Every scheduled run, at any frequency (a Prefect interval is at least a second), gets a seed of its own,
    so it makes new tasks; a rerun of the same scheduled run gets the same seed and resumes."""
    if scheduled.tzinfo is None:
        scheduled = scheduled.replace(tzinfo=UTC)
    return int((scheduled - EPOCH).total_seconds())


def scheduled_seed() -> int:
    from prefect import runtime

    return seed_of(runtime.flow_run.scheduled_start_time)


# --- the run's summary -------------------------------------------------------------------------------------

def summary_table(catalog: Any, run_id: int, new: dict[str, int], resumed: int) -> list[dict[str, Any]]:
    """Rows of the run's artifact: tasks per gate class made by this run, tasks resumed, and the LLM spend."""
    rows: list[dict[str, Any]] = [{"item": f"tasks {status}", "value": count} for status, count in new.items()]
    rows.append({"item": "tasks made by this run", "value": sum(new.values())})
    rows.append({"item": "tasks resumed (recorded by an earlier run, not counted above)", "value": resumed})
    tokens, cost, estimated = catalog.run_spend(run_id)
    rows.append({"item": "LLM tokens spent", "value": tokens})
    rows.append({"item": "LLM cost spent (USD)", "value": round(cost, 6)})
    if estimated:
        rows.append({"item": "offline tokens (an estimate; nothing spent)", "value": estimated})
    return rows


def publish(flow: str, run_id: int, rows: list[dict[str, Any]], note: str) -> None:
    """The run's table as a Prefect artifact (key `forge-<flow>`: the UI lists every run's table in one history)."""
    from prefect.artifacts import create_table_artifact

    try:
        create_table_artifact(table=rows, key=f"forge-{flow}", description=f"Forge run {run_id}: {note}")
    except Exception as exc:  # noqa: BLE001 - an artifact is a report; the run's work is already recorded
        run_logger().warning("could not publish the run's artifact: %s", exc)


def remaining_budget(catalog: Any, run_id: int, llm: dict[str, Any] | None) -> tuple[float | None, int | None]:
    """(USD, tokens) the run may still spend: its caps minus what its earlier batches spent (the ledger)."""
    options = LLMOptions(**(llm or {}))
    if options.max_cost is None and options.max_tokens is None:
        return None, None
    tokens, cost, _ = catalog.run_spend(run_id)
    return (None if options.max_cost is None else max(0.0, options.max_cost - cost),
            None if options.max_tokens is None else max(0, options.max_tokens - tokens))


def nothing_new_note(new: dict[str, int], resumed: int, seed: int) -> str | None:
    """The line a run that made nothing prints (None when it made something)."""
    if sum(new.values()):
        return None
    return (f"made nothing new: all {resumed} tasks of seed {seed} were already in the catalog (resumed). "
            "Give another seed, or leave it empty on a schedule (each scheduled run then gets its own)")



# --- runs whose worker died ----------------------------------------------------------------------------------

#: Seconds between a served flow run's heartbeats (Prefect's minimum), and the silence after which the run counts
#: as dead: a `forge serve` killed with its flow run (kill -9, a lost machine) runs no hook and renews no lease, so
#: without this its run stays Running and holds the deployment's concurrency slot until the lease ends (~5 min).
HEARTBEAT_S = 30
SILENCE_S = 75


def crash_silent_runs(deployment_id: Any, deployment_name: str) -> Any:
    """Register (or update) a Prefect automation that marks Crashed a flow run of this deployment whose
    heartbeats stop for SILENCE_S seconds, Prefect's documented zombie detection: the Crashed state releases the
    deployment's concurrency slot, so the next run starts instead of waiting for the lease to end. Needs flow
    runs that beat (`PREFECT_FLOWS_HEARTBEAT_FREQUENCY`, set by `forge serve`) and a server that runs
    automations (`prefect server start` does). Returns the automation."""
    from datetime import timedelta

    from prefect.automations import Automation
    from prefect.client.schemas.objects import StateType
    from prefect.events.actions import ChangeFlowRunState
    from prefect.events.schemas.automations import EventTrigger, Posture
    from prefect.events.schemas.events import ResourceSpecification

    name = f"forge: crash silent runs of {deployment_name}"
    ends = {"prefect.flow-run.heartbeat", *(f"prefect.flow-run.{s}" for s in ("Completed", "Failed", "Cancelled",
                                                                                "Crashed"))}
    wanted = Automation(
        name=name,
        description=f"Marks Crashed a run of {deployment_name} silent for {SILENCE_S} s (its worker died), which "
                    "frees the deployment's concurrency slot (forge.flowkit.crash_silent_runs)",
        trigger=EventTrigger(
            after={"prefect.flow-run.heartbeat"}, expect=ends, posture=Posture.Proactive, threshold=1,
            within=timedelta(seconds=SILENCE_S), for_each={"prefect.resource.id"},
            match=ResourceSpecification({"prefect.resource.id": ["prefect.flow-run.*"]}),
            match_related=ResourceSpecification({"prefect.resource.id": f"prefect.deployment.{deployment_id}",
                                                 "prefect.resource.role": "deployment"})),
        actions=[ChangeFlowRunState(state=StateType.CRASHED, name="Crashed", force=False,
                                    message=f"no heartbeat for {SILENCE_S} s: the process running this flow run is "
                                            "gone (forge serve killed, machine lost)")])
    try:
        found: Any = Automation.read(name=name)  # sync_compatible: typed as its async variant
    except ValueError:  # none yet
        return wanted.create()
    wanted.id = found.id
    wanted.update()
    return wanted
