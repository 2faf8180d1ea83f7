"""Declaring a task infeasible, as the line a person at a terminal types (`kit.model.declare_command`)."""

from __future__ import annotations

from kit.model import declare_command
from preparers.teach import Language, language, snippet

language(Language("agent", shell=True))


@snippet("agent.declare_infeasible")
def declare_infeasible(path: str, reason: str) -> str:
    return declare_command(reason)
