"""One exception tree for Forge.

Every message names the file, node or field at fault, the offending value, and what to do. The CLI
turns a `ForgeError` into a one-line `Error: ...` in exactly one place (`forge.cli`). Several classes
also inherit the matching builtin so callers can catch either.
"""

from __future__ import annotations


class ForgeError(Exception):
    """Base of every error Forge raises on purpose."""


class TaxonomyError(ForgeError, ValueError):
    """A skills_taxonomy file is malformed or inconsistent."""


class WorkflowError(ForgeError, ValueError):
    """A workflow DAG is invalid (missing inputs, cycles, duplicate names) or a node misbehaved."""


class UnknownNameError(ForgeError, KeyError):
    """A registry lookup failed; the message suggests the closest known name."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class PackageError(ForgeError, ValueError):
    """A task package on disk is missing files or cannot be read."""


class UnsafeIdError(ForgeError, ValueError):
    """An id read from a package or a catalog row cannot be one folder name (a separator, `..`, too long...)."""


class SandboxError(ForgeError, RuntimeError):
    """The sandbox cannot run (bubblewrap missing or broken)."""


class CatalogError(ForgeError, RuntimeError):
    """The catalog database cannot be opened or a query was refused."""


class CatalogUnreachable(CatalogError, ConnectionError):
    """The catalog's database server did not answer (down, restarting, network): the machine's fault, not the
    input's, so a retry may succeed (Prefect batch tasks retry it; `forge.flowkit.is_infra`)."""


class CheckError(ForgeError, ValueError):
    """A rubric check has unknown primitive or arguments that do not fit it."""


def did_you_mean(name: str, known: list[str] | tuple[str, ...]) -> str:
    """A ' Did you mean X?' suffix when `name` is close to a known name, else ''."""
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    return f" Did you mean {close[0]!r}?" if close else ""
