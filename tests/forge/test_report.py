"""`forge report`: charts from catalog rows, rendered by headless Chromium with no console messages."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog, LLMCallRow, RunRow, SkillRow, StudentResultRow, TaskRow
from forge.report import render_report, write_report

CHARTS = ("taxonomy", "gate", "students", "tokens", "cost", "throughput")


def _fill(catalog: Catalog) -> None:
    """A catalog after two rounds: skills from the seed and round 1, gated tasks, LLM calls, student results."""
    with catalog.session() as s, s.begin():
        for i, (app, family, rnd) in enumerate([("libreoffice_calc", "calc.sort_rows", 0),
                                                ("libreoffice_calc", "calc.sort_rows", 1),
                                                ("thunderbird", "tb.create_filter", 0),
                                                ("os", "os.copy", 0), ("os", "os.copy", 1), ("os", "os.copy", 1)]):
            s.add(SkillRow(id=f"{family}.k{i}", family=family, app=app, apps=[app], params={}, description="d",
                           difficulty="easy", round=rnd, origin="seed" if rnd == 0 else f"round-{rnd}"))
        s.add(RunRow(id=1, seed=1, requested=10, selection={}, out_dir="x", backend="offline",
                     started_at="2026-11-01T10:00:00+00:00", finished_at="2026-11-01T10:02:00+00:00",
                     counts={"accepted": 9, "lax": 1}, status="finished"))
        s.add(RunRow(id=2, seed=2, requested=5, selection={}, out_dir="x", backend="offline",
                     started_at="2026-11-02T10:00:00+00:00", finished_at=None, counts={}, status="running"))
        statuses = ["accepted"] * 9 + ["lax", "trivial"]
        for i, status in enumerate(statuses):
            app = ("libreoffice_calc", "thunderbird", "os")[i % 3]
            task_id = f"skill{i}--s1--{i:05d}"
            s.add(TaskRow(id=task_id, skill_id=f"calc.sort_rows.k{i % 2}", family="calc.sort_rows", app=app,
                          status=status, seed=1, idx=i, run_id=1, workflow_signature="sig", round=i % 2))
            s.flush()
            s.add(LLMCallRow(task_id=task_id, node="instruction", backend="openai", prompt_tokens=900,
                             completion_tokens=100, cost_usd=0.002, cached=False, model="m"))
        for i in range(8):
            s.add(StudentResultRow(attempt_key=f"k{i}", task_id=f"skill{i}--s1--{i:05d}",
                                   skill_id="calc.sort_rows.k0" if i < 4 else "os.copy.k3", round=i % 2,
                                   success=i % 3 == 0, score=float(i % 3 == 0), infra=False, source="test"))
        s.add(StudentResultRow(attempt_key="infra", task_id="skill0--s1--00000", skill_id="os.copy.k3", round=0,
                               success=None, infra=True, source="test"))


def test_charts_from_rows(tmp_path: Path) -> None:
    catalog = Catalog(f"sqlite:///{tmp_path / 'forge.db'}")
    _fill(catalog)
    page = render_report(catalog)
    for chart in CHARTS:
        assert re.search(rf'<svg id="{chart}" class="chart"', page), chart
    assert "No data yet" not in page
    assert "Accepted: 9 of 11 (81.8 %)" in page
    assert ">round 1</text>" in page  # taxonomy and pass-rate legends split by round
    assert "calc.sort_rows · round 0: 50%" in page  # round 0 has two calc attempts, one a success
    assert "libreoffice_calc · tokens: 1,000" in page  # 1,000 tokens per task
    assert "run 1 (2026-11-01) · tasks/min: 5</title>" in page  # 10 tasks in 2 minutes; the unfinished run is left out
    assert "http" not in page and "<script" not in page and "<link" not in page  # nothing to fetch: offline


def test_empty_catalog_says_no_data(tmp_path: Path) -> None:
    page = render_report(Catalog(f"sqlite:///{tmp_path / 'empty.db'}"))
    assert page.count("No data yet.") == len(CHARTS) and "<svg" not in page


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _render(browser: str, page: Path, tmp_path: Path) -> tuple[str, list[str]]:
    """The DOM after load and every console message Chromium logged for the page."""
    ran = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                          "--v=0", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr[-2000:]
    return ran.stdout, [line for line in ran.stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.slow
def test_chromium_renders_charts_without_console_messages(tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install -y --no-install-recommends chromium); CI installs it")
    catalog = Catalog(f"sqlite:///{tmp_path / 'forge.db'}")
    _fill(catalog)
    report = write_report(catalog, tmp_path / "report.html")
    dom, console = _render(browser, report, tmp_path)
    assert console == []
    for chart in CHARTS:
        assert re.search(rf'<svg id="{chart}" class="chart"[^>]*>.*?<rect class="bar"', dom, re.S), chart
    # the probe itself works: a page that logs an error is caught
    broken = tmp_path / "broken.html"
    broken.write_text(report.read_text().replace("</body>", '<script>console.error("boom")</script></body>'))
    assert any('"boom"' in line for line in _render(browser, broken, tmp_path)[1])


def test_cli_report(tmp_path: Path) -> None:
    from forge.cli import app

    catalog = Catalog(f"sqlite:///{tmp_path / 'forge.db'}")
    _fill(catalog)
    out = tmp_path / "site" / "report.html"
    result = CliRunner().invoke(app, ["report", "--out", str(out), "--db", catalog.url])
    assert result.exit_code == 0, result.output
    assert out.is_file() and '<svg id="gate"' in out.read_text()
