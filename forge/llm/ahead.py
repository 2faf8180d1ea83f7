"""Run the next few tasks' workflows at once, so their LLM calls overlap (`--concurrency`).

The generator asks for tasks in plan order; `Ahead` has started up to `width` of them in threads and hands
back each one's result in that order, so packages, dedup and catalog rows are the same as one at a time.
It starts a task only while `may_start()` holds (the budget): a refused task returns None, and every task
already started is still handed back (the tasks in flight finish). With width 1 it runs each task in the
caller's thread when asked, exactly as a plain loop would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Ahead(Generic[T, R]):
    def __init__(self, work: Callable[[T], R], todo: Sequence[T], width: int,
                 may_start: Callable[[], bool] = lambda: True) -> None:
        self.work, self.todo, self.width, self.may_start = work, list(todo), max(1, width), may_start
        self.started: dict[T, Future[R]] = {}
        self.next = 0
        self.pool = ThreadPoolExecutor(self.width, thread_name_prefix="prepare") if self.width > 1 else None

    def __call__(self, item: T) -> R | None:
        """`work(item)`'s result, or None when the item was not started because `may_start()` said no."""
        if self.pool is None:
            return self.work(item) if self.may_start() else None
        while len(self.started) < self.width and self.next < len(self.todo) and self.may_start():
            upcoming = self.todo[self.next]
            self.next += 1
            self.started[upcoming] = self.pool.submit(self.work, upcoming)
        future = self.started.pop(item, None)
        return None if future is None else future.result()

    def close(self) -> None:
        """Wait for what was started (nothing is abandoned half-written) and stop the threads."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)
