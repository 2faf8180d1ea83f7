"""Issue 39 item 5: any simulated student plugs in from a file (`--student PATH.py:Class`).

A small real round (real gate, SQLite catalog); students written as plain files answer it through
`forge student simulate`; what they see is a read-only view with the task's instruction and its initial files,
and nothing of the rubric or the solution; a bad PATH or Class is one line naming the file and what to do.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog
from forge.cli import app
from forge.expand import catalog_taxonomy
from forge.features import TaskView
from forge.generate import Generator
from forge.rounds import finish_round, prepare_round
from forge.student import StudentError, load_student, outcomes, round_views
from kit.ids import TaskId
from kit.sandbox import Sandbox

runner = CliRunner()
STUDENTS = Path(__file__).parent / "students"


@pytest.fixture(scope="module")
def small_round(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("pluggable")
    db = f"sqlite:///{root / 'forge.db'}"
    sandbox = Sandbox()
    plan = prepare_round(db, 1, 8, 5, str(root / "round1"), k=1, limit=2, sandbox=sandbox)
    catalog = Catalog(db)
    Generator(root / "round1", catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog)).run(
        [TaskId.parse(t) for t in plan])
    finish_round(db, 1, str(root / "round1"), None)
    catalog.engine.dispose()
    return root, db


def results(out: Path) -> dict[str, str]:
    return {p.parent.name: p.read_text().strip() for p in out.rglob("result.txt")}


def test_simulate_loads_a_student_from_a_file(small_round):
    root, db = small_round
    tasks = [v.id for v in round_views(Catalog(db), 1)]
    assert len(tasks) >= 6
    out = root / "results-all-pass"
    done = runner.invoke(app, ["student", "simulate", "--round", "1", "--out", str(out), "--db", db,
                               "--student", f"{STUDENTS / 'all_pass.py'}:Student"])
    assert done.exit_code == 0, done.output
    assert results(out) == dict.fromkeys(tasks, "1.0")

    out = root / "results-coin"
    done = runner.invoke(app, ["student", "simulate", "--round", "1", "--out", str(out), "--db", db,
                               "--student", f"{STUDENTS / 'coin.py'}:Student"])
    assert done.exit_code == 0, done.output
    coin = load_student(f"{STUDENTS / 'coin.py'}:Student")
    expected = {v.id: "1.0" if coin.attempt(v) else "0.0" for v in round_views(Catalog(db), 1)}
    assert results(out) == expected and set(expected.values()) == {"0.0", "1.0"}


def test_a_student_sees_a_read_only_view_with_files_and_no_rubric(small_round, tmp_path):
    _, db = small_round
    spy = tmp_path / "spy.py"
    spy.write_text(textwrap.dedent("""
        class Spy:
            seen = []

            def attempt(self, task):
                Spy.seen.append(task)
                return (task.app != "thunderbird", ["a_check"])
    """))
    student = load_student(f"{spy}:Spy")
    got = outcomes(Catalog(db), 1, student=student, seed=1)
    seen: list[TaskView] = type(student).seen  # type: ignore[attr-defined]
    assert [v.id for v in seen] == [o.task_id for o in got]
    for view, outcome in zip(seen, got, strict=True):
        assert view.instruction and view.family and view.skill and view.register in ("explicit", "natural")
        assert isinstance(view.axes, type(view.knobs)) and view.initial_files
        for rel, path in view.initial_files.items():
            assert not rel.startswith("/") and Path(path).is_file()
            Path(path).read_bytes()  # readable (an empty mail folder is a real initial file)
            assert "/assets/" in path, "only the initial state's files, never the solution's"
        with pytest.raises(TypeError):
            view.axes["rows"] = "120-200"  # type: ignore[index]
        with pytest.raises(AttributeError):
            view.instruction = "do nothing"  # type: ignore[misc]
        assert not hasattr(view, "rubric") and not hasattr(view, "solution")
        assert outcome.failed_checks == ("a_check",) and (outcome.kind == "success") == (view.app != "thunderbird")
    assert sum(bool(Path(path).read_bytes()) for v in seen for path in v.initial_files.values()) > len(seen) // 2


@pytest.mark.parametrize(("spec", "says"), [
    ("nowhere.py:Student", "is not a Python file"),
    ("{students}/all_pass.py", "expected PATH.py:Class"),
    ("{students}/all_pass.py:Nobody", "defines no 'Nobody'; classes with attempt() there: ['Student']"),
    ("{bad}/noattempt.py:Student", "has no attempt(task) method"),
    ("{bad}/needsarg.py:Student", "must be instantiable with no argument"),
    ("{bad}/broken.py:Student", "raised ZeroDivisionError while loading"),
    ("plantd", "Did you mean 'planted'"),
])
def test_a_bad_student_is_one_line_naming_the_file_and_what_to_do(small_round, tmp_path, spec, says):
    _, db = small_round
    (tmp_path / "noattempt.py").write_text("class Student:\n    pass\n")
    (tmp_path / "needsarg.py").write_text("class Student:\n    def __init__(self, x):\n        pass\n"
                                          "    def attempt(self, task):\n        return True\n")
    (tmp_path / "broken.py").write_text("1 / 0\n")
    spec = spec.format(students=STUDENTS, bad=tmp_path)
    done = runner.invoke(app, ["student", "simulate", "--round", "1", "--out", str(tmp_path / "out"), "--db", db,
                               "--student", spec])
    assert done.exit_code == 1, done.output
    assert says in done.output.replace("\n", " "), done.output
    assert len(done.output.strip().splitlines()) <= 3, "one message, not a traceback"
    assert not (tmp_path / "out").exists()


def test_an_answer_out_of_contract_is_refused(small_round, tmp_path):
    _, db = small_round
    (tmp_path / "wrong.py").write_text("class Student:\n    def attempt(self, task):\n        return 'yes'\n")
    with pytest.raises(StudentError, match=r"returned 'yes'; it must return a bool or \(bool, \[failed check ids\]\)"):
        outcomes(Catalog(db), 1, student=load_student(f"{tmp_path / 'wrong.py'}:Student"))


def test_every_test_student_loads_and_answers(small_round):
    _, db = small_round
    views = round_views(Catalog(db), 1)
    for path in sorted(STUDENTS.glob("*.py")):
        student = load_student(f"{path}:Student")
        answers = [student.attempt(v) for v in views]
        assert all(isinstance(a, bool) or isinstance(a, tuple) and isinstance(a[0], bool) for a in answers), path
        assert all(isinstance(student.weak(v), bool) for v in views), path  # type: ignore[attr-defined]
    assert len(list(STUDENTS.glob("*.py"))) >= 8
