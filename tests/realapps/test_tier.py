"""The real-app tier inside `forge generate`: Thunderbird tasks get a real-open and an alternative stage."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.realapps import Policy
from tests.sigint import ctrl_c

pytestmark = pytest.mark.slow


def test_sampling_is_stable_and_skips_tasks_without_real_apps():
    office = {"id": "calc.x--s1--00000", "setup": {"assets": [{"app": "calc"}]}}
    tree = {"id": "os.x--s1--00000", "setup": {"assets": [{"app": ""}]}}
    assert Policy("all").wants(office) and not Policy("all").wants(tree)
    assert not Policy("off").wants(office)
    picks = [Policy("sample", 0.3).wants({**office, "id": f"calc.x--s1--{i:05d}"}) for i in range(400)]
    assert 0.2 < sum(picks) / 400 < 0.4
    assert picks == [Policy("sample", 0.3).wants({**office, "id": f"calc.x--s1--{i:05d}"}) for i in range(400)]


@pytest.mark.skipif(not shutil.which("thunderbird") or not shutil.which("soffice"),
                    reason="needs Thunderbird and LibreOffice installed (.ci/run installs both)")
def test_thunderbird_task_goes_through_real_thunderbird(tmp_path):
    db = tmp_path / "f.db"
    result = CliRunner().invoke(app, ["generate", "--family", "tb.create_folder", "-n", "1", "--seed", "4",
                                      "--out", str(tmp_path / "out"), "--db", str(db), "--real-apps", "all"])
    assert result.exit_code == 0, result.output
    rows = sqlite3.connect(db).execute(
        "SELECT t.status, v.verifier, v.passed, v.evidence FROM tasks t JOIN verifications v ON v.task_id = t.id "
        "WHERE v.verifier IN ('real-open', 'alternative', 'real-infra') ORDER BY v.id").fetchall()
    assert [r[:3] for r in rows] == [("accepted", "real-open", 1), ("accepted", "alternative", 1)], rows
    assert all(r[3].startswith("Thunderbird: ") for r in rows)


def test_a_machine_side_cause_is_infrastructure_never_a_verdict():
    from forge.realapps.infra import as_infra
    from verifiers.gate.stages import Stage

    forked = as_infra(Stage("alternative", False, "setup.sh: bash: fork: retry: Resource temporarily unavailable"))
    assert (forked.name, forked.passed) == ("real-infra", False)
    assert "Resource temporarily unavailable" in forked.evidence
    full = as_infra(Stage("real-open", False, "report.xlsx: [Errno 28] No space left on device"))
    assert full.name == "real-infra"
    lax = Stage("alternative", False, "rubric fails on the oracle result re-saved by LibreOffice: c1: B2 is 4, want 5")
    assert as_infra(lax) is lax  # a real verdict stays one
    assert as_infra(Stage("alternative", True, "ok")).name == "alternative"


@pytest.mark.skipif(not shutil.which("thunderbird") or not shutil.which("soffice"),
                    reason="needs Thunderbird and LibreOffice installed (.ci/run installs both)")
def test_a_libreoffice_failure_touches_only_the_office_tasks(tmp_path):
    """LibreOffice that cannot finish (here: a real soffice given 10 ms) fails the batch's office tasks as
    infrastructure; the Thunderbird task of the same batch still gets its real-app verdict."""
    from forge.realapps import RealApps, libreoffice
    from forge.solve import LocalEnv
    from forge.workers import gate_runner
    from kit.package import load_package
    from kit.sandbox import Sandbox

    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["generate", "--skill", "calc.sort.numeric_desc", "--skill",
                                      "tb.folder.folder_sub_two_words", "-n", "2", "--out", str(out),
                                      "--db", str(tmp_path / "f.db"), "--real-apps", "off"])
    assert result.exit_code == 0, result.output
    found = {p.parent.name.split(".")[0]: p.parent for p in out.rglob("task.json")}  # accepted or not: either will do
    calc, tb = load_package(found["calc"]), load_package(found["tb"])
    sandbox = Sandbox()
    with gate_runner(sandbox) as (runner, workdir):
        tier = RealApps(Policy("all"), LocalEnv(sandbox), runner, workdir, sandbox)
        (workdir / "office").mkdir()
        tier._office = libreoffice.Office(workdir / "office", sandbox, timeout=0.01)
        calc_stages, tb_stages = tier.check([calc, tb])
    assert [(s.name, s.passed) for s in calc_stages] == [("real-infra", False)], calc_stages
    assert "did not finish within" in calc_stages[0].evidence
    assert [(s.name, s.passed) for s in tb_stages] == [("real-open", True), ("alternative", True)], tb_stages


@pytest.mark.skipif(not shutil.which("thunderbird") or not shutil.which("soffice"),
                    reason="needs Thunderbird and LibreOffice installed (.ci/run installs both)")
def test_ctrl_c_during_a_real_app_batch_stops_within_seconds(tmp_path):
    """The tier runs beside the pipeline; a Ctrl-C while real Thunderbird works on a batch must not wait for it."""
    root = Path(__file__).resolve().parents[2]
    command = ["generate", "--app", "thunderbird", "-n", "6", "--seed", "2", "--out", str(tmp_path / "out"),
               "--db", str(tmp_path / "c.db"), "--real-apps", "all"]
    proc = subprocess.Popen([sys.executable, "-m", "forge", *command],
                            cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    err, stopped = ctrl_c(proc, _thunderbird_runs, settle=1.0)
    assert proc.returncode == 130, err
    assert stopped < 10, f"took {stopped:.1f} s to stop"


def _thunderbird_runs() -> bool:
    return subprocess.run(["pgrep", "-f", "thunderbird --headless"], capture_output=True).returncode == 0


def test_thunderbird_checks_of_a_batch_run_two_at_a_time_in_order():
    from forge.daemons import in_threads
    from forge.realapps import THUNDERBIRDS

    assert THUNDERBIRDS == 2
    together = threading.Barrier(2, timeout=5)  # breaks (and the job raises) unless two jobs wait at once

    def job(i: int) -> int:
        together.wait()
        return i

    assert in_threads([partial(job, i) for i in range(6)], THUNDERBIRDS, "test") == list(range(6))

    def broken() -> int:
        raise ValueError("a job's own error")

    with pytest.raises(ValueError, match="a job's own error"):
        in_threads([lambda: 0, broken, lambda: 2], THUNDERBIRDS, "test")
