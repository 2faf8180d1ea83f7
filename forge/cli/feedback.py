"""The feedback loop: `forge feedback ingest` (a student's results into the catalog), `forge stats` (per skill) and
`forge round run` (expand, allocate, generate, export, ingest). Students themselves: forge/cli/student.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from forge.cli.base import DbOption, JsonOption, NoSandbox, ScriptTimeout, app, console, group, sandbox
from kit.textsafe import cell, plain

RoundOption = Annotated[int | None, typer.Option("--round", help="Only this feedback round.")]


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)

feedback_app = group("feedback", "Bring a student's results back into the catalog.")
round_app = group("round", "Feedback rounds: expand the taxonomy from the student's results, then generate.")


@feedback_app.command("ingest")
def ingest(
    path: Annotated[Path, typer.Argument(help="An OSWorld results folder (results/<action_space>/"
                                         "<observation>/<model>/<domain>/<task_id>/) or a JSONL file.")],
    round_n: Annotated[int | None, typer.Option("--round", help="Record the attempts under this round "
                                                "(default: the round each task was generated in).")] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
    # issue 15: per-check outcomes from the student's final states
    states: Annotated[Path | None, typer.Option("--states", help="A folder of the student's final states, "
                                                "<DIR>/<task_id>/ standing for /home/user: the rubric is re-run on "
                                                "each (sandboxed, as `forge check` does) to record which checks "
                                                "failed.")] = None,
    no_sandbox: NoSandbox = False,
) -> None:
    """Add a student's attempts to the `student_results` table.

    OSWorld folders without result.txt, or whose traj.jsonl has an Error line, are recorded as
    infrastructure failures. JSONL rows: {task_id, success | score, steps?, tokens?, failure_reason?, model?,
    failed_checks?, run?}. Unknown task ids are listed and skipped.

    An attempt is identified by content, never by file name, folder or line number: a JSONL row by (task id,
    model, hash of the row as data, how many identical rows come before it in its file); an OSWorld task folder
    by a hash of its result.txt, traj.jsonl and checks.json. So ingesting the same results again, copied, moved,
    renamed, reordered or with lines added, adds only the new rows; identical rows within one file count each
    (a `run` field tells apart identical rows of different runs). Two ingests at once add each attempt once.
    A result file that is a link, fifo or device is refused; steps leave out the final DONE line, tokens are
    the sum of those the trajectory records, and an Error line that says the run ran out of time is filed as
    `timeout: ...` (else `crash: ...`).

    With --states DIR, an attempt without failed_checks whose final state is DIR/<task_id>/ gets them from the
    package's rubric re-run on that state (see `forge check`)."""
    from forge.catalog import Catalog
    from forge.feedback import ingest as run_ingest

    report = run_ingest(Catalog(db), path, round_n, states=states,
                        sandbox=sandbox(no_sandbox, single=True) if states else None)
    if as_json:
        print(json.dumps(report.as_dict(), indent=2))
        return
    console.print(f"added {report.added} attempts ({report.infra} infrastructure failures), "
                  f"{report.already} already ingested, {len(report.unknown)} unknown task ids skipped"
                  + (f"; rubric re-run on {report.rechecked} final states" if states else ""), highlight=False)
    for source, task_id in report.unknown:
        console.print(plain(f"  unknown task id {task_id!r} ({source})"), highlight=False, markup=False)


@app.command("stats")
def stats(round_n: RoundOption = None, as_json: JsonOption = False, db: DbOption = None) -> None:
    """Per-skill statistics of the student's attempts (the `skill_stats` / `skill_round_stats` views).

    attempts, success rate, mean score and mean steps leave infrastructure failures out; those are
    counted in `infra`. success = a score of 1; fractional scores count in the mean score."""
    from forge.catalog import Catalog
    from forge.stats import skill_stats

    rows = skill_stats(Catalog(db, read_only=True), round_n)
    if as_json:
        print(json.dumps([s.as_dict() for s in rows.values()], indent=2))
        return
    table = Table("skill", "attempts", "successes", "success rate", "mean score", "mean steps", "infra",
                  "failure reasons", title=f"student statistics{'' if round_n is None else f', round {round_n}'}")
    for s in rows.values():
        reasons = ", ".join(f"{r} x{n}" for r, n in s.failure_reasons.items())
        table.add_row(cell(s.skill_id), str(s.attempts), str(s.successes), _fmt(s.success_rate),
                      _fmt(s.mean_score), _fmt(s.mean_steps), str(s.infra_failures), cell(reasons))
    console.print(table)
    attempts = sum(s.attempts for s in rows.values())
    console.print(f"{len(rows)} skills, {attempts} attempts, {sum(s.successes for s in rows.values())} successes, "
                  f"{sum(s.infra_failures for s in rows.values())} infrastructure failures", highlight=False)


@round_app.command("run")
def run(
    round_n: Annotated[int, typer.Option("--round", help="The round number (1, 2, ...).")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the round's packages and its OSWorld export "
                                      "(<out>/osworld).")],
    budget: Annotated[int, typer.Option("--budget", help="Tasks to generate this round.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed; round N's task ids use seed*100+N.")] = 0,
    k: Annotated[int, typer.Option("--k", min=1, help="Probe tasks that must pass the gate before a new "
                                   "skill joins.")] = 3,
    # issue 15: the statistics decide how many skills a round adds; --grow only caps how many are probed now
    grow: Annotated[int | None, typer.Option("--grow", help="Probe at most this many of the new skill "
                                             "candidates the student's statistics call for (a sample keeping "
                                             "each operator's share; default: all of them).")] = None,
    sample: Annotated[int | None, typer.Option("--sample", min=1, help="At scale: probe only this many "
                                               "candidates per family x axis level group; the others join on "
                                               "their group's sample (recorded as such). Default: probe each.")
                      ] = None,
    results: Annotated[Path | None, typer.Option("--results", help="Student results to ingest at the end "
                                                 "(or later, with `forge feedback ingest --round N`).")] = None,
    family: Annotated[list[str] | None, typer.Option("--family", help="Keep the round's tasks inside this family "
                                                     "(repeatable): for a student that knows only some families. "
                                                     "The expansion still reads every result.")] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
    no_sandbox: NoSandbox = False,
    timeout: ScriptTimeout = 60.0,
) -> None:
    """Run one feedback round: expand from round N-1's statistics (probe new skills through the gate),
    allocate the budget toward weak skills, generate and gate, export for OSWorld, ingest results.

    Round 1 expands from round 0: the student's results on `forge generate` tasks (ingested without --round);
    with none, it explores every axis level once per family."""
    from forge.rounds import run_round

    counts = run_round(db, round_n, budget, seed, str(out), results=str(results) if results else None, k=k,
                       limit=grow, sandbox=sandbox(no_sandbox, timeout), sample=sample, families=tuple(family or ()))
    if as_json:
        print(json.dumps(counts, indent=2))
        return
    expansion = counts.get("expansion", {})
    console.print(f"round {round_n}: {expansion.get('added', {})} skills added, {expansion.get('refused', 0)} "
                  f"refused, {expansion.get('reweighted', 0)} reweighted, {expansion.get('retired', 0)} retired; "
                  f"{counts.get('skills_active')} active skills", highlight=False)
    if expansion.get("no_growth"):
        console.print(plain(f"no growth: {expansion['no_growth']}"), highlight=False)
    for c in expansion.get("confirmation", []):
        p_value = "-" if c.get("p") is None else f"{c['p']:.2g}"
        console.print(plain(f"pattern {c['pattern']!r} of round {c.get('mined_round')}: {c['status']} on fresh probes "
                            f"({c.get('probes_failed_carrying')}/{c.get('probes_carrying')} carrying it failed, "
                            f"{c.get('probes_failed_other')}/{c.get('probes_other')} without; p {p_value})"),
                      highlight=False)
    for st in expansion.get("steering", []):
        console.print(plain(f"steered {st['tasks']} of {st['wanted']} tasks toward {st['pattern']!r} "
                            f"({st['share']:.0%} of the budget)"), highlight=False)
    if counts.get("families"):
        console.print(plain(f"families: {', '.join(counts['families'])}"), highlight=False)
    console.print(f"tasks: {counts.get('tasks')}  (multi-app accepted: {counts.get('accepted_multi_app')})",
                  highlight=False)
    console.print(f"export: {counts.get('export')}", highlight=False)
    if "ingest" in counts:
        console.print(f"ingest: {counts['ingest']}", highlight=False)
