"""Small pieces of the families' content checks (kit.dag.ContentCheck): what a model's answer must satisfy
beyond its schema for the family to build a sound task from it.

A check returns '' for a usable answer, else one sentence naming the field and the value, which is quoted back
to the model in the repair turn and kept as the `llm_fail` evidence. `guarded` turns any error a check meets on
malformed input into such a sentence, so a check never raises, whatever JSON it is given.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

Check = Callable[[Any, Any], str]


def repeated(values: Iterable[Any]) -> Any:
    """The first value that occurs twice (text compared without case and outer spaces), or None."""
    seen: set[Any] = set()
    for value in values:
        key = value.strip().casefold() if isinstance(value, str) else value
        if key in seen:
            return value
        seen.add(key)
    return None


def unique(values: Iterable[Any], what: str) -> str:
    """'' when `values` has no repeats, else the problem naming `what` and the repeated value."""
    twice = repeated(values)
    return "" if twice is None else f"{what} must be unique, but {twice!r} appears twice"


def first_problem(*problems: str) -> str:
    return next((p for p in problems if p), "")


def guarded(what: str) -> Callable[[Check], Check]:
    """Decorator: an answer the check cannot even read is reported as such, never raised."""

    def wrap(check: Check) -> Check:
        @functools.wraps(check)
        def run(answer: Any, values: Any = None) -> str:
            try:
                return check(answer, values)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                return f"the {what} cannot be read ({type(exc).__name__}: {exc})"

        return run

    return wrap
