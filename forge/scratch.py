"""Where the gate's short-lived folders go: a roomy RAM disk when the machine has one.

The gate makes and deletes several folders per task (the initial state, one state per control), and the
probes of a round write thousands of packages they delete afterwards. On a disk mounted with `discard`
(ext4 on this VM) every unlink and rmdir waits for the device: py-spy put half of a gate thread's time
in `shutil.rmtree`, and with its scratch on tmpfs the gate made ~15 % more tasks per second (an A/B
on a loaded machine). Packages a user keeps (`--out`) and the catalog stay where the user put them.

Order: `$FORGE_SCRATCH` if set; else `$TMPDIR` if set (the user chose); else `/dev/shm` when it is a
writable tmpfs with at least MIN_FREE bytes free; else the system temp folder. What a package script may
write there is bounded by the sandbox's disk limit (polled while it runs).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

#: /dev/shm is used only with this much free: gates in flight each hold a few states, and a hostile script
#: may write up to the sandbox's disk limit (512 MB) before it is stopped.
MIN_FREE = 4 << 30
RAM_DISK = Path("/dev/shm")


@cache
def scratch_root() -> str:
    """The folder new scratch folders go in (see the module docstring)."""
    chosen = os.environ.get("FORGE_SCRATCH") or os.environ.get("TMPDIR")
    if chosen:
        return chosen
    if _roomy_tmpfs(RAM_DISK):
        return str(RAM_DISK)
    return tempfile.gettempdir()


def _roomy_tmpfs(path: Path) -> bool:
    try:
        fields = (line.split() for line in Path("/proc/self/mounts").read_text().splitlines())
        is_tmpfs = any(f[1:3] == [str(path), "tmpfs"] for f in fields)
        return is_tmpfs and os.access(path, os.W_OK | os.X_OK) and shutil.disk_usage(path).free >= MIN_FREE
    except OSError:
        return False
