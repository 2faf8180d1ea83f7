"""The `forge` command line: a thin layer over the library, one module per command group.

Every command's docstring is its --help. Library errors (`ForgeError`) become one `Error: ...` line and exit status
1 in exactly one place (`base.Group.invoke`). Commands are module-level functions registered on `base.app` (or on a
group made with `base.group`) when their module is imported below.

Commands import the library modules they drive inside their bodies, on purpose: that is start-up cost, not a hidden
cycle (the layers are one-way: tests/test_layers.py). `import forge.cli` stays light (Typer, Rich), so `forge --help`
and a mistyped option answer at once instead of first importing SQLAlchemy, Prefect, openpyxl and every family.
"""

from __future__ import annotations

from forge.cli.base import app

# The import order is the order of `forge --help` (commands, then groups, each in the order registered).
# isort: off
from forge.cli import skills, family, generate, verify, query, db, export, feedback, serve, student  # noqa: F401, E402
# isort: on

__all__ = ["app", "main"]


def main() -> None:
    app()
