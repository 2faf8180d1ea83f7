"""`forge report`: one self-contained HTML page of charts over the catalog (inline SVG; opens offline).

Charts: taxonomy size by app and round, tasks by gate class, student pass rate by family and round, LLM
tokens and cost per task by app, throughput of recent runs. Every query tolerates empty tables: a chart
with no data says so instead of drawing nothing.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from html import escape
from pathlib import Path
from string import Template

from sqlalchemy import func, select

from forge.catalog import Catalog, LLMCallRow, RunRow, SkillRow, StudentResultRow, TaskRow
from forge.report_svg import bar_chart

TEMPLATE = Path(__file__).resolve().parent / "templates" / "report.html"
RECENT_RUNS = 12


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    note: str
    svg: str | None  # None: no data yet


def taxonomy_chart(catalog: Catalog) -> Chart:
    with catalog.session() as s:
        rows = s.execute(select(SkillRow.app, SkillRow.round, func.count()).where(SkillRow.status != "retired")
                         .group_by(SkillRow.app, SkillRow.round)).all()
    note = "Active skills per app, split by the round that added them (0 = seed taxonomy)."
    if not rows:
        return Chart("taxonomy", "Taxonomy size by app and round", note, None)
    apps = sorted({r[0] for r in rows})
    rounds = sorted({int(r[1] or 0) for r in rows})
    counts = {(r[0], int(r[1] or 0)): r[2] for r in rows}
    series = {f"round {n}": [float(counts.get((a, n), 0)) for a in apps] for n in rounds}
    return Chart("taxonomy", "Taxonomy size by app and round", note,
                 bar_chart("taxonomy", "skills by app and round", apps, series, stacked=True))


def gate_chart(catalog: Catalog) -> Chart:
    with catalog.session() as s:
        rows = s.execute(select(TaskRow.status, func.count()).group_by(TaskRow.status)).all()
    note = "Every generated task by the class the gate gave it."
    if not rows:
        return Chart("gate", "Acceptance by gate class", note, None)
    rows = sorted(rows, key=lambda r: (r[0] != "accepted", -r[1], r[0]))
    total = sum(r[1] for r in rows)
    accepted = sum(r[1] for r in rows if r[0] == "accepted")
    return Chart("gate", "Acceptance by gate class", f"{note} Accepted: {accepted} of {total} "
                 f"({100 * accepted / total:.1f} %).",
                 bar_chart("gate", "tasks by gate class", [r[0] for r in rows], {"tasks": [float(r[1]) for r in rows]}))


def student_chart(catalog: Catalog) -> Chart:
    with catalog.session() as s:
        rows = s.execute(select(func.coalesce(SkillRow.family, StudentResultRow.skill_id), StudentResultRow.round,
                                StudentResultRow.success)
                         .outerjoin(SkillRow, SkillRow.id == StudentResultRow.skill_id)
                         .where(StudentResultRow.infra.is_(False), StudentResultRow.success.is_not(None))).all()
    note = "Share of the student's attempts that succeeded, per family and round (infrastructure failures excluded)."
    if not rows:
        return Chart("students", "Student pass rate by family and round", note, None)
    tally: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for family, number, success in rows:
        tally[(family, number)][0] += int(bool(success))
        tally[(family, number)][1] += 1
    families = sorted({k[0] for k in tally})
    rounds = sorted({k[1] for k in tally})
    series = {f"round {n}": [100.0 * tally[(f, n)][0] / tally[(f, n)][1] if (f, n) in tally else 0.0
                             for f in families] for n in rounds}
    return Chart("students", "Student pass rate by family and round", note,
                 bar_chart("students", "pass rate by family and round", families, series, unit="%", max_value=100))


def llm_charts(catalog: Catalog) -> list[Chart]:
    with catalog.session() as s:
        per_app = dict(s.execute(select(TaskRow.app, func.count()).group_by(TaskRow.app)).all())
        usage = s.execute(select(TaskRow.app, func.sum(LLMCallRow.prompt_tokens + LLMCallRow.completion_tokens),
                                 func.sum(LLMCallRow.cost_usd))
                          .join(TaskRow, TaskRow.id == LLMCallRow.task_id).group_by(TaskRow.app)).all()
    tokens_note = "LLM tokens (prompt + completion) per generated task, by app; cached answers count too."
    cost_note = "LLM cost per generated task, by app (USD)."
    if not usage or not per_app:
        return [Chart("tokens", "Tokens per task", tokens_note, None), Chart("cost", "Cost per task", cost_note, None)]
    apps = sorted(per_app)
    used = {r[0]: (float(r[1] or 0), float(r[2] or 0)) for r in usage}
    tokens = [used.get(a, (0.0, 0.0))[0] / per_app[a] for a in apps]
    cost = [used.get(a, (0.0, 0.0))[1] / per_app[a] for a in apps]
    return [Chart("tokens", "Tokens per task", tokens_note, bar_chart("tokens", "tokens per task", apps,
                                                                      {"tokens": tokens})),
            Chart("cost", "Cost per task", cost_note, bar_chart("cost", "cost per task", apps, {"USD": cost},
                                                                 unit="$"))]


def throughput_chart(catalog: Catalog) -> Chart:
    with catalog.session() as s:
        runs = list(s.scalars(select(RunRow).where(RunRow.finished_at.is_not(None)).order_by(RunRow.id.desc())
                              .limit(RECENT_RUNS)))
    note = f"Tasks generated and gated per minute of wall-clock time, last {RECENT_RUNS} finished runs."
    labels, rates = [], []
    for run in reversed(runs):
        minutes = _minutes(run.started_at, run.finished_at)
        done = sum(int(v) for v in (run.counts or {}).values())
        if minutes and done:
            labels.append(f"run {run.id} ({run.started_at[:10]})")
            rates.append(done / minutes)
    if not labels:
        return Chart("throughput", "Throughput of recent runs", note, None)
    return Chart("throughput", "Throughput of recent runs", note,
                 bar_chart("throughput", "tasks per minute", labels, {"tasks/min": rates}))


def _minutes(start: str, end: str | None) -> float:
    try:
        seconds = (dt.datetime.fromisoformat(end or "") - dt.datetime.fromisoformat(start)).total_seconds()
    except ValueError:
        return 0.0
    return max(seconds, 1.0) / 60


def _summary(catalog: Catalog) -> str:
    with catalog.session() as s:
        numbers = {
            "skills": s.scalar(select(func.count()).select_from(SkillRow)) or 0,
            "tasks": s.scalar(select(func.count()).select_from(TaskRow)) or 0,
            "accepted": s.scalar(select(func.count()).select_from(TaskRow).where(TaskRow.status == "accepted")) or 0,
            "student attempts": s.scalar(select(func.count()).select_from(StudentResultRow)) or 0,
            "runs": s.scalar(select(func.count()).select_from(RunRow)) or 0,
        }
    return "".join(f"<div><b>{v:,}</b>{escape(k)}</div>" for k, v in numbers.items())


def render_report(catalog: Catalog) -> str:
    """The report page as HTML text."""
    charts = [taxonomy_chart(catalog), gate_chart(catalog), student_chart(catalog), *llm_charts(catalog),
              throughput_chart(catalog)]
    sections = []
    for chart in charts:
        body = (f"<figure>{chart.svg}</figure>" if chart.svg is not None
                else '<p class="empty">No data yet.</p>')
        sections.append(f'<section id="section-{chart.id}"><h2>{escape(chart.title)}</h2>'
                        f"<p>{escape(chart.note)}</p>{body}</section>")
    shown = catalog.engine.url.render_as_string(hide_password=True)
    return Template(TEMPLATE.read_text(encoding="utf-8")).substitute(
        catalog=escape(shown), summary=_summary(catalog), sections="\n".join(sections))


def write_report(catalog: Catalog, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(catalog), encoding="utf-8")
    return out
