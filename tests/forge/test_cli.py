"""The CLI end to end: generate -> verify -> solve/check agree with the gate; sql is read-only."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app

runner = CliRunner()
SKILLS = ["--skill", "calc.sort.numeric_desc", "--skill", "calc.sort.text_asc", "--register", "explicit"]


def invoke(*args: str):
    return runner.invoke(app, list(args))


def tree_hashes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("cli")
    db = f"sqlite:///{root / 'forge.db'}"
    result = invoke("generate", *SKILLS, "-n", "4", "--seed", "1", "--out", str(root / "out"), "--db", db)
    assert result.exit_code == 0, result.output
    assert "accepted" in result.output
    return root / "out", db


def test_generate_writes_packages_and_catalog(generated):
    out, db = generated
    folders = sorted((out / "libreoffice_calc").iterdir())
    assert [f.name for f in folders] == ["calc.sort.numeric_desc--s1--00000", "calc.sort.numeric_desc--s1--00001",
                                         "calc.sort.text_asc--s1--00000", "calc.sort.text_asc--s1--00001"]
    rows = sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT status, count(*) FROM tasks GROUP BY status").fetchall()
    assert rows == [("accepted", 4)]


def test_same_seed_same_bytes_other_seed_other_tasks(generated, tmp_path):
    out, _ = generated
    again = tmp_path / "again"
    assert invoke("generate", *SKILLS, "-n", "4", "--seed", "1", "--out", str(again),
                  "--db", f"sqlite:///{tmp_path / 'x.db'}").exit_code == 0
    assert tree_hashes(again) == tree_hashes(out)
    other = tmp_path / "other"
    assert invoke("generate", *SKILLS, "-n", "4", "--seed", "2", "--out", str(other),
                  "--db", f"sqlite:///{tmp_path / 'y.db'}").exit_code == 0
    assert set(tree_hashes(other).values()).isdisjoint(tree_hashes(out).values())


def test_verify_accepts_generated_and_exits_1_on_a_broken_one(generated, tmp_path):
    out, _ = generated
    result = invoke("verify", str(out / "libreoffice_calc"), "--json")
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["accepted"] * 4
    assert "total: 4 packages: 4 accepted" in result.stderr  # stdout stays one JSON object per package
    broken = tmp_path / "broken"
    import shutil

    shutil.copytree(out / "libreoffice_calc" / "calc.sort.text_asc--s1--00000", broken)
    (broken / "setup.sh").write_text("exit 1\n")
    result = invoke("verify", str(broken), str(out / "libreoffice_calc" / "calc.sort.text_asc--s1--00001"))
    assert result.exit_code == 1
    assert "setup_fail" in result.output
    assert result.output.splitlines()[-1] == "total: 2 packages: 1 accepted, 1 setup_fail"


@pytest.mark.parametrize("solution,exit_code", [("none", 1), ("oracle", 0), ("near-miss", 1), ("near-miss-2", 1)])
def test_solve_then_check_agrees_with_the_gate(generated, tmp_path, solution, exit_code):
    out, _ = generated
    package = out / "libreoffice_calc" / "calc.sort.numeric_desc--s1--00001"
    state = tmp_path / "state"
    result = invoke("solve", str(package), "--state", str(state), "--solution", solution)
    assert result.exit_code == 0, result.output
    result = invoke("check", str(package), "--state", str(state), "--json")
    assert result.exit_code == exit_code, result.output
    assert json.loads(result.output)["passed"] is (exit_code == 0)


def test_solve_refuses_unknown_solution_with_one_line(generated, tmp_path):
    out, _ = generated
    package = out / "libreoffice_calc" / "calc.sort.numeric_desc--s1--00001"
    result = invoke("solve", str(package), "--state", str(tmp_path / "s"), "--solution", "nearmiss")
    assert result.exit_code == 1
    assert "--solution 'nearmiss': choose one of" in result.output


@pytest.mark.parametrize("statement", [
    "DELETE FROM tasks",
    "delete from tasks",
    "  UPDATE tasks SET status = 'x'",
    "DROP TABLE tasks",
    "WITH x AS (SELECT 1) DELETE FROM tasks",
    "SELECT 1; DELETE FROM tasks",
    "PRAGMA query_only = OFF",
    "INSERT INTO runs (seed) VALUES (1)",
])
def test_sql_refuses_writes_and_changes_nothing(generated, statement):
    _, db = generated
    before = invoke("sql", "--db", db, "SELECT count(*) AS n FROM tasks", "--format", "json").output
    result = invoke("sql", "--db", db, statement)
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert invoke("sql", "--db", db, "SELECT count(*) AS n FROM tasks", "--format", "json").output == before
    assert json.loads(before) == [{"n": 4}]


def test_sql_formats(generated):
    _, db = generated
    result = invoke("sql", "--db", db, "SELECT skill_id, count(*) AS n FROM tasks GROUP BY skill_id", "--format", "csv")
    assert result.output.splitlines() == ["skill_id,n", "calc.sort.numeric_desc,2", "calc.sort.text_asc,2"]


def test_show_prints_instruction_rubric_and_evidence(generated):
    _, db = generated
    result = invoke("show", "calc.sort.text_asc--s1--00000", "--db", db)
    assert result.exit_code == 0, result.output
    assert "status=accepted" in result.output and "xlsx.range_sorted" in result.output and "oracle" in result.output
    # the mutation control's per-mutant table, read back from the catalog's evidence
    assert "mutation" in result.output and "mutant" in result.output and "expected" in result.output
    assert "reject" in result.output and "rejected" in result.output and '"reject"' not in result.output
    assert invoke("show", "nope", "--db", db).exit_code == 1


def test_skills_list_json_and_unknown_app():
    result = invoke("skills", "list", "--json")
    skills = json.loads(result.output)
    assert {"id", "family", "app", "params", "difficulty"} <= set(skills[0])
    result = invoke("skills", "list", "--app", "nope")
    assert result.exit_code == 1 and "Error: no skills for app 'nope'" in result.output


def test_unknown_skill_gets_a_suggestion(tmp_path):
    result = invoke("generate", "--skill", "calc.sort.numeric_dsc", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "Did you mean 'calc.sort.numeric_desc'" in result.output


def test_every_command_is_documented():
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.help, f"command {name} has no help"
        assert invoke(name, "--help").exit_code == 0


def test_commands_are_module_level_functions_of_the_cli_package():
    """Every command, in groups too, is a documented top-level function of a forge/cli/ module (no closures inside a
    register function), so it can be read, imported and tested on its own."""
    import typer.main

    def walk(command, path):
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, [*path, name])
        if not hasattr(command, "commands"):
            yield " ".join(path), command.callback

    commands = dict(walk(typer.main.get_command(app), []))
    assert len(commands) >= 25  # forge generate ... forge student run
    for name, callback in commands.items():
        assert callback.__module__.startswith("forge.cli."), name
        assert callback.__qualname__ == callback.__name__, f"forge {name} is defined inside a function"
        assert callback.__doc__, f"forge {name} has no docstring (its --help)"


@pytest.mark.parametrize("args,message", [
    (["generate", "-n", "1", "--out", "{file}/out", "--db", "{tmp}/new.db"],
     "Error: --out {file}/out: cannot create this folder (Not a directory); choose another"),
    (["demo", "-n", "1", "--out", "{file}"], "Error: --out {file}: cannot create this folder (File exists)"),
    (["generate", "-n", "1", "--out", "{tmp}/o", "--db", "{tmp}/new.db", "--llm", "openai", "--model", "m",
      "--base-url", "localhost:8000"],
     "Error: --base-url 'localhost:8000': not an http(s) URL"),
    (["report", "--out", "{file}/report.html", "--db", "{db}"], "Error: {file}: a file is where a folder is needed; "),
    (["export", "jsonl", "{file}/x.jsonl", "--db", "{db}"], "Error: {file}: a file is where a folder is needed; "),
])
def test_bad_paths_and_urls_are_one_line_errors(generated, tmp_path, args, message):
    _, db = generated
    file = tmp_path / "a-file"
    file.write_text("x")
    fill = {"file": str(file), "tmp": str(tmp_path), "db": db}
    result = invoke(*(a.format(**fill) for a in args))
    assert result.exit_code == 1, result.output
    assert result.output.startswith(message.format(**fill)), result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert not (tmp_path / "new.db").exists()  # refused before anything was made
