"""`forge verify` (the gate on existing packages), `forge solve` (materialize a task's state and apply a solution)
and `forge check` (a package's rubric on a state an agent left)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from forge.cli.base import NoSandbox, ScriptTimeout, app, console, err_console, sandbox
from kit import bounded
from kit.errors import ForgeError
from kit.textsafe import textline


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(help="Package folders, or folders to search for task.json.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per package.")] = False,
    db: Annotated[str | None, typer.Option("--db", help="Also reject duplicates of tasks accepted in this catalog.")
                  ] = None,
    no_sandbox: NoSandbox = False,
    timeout: ScriptTimeout = 60.0,
) -> None:
    """Run the gate on existing packages (made by Forge or not) and print each one's class.

    Every stage runs, the mutation control with every mutant the mutators offer, as in generation; `forge show
    <id>` prints the mutation table in the catalog.
    Exit status 1 if any package is not accepted.
    """
    from forge.catalog import Catalog
    from forge.solve import LocalEnv
    from forge.workers import gate_runner
    from verifiers.gate.stages import Gate

    folders = _package_folders(paths)
    chosen = sandbox(no_sandbox, timeout)
    env = LocalEnv(chosen, Catalog(db, read_only=True).find_duplicate if db else None)
    with gate_runner(chosen) as (runner, workdir):
        gate = Gate(env, runner=runner, workdir=workdir)
        statuses = [_report(gate.verify(folder), folder, as_json) for folder in folders]
    totals = Counter(statuses)
    line = ", ".join(f"{count} {status}" for status, count in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))
    # with --json, stdout stays one object per package; the totals go to stderr
    (err_console if as_json else console).print(f"total: {len(statuses)} packages: {line}", highlight=False)
    if any(s != "accepted" for s in statuses):
        raise typer.Exit(1)


def _report(verdict: Any, folder: Path, as_json: bool) -> str:
    """Print one verdict (a line of JSON or a colored line); returns its class."""
    if as_json:
        print(json.dumps({"path": str(folder), "task_id": verdict.task_id, "status": verdict.status,
                          "stages": [{"name": s.name, "passed": s.passed, "evidence": s.evidence}
                                     for s in verdict.stages]}))
    else:
        console.print(textline((f"{verdict.status:<15}", "green" if verdict.accepted else "red"), f" {folder}  ",
                               "" if verdict.accepted else verdict.evidence), highlight=False, soft_wrap=True)
    return str(verdict.status)


def _package_folders(paths: list[Path]) -> list[Path]:
    folders: list[Path] = []
    for path in paths:
        if not path.exists():
            raise ForgeError(f"{path}: no such file or folder")
        if (path / "task.json").exists() or not path.is_dir():
            folders.append(path)
        else:
            try:  # descriptors, no recursion, links not entered: a hostile tree cannot crash or mislead the search
                found = sorted(path / e.rel for e in bounded.walk(path, descend=lambda e: not e.is_package)
                               if e.is_dir and e.is_package)
            except (bounded.LimitExceeded, OSError) as exc:
                raise ForgeError(f"{path}: cannot search this folder for packages ({exc})") from None
            if not found:
                raise ForgeError(f"{path}: no task.json found in or below this folder")
            folders.extend(found)
    return folders


@app.command()
def solve(
    path: Annotated[Path, typer.Argument(help="A package folder.")],
    state: Annotated[Path, typer.Option("--state", help="An empty folder standing for /home/user.")],
    solution: Annotated[str, typer.Option("--solution", help="oracle, near-miss, near-miss-N, or none.")] = "oracle",
    no_sandbox: NoSandbox = False,
    timeout: ScriptTimeout = 60.0,
) -> None:
    """Materialize the task's initial state into STATE (setup.sh in the sandbox), then apply a solution.

    The package must pass the gate's safety and schema stages; solution ops run in a sandboxed worker."""
    from forge.solve import solve as solve_package
    from kit.package import load_package

    evidence = solve_package(load_package(path), sandbox(no_sandbox, timeout, single=True), state, solution)
    console.print(textline(f"{state}: {evidence}"), highlight=False)


@app.command()
def check(
    path: Annotated[Path, typer.Argument(help="A package folder.")],
    state: Annotated[Path, typer.Option("--state", help="The folder an agent left behind (stands for /home/user).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    no_sandbox: NoSandbox = False,
) -> None:
    """Evaluate the package's rubric against a state folder; print every check with evidence.

    The state is untrusted: it is copied (no link followed, no fifo opened) into a sandboxed check worker with
    memory, CPU and size limits; a bomb or a trap fails its check with evidence. Exit status 0 if all checks
    pass, 1 otherwise.
    """
    from forge.solve import check_state
    from kit.package import load_package

    if not state.is_dir() or state.is_symlink():
        raise ForgeError(f"--state {state}: not a folder; run `forge solve` first or point at an agent's home")
    package = load_package(path)
    outcomes = check_state(package, sandbox(no_sandbox, single=True), state)
    passed = all(o["passed"] for o in outcomes)
    if as_json:
        print(json.dumps({"task_id": package.id, "passed": passed, "checks": outcomes}, indent=2))
    else:
        for o in outcomes:
            console.print(textline(("PASS", "green") if o["passed"] else ("FAIL", "red"),
                                   f" {o['id']}: {o['criterion']}\n      {o['evidence']}"), highlight=False)
        console.print(textline(f"{package.id}: {'passed' if passed else 'failed'}"), highlight=False)
    if not passed:
        raise typer.Exit(1)
