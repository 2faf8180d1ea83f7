"""Test helper: Ctrl-C a real `forge` process once it is in the middle of something, and time how it stops."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable


def ctrl_c(proc: subprocess.Popen[str], ready: Callable[[], bool], settle: float) -> tuple[str, float]:
    """Wait (up to 240 s) until `ready()`, then `settle` seconds more, then send SIGINT; returns (stderr, seconds the
    process took to end). The process is killed if it outlives the test."""
    try:
        deadline = time.monotonic() + 240
        while not ready() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert ready(), proc.communicate(timeout=30)
        time.sleep(settle)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        _, err = proc.communicate(timeout=60)
        return err, time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
