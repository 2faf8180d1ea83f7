"""CLI for the feedback loop: `forge feedback ingest`, `forge stats`, `forge round run`,
`forge student simulate` (a simulation) and `forge skills history`."""

# No `from __future__ import annotations` here: Typer evaluates the commands' annotations, which name DbOption,
# imported inside register() (forge.cli imports this module while it is being set up).
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from forge.textsafe import cell, plain, textline

RoundOption = Annotated[int | None, typer.Option("--round", help="Only this feedback round.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def register(app: typer.Typer) -> None:
    from forge.cli import DbOption, NoSandbox, ScriptTimeout, _Group, _sandbox, console, skills_app

    feedback_app = typer.Typer(cls=_Group, no_args_is_help=True, pretty_exceptions_enable=False,
                               help="Bring a student's results back into the catalog.")
    round_app = typer.Typer(cls=_Group, no_args_is_help=True, pretty_exceptions_enable=False,
                            help="Feedback rounds: expand the taxonomy from the student's results, then generate.")
    student_app = typer.Typer(cls=_Group, no_args_is_help=True, pretty_exceptions_enable=False,
                              help="Students: `run` a real model on tasks through a terminal; `simulate` "
                                   "one offline (not a real agent).")
    app.add_typer(feedback_app, name="feedback")
    app.add_typer(round_app, name="round")
    app.add_typer(student_app, name="student")

    @feedback_app.command("ingest")
    def ingest(
        path: Annotated[Path, typer.Argument(help="An OSWorld results folder (results/<action_space>/"
                                             "<observation>/<model>/<domain>/<task_id>/) or a JSONL file.")],
        round_n: Annotated[int | None, typer.Option("--round", help="Record the attempts under this round "
                                                    "(default: the round each task was generated in).")] = None,
        as_json: JsonOption = False,
        db: DbOption = None,
    ) -> None:
        """Add a student's attempts to the `student_results` table.

        OSWorld folders without result.txt, or whose traj.jsonl has an Error line, are recorded as
        infrastructure failures. JSONL rows: {task_id, success | score, steps?, tokens?, failure_reason?, model?,
        failed_checks?}. Unknown task ids are listed and skipped.

        An attempt is identified by content, never by file name, folder or line number: (task id, model, source
        run, hash of its record). The source run of a JSONL file is a hash of its records in order (a file that
        grew since it was ingested keeps its first identity); of an OSWorld task folder, a hash of its result.txt,
        traj.jsonl and checks.json. So ingesting the same results again, copied, moved or renamed, adds nothing,
        and different runs' files of the same name all count; identical rows within one file count each."""
        from forge.catalog import Catalog
        from forge.feedback import ingest as run_ingest

        report = run_ingest(Catalog(db), path, round_n)
        if as_json:
            print(json.dumps(report.as_dict(), indent=2))
            return
        console.print(f"added {report.added} attempts ({report.infra} infrastructure failures), "
                      f"{report.already} already ingested, {len(report.unknown)} unknown task ids skipped",
                      highlight=False)
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
        grow: Annotated[int | None, typer.Option("--grow", help="New skill candidates to probe "
                                                 "(default: the budget).")] = None,
        results: Annotated[Path | None, typer.Option("--results", help="Student results to ingest at the end "
                                                     "(or later, with `forge feedback ingest --round N`).")] = None,
        as_json: JsonOption = False,
        db: DbOption = None,
        no_sandbox: NoSandbox = False,
        timeout: ScriptTimeout = 60.0,
    ) -> None:
        """Run one feedback round: expand from round N-1's statistics (probe new skills through the gate),
        allocate the budget toward weak skills, generate and gate, export for OSWorld, ingest results."""
        from forge.rounds import run_round

        counts = run_round(db, round_n, budget, seed, str(out), results=str(results) if results else None, k=k,
                           grow=grow, sandbox=_sandbox(no_sandbox, timeout))
        if as_json:
            print(json.dumps(counts, indent=2))
            return
        expansion = counts.get("expansion", {})
        console.print(f"round {round_n}: {expansion.get('added', {})} skills added, {expansion.get('refused', 0)} "
                      f"refused, {expansion.get('reweighted', 0)} reweighted, {expansion.get('retired', 0)} retired; "
                      f"{counts.get('skills_active')} active skills", highlight=False)
        console.print(f"tasks: {counts.get('tasks')}  (multi-app accepted: {counts.get('accepted_multi_app')})",
                      highlight=False)
        console.print(f"export: {counts.get('export')}", highlight=False)
        if "ingest" in counts:
            console.print(f"ingest: {counts['ingest']}", highlight=False)

    @student_app.command("simulate")
    def simulate(
        round_n: Annotated[int, typer.Option("--round", help="Simulate attempts at this round's accepted tasks.")],
        out: Annotated[Path, typer.Option("--out", help="Results root: <out>/pyautogui/screenshot/<model>/...")],
        seed: Annotated[int, typer.Option("--seed", help="Seed of the simulated outcomes.")] = 0,
        model: Annotated[str, typer.Option("--model", help="Model folder name in the results.")] = "simulated-student",
        db: DbOption = None,
    ) -> None:
        """SIMULATION: write OSWorld-layout results (result.txt, traj.jsonl) drawn from each skill's difficulty
        and family, including crashes and fractional scores. No agent runs; use it to exercise rounds offline."""
        from forge.catalog import Catalog
        from forge.student import simulate as run

        counts = run(Catalog(db), round_n, out, seed=seed, model=model)
        console.print(f"simulated {sum(counts.values())} attempts: {dict(sorted(counts.items()))} -> {out}",
                      highlight=False, markup=False)

    @skills_app.command("history")
    def history(
        skill: Annotated[str | None, typer.Option("--skill", help="Show this skill's lineage and reasons.")] = None,
        as_json: JsonOption = False,
        db: DbOption = None,
    ) -> None:
        """Skills per round and app (from the catalog), or with --skill the lineage of one skill: each
        ancestor with the operator, round and reason of every change."""
        from forge.catalog import Catalog
        from forge.history import lineage, per_round

        catalog = Catalog(db, read_only=True)
        if skill is not None:
            steps = lineage(catalog, skill)
            if as_json:
                print(json.dumps([s.__dict__ for s in steps], indent=2, default=str))
                return
            for step in steps:
                console.print(textline((step.skill_id, "bold"), f"  origin={step.origin} round={step.round} "
                                       f"operator={step.operator or '-'} params={step.params}"), highlight=False)
                for c in step.changes:
                    console.print(plain(f"  round {c['round']} {c['operator']} {c['action']}: {c['reason']}"),
                                  highlight=False, markup=False)
            return
        table_rows = per_round(catalog)
        if as_json:
            print(json.dumps(table_rows, indent=2))
            return
        apps = sorted({a for r in table_rows for a in r["by_app"]})
        table = Table("round", "skills", "added", "retired", "multi-app", *apps, title="taxonomy per round")
        for r in table_rows:
            table.add_row(str(r["round"]), str(r["skills"]), str(r["added"]), str(r["retired"]), str(r["multi_app"]),
                          *(cell(r["by_app"].get(a, 0)) for a in apps))
        console.print(table)
