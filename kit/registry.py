"""Discovery for the plug-in registries (workflow families, edit ops, check primitives).

Each registry is a package; every module in it registers what it defines when imported. Adding a
family, an op module or a check module is adding a file — no central list to edit.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Any


@cache
def import_submodules(package: str) -> tuple[ModuleType, ...]:
    """Import every module inside `package` and its subpackages (sorted by dotted name, private `_x` modules
    skipped): workflows/<app>/<family>.py are found like flat modules."""
    pkg = importlib.import_module(package)
    names = sorted(info.name for info in pkgutil.walk_packages(pkg.__path__, f"{package}.")
                   if not info.name.rsplit(".", 1)[-1].startswith("_"))
    return tuple(importlib.import_module(name) for name in names)


#: The package whose modules are the workflow families. The kernel names it, never imports it: families are plug-ins
#: found by package name, so the layers stay one-way (tests/test_layers.py).
FAMILIES_PACKAGE = "workflows"


def families() -> Mapping[str, Any]:
    """Every workflow family by name (`workflows.families()`: each module of the package that defines `WORKFLOW`)."""
    found: Mapping[str, Any] = importlib.import_module(FAMILIES_PACKAGE).families()
    return found
