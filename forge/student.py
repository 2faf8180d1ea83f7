"""A SIMULATED student: writes OSWorld-layout results for a round's accepted tasks, without running any agent.

This is a stand-in so feedback rounds run offline end to end; its numbers say nothing about a real model. It has
hidden, planted weaknesses, each a rule over what a task's skill says — its family, knob values and difficulty-axis
levels (`Weakness.rule`), never the task's files or the rubric — and an outcome drawn from the task's own
`random.Random` (seed, model, task id). A task no weakness touches succeeds with `base` (0.95 by default); one a
weakness touches succeeds with that weakness's `chance`, which grows with practice: after `learn` earlier attempts
at tasks of the same family the same weakness touches (earlier rounds, this model, read from the catalog) half the
gap to `base` is closed, after 2 x `learn` three quarters, and so on. Practice is per family: sorting 40-row
tables teaches sorting them, not charting them, so a weakness fades family by family as the rounds practise it.
About 3 % of runs crash (traj.jsonl ends with an `{"Error": ...}` line, no result.txt); a failed run scores 0, or
a fraction (0.25, 0.5, 0.75) a third of the time.

`PLANTED` is the student the benchmark uses (tables over 40 rows, date columns, the deepest folders, two look-alike
files beside the target, Thunderbird filters, Calc tables and totals carried into Writer: 20.9 % of the first round's
tasks of `benchmarks/rounds.py --full`, seed 1);
`ALL_PASS` fails nothing. Any other simulated student plugs in from a file (`load_student("PATH.py:Class")`, issue
39): an object whose `attempt(view)` answers a `forge.features.TaskView` (what an agent would see, no rubric, no
solution) with a bool or `(bool, [failed check ids])`; its outcomes have no crashes and no fractional scores, only
what it answers. Layout: `<out>/pyautogui/screenshot/<model>/<domain>/<task_id>/{result.txt,
traj.jsonl}`.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from forge.catalog import Catalog
from forge.expand import catalog_taxonomy
from forge.features import TaskView, task_view
from kit.axes import axis_params
from kit.errors import ForgeError
from kit.ids import derive_seed, path_inside, safe_id
from kit.taxonomy import Skill

MODEL = "simulated-student"
CRASH = 0.03
FRACTIONAL = 1 / 3

Rule = Callable[[str, Mapping[str, Any]], bool]


@dataclass(frozen=True)
class Weakness:
    """A planted weakness: tasks whose (family, params with axis defaults filled) match `rule` succeed with
    `chance` at first, closing half the gap to the student's base rate per `learn` practice attempts in that
    family."""

    name: str
    rule: Rule
    chance: float = 0.1
    learn: int = 4


@dataclass(frozen=True)
class SimulatedStudent:
    name: str
    weaknesses: tuple[Weakness, ...] = ()
    base: float = 0.95

    def hits(self, family: str, params: Mapping[str, Any]) -> list[Weakness]:
        """The weaknesses a skill (family, params with axis defaults filled) touches."""
        return [w for w in self.weaknesses if w.rule(family, params)]

    def chance(self, family: str, params: Mapping[str, Any], practice: Mapping[tuple[str, str], int]) -> float:
        """Success chance for a skill, given practice attempts per (weakness name, family)."""
        chance = self.base
        for weakness in self.hits(family, params):
            learnt = 1 - 0.5 ** (practice.get((weakness.name, family), 0) / max(weakness.learn, 1))
            chance = min(chance, weakness.chance + (self.base - weakness.chance) * learnt)
        return chance


class StudentError(ForgeError, ValueError):
    """A `--student PATH.py:Class` that cannot be loaded or answers out of contract."""


@runtime_checkable
class Student(Protocol):
    """A pluggable simulated student: `attempt(view)` -> passed, or (passed, failed check ids). It may also define
    `weak(view) -> bool` (the tasks its rule aims at, for the benchmark's metrics); the loop never calls it."""

    def attempt(self, task: TaskView) -> bool | tuple[bool, list[str]]: ...


def load_student(spec: str) -> Student:
    """The student `PATH.py:Class` names: the file is loaded as a module and `Class()` instantiated with no
    argument. Every failure is one `StudentError` line naming the file and what to do."""
    path_text, sep, name = spec.rpartition(":")
    if not sep or not path_text or not name:
        raise StudentError(f"--student {spec!r}: expected PATH.py:Class (a Python file and the name of a class in "
                           "it whose instances have attempt(task)), or a built-in student name")
    path = Path(path_text)
    if path.suffix != ".py" or not path.is_file():
        raise StudentError(f"--student {spec!r}: {path} is not a Python file; give the path of a .py file that "
                           "defines the class")
    module_name = f"forge_student_{safe_id(path.stem.replace('-', '_'), what='file name')}_{abs(hash(str(path)))}"
    loader = importlib.util.spec_from_file_location(module_name, path)
    if loader is None or loader.loader is None:
        raise StudentError(f"--student {spec!r}: {path} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(loader)
    sys.modules[module_name] = module  # dataclasses and pickling look a class's module up here
    try:
        loader.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise StudentError(f"--student {spec!r}: {path} raised {type(exc).__name__} while loading: {exc}; fix the "
                           "file") from None
    cls = getattr(module, name, None)
    if cls is None:
        found = sorted(k for k, v in vars(module).items() if isinstance(v, type) and hasattr(v, "attempt"))
        raise StudentError(f"--student {spec!r}: {path} defines no {name!r}; classes with attempt() there: "
                           f"{found or 'none'}")
    try:
        student = cls()
    except Exception as exc:
        raise StudentError(f"--student {spec!r}: {name}() raised {type(exc).__name__}: {exc}; the class must be "
                           "instantiable with no argument") from None
    if not callable(getattr(student, "attempt", None)):
        raise StudentError(f"--student {spec!r}: {name} has no attempt(task) method; define one returning a bool "
                           "or (bool, [failed check ids])")
    return student


def resolve_student(name_or_spec: str) -> SimulatedStudent | Student:
    """A built-in student by name (`STUDENTS`), else `load_student(PATH.py:Class)`."""
    if name_or_spec in STUDENTS:
        return STUDENTS[name_or_spec]
    if ":" not in name_or_spec and not name_or_spec.endswith(".py"):
        from kit.errors import UnknownNameError, did_you_mean

        hint = did_you_mean(name_or_spec, sorted(STUDENTS))
        raise UnknownNameError(f"--student {name_or_spec!r}: unknown simulated student.{hint} Choose one of "
                               f"{sorted(STUDENTS)}, or plug one in as PATH.py:Class.")
    return load_student(name_or_spec)


def answer(student: Student, view: TaskView) -> tuple[bool, list[str]]:
    """A pluggable student's answer, checked against the contract."""
    got = student.attempt(view)
    if isinstance(got, bool):
        return got, []
    if (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], bool)
            and isinstance(got[1], list | tuple) and all(isinstance(c, str) for c in got[1])):
        return got[0], list(got[1])
    raise StudentError(f"{type(student).__name__}.attempt({view.id!r}) returned {got!r}; it must return a bool or "
                       "(bool, [failed check ids])")


def round_views(catalog: Catalog, round_n: int, taxonomy: Mapping[str, Skill] | None = None) -> list[TaskView]:
    """The view of every accepted task of round `round_n` whose skill the code knows, in task id order."""
    taxonomy = catalog_taxonomy(catalog) if taxonomy is None else taxonomy
    rows = catalog.accepted_skills_in_round(round_n)
    paths = catalog.task_paths([t for t, _, _ in rows])
    out = []
    for task_id, skill_id, app in rows:
        skill = taxonomy.get(skill_id)
        if skill is not None:
            path = paths.get(task_id)
            out.append(task_view(task_id, skill, package=Path(path) if path else None, app=app))
    return out


def _level(params: Mapping[str, Any], axis: str, default: Any) -> Any:
    return params.get(axis, default)


#: The benchmark's student (see the module docstring).
PLANTED = SimulatedStudent("planted", (
    Weakness("tables over 40 rows", lambda f, p: _level(p, "rows", "8-16") not in ("8-16", "20-28", "32-40")),
    Weakness("date columns", lambda f, p: "date" in {str(v) for v in p.values()}),
    Weakness("deep folders", lambda f, p: _level(p, "location", "near") == "deeper"),
    Weakness("thunderbird filters", lambda f, p: f == "tb.create_filter"),
    Weakness("two look-alike files", lambda f, p: str(_level(p, "lookalikes", "0")) == "2"),
    Weakness("Calc data into Writer", lambda f, p: f in ("multi.sheet_doc_table", "multi.totals_report")),
))
ALL_PASS = SimulatedStudent("all-pass", (), base=1.0)
STUDENTS = {s.name: s for s in (PLANTED, ALL_PASS)}


def skill_params(skill: Skill) -> dict[str, Any]:
    """What the student reads of a skill: its knob values with every axis level filled in."""
    from workflows import families

    family = families().get(skill.family)
    return {**skill.params, **(axis_params(skill.params, family.axes) if family else {})}


def practice(catalog: Catalog, student: SimulatedStudent, before_round: int, model: str,
             taxonomy: Mapping[str, Skill]) -> Counter[tuple[str, str]]:
    """Attempts this model made, in rounds before `before_round`, per (weakness, family) it touches."""
    done = catalog.attempts_per_skill(model, before_round)
    out: Counter[tuple[str, str]] = Counter()
    for skill_id, n in done.items():
        skill = taxonomy.get(skill_id)
        if skill is not None:
            for weakness in student.hits(skill.family, skill_params(skill)):
                out[weakness.name, skill.family] += n
    return out


@dataclass(frozen=True)
class Outcome:
    task_id: str
    app: str
    skill_id: str
    kind: str  # success | fail | fractional | crash
    score: float | None
    steps: int
    failed_checks: tuple[str, ...] = ()


def outcomes(catalog: Catalog, round_n: int, *, student: SimulatedStudent | Student = PLANTED, seed: int = 0,
             model: str = MODEL) -> list[Outcome]:
    """The simulated outcome of every accepted task of round `round_n`, in task id order."""
    taxonomy = catalog_taxonomy(catalog)
    if not isinstance(student, SimulatedStudent):
        out = []
        for view in round_views(catalog, round_n, taxonomy):
            passed, failed = answer(student, view)
            steps = random.Random(derive_seed(seed, model, view.id)).randint(3, 25)
            out.append(Outcome(view.id, view.app, view.skill, "success" if passed else "fail",
                               1.0 if passed else 0.0, steps, tuple(failed)))
        return out
    learnt = practice(catalog, student, round_n, model, taxonomy)
    out = []
    for task_id, skill_id, app in catalog.accepted_skills_in_round(round_n):
        rng = random.Random(derive_seed(seed, model, task_id))
        steps = rng.randint(3, 25)
        if rng.random() < CRASH:
            out.append(Outcome(task_id, app, skill_id, "crash", None, rng.randint(1, steps)))
            continue
        skill = taxonomy.get(skill_id)
        chance = student.chance(skill.family, skill_params(skill), learnt) if skill else 0.5
        if rng.random() < chance:
            out.append(Outcome(task_id, app, skill_id, "success", 1.0, steps))
        elif rng.random() < FRACTIONAL:
            out.append(Outcome(task_id, app, skill_id, "fractional", rng.choice((0.25, 0.5, 0.75)), steps))
        else:
            out.append(Outcome(task_id, app, skill_id, "fail", 0.0, steps))
    return out


def simulate(catalog: Catalog, round_n: int, out: Path, *, seed: int = 0, model: str = MODEL,
             student: SimulatedStudent | Student = PLANTED) -> Counter[str]:
    """Write one OSWorld result folder per accepted task of round `round_n`; returns counts (success, fail,
    fractional, crash)."""
    counts: Counter[str] = Counter()
    for o in outcomes(catalog, round_n, student=student, seed=seed, model=model):
        folder = path_inside(out / "pyautogui" / "screenshot" / model, safe_id(o.app, what="app"), safe_id(o.task_id),
                             what="result folder")
        folder.mkdir(parents=True, exist_ok=True)
        lines: list[dict[str, Any]] = [
            {"step_num": i, "action": "pyautogui.click()", "response": "(simulated)", "reward": 0,
             "done": i == o.steps, "info": {}, "screenshot_file": f"step_{i}.png"} for i in range(1, o.steps + 1)]
        if o.kind == "crash":
            lines.append({"Error": "simulated crash: the VM stopped responding"})
            (folder / "result.txt").unlink(missing_ok=True)
        else:
            (folder / "result.txt").write_text(f"{o.score}\n")
        (folder / "traj.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
        counts[o.kind] += 1
    return counts

