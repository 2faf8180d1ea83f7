"""Requests in flight to one endpoint: a client-side queue, so a request's timeout measures its generation only.

A request waits here for a slot *before* it is sent; the HTTP timeout starts when it is sent. Against a server
that serves one request at a time (llama.cpp's Python server), requests sent side by side queue inside the
server instead, and their timeouts then count the others' generations: when a request times out while others
of ours were in flight, the server is taken to be queueing and the limit is halved (down to 1) for the rest of
the run; that request is sent again without using up one of its attempts. Waiting for a slot checks the run's
cancel event, so Ctrl-C never waits behind a queue.
"""

from __future__ import annotations

import threading

from kit.llm import LLMCancelled


class Slots:
    def __init__(self, limit: int, cancel: threading.Event) -> None:
        self.limit = max(1, limit)
        self.in_flight = 0
        self.cancel = cancel
        #: Why the limit went down (for the run's summary), empty while it never did.
        self.notes: list[str] = []
        self._cond = threading.Condition()

    def acquire(self) -> int:
        """Wait for a slot (or raise `LLMCancelled`); returns how many other requests were in flight."""
        with self._cond:
            while self.in_flight >= self.limit:
                if self.cancel.is_set():
                    raise LLMCancelled("interrupted while waiting for a free request slot")
                self._cond.wait(0.1)
            if self.cancel.is_set():
                raise LLMCancelled("interrupted before the request was sent")
            self.in_flight += 1
            return self.in_flight - 1

    def release(self) -> None:
        with self._cond:
            self.in_flight -= 1
            self._cond.notify_all()

    def shrink(self, why: str) -> None:
        """Halve the limit after a timeout that queueing explains (a request sent while others were in flight).

        Such a request is then sent again without using an attempt; that terminates, because once the limit
        is 1 every request is sent alone, and a timeout of a request sent alone is a real one."""
        with self._cond:
            if self.limit > 1:
                self.limit = max(1, self.limit // 2)
                self.notes.append(f"concurrency lowered to {self.limit}: {why}")
