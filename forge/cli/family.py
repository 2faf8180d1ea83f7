"""`forge family list` (every family in one table), `forge family show NAME` (one family whole) and `forge family
test NAME` (every test suite about one family, the real-app run included)."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from forge.cli.base import JsonOption, console, group
from kit.textsafe import cell, plain

family_app = group("family", "Read the workflow families: list them, show one whole, run one's tests.")

#: Longest argument value `forge family show` prints in full (a check's `rows` may be a whole table).
VALUE_WIDTH = 70


@family_app.command("list")
def family_list(
    app_name: Annotated[str | None, typer.Option("--app", help="Only families that open this app.")] = None,
    as_json: JsonOption = False,
) -> None:
    """List every workflow family: its id, apps, number of seed skills and its goal in one line."""
    from forge.family_info import summaries

    rows = summaries(app_name)
    if as_json:
        print(json.dumps([{"family": r.name, "apps": list(r.apps), "skills": r.skills, "goal": r.goal}
                          for r in rows], indent=2))
        return
    table = Table("family", "apps", "skills", "goal", title=f"{len(rows)} families")
    for r in rows:
        table.add_row(cell(r.name), cell(", ".join(r.apps)), str(r.skills), cell(r.goal))
    console.print(table)


@family_app.command("show")
def family_show(
    name: Annotated[str, typer.Argument(help="The family id, e.g. calc.fill_blanks (`forge family list`).")],
    as_json: JsonOption = False,
    no_mutants: Annotated[bool, typer.Option("--no-mutants", help="Do not list the mutants (skips running the "
                                             "sample task's setup.sh in the sandbox).")] = False,
) -> None:
    """Print one family whole: knobs, axes, nodes and their inputs, the checks with how an instruction must state
    each argument, the oracle and near-misses, the mutants that apply, the phrasings, and one sample instruction per
    register. Checks, near-misses, mutants and instructions come from one sample task built offline (the family's
    first seed skill, seed 1), so the output is the same on every run."""
    from forge.family_info import describe

    info = describe(name, mutants=not no_mutants)
    if as_json:
        print(json.dumps(info, indent=2, default=str))
        return
    for line in _show_lines(info):
        print(plain(line))


def _short(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= VALUE_WIDTH else text[:VALUE_WIDTH - 3] + "..."


def _values(values: Any) -> str:
    return ", ".join(map(str, values)) if isinstance(values, list) else str(values)


def _show_lines(info: dict[str, Any]) -> list[str]:
    """`forge family show` as text, section by section."""
    lines = [f"{info['name']}  ({info['module']}, version {info['version']}, signature {info['signature']})",
             f"apps: {', '.join(info['apps'])}",
             f"goal: {info['description']}",
             f"skills ({len(info['skills'])}): {', '.join(info['skills']) or 'none in the seed taxonomy'}",
             "knobs:", *(f"  {k}: {_values(v)}" for k, v in info["knobs"].items())]
    if not info["knobs"]:
        lines.append("  (none)")
    lines.append("axes (levels, default first):")
    lines += [f"  {a}: {_values(v)}" for a, v in info["axes"].items()] or ["  (none)"]
    lines.append("nodes (run order; a family function's parameter names are its inputs):")
    width = max(len(n["name"]) for n in info["nodes"])
    lines += [f"  {n['name']:<{width}}  {n['kind']:<11}  {', '.join(n['inputs'])} -> {', '.join(n['outputs'])}"
              for n in info["nodes"]]
    sample = info["sample"]
    lines.append(f"sample task: skill {sample['skill']}, params {json.dumps(sample['params'])}, seed {sample['seed']}")
    lines.append("checks (how an instruction must state each argument; in the natural register a literal the initial "
                 "file shows may be left out):")
    for check in info["checks"]:
        action = (f"; action words: {check['action']}" if check["action"] else
                  f"; no action words ({check['no_action_because']})" if check["no_action_because"] else "")
        lines.append(f"  {check['id']}: {check['primitive']}{action}")
        lines += [f"    {g['arg']}={_short(g['value'])}: {g['how']}" for g in check["grounded"]]
        if check["consistent"]:
            lines.append(f"    the instruction says exactly one {check['consistent']}, none contradicting it")
        if check["secret"]:
            lines.append(f"    never in the instruction (answers): {', '.join(check['secret'])}")
    lines.append(f"oracle: {info['oracle']}")
    lines.append("near-misses (the rubric must reject each):")
    lines += [f"  {m['name']}: {m['description']}" for m in info["near_misses"]] or ["  (none)"]
    mutants = info["mutants"]
    if "kinds" in mutants:
        lines.append("mutants the mutators offer on the sample's oracle state (damaging: rejected; neutral: accepted):")
        for kind in ("damaging", "neutral"):
            names = [m["mutator"] + (f" x{m['count']}" if m["count"] > 1 else "")
                     for m in mutants["kinds"] if m["kind"] == kind]
            lines.append(f"  {kind}: {', '.join(names) or '(none)'}")
    else:
        lines.append(f"mutants: not listed ({mutants['not_listed']})")
    for register in ("explicit", "natural"):
        phrasings = info["phrasings"][register]
        lines.append(f"phrasings, {register} ({len(phrasings)}):")
        lines += [f"  {i}. {p}" for i, p in enumerate(phrasings, 1)] or [
            "  (none)" if register == "natural" else "  (composed by the family's own instruction node)"]
    for register in ("explicit", "natural"):
        text = info["instructions"][register]
        lines.append(f"sample instruction, {register}:")
        lines.append(f"  {' '.join(text.split())}" if text else "  (none: the family has no natural phrasings)")
    return lines


@family_app.command("test")
def family_test(
    name: Annotated[str, typer.Argument(help="The family id, e.g. calc.fill_blanks (`forge family list`).")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the pytest command instead of running it.")
                       ] = False,
) -> None:
    """Run every test suite that covers one family, the real-app run (LibreOffice / Thunderbird, skipped with a
    reason when not installed) and the family's own test file included: pytest with `--family NAME` over the suites
    of a source checkout (needs `pip install -e '.[dev]'`). Exit status: pytest's."""
    import forge
    from forge.family_info import pytest_command

    root = Path(forge.__file__).resolve().parent.parent
    command = pytest_command(name, root)
    print(f"python3 -m {shlex.join(command[2:])}")
    if dry_run:
        return
    code = subprocess.run(command, cwd=root, check=False).returncode
    raise typer.Exit(code)
