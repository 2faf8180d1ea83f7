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

CHARTS = ("taxonomy", "gate", "students", "tokens", "cost", "throughput", "runs", "failures", "rate")


def _fill(catalog: Catalog) -> None:
    """A catalog after two rounds: skills from the seed and round 1, gated tasks, LLM calls, student results."""
    with catalog.session() as s, s.begin():
        for i, (app, family, rnd) in enumerate([("libreoffice_calc", "calc.sort_rows", 0),
                                                ("libreoffice_calc", "calc.sort_rows", 1),
                                                ("thunderbird", "tb.create_filter", 0),
                                                ("os", "os.copy", 0), ("os", "os.copy", 1), ("os", "os.copy", 1)]):
            s.add(SkillRow(id=f"{family}.k{i}", family=family, app=app, apps=[app], params={}, description="d",
                           difficulty="easy", round=rnd, origin="seed" if rnd == 0 else f"round-{rnd}"))
        s.add(RunRow(id=1, seed=1, requested=10, selection={}, out_dir="x", backend="openai",
                     started_at="2026-11-01T10:00:00+00:00", finished_at="2026-11-01T10:02:00+00:00",
                     counts={"accepted": 9, "lax": 1}, status="finished"))
        s.add(RunRow(id=2, seed=2, requested=5, selection={}, out_dir="x", backend="offline",
                     started_at="2026-11-02T10:00:00+00:00", finished_at=None, counts={}, status="running"))
        statuses = ["accepted"] * 9 + ["lax", "trivial"]
        for i, status in enumerate(statuses):
            app = ("libreoffice_calc", "thunderbird", "os")[i % 3]
            task_id = f"skill{i}--s1--{i:05d}"
            s.add(TaskRow(id=task_id, skill_id=f"calc.sort_rows.k{i % 2}", family="calc.sort_rows", app=app,
                          status=status, seed=1, idx=i, run_id=1, workflow_signature="sig", round=i % 2,
                          prompt_tokens=900, completion_tokens=100, cost_usd=0.002))
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
    assert "calc.sort_rows (n=4) · round 0: 50% (1/2)" in page  # round 0 has two calc attempts, one a success
    assert "libreoffice_calc (n=4) · tokens: 1,000" in page  # 1,000 tokens per task
    # 11 tasks recorded by run 1 in 2 minutes; the unfinished run is left out
    assert "run 1 (2026-11-01, 11 tasks) · tasks/min: 5.50</title>" in page
    assert "simulated" not in page
    assert "http" not in page and "<script" not in page and "<link" not in page  # nothing to fetch: offline


def test_runs_view_shows_status_failure_classes_and_tasks_per_hour_by_day(tmp_path: Path) -> None:
    catalog = Catalog(f"sqlite:///{tmp_path / 'runs.db'}")
    _fill(catalog)  # run 1 finished on 11-01 (11 tasks in 2 min: 9 accepted, 1 lax, 1 trivial), run 2 running
    with catalog.session() as s, s.begin():
        s.add(RunRow(id=3, seed=3, requested=8, selection={}, out_dir="x", backend="offline",
                     started_at="2026-11-02T09:00:00+00:00", finished_at="2026-11-02T09:30:00+00:00",
                     counts={"accepted": 2, "infra_fail": 1}, status="interrupted"))
        s.add(RunRow(id=4, seed=4, requested=2, selection={}, out_dir="x", backend="offline", kind="student",
                     started_at="2026-11-02T11:00:00+00:00", finished_at="2026-11-02T11:05:00+00:00", counts={},
                     status="failed"))
        s.flush()
        for i, status in enumerate(["accepted", "accepted", "infra_fail"]):
            s.add(TaskRow(id=f"r3--s3--{i:05d}", skill_id="calc.sort_rows.k0", family="calc.sort_rows", app="os",
                          status=status, seed=3, idx=i, run_id=3, workflow_signature="sig", round=0))
    page = render_report(catalog)
    # status (both kinds), interrupted runs among them
    assert "finished: 1, running: 1, interrupted: 1, failed: 1." in page
    assert "interrupted · generate: 1</title>" in page and "failed · student: 1</title>" in page
    # failure classes by the day their run started; accepted tasks are not failures
    assert "2026-11-01 · lax: 1</title>" in page and "2026-11-02 · infra_fail: 1</title>" in page
    assert "· accepted:" not in page
    # tasks per hour by day: 11 tasks in 2 min (330/h); 3 in the 30 min of the interrupted run (6/h)
    assert "2026-11-01 (11 tasks in 0.0 h) · tasks/h: 330</title>" in page
    assert "2026-11-02 (3 tasks in 0.5 h) · tasks/h: 6</title>" in page


def test_a_zero_bar_keeps_its_colour() -> None:
    from forge.report_svg import PALETTE, bar_chart

    svg = bar_chart("c", "t", ["a", "b", "c"], {"x": [0.0, 50.0, None], "y": [25.0, 0.0, 10.0]}, unit="%",
                    max_value=100)
    bars = re.findall(r'<rect class="bar" x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="\d+" fill="(#\w+)">'
                      r"<title>([^<]*)</title>", svg)
    zero = {title: (float(width), fill) for width, fill, title in bars if ": 0%" in title}
    assert zero == {"a · x: 0%": (3.0, PALETTE[0]), "b · y: 0%": (3.0, PALETTE[1])}  # seen, in its series' colour
    assert 'class="missing"' in svg  # no data stays an outline, unlike 0


def test_offline_resumed_and_simulated_runs_are_reported_as_what_they_are(tmp_path: Path) -> None:
    from forge.student import MODEL

    catalog = Catalog(f"sqlite:///{tmp_path / 'offline.db'}")
    with catalog.session() as s, s.begin():
        s.add(SkillRow(id="a.k", family="a", app="os", apps=["os"], params={}, description="d", difficulty="easy"))
        s.add(SkillRow(id="b.k", family="b", app="os", apps=["os"], params={}, description="d", difficulty="easy"))
        for run_id, day in ((1, "01"), (2, "02")):  # run 2 resumed run 1's plan: it recorded nothing itself
            s.add(RunRow(id=run_id, seed=1, requested=4, selection={}, out_dir="x", backend="offline",
                         started_at=f"2026-11-{day}T10:00:00+00:00", finished_at=f"2026-11-{day}T10:01:00+00:00",
                         counts={"accepted": 4}, status="finished"))
        s.flush()
        for i in range(4):  # offline: the ledger holds estimates only
            s.add(TaskRow(id=f"a.k--s1--{i:05d}", skill_id="a.k", family="a", app="os", status="accepted", seed=1,
                          idx=i, run_id=1, workflow_signature="sig"))
            s.flush()
            s.add(LLMCallRow(task_id=f"a.k--s1--{i:05d}", node="instruction", backend="offline", prompt_tokens=0,
                             completion_tokens=0, estimated_tokens=500, cost_usd=0.0, cached=False, model=""))
        for i, (skill, rnd) in enumerate([("a.k", 1), ("a.k", 1), ("a.k", 2), ("b.k", 2)]):
            s.add(StudentResultRow(attempt_key=f"k{i}", task_id=f"{skill}--s1--00000", skill_id=skill, round=rnd,
                                   model=MODEL, success=i == 0, score=float(i == 0), infra=False, source="sim"))
    page = render_report(catalog)
    assert page.count("No data yet.") == 3  # tokens and cost: offline runs spent nothing; no task failed
    assert "run 1 (2026-11-01, 4 tasks) · tasks/min: 4</title>" in page and "run 2 (" not in page
    assert "b (n=1) · round 1 (simulated): no data</title>" in page  # b had no attempt in round 1: not 0 %
    assert "a (n=3) · round 1 (simulated): 50% (1/2)</title>" in page
    assert "(simulated student)" in page


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
