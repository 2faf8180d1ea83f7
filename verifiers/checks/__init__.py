"""The check vocabulary: primitives that read a state root and answer pass/fail with evidence.

A rubric check in task.json is `{"id", "criterion", "primitive", "args"}`. Each primitive is a function
`fn(state, **args) -> Result`, registered with `@primitive(name, grounded=..., secret=..., meaning=Meaning(...))`:
- `grounded`: arg names whose values the instruction must ask for (file path, sheet, values the student must
  type, and every goal-defining argument: direction, operator, aggregate, chart type ...) — the gate's grounding
  stage (verifiers/grounding.py) checks them. Empty only for the frame (verifiers/checks/frame.py), which asks
  nothing of the instruction;
- `meaning` (required: registration refuses a check without one): the words that ask for the check's goal, or
  `action=None` with why it is no goal, and how each goal argument that is not a literal is said: in words
  (a lexicon domain), read back next to a cue, or visible in the initial state (verifiers/meaning.py);
- `secret`: arg names holding answers (computed values) that must NOT appear in student-facing text;
- `headless=False`: the check reads view state (e.g. frozen panes) that a headless LibreOffice re-save
  drops, so the real-app tier's alternative-solution control cannot judge it.
A check never writes. It never raises on a bad state: a missing file or a corrupt workbook is a fail
with evidence.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from openpyxl.workbook.workbook import Workbook

from kit import bounded
from kit.errors import CheckError, did_you_mean
from kit.registry import import_submodules
from preparers.ops import HOME, OpError, resolve
from verifiers.lexicon import DOMAINS
from verifiers.meaning import ByProperty, Meaning
from verifiers.readers import StateError
from verifiers.readers.xlsx import _load_formulas, lookups_undone

T = TypeVar("T")


@dataclass(frozen=True)
class Result:
    passed: bool
    evidence: str


def ok(evidence: str) -> Result:
    return Result(True, evidence)


def fail(evidence: str) -> Result:
    return Result(False, evidence)


class State:
    """A state root standing for /home/user, with cached document loads (one per path and mode)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[tuple[str, Any], Any] = {}
        self._hosts: dict[tuple[Path, str], Path] = {}
        self._tops: dict[Path, Path] = {}  # each root resolved once
        self._undo: dict[tuple[str, Any], Callable[[], Any]] = {}  # documents a read changes: back to as parsed

    def path(self, path: str) -> Path:
        """The host path for `path` (`preparers.ops.resolve`: links resolved inside the root), looked up once per
        root: checks never write, so a state's tree does not change while its rubric runs (a Thunderbird check
        looks up the profile folder many times; resolving it each time was 7-13 % of a Thunderbird gate)."""
        key = (self.root, path)
        if key not in self._hosts:
            if self.root not in self._tops:
                self._tops[self.root] = self.root.resolve()
            try:
                self._hosts[key] = resolve(self.root, path, top=self._tops[self.root])
            except OpError as exc:
                raise StateError(str(exc)) from None
        return self._hosts[key]

    def is_file(self, path: str) -> bool:
        """Is there a regular file at `path` (links resolved inside the root)? Asked of the state, not of a host
        path a check joined itself: a mutant's state answers it without making its copy (`verifiers.gate.mutation`)."""
        return self.path(path).is_file()

    def is_dir(self, path: str) -> bool:
        """Is there a folder at `path`? (as `is_file`)"""
        return self.path(path).is_dir()

    def home_tree(self, unhashed: tuple[str, ...] = ()) -> Path:
        """The host folder standing for /home/user, to walk the whole tree (the tree frame). `unhashed`: suffixes
        of files whose content the walk does not read (a mutant's state need not make its copy for them)."""
        return self.path(HOME)

    def adopt_paths(self, other: State) -> None:
        """Take over the host paths `other` resolved (a state of the same tree: the oracle's, whose checks resolved
        them, for each of its mutants)."""
        self._tops.update(other._tops)
        self._hosts.update(other._hosts)

    def read(self, path: str, parse: Callable[[Path], T], what: str) -> T:
        """`parse(host file)` for the file at `path`, cached per (path, parse); any failure is a StateError.

        `what` names the expected format in the evidence, e.g. "docx document"."""
        key = (path, parse)
        if key not in self._cache:
            host = self.path(path)
            if not host.is_file():
                if host.exists():
                    raise StateError(f"{path} is not a regular file")
                raise StateError(f"{path} does not exist")
            try:
                bounded.preflight(host)  # before any parser: size, fifo, zip bombs (kit.bounded)
                document = self._cache[key] = parse(host)
                if parse in CHANGED_BY_READING:
                    self._undo[key] = CHANGED_BY_READING[parse](document)
            except (MemoryError, RecursionError) as exc:  # over the worker's memory or stack: a hostile file
                bounded.note(f"{path}: {type(exc).__name__} while reading it as {what}")
                raise StateError(f"{path} is not a readable {what} ({type(exc).__name__}: over a limit)") from None
            except Exception as exc:  # any parse failure of an untrusted file is a failed check
                raise StateError(f"{path} is not a readable {what} ({type(exc).__name__}: {exc})") from None
        return self._cache[key]  # type: ignore[no-any-return]

    def as_parsed(self, key: tuple[str, Any]) -> Callable[[], Any] | None:
        """For a document of `parsed()` that reading changes (`CHANGED_BY_READING`): a function that takes it back to
        what its parser returned and returns it; None for any other."""
        return self._undo.get(key)

    def parsed(self) -> dict[tuple[str, Any], Any]:
        """What `read` has parsed so far: {(path, parser): parsed document}; a parser reads a file's contents only
        (never its times or modes: a check looks at those through `path`)."""
        return dict(self._cache)

    def workbook(self, path: str) -> Workbook:
        """The workbook at `path`, formulas as text (a formula's cached value: `readers.xlsx.saved_value`)."""
        return self.read(path, _load_formulas, "xlsx workbook")

    def sheet(self, path: str, sheet: str) -> Any:
        wb = self.workbook(path)
        if sheet not in wb.sheetnames:
            raise StateError(f"{path} has no sheet {sheet!r} (sheets: {wb.sheetnames})")
        return wb[sheet]


#: Parsers whose documents the checks change by reading them: openpyxl creates a cell (and may grow the sheet's
#: dimensions) on every lookup of one that is not there. {parser: `undo(document)`, called on the document as parsed,
#: gives a function that takes it back there}. A state shares such a document with another only taken back first
#: (`verifiers.gate.mutation.InMemory`): a check run later must not see cells a check of another state looked up.
CHANGED_BY_READING: dict[Callable[[Path], Any], Callable[[Any], Callable[[], Any]]] = {}


@dataclass(frozen=True)
class Primitive:
    name: str
    fn: Callable[..., Result]
    signature: inspect.Signature  # fn's, taken once: `bind` checks every check's args against it
    grounded: tuple[str, ...]
    secret: tuple[str, ...]
    meaning: Meaning  # what an instruction must say for a rubric to use this check (verifiers/meaning.py)
    headless: bool = True  # False: reads view state that a headless LibreOffice re-save drops

    @property
    def doc(self) -> str:
        return (self.fn.__doc__ or "").strip().splitlines()[0]


_PRIMITIVES: dict[str, Primitive] = {}


def primitive(name: str, *, grounded: tuple[str, ...] = ("path",), secret: tuple[str, ...] = (),
              headless: bool = True, meaning: Meaning | None = None
              ) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Register a check. `meaning` is required: a check without one would escape grounding silently, so it is
    refused here, at import, with one line naming the primitive (`CheckError`)."""
    def wrap(fn: Callable[..., Result]) -> Callable[..., Result]:
        if name in _PRIMITIVES:
            raise ValueError(f"check primitive {name!r} registered twice")
        signature = inspect.signature(fn)
        unknown = [a for a in grounded + secret if a not in signature.parameters]
        if unknown:
            raise ValueError(f"check primitive {name!r}: grounded/secret name unknown args {unknown}")
        problem = _meaning_problem(meaning, grounded, signature)
        if problem or meaning is None:
            raise CheckError(f"check primitive {name!r} {problem}")
        _PRIMITIVES[name] = Primitive(name, fn, signature, grounded, secret, meaning, headless)
        return fn

    return wrap


def _meaning_problem(meaning: Meaning | None, grounded: tuple[str, ...], signature: inspect.Signature) -> str | None:
    """Why `meaning` cannot be registered for a check with these `grounded` args and `signature` (None if it can)."""
    if meaning is None:
        return ("declares no meaning: pass meaning=Meaning(action=r'<words that ask for its goal>', ...) or "
                "Meaning(action=None, why='<why it is no goal>') (verifiers/meaning.py)")
    if not isinstance(meaning, Meaning):
        return f"meaning must be a verifiers.meaning.Meaning, not {type(meaning).__name__}"
    problem = meaning.problem()
    if problem:
        return f"meaning: {problem}"
    loose = [a for a in meaning.args if a not in grounded]
    if loose:
        return f"meaning: args {loose} say how the instruction states them, but they are not grounded={grounded}"
    letters = [w.letter for w in meaning.args.values()
               if isinstance(w, ByProperty) and w.letter not in signature.parameters]
    unknown = [d for d in meaning.domains() if d not in DOMAINS]
    if letters or unknown:
        return f"meaning: unknown {'args ' + str(letters) if letters else 'lexicon domains ' + str(unknown)}" + (
            did_you_mean(unknown[0], sorted(DOMAINS)) if unknown and not letters else "")
    return None


def registry() -> dict[str, Primitive]:
    """All primitives; every module of this package registers its own (imported on first use)."""
    import_submodules(__name__)
    return _PRIMITIVES


def get(name: str) -> Primitive:
    known = registry()
    if name not in known:
        raise CheckError(f"unknown check primitive {name!r}.{did_you_mean(name, sorted(known))}")
    return known[name]


def bind(name: str, args: dict[str, Any]) -> Primitive:
    """The primitive for `name` after checking `args` fit its signature; raises `CheckError`."""
    prim = get(name)
    try:
        prim.signature.bind(None, **args)
    except TypeError as exc:
        raise CheckError(f"check {name!r}: {exc}") from None
    return prim


def run_check(state: State, name: str, args: dict[str, Any]) -> Result:
    """Evaluate one check; state problems become failures with evidence."""
    prim = bind(name, args)
    try:
        return prim.fn(state, **args)
    except StateError as exc:
        return fail(str(exc))
    except (bounded.LimitExceeded, OSError, MemoryError, RecursionError) as exc:
        # the state is hostile or broken (a bomb, a fifo, a loop, a tree too deep): it fails, with evidence
        if not isinstance(exc, bounded.LimitExceeded | OSError):
            bounded.note(f"{name}: {type(exc).__name__}")
        where = args.get("path", "the state")
        return fail(f"{where} cannot be checked: {type(exc).__name__}: {str(exc)[:300] or 'over a limit'}")


CHANGED_BY_READING[_load_formulas] = lookups_undone
