"""Daemon threads that run jobs in the background: a Ctrl-C never waits for a job in flight (real Thunderbird or
LibreOffice may take a minute), whose app processes die with this process. The pipeline's real-app tier runs its
batches on one; a batch runs its Thunderbird sessions on `THUNDERBIRDS` of them (`in_threads`)."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]


class Daemons:
    """`threads` daemon threads taking jobs in the order they were submitted (one thread: run in order)."""

    def __init__(self, name: str, threads: int = 1) -> None:
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._threads = threads
        for _ in range(threads):
            threading.Thread(target=self._run, name=name, daemon=True).start()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        self._jobs.put((future, fn, args))
        return future

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, fn, args = job
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as exc:  # handed to whoever waits for the future
                    future.set_exception(exc)

    def close(self, *, cancel: bool = False) -> None:
        """No more jobs (the threads end once the queue is drained); with `cancel`, those not started are dropped."""
        while cancel and not self._jobs.empty():
            with contextlib.suppress(queue.Empty):
                job = self._jobs.get_nowait()
                if job is not None:
                    job[0].cancel()
        for _ in range(self._threads):
            self._jobs.put(None)


def in_threads(jobs: Sequence[Callable[[], T]], threads: int, name: str) -> list[T]:
    """`[job() for job in jobs]`, run on up to `threads` daemon threads; a job's exception is raised here."""
    daemons = Daemons(name, min(threads, len(jobs)))
    futures = [daemons.submit(job) for job in jobs]
    daemons.close()
    return [future.result() for future in futures]
