"""`forge report`: one self-contained HTML page of charts over the catalog (inline SVG; opens offline).

Charts: taxonomy size by app and round, tasks by gate class, student pass rate by family and round, LLM
tokens and cost per task by app, throughput of recent runs, and a runs view (runs by status, gate failure classes
by day, tasks per hour by day). Every query tolerates empty tables: a chart
with no data says so instead of drawing nothing.

Honest numbers: tokens and cost come only from runs that used a model (offline runs spend nothing; their
size estimates stay in `llm_calls.estimated_tokens`), per task as the task's own answers used them (a
regenerated task is counted once); throughput counts the tasks a run recorded itself, not those it skipped
as already recorded; the pass-rate chart shows attempt counts, draws a family without attempts in a round as
"no data" (not 0 %), and says "simulated" for results of `forge student simulate`.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from html import escape
from pathlib import Path
from string import Template

from forge.catalog import Catalog
from forge.database import shown
from forge.report_svg import bar_chart
from forge.student import MODEL as SIMULATED

TEMPLATE = Path(__file__).resolve().parent / "templates" / "report.html"
RECENT_RUNS = 12


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    note: str
    svg: str | None  # None: no data yet


def taxonomy_chart(catalog: Catalog) -> Chart:
    rows = catalog.active_skills()
    chains = sum(r[2] for r in rows if r[0] == "multi_apps")
    note = (f"Active skills per app, split by the round that added them (0 = seed taxonomy): "
            f"{sum(r[2] for r in rows) - chains:,} atomic (single-app) skills and {chains:,} chains (multi-app "
            "skills whose steps pass data on, under multi_apps).")
    if not rows:
        return Chart("taxonomy", "Taxonomy size by app and round", note, None)
    apps = sorted({r[0] for r in rows})
    rounds = sorted({r[1] for r in rows})
    counts = {(r[0], r[1]): r[2] for r in rows}
    series = {f"round {n}": [float(counts.get((a, n), 0)) for a in apps] for n in rounds}
    return Chart("taxonomy", "Taxonomy size by app and round", note,
                 bar_chart("taxonomy", "skills by app and round", apps, series, stacked=True))


def gate_chart(catalog: Catalog) -> Chart:
    rows = catalog.tasks_by_status()
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
    rows = catalog.student_outcomes()
    title = "Student pass rate by family and round"
    note = ("Share of the student's attempts that succeeded, per family and round, with successes/attempts "
            "(infrastructure failures excluded); a family without attempts in a round shows \"no data\".")
    if not rows:
        return Chart("students", title, note, None)
    tally: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    simulated: dict[int, set[bool]] = defaultdict(set)
    for family, number, success, model in rows:
        tally[(family, number)][0] += int(bool(success))
        tally[(family, number)][1] += 1
        simulated[number].add(model == SIMULATED)
    families = sorted({k[0] for k in tally})
    rounds = sorted({k[1] for k in tally})
    names = {n: f"round {n}" + (" (simulated)" if True in simulated[n] else "") for n in rounds}
    series: dict[str, list[float | None]] = {
        names[n]: [100.0 * tally[(f, n)][0] / tally[(f, n)][1] if (f, n) in tally else None for f in families]
        for n in rounds}
    labels = {names[n]: [f"{100.0 * tally[(f, n)][0] / tally[(f, n)][1]:.0f}% ({tally[(f, n)][0]}/"
                         f"{tally[(f, n)][1]})" if (f, n) in tally else "no data" for f in families] for n in rounds}
    attempts = {f: sum(tally[(f, n)][1] for n in rounds if (f, n) in tally) for f in families}
    if any(True in flags for flags in simulated.values()):
        title += " (simulated student)"
        note += (" SIMULATED: rounds marked (simulated) hold results of `forge student simulate`, an offline "
                 "stand-in; they say nothing about a real model.")
    return Chart("students", title, note,
                 bar_chart("students", "pass rate by family and round", [f"{f} (n={attempts[f]})" for f in families],
                           series, unit="%", max_value=100, labels=labels))


def llm_charts(catalog: Catalog) -> list[Chart]:
    """Tokens and cost per task, by app, over the tasks of runs that used a model: a task's own answers (cached
    ones included: the task needs them), counted once however often it was regenerated. Offline runs spend
    nothing and are left out: their token counts are estimates (`llm_calls.estimated_tokens`)."""
    usage = catalog.model_usage_by_app()
    tokens_note = ("LLM tokens (prompt + completion) per task generated with a model, by app; offline runs use none "
                   "and are not shown.")
    cost_note = "LLM cost per task generated with a model, by app (USD); offline runs cost nothing."
    if not usage:
        return [Chart("tokens", "Tokens per task", tokens_note, None), Chart("cost", "Cost per task", cost_note, None)]
    apps = sorted(r[0] for r in usage)
    per_app = {r[0]: (r[1], r[2], r[3]) for r in usage}
    tokens: list[float | None] = [per_app[a][1] / per_app[a][0] for a in apps]
    cost: list[float | None] = [per_app[a][2] / per_app[a][0] for a in apps]
    labels = [f"{a} (n={per_app[a][0]})" for a in apps]
    return [Chart("tokens", "Tokens per task", tokens_note, bar_chart("tokens", "tokens per task", labels,
                                                                      {"tokens": tokens})),
            Chart("cost", "Cost per task", cost_note, bar_chart("cost", "cost per task", labels, {"USD": cost},
                                                                 unit="$"))]


def throughput_chart(catalog: Catalog) -> Chart:
    """Tasks a run generated and gated itself per minute: tasks it skipped because an earlier run had recorded
    them (a resumed run) did no work and are not counted; a run that recorded nothing is left out."""
    runs = catalog.recent_runs(RECENT_RUNS)
    note = (f"Tasks generated and gated per minute of wall-clock time, last {RECENT_RUNS} finished runs; only the "
            "tasks a run recorded itself (resumed tasks are skipped work).")
    labels: list[str] = []
    rates: list[float | None] = []
    for run, done in reversed(runs):
        minutes = _minutes(run.started_at, run.finished_at)
        if minutes and done:
            labels.append(f"run {run.id} ({run.started_at[:10]}, {done} tasks)")
            rates.append(done / minutes)
    if not labels:
        return Chart("throughput", "Throughput of recent runs", note, None)
    return Chart("throughput", "Throughput of recent runs", note,
                 bar_chart("throughput", "tasks per minute", labels, {"tasks/min": rates}))


#: Run statuses in the order the runs chart lists them (others, if any, follow by name).
RUN_STATUSES = ("finished", "running", "interrupted", "cancelled", "failed")
RECENT_DAYS = 14


def runs_charts(catalog: Catalog) -> list[Chart]:
    """The runs view: runs by status and kind, gate failure classes by day, tasks per hour by day."""
    history = catalog.run_history()
    status_note = ("Every run by how it ended, generation and student runs apart. interrupted: its process was "
                   "killed or stopped (Ctrl-C, a crashed Prefect run, a machine lost); cancelled: stopped from "
                   "Prefect; running: still going, or killed on another host and not yet noticed.")
    failures_note = (f"Tasks the gate did not accept, by class, per day (the day a run started; last {RECENT_DAYS} "
                     "days with runs). infra_fail is the machine's fault, never the task's.")
    rate_note = (f"Tasks generated and gated per hour of run time, per day (last {RECENT_DAYS} days with runs): only "
                 "tasks a generation run recorded itself, over runs that ended (finished, failed, interrupted).")
    charts = [Chart("runs", "Runs by status", status_note, None),
              Chart("failures", "Gate failure classes by day", failures_note, None),
              Chart("rate", "Tasks per hour by day", rate_note, None)]
    if not history:
        return charts
    by_status: dict[tuple[str, str], int] = defaultdict(int)
    for run, _ in history:
        by_status[(run.status, run.kind or "generate")] += 1
    statuses = [s for s in RUN_STATUSES if any(k[0] == s for k in by_status)]
    statuses += sorted({k[0] for k in by_status} - set(statuses))
    kinds = sorted({k[1] for k in by_status})
    series = {kind: [float(by_status.get((status, kind), 0)) for status in statuses] for kind in kinds}
    counts = {status: sum(by_status.get((status, kind), 0) for kind in kinds) for status in statuses}
    charts[0] = Chart("runs", "Runs by status", status_note + " " + ", ".join(
        f"{status}: {counts[status]}" for status in statuses) + ".",
        bar_chart("runs", "runs by status", statuses, series, stacked=True))
    days = sorted({run.started_at[:10] for run, _ in history})[-RECENT_DAYS:]
    failed: dict[str, dict[str, int]] = {day: defaultdict(int) for day in days}
    made: dict[str, int] = defaultdict(int)
    hours: dict[str, float] = defaultdict(float)
    for run, classes in history:
        day = run.started_at[:10]
        if day not in failed:
            continue
        for status, count in classes.items():
            if status != "accepted":
                failed[day][status] += count
        if run.finished_at and run.status != "running" and (run.kind or "generate") == "generate":
            made[day] += sum(classes.values())
            hours[day] += _minutes(run.started_at, run.finished_at) / 60
    kinds_failed = sorted({status for day in days for status in failed[day]})
    if kinds_failed:
        charts[1] = Chart("failures", "Gate failure classes by day", failures_note,
                          bar_chart("failures", "tasks not accepted by class and day", days,
                                    {c: [float(failed[day].get(c, 0)) for day in days] for c in kinds_failed},
                                    stacked=True))
    rated = [day for day in days if hours[day] and made[day]]
    if rated:
        labels = [f"{day} ({made[day]} tasks in {hours[day]:.1f} h)" for day in rated]
        charts[2] = Chart("rate", "Tasks per hour by day", rate_note,
                          bar_chart("rate", "tasks per hour", labels, {"tasks/h": [made[d] / hours[d] for d in rated]}))
    return charts


def _minutes(start: str, end: str | None) -> float:
    try:
        seconds = (dt.datetime.fromisoformat(end or "") - dt.datetime.fromisoformat(start)).total_seconds()
    except ValueError:
        return 0.0
    return max(seconds, 1.0) / 60


def _summary(catalog: Catalog) -> str:
    return "".join(f"<div><b>{v:,}</b>{escape(k)}</div>" for k, v in catalog.sizes().items())


def render_report(catalog: Catalog) -> str:
    """The report page as HTML text."""
    charts = [taxonomy_chart(catalog), gate_chart(catalog), student_chart(catalog), *llm_charts(catalog),
              throughput_chart(catalog), *runs_charts(catalog)]
    sections = []
    for chart in charts:
        body = (f"<figure>{chart.svg}</figure>" if chart.svg is not None
                else '<p class="empty">No data yet.</p>')
        sections.append(f'<section id="section-{chart.id}"><h2>{escape(chart.title)}</h2>'
                        f"<p>{escape(chart.note)}</p>{body}</section>")
    return Template(TEMPLATE.read_text(encoding="utf-8")).substitute(
        catalog=escape(shown(catalog.url)), summary=_summary(catalog), sections="\n".join(sections))


def write_report(catalog: Catalog, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(catalog), encoding="utf-8")
    return out
