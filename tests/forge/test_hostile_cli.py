"""Untrusted text is data: Rich markup and terminal control characters from a package, a script's output, an
agent's state, an instruction, gate evidence or a SQL result are printed literally (markup) or dropped (controls),
never interpreted, and never crash `verify`, `check`, `solve`, `show`, `sql` or `stats`."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.cli import app
from kit.textsafe import cell, plain, textline

runner = CliRunner()
TASK = "calc.sort.numeric_desc--s1--00000"
#: Closing a tag never opened (Rich raises MarkupError), a style, a link, a clear-screen, a window title, a bell,
#: a carriage return that hides what came before, and a bidi override.
HOSTILE = "[/x] [bold red]loud[/] [link=http://evil.example]click[/link] \x1b[2J\x1b]0;pwned\x07 ok\rhidden \u202eevil"
CONTROLS = ("\x1b", "\x07", "\r", "\u202e")


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def assert_literal(output: str) -> None:
    assert "[/x]" in output and "[bold red]loud[/]" in output and "[link=http://evil.example]" in output
    for control in CONTROLS:
        assert control not in output, f"{control!r} reached the terminal"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("hostile-cli")
    db = f"sqlite:///{root / 'forge.db'}"
    result = invoke("generate", "--skill", "calc.sort.numeric_desc", "-n", "1", "--seed", "1", "--real-apps", "off",
                    "--register", "explicit", "--out", str(root / "out"), "--db", db)
    assert result.exit_code == 0, result.output
    return root / "out" / "libreoffice_calc" / TASK, db


def test_plain_drops_controls_and_keeps_text():
    assert plain("a\tb\nc\x1b[31md\x00e\x7f\x9bf\r\ng\rh\u202ei") == "a\tb\nc[31mde f\ng\nhi".replace(" ", "")
    assert plain(None) == "None" and plain(3) == "3"
    assert cell("[/x]").plain == "[/x]" and cell(None).plain == ""
    assert textline(("[/x]", "red"), " \x1b[2J").plain == "[/x] [2J"


def test_verify_prints_hostile_evidence_literally_and_still_reports_the_valid_package(generated, tmp_path):
    package, _ = generated
    batch = tmp_path / "batch"
    shutil.copytree(package, batch / "valid")
    bad = batch / "bad [/x] [bold]"
    shutil.copytree(package, bad)
    (bad / "setup.sh").write_text(f"printf '%s\\n' {json.dumps(HOSTILE)} >&2\nexit 1\n")
    result = invoke("verify", str(batch))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("accepted") and "valid" in line for line in lines), result.output
    assert any(line.startswith("setup_fail") and str(bad) in line for line in lines), result.output
    assert_literal(result.output)
    assert "total: 2 packages" in result.output


def test_check_and_solve_print_hostile_criteria_and_paths_literally(generated, tmp_path):
    package, _ = generated
    copy = tmp_path / "pkg"
    shutil.copytree(package, copy)
    task = json.loads((copy / "task.json").read_text())
    task["rubric"][0]["criterion"] = HOSTILE
    (copy / "task.json").write_text(json.dumps(task))
    state = tmp_path / "state [/x] \x1b[2J"
    solved = invoke("solve", str(copy), "--state", str(state))
    assert solved.exit_code == 0, solved.output
    assert "state [/x]" in solved.output and "\x1b" not in solved.output
    checked = invoke("check", str(copy), "--state", str(state))
    assert checked.exit_code in (0, 1), checked.output
    assert checked.exception is None or isinstance(checked.exception, SystemExit), checked.exception
    assert_literal(checked.output)


def test_show_survives_a_package_changed_after_it_was_cataloged(generated, tmp_path):
    package, db = generated
    copy = tmp_path / "pkg"
    shutil.copytree(package, copy)
    task = json.loads((copy / "task.json").read_text())
    task["rubric"] = [{"criterion": HOSTILE}, "not a check", 3]
    (copy / "task.json").write_text(json.dumps(task))
    url = f"sqlite:///{tmp_path / 'forge.db'}"
    source = sqlite3.connect(db.removeprefix("sqlite:///"))
    with sqlite3.connect(tmp_path / "forge.db") as conn:
        source.backup(conn)
        conn.execute("UPDATE tasks SET path = ?", (str(copy),))
    source.close()
    shown = invoke("show", TASK, "--db", url)
    assert shown.exit_code == 0, shown.output
    assert_literal(shown.output)


def test_show_sql_and_stats_print_catalog_text_literally(generated, tmp_path):
    _, db = generated
    copy = tmp_path / "forge.db"
    source = sqlite3.connect(db.removeprefix("sqlite:///"))
    with sqlite3.connect(copy) as conn:
        source.backup(conn)  # the catalog is in WAL mode: copy it through SQLite, not as a file
    source.close()
    url = f"sqlite:///{copy}"
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE tasks SET instruction = ?", (HOSTILE,))
        conn.execute("UPDATE verifications SET evidence = ?", (HOSTILE,))
    shown = invoke("show", TASK, "--db", url)
    assert shown.exit_code == 0, shown.output
    assert_literal(shown.output)
    table = invoke("sql", "--db", url, "SELECT instruction AS \"[/y] [bold]\" FROM tasks")
    assert table.exit_code == 0, table.output
    assert "[/x]" in table.output and "[/y] [bold]" in table.output and "\x1b" not in table.output

    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"task_id": TASK, "success": False, "failure_reason": HOSTILE}) + "\n")
    assert invoke("feedback", "ingest", str(results), "--db", url).exit_code == 0
    stats = invoke("stats", "--db", url)
    assert stats.exit_code == 0, stats.output
    assert "[/x]" in stats.output and not any(c in stats.output for c in CONTROLS)
