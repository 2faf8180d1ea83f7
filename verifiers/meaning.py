"""A check's meaning, declared where the check is registered: what an instruction must say for a rubric to use it.

Every primitive passes `meaning=Meaning(...)` to `@primitive` (verifiers/checks/__init__.py); registration refuses
one without it, so no check escapes grounding by having no entry in a table elsewhere. A meaning holds:
- `action`: the words that ask for the check's goal (a regular expression, matched case-insensitively at a word
  start: r"sort|order|arrange"). The instruction must contain one, or it asks for something else. A check that is
  not a goal (it guards what a task keeps: `*_kept`, a listing, a file left as it was) says `action=None` and
  `why` it needs no words of its own;
- `args`: how each goal-defining argument is stated, when not literally (the default for every `grounded`
  argument: its value appears in the instruction):
  `Stated()`             a goal-defining literal (the column whose repeats make rows duplicates): stated in every
                         register, never left to the initial state, which shows it but not that the goal is about it;
  `Said(domain, value)`  in words, with a lexicon domain (verifiers/lexicon.py): "largest to smallest" is
                         `descending=True`; a value the instruction also asks for that contradicts it fails;
  `ReadBack(how)`        a number or order read back next to its cue (verifiers/extract.py), compared with the
                         rubric by verifiers/roundtrip.py: "becomes slide 6", "90°", "mode 755";
  `Visible(rule)`        what a check keeps, grounded in the initial state the student sees (a kept bookmark);
  `Prose(rule)`          read by a rule of its own (a Thunderbird pref's phrase);
  `ByProperty(letter)`   a column header, stated or named by its kind or place ("the date column", "the fifth
                         column (E)") where `letter` is the argument holding its column;
  `Derived(domain)`      stated literally, and its own text says a value of `domain` that the instruction must say
                         too (a label 'Average Reimbursed:' asks for an average);
- `implied`: a lexicon domain the goal belongs to although no argument holds it (a formula column's operation is
  only in its expected values): the instruction must say exactly one consistent value of it.

The lexicon's domains stay shared vocabulary (one "align" for Writer, Calc and headers); a meaning names them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Seen = Callable[[Any], bool]  # is a literal stated in the instruction or visible in the initial state?


def same(value: Any) -> str | None:
    """The rubric's value is the domain's value ("bar" -> "bar")."""
    return value if isinstance(value, str) and value else None


def upper(value: Any) -> str | None:
    return value.upper() if isinstance(value, str) and value else None


def when(word: str) -> Callable[[Any], str | None]:
    """`word` when the rubric's value is True; any other value asks nothing of the instruction (`bold=None`)."""
    return lambda value: word if value is True else None


def choice(table: Mapping[Any, str]) -> Callable[[Any], str | None]:
    """The domain value `table` gives for the rubric's value (None: it asks nothing)."""
    return lambda value: table.get(value) if isinstance(value, str | bool | int) else None


@dataclass(frozen=True)
class Said:
    """The argument is said in words of the lexicon domain `domain`; `value` maps the rubric's value to the domain's
    value (None: this value asks nothing of the instruction, e.g. `bold=None`)."""

    domain: str
    value: Callable[[Any], str | None] = same


@dataclass(frozen=True)
class Stated:
    """A goal-defining literal: the instruction states it in every register (the natural register may leave a header
    it names to the initial state; not this one, since the state does not say the goal is about it)."""


@dataclass(frozen=True)
class ReadBack:
    """A number or order read back next to its cue; `how` says what the round trip reads (for the reader)."""

    how: str


@dataclass(frozen=True)
class Visible:
    """Grounded in the visible initial state: `rule(value, seen)` gives the problem, or None."""

    rule: Callable[[Any, Seen], str | None]


@dataclass(frozen=True)
class Prose:
    """Read by a rule of its own: `rule(instruction, args)` gives the problem, or None."""

    rule: Callable[[str, Mapping[str, Any]], str | None]


@dataclass(frozen=True)
class ByProperty:
    """A column header the instruction states, or names by its kind or place; `letter` is the argument holding the
    column's letter (or its cells)."""

    letter: str


@dataclass(frozen=True)
class Derived:
    """Stated literally, and its own text says a value of `domain` that the instruction must say too."""

    domain: str


Way = Stated | Said | ReadBack | Visible | Prose | ByProperty | Derived


@dataclass(frozen=True)
class Meaning:
    """What an instruction must say for a check (see the module docstring); declared at `@primitive`."""

    action: str | None
    why: str = ""  # required when `action` is None: why the check asks for no words of its own
    args: Mapping[str, Way] = field(default_factory=dict)
    implied: str | None = None  # a lexicon domain of the goal that no argument holds

    def problem(self) -> str | None:
        """What is wrong with this declaration, in a few words (None when it is whole)."""
        if self.action is None:
            return None if self.why.strip() else "action=None needs a why= (why the check asks for no words)"
        if not self.action.strip():
            return "action is empty: give the words that ask for the goal, or action=None with a why="
        try:
            re.compile(self.action)
        except re.error as exc:
            return f"action={self.action!r} is not a regular expression ({exc})"
        return None

    def domains(self) -> list[str]:
        """The lexicon domains this meaning names."""
        named = [way.domain for way in self.args.values() if isinstance(way, Said | Derived)]
        return named + ([self.implied] if self.implied else [])

    def said(self, arg: str) -> Said | None:
        way = self.args.get(arg)
        return way if isinstance(way, Said) else None
