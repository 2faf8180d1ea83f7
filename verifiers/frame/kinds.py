"""The document frame's kinds: one registry entry per kind of file the frame models (xlsx, docx, ...).

A kind says which home paths it frames (`matches`), how it reads a file's canonical facts (`read`, and `edited`
for a document `preparers.ops.edit` holds in memory), how a task's frame is derived from the initial and the
oracle's facts (`derive`) and judged on an end state (`judge`), and the words of its check. `workflows.frame`
makes one `<name>.frame` check per framed file of a task's end state, and verifiers/checks/frame.py registers that
primitive for every kind: a new kind is one module in this package that calls `register(FrameKind(...))` when
imported, and one line in `KNOWN` below (no line in workflows/ or verifiers/checks/).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.errors import did_you_mean

if TYPE_CHECKING:
    from verifiers.checks import State


@dataclass(frozen=True)
class FrameKind:
    """One kind of framed file. Facts are a flat mapping fact key -> canonical text (see verifiers/frame/)."""

    name: str  # "xlsx": the check primitive is `<name>.frame`
    noun: str  # "workbook": the evidence says "cannot read its workbook model"
    matches: Callable[[str], bool]  # given a home path (/home/user/Documents/a.xlsx): is it a file of this kind?
    read: Callable[[Path], dict[str, str]]  # the facts of a file on disk (bounded: an end state may be hostile)
    derive: Callable[[Mapping[str, str], Mapping[str, str], Mapping[str, str]], dict[str, Any]]
    # derive(initial, oracle, free: region -> reason) -> the check's args besides `path`
    judge: Callable[[Mapping[str, Any], Mapping[str, str]], list[str]]  # (args, end facts) -> problems, one each
    kept_criterion: str  # a prepared file's check criterion; `{dest}` is its home path
    made_criterion: str  # the criterion for a file the oracle makes (framed against nothing)
    #: The facts of a document as `preparers.ops.edit` holds it (ops kind `ops_kind`), as they read once it is saved;
    #: None: the frame saves it and reads the file (`read`).
    edited: Callable[[Any], dict[str, str]] | None = None
    ops_kind: str = ""  # the preparers.ops document kind whose documents `edited` reads ("" = the kind's name)
    #: The freedoms of a file the oracle makes (region -> reason): e.g. its styles are its writing app's.
    new_file: Mapping[str, str] = field(default_factory=dict)
    #: The facts of the file at `path` in a checked state; None: `state.read(path, read, ...)` (cached per state).
    #: A kind whose checks share a parsed document (`State.workbook`) reads the facts from it instead.
    state_facts: Callable[[State, str], dict[str, str]] | None = None
    #: Arguments of the check beyond path/allowed/kept/free that `derive` makes and `judge` reads (keyword, optional).
    extra_args: tuple[str, ...] = ()

    @property
    def primitive(self) -> str:
        return f"{self.name}.frame"

    @property
    def document_kind(self) -> str:
        return self.ops_kind or self.name

    def facts_of(self, state: State, path: str) -> dict[str, str]:
        """The facts of `path` in `state` (raises `StateError` for a file that is not there or not readable)."""
        if self.state_facts is not None:
            return self.state_facts(state, path)
        return state.read(path, self.read, f"{self.name} {self.noun}")


#: The modules that register a kind, imported once by `kinds()` (a module of verifiers/frame/ that is no kind, such as
#: the file tree's, is not listed).
KNOWN = (
    "verifiers.frame.xlsx",
    "verifiers.frame.docx",
    "verifiers.frame.pptx",
    "verifiers.frame.config",
    "verifiers.frame.vlcrc",
)

_KINDS: dict[str, FrameKind] = {}


def register(kind: FrameKind) -> FrameKind:
    """Add `kind` (loud on a second kind of the same name)."""
    if kind.name in _KINDS:
        raise ValueError(f"frame kind {kind.name!r} registered twice")
    _KINDS[kind.name] = kind
    return kind


def kinds() -> tuple[FrameKind, ...]:
    """Every kind, in the order of `KNOWN` (each module imported first)."""
    _import_known()
    return tuple(_KINDS.values())


@cache
def _import_known() -> None:
    for module in KNOWN:
        importlib.import_module(module)


def get(name: str) -> FrameKind:
    known = {kind.name: kind for kind in kinds()}
    if name not in known:
        raise KeyError(f"unknown frame kind {name!r}.{did_you_mean(name, sorted(known))}")
    return known[name]


def kind_for(dest: str) -> FrameKind | None:
    """The kind that frames the file at home path `dest`, or None (the first that matches)."""
    return next((kind for kind in kinds() if kind.matches(dest)), None)
