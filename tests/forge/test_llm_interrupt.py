"""Ctrl-C during `forge generate` with a model: the process stops within seconds, the run is marked
`interrupted`, nothing paid for is lost, and rerunning the same command finishes the plan without asking the
server again for answers it already gave. A real `forge` process, a real SIGINT, a loopback server."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from forge.generate import Selection, plan_for
from kit.taxonomy import load_taxonomy
from tests.llmserver import LLMServer, answering, recorded_answers
from tests.sigint import ctrl_c

SKILL = "calc.sort.numeric_desc"
ROOT = Path(__file__).resolve().parents[2]


def command(server: LLMServer, tmp_path: Path) -> list[str]:
    return [sys.executable, "-m", "forge", "generate", "--skill", SKILL, "-n", "6", "--seed", "4",
            "--real-apps", "off", "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db"),
            "--llm", "openai", "--model", "m", "--base-url", server.base_url, "--concurrency", "2",
            "--structured", "json_schema"]


def recorded(db: Path) -> int:
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM tasks").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_ctrl_c_stops_within_seconds_marks_the_run_and_a_rerun_resumes_from_the_cache(tmp_path):
    taxonomy = load_taxonomy()
    answers = recorded_answers(taxonomy, plan_for(taxonomy, Selection(skills=(SKILL,)), 6, 4))
    db = tmp_path / "c.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with LLMServer(answering(answers, delay=1.5)) as server:
        proc = subprocess.Popen(command(server, tmp_path), cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        # 0.5 s after the first task is recorded, a request of the next tasks is in flight (each takes 1.5 s)
        err, stopped = ctrl_c(proc, lambda: recorded(db) >= 1, settle=0.5)
        answered = server.served.requests
    assert proc.returncode == 130, err
    print(f"SIGINT -> exit in {stopped:.2f} s")
    assert stopped < 10, f"took {stopped:.1f} s to stop"
    assert "Traceback" not in err and "Interrupted: run 1 is marked 'interrupted'" in " ".join(err.split())
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT status FROM runs").fetchall() == [("interrupted",)]
    done = recorded(db)
    assert 1 <= done < 6
    cached = connection.execute("SELECT count(*) FROM llm_cache").fetchone()[0]
    assert cached >= 2 * done  # every answer received is kept, also those of tasks not recorded yet

    with LLMServer(answering(answers)) as server:
        rerun = subprocess.run(command(server, tmp_path), cwd=ROOT, env=env, capture_output=True, text=True,
                               timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert recorded(db) == 6
    assert sqlite3.connect(db).execute("SELECT id, status FROM runs ORDER BY id").fetchall() == [
        (1, "interrupted"), (2, "finished")]
    assert server.served.requests == 12 - cached  # only answers never received are asked for
    assert answered + server.served.requests >= 12
