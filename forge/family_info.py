"""One family read whole, for `forge family list` / `forge family show` (and the one-family test run).

A family's pieces live in several places: its module (knobs, axes, phrasings, the goal/rubric/solve functions),
the app kit (the chain of nodes around them), the check vocabulary (how an instruction must state each checked
argument) and the mutators (which damage the oracle's end state). `describe(name)` gathers them into one JSON-able
dict, from one sample task built offline (the family's first seed skill, seed 1: same inputs, same output, no
clock), so what it shows is what the gate would see: the real rubric, near-misses, instructions and mutants.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.dag import NodeContext, Workflow
from kit.errors import ForgeError, UnknownNameError, did_you_mean
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.taxonomy import Skill, load_taxonomy

#: The seed of the sample task `describe` builds (any fixed number: the output must not depend on the run).
SAMPLE_SEED = 1
#: Knob values shown in full up to this many; longer lists (a composite's seed skill ids) are counted.
SHOWN_VALUES = 12

#: Every test file that picks up a family by itself once it is registered: (path, what it asks, scope). The scope
#: says which families it has cases for, so `forge family test` does not collect a suite with none: '' every family,
#: 'prefix:a. b.' families named so, 'app:X' families that open app X, 'listed' the families or skills the file names.
#: With `--family NAME` (tests/conftest.py) pytest keeps only each suite's cases about that family; `forge family
#: test` runs them, plus the family's own file `tests/workflows/test_<family with _ for .>.py` when there is one.
SUITES: tuple[tuple[str, str, str], ...] = (
    ("tests/workflows/test_families.py", "every knob combination through the real gate", ""),
    ("tests/test_contract.py", "every seed skill through the gate; the family deterministic and varied", ""),
    ("tests/workflows/test_golden_packages.py", "pinned package bytes (FORGE_UPDATE_GOLDEN=1 writes them)", ""),
    ("tests/workflows/test_registers.py", "natural phrasings: 8-40 words, and a natural task passes the gate", ""),
    ("tests/workflows/test_natural_voice.py", "natural phrasings fill every fact and speak as a user",
     "prefix:gimp. chrome. vscode. os. tb. multi. vlc."),
    ("tests/workflows/test_axes.py", "the last size/indirection level passes the gate with every mutant", ""),
    ("tests/workflows/test_axes_tb.py", "every axis level", "prefix:tb."),
    ("tests/workflows/test_axes_os_chrome.py", "every axis level", "prefix:os. chrome."),
    ("tests/workflows/test_axes_multi.py", "every axis level, both registers", "prefix:multi."),
    ("tests/workflows/test_chrome_common.py", "same seed, same assets", "prefix:chrome."),
    ("tests/workflows/test_vscode_common.py", "same seed, same assets, valid settings", "prefix:vscode."),
    ("tests/workflows/test_os_common.py", "the family contract", "prefix:os."),
    ("tests/verifiers/test_fast_path.py", "mutation table the same in memory and on disk", "listed"),
    ("tests/verifiers/test_readback.py", "the offline reader agrees with the generated task", "listed"),
    ("tests/verifiers/test_wrong_states.py", "hand-made wrong end states fail", "listed"),
    ("tests/verifiers/test_mutants_office.py", "a fresh shared copy before every edit", "listed"),
    ("tests/realapps/test_thunderbird.py", "real Thunderbird carries out the oracle; the rubric accepts it",
     "app:thunderbird"),
    ("tests/realapps/test_family_real.py", "real LibreOffice / Thunderbird open the sample task and redo the oracle",
     ""),
)


@dataclass(frozen=True)
class Summary:
    """One row of `forge family list`."""

    name: str
    apps: tuple[str, ...]
    skills: int
    goal: str


def _registry() -> dict[str, Workflow]:
    from workflows import families

    return families()


def _skills_by_family() -> dict[str, list[Skill]]:
    by_family: dict[str, list[Skill]] = {}
    for skill in sorted(load_taxonomy().values(), key=lambda s: s.id):
        by_family.setdefault(skill.family, []).append(skill)
    return by_family


def _one_line(text: str) -> str:
    return " ".join(text.split())


def summaries(app: str | None = None) -> list[Summary]:
    """Every registered family (sorted by name), or those whose apps include `app`, with its seed skill count."""
    skills = _skills_by_family()
    rows = [Summary(name, tuple(w.apps), len(skills.get(name, [])), _one_line(w.description))
            for name, w in sorted(_registry().items()) if app is None or app in w.apps]
    if app is not None and not rows:
        apps = sorted({a for w in _registry().values() for a in w.apps})
        raise ForgeError(f"--app {app!r}: no family opens this app.{did_you_mean(app, apps)} Apps: {', '.join(apps)}")
    return rows


def get(name: str) -> Workflow:
    """The registered family `name`; a misspelt name gets 'did you mean'."""
    known = _registry()
    if name not in known:
        raise UnknownNameError(f"unknown family {name!r}.{did_you_mean(name, sorted(known))} "
                               "Run `forge family list` to see them all.")
    return known[name]


def _module_of(workflow: Workflow) -> Any:
    from kit.registry import import_submodules

    return next(m for m in import_submodules("workflows") if getattr(m, "WORKFLOW", None) is workflow)


def _values(values: Sequence[Any]) -> list[Any] | str:
    """A knob's or axis's values, or how many there are when the list is long (a composite's seed skill ids)."""
    return list(values) if len(values) <= SHOWN_VALUES else f"{len(values)} values ({values[0]!r}, ...)"


def sample_skill(workflow: Workflow) -> Skill:
    """The skill the sample task is built from: the family's first seed skill by id, else its first knob values."""
    skills = _skills_by_family().get(workflow.name)
    if skills:
        return skills[0]
    params = {knob: values[0] for knob, values in workflow.knobs.items()}
    return Skill(id=f"{workflow.name}.sample", family=workflow.name, apps=workflow.apps, params=params,
                 description=workflow.description, difficulty="medium")


def _run(workflow: Workflow, skill: Skill, register: str) -> tuple[dict[str, Any], list[Any]]:
    ctx = NodeContext(dict(skill.params), SAMPLE_SEED, skill.id, 0, OfflineBackend(), register=register)
    return workflow.run(ctx), ctx.calls


# --- how an instruction must state each checked argument ----------------------------------------------------

def _phrases(patterns: Sequence[str], limit: int = 4) -> str:
    """Lexicon patterns as a reader writes them: `\\baverages?\\b` -> `averages?`, `(?:` -> `(`."""
    words = [p.replace("\\b", "").replace("(?:", "(") for p in patterns[:limit]]
    return " | ".join(words) + (" | ..." if len(patterns) > limit else "")


def argument_grounding(primitive: Any, name: str, value: Any) -> str:
    """How the gate's grounding stage holds an instruction to the checked argument `name` of `primitive` (a
    `verifiers.checks.Primitive`), read from the meaning the check declares (`verifiers.meaning`)."""
    from verifiers.lexicon import DOMAINS
    from verifiers.meaning import ByProperty, Derived, Prose, ReadBack, Said, Stated, Visible

    way = primitive.meaning.args.get(name)
    if isinstance(way, Said):
        want = way.value(value)
        if want is None:
            return f"in words ({way.domain}): this value asks nothing"
        phrases = DOMAINS[way.domain].phrases.get(want, ())
        return f"in words ({way.domain} {want!r}): {_phrases(phrases)}; no other {way.domain} said"
    if isinstance(way, ReadBack):
        return f"read back next to its cue: {way.how}"
    if isinstance(way, Visible):
        return "stated, or visible in the initial state"
    if isinstance(way, Prose):
        return f"asked in prose ({way.rule.__name__})"
    if isinstance(way, ByProperty):
        return f"stated, or the column named by its kind or place with the letter of {way.letter!r}"
    if isinstance(way, Derived):
        return f"stated; its own text says a {way.domain} and the instruction must say the same"
    if isinstance(way, Stated):
        return "stated literally, in every register (the natural one too)"
    return "stated literally"


def check_grounding(check: Mapping[str, Any]) -> dict[str, Any]:
    """One rubric check with how an instruction must state it (the meaning its primitive declares): each grounded
    argument, the answers it must not leak (`secret`), and the words that must name its action."""
    from verifiers import checks

    primitive = checks.get(check["primitive"])
    args, meaning = check["args"], primitive.meaning
    stated = [{"arg": n, "value": args[n], "how": argument_grounding(primitive, n, args[n])}
              for n in primitive.grounded if n in args]
    return {"id": check["id"], "primitive": primitive.name, "criterion": check["criterion"], "grounded": stated,
            "consistent": meaning.implied, "secret": [n for n in primitive.secret if n in args],
            "action": meaning.action, "no_action_because": meaning.why if meaning.action is None else ""}


# --- mutants ----------------------------------------------------------------------------------------------

def _mutants(task: dict[str, Any], files: Mapping[str, bytes]) -> dict[str, Any]:
    """The mutants every mutator offers on the sample task (setup.sh in the sandbox, then the oracle), grouped by
    kind: {"kinds": [{"mutator", "kind", "count"}]} or {"not_listed": why}."""
    from forge.solve import LocalEnv
    from kit.package import load_package
    from kit.sandbox import Sandbox
    from verifiers.mutants import MutationContext, registry

    work = Path(tempfile.mkdtemp(prefix="forge-family-"))
    try:
        root = work / "package"
        for rel, data in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        package = load_package(root)
        env = LocalEnv(Sandbox())
        initial, oracle = work / "initial", work / "oracle"
        initial.mkdir()
        ran = env.run_setup(package, initial)
        if not ran.ok:
            return {"not_listed": f"setup.sh failed: {ran.evidence()}"}
        shutil.copytree(initial, oracle, symlinks=True)
        applied = env.apply_solution(package, task["solutions"]["oracle"], oracle)
        if not applied.ok:
            return {"not_listed": f"the oracle could not be applied: {applied.evidence()}"}
        offered: Counter[tuple[str, str]] = Counter()
        memo: dict[str, Any] = {}
        for module, mutator in registry().items():
            ctx = MutationContext(task, initial, oracle, random.Random(f"family-show:{module}"), memo)
            for mutant in mutator(ctx):
                offered[(mutant.name.split(":", 1)[0], mutant.kind)] += 1
        return {"kinds": [{"mutator": m, "kind": k, "count": n} for (m, k), n in sorted(offered.items())]}
    except ForgeError as exc:  # no bubblewrap: everything else of the family can still be shown
        return {"not_listed": str(exc)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- the whole family ---------------------------------------------------------------------------------------

def describe(name: str, *, mutants: bool = True) -> dict[str, Any]:
    """Family `name` whole: contract, DAG, and one sample task's checks, near-misses, mutants and instructions.

    `mutants=False` skips the one step that runs the sample's setup.sh in the sandbox."""
    from kit.package import build_package
    from workflows.common import natural_phrasings

    workflow = get(name)
    module = _module_of(workflow)
    skills = _skills_by_family().get(name, [])
    skill = sample_skill(workflow)
    outputs, calls = _run(workflow, skill, "explicit")
    files = build_package(TaskId(skill.id, SAMPLE_SEED, 0), skill, workflow, outputs, calls).files
    task = json.loads(files["task.json"])
    natural = natural_phrasings(name)
    solutions = outputs["solutions"]
    return {
        "name": name,
        "module": module.__name__,
        "apps": list(workflow.apps),
        "version": workflow.version,
        "signature": workflow.signature,
        "description": _one_line(workflow.description),
        "skills": [s.id for s in skills],
        "knobs": {knob: _values(values) for knob, values in workflow.knobs.items()},
        "axes": {axis: _values(levels) for axis, levels in workflow.axes.items()},
        "nodes": [{"name": n.name, "kind": n.kind, "inputs": list(n.inputs), "outputs": list(n.outputs)}
                  for n in workflow.order],
        "sample": {"skill": skill.id, "params": dict(skill.params), "seed": SAMPLE_SEED},
        "checks": [check_grounding(c) for c in task["rubric"]],
        "oracle": solutions[0].description,
        "near_misses": [{"name": s.name, "description": s.description} for s in solutions[1:]],
        "mutants": _mutants(task, files) if mutants else {"not_listed": "skipped (--no-mutants)"},
        "phrasings": {"explicit": list(getattr(module, "PHRASINGS", ())), "natural": list(natural)},
        "instructions": {"explicit": outputs["instruction"],
                         "natural": _run(workflow, skill, "natural")[0]["instruction"] if natural else None},
    }


def _in_scope(scope: str, workflow: Workflow, text: str, skills: Sequence[str]) -> bool:
    kind, _, value = scope.partition(":")
    if kind == "prefix":
        return workflow.name.startswith(tuple(value.split()))
    if kind == "app":
        return value in workflow.apps
    if kind == "listed":
        return any(f'"{name}"' in text for name in (workflow.name, *skills))
    return True


def suites(name: str, root: Path) -> list[Path]:
    """The test files `forge family test NAME` runs, under `root`: the `SUITES` with cases for this family and the
    family's own file."""
    workflow = get(name)
    skills = [s.id for s in _skills_by_family().get(name, [])]
    chosen = []
    for path, _, scope in SUITES:
        file = root / path
        if not file.is_file():
            raise ForgeError(f"{file}: not found; `forge family test` runs the test suites of a source checkout "
                             "(git clone, then pip install -e '.[dev]')")
        if _in_scope(scope, workflow, file.read_text(encoding="utf-8") if scope == "listed" else "", skills):
            chosen.append(file)
    own = root / "tests" / "workflows" / f"test_{name.replace('.', '_')}.py"
    return [*chosen, own] if own.is_file() else chosen


def pytest_command(name: str, root: Path) -> list[str]:
    """The pytest command line that runs every suite about family `name` (tests/conftest.py's `--family`)."""
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--family", name,
            *(str(p.relative_to(root)) for p in suites(name, root))]
