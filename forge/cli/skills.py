"""`forge skills list` (the taxonomy as shipped), `forge skills failures` (a round's failures, per axis level or
mined by task feature) and `forge skills history` (the taxonomy per round, and a skill's lineage, from the
catalog)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from forge.cli import llm as cli_llm
from forge.cli.base import DbOption, JsonOption, console, err_console, group
from kit.errors import ForgeError
from kit.textsafe import cell, plain, textline

skills_app = group("skills", "Browse the skill taxonomy.")


@skills_app.command("list")
def skills_list(
    app_name: Annotated[str | None, typer.Option("--app", help="Only skills of this app.")] = None,
    as_json: JsonOption = False,
    space: Annotated[bool, typer.Option("--space", help="Also count the atomic skill space (family x knob "
                                        "values x difficulty-axis levels).")] = False,
) -> None:
    """List the atomic skills (id, family, app, difficulty, params)."""
    from kit.taxonomy import load_taxonomy

    skills = [s for s in load_taxonomy().values() if app_name is None or app_name in (s.app, *s.apps)]
    if app_name is not None and not skills:
        raise ForgeError(f"no skills for app {app_name!r}; run `forge skills list` to see the apps")
    if as_json:
        print(json.dumps([{"id": s.id, "family": s.family, "app": s.app, "apps": list(s.apps), "params": dict(s.params),
                           "difficulty": s.difficulty, "description": s.description} for s in skills], indent=2))
        return
    chains = sum(len(s.apps) > 1 for s in skills)
    title = f"{len(skills)} skills: {len(skills) - chains} atomic (single-app), {chains} chains (multi-app)"
    table = Table("id", "family", "app", "kind", "difficulty", "params", title=title)
    for s in skills:
        table.add_row(cell(s.id), cell(s.family), s.app, "chain" if len(s.apps) > 1 else "atomic", s.difficulty,
                      cell(json.dumps(dict(s.params))))
    console.print(table)
    if space:
        _print_space()


# --- issue 15: the atomic skill space and the failure analysis -------------------------------------------------

def _print_space() -> None:
    """The atomic skill space per app: family x knob combinations x difficulty-axis levels."""
    from kit.axes import space_size
    from workflows import families
    from workflows.composite import BUILT

    per_app: dict[str, list[int]] = {}
    for name, family in sorted(families().items()):
        if name not in BUILT:
            row = per_app.setdefault(name.split(".")[0], [0, 0])
            row[0] += 1
            row[1] += space_size(family.knobs, family.axes)
    table = Table("app", "families", "atomic skills (knobs x axis levels)", title="atomic skill space")
    for app_name, (n, size) in sorted(per_app.items()):
        table.add_row(app_name, str(n), str(size))
    console.print(table)
    console.print(f"total {sum(v[1] for v in per_app.values())} atomic skills", highlight=False)


@skills_app.command("failures")
def failures(
    round_n: Annotated[int, typer.Option("--round", help="The round whose attempts to analyse.")],
    as_json: JsonOption = False,
    db: DbOption = None,
    # issue 39: failure mining below the skill
    mine: Annotated[bool, typer.Option("--mine", help="Mine the failures instead: task features (instruction, "
                                       "files, values, checks, axes, knobs) and pairs of them that fail above the "
                                       "round's base rate (Fisher's exact test, Benjamini-Hochberg).")] = False,
    top: Annotated[int, typer.Option("--top", help="With --mine or --gaps: rows shown (the strongest first).")] = 20,
    gaps: Annotated[bool, typer.Option("--gaps", help="Capability gaps instead: the failures no significant mined "
                                       "pattern explains, grouped by failed check (else family), ranked, with the "
                                       "instruction words they share: candidate new families.")] = False,
    llm: Annotated[str | None, typer.Option("--llm", help="With --gaps: a model drafts one new family per gap "
                                            "(name, app, goal, an instruction, checks, knobs, near-misses), "
                                            "recorded for review as taxonomy_changes rows (operator draft): "
                                            "offline (a deterministic stand-in) or openai.")] = None,
    model: cli_llm.ModelOption = None,
    base_url: cli_llm.BaseUrl = None,
    api_key_env: cli_llm.ApiKeyEnv = None,
    config: cli_llm.ConfigFile = None,
) -> None:
    """The student's failures of one round per family x difficulty-axis level, with the rubric checks that failed
    there (what the expansion operators read; infrastructure failures left out). With --mine, the task features
    and pairs that fail above the round's base rate, with their effect sizes and adjusted p-values, and their
    verdicts on fresh probe tasks and the steering they led to. With --gaps, the failures no pattern explains,
    ranked: candidate new capabilities; add --llm to have a model draft a family for each (kept for review:
    `forge sql "SELECT skill_id, stats FROM taxonomy_changes WHERE operator = 'draft'"`)."""
    from forge.catalog import Catalog
    from forge.expand import catalog_taxonomy
    from forge.expand.analysis import analyse_round

    if llm is not None and not gaps:
        raise ForgeError("--llm drafts families from capability gaps: add --gaps")
    drafting = llm is not None or any(v is not None for v in (model, base_url, api_key_env, config))
    catalog = Catalog(db, read_only=not drafting)
    if gaps:
        found = _print_gaps(catalog, round_n, top, as_json, show=not (drafting and as_json))
        if drafting:
            from forge.llm.flags import LLMFlags

            _draft(catalog, round_n, found[:top], LLMFlags(config, llm, model, base_url, api_key_env), as_json)
        return
    if mine:
        _print_mined(catalog, round_n, top, as_json)
        return
    rows = analyse_round(catalog, round_n, catalog_taxonomy(catalog)).rows()
    if as_json:
        print(json.dumps(rows, indent=2, default=str))
        return
    table = Table("family", "axis", "level", "attempts", "success rate", "failed checks",
                  title=f"failures of round {round_n} per family x axis level")
    for r in rows:
        rate = "-" if r["success_rate"] is None else f"{r['success_rate']:.2f}"
        checks = ", ".join(f"{c} x{n}" for c, n in r["failed_checks"].items())
        table.add_row(cell(r["family"]), cell(r["axis"]), cell(str(r["level"])), str(r["attempts"]), rate,
                      cell(checks))
    console.print(table)


def _acted_on(catalog: Any, round_n: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The probe verdicts on the patterns mined in round N (recorded by rounds N+1 and, for a pending one, N+2:
    the last word kept) and the steering the next rounds did toward them."""
    verdicts: dict[str, dict[str, Any]] = {}
    steering: list[dict[str, Any]] = []
    for later in (round_n + 1, round_n + 2):
        row = catalog.round_row(later)
        expansion = row.counts.get("expansion", {}) if row is not None else {}
        for c in expansion.get("confirmation", []):
            if c.get("mined_round") == round_n:
                verdicts[c["pattern"]] = {**c, "judged_in_round": later}
        steering += [{**s, "round": later} for s in expansion.get("steering", []) if s["pattern"] in verdicts]
    return list(verdicts.values()), steering


def _print_mined(catalog: Any, round_n: int, top: int, as_json: bool) -> None:
    from forge.mining import ALPHA, mine, round_records

    records = round_records(catalog, round_n)
    patterns = mine(records)
    failed = sum(r.failed for r in records)
    verdicts, steering = _acted_on(catalog, round_n)
    if as_json:
        print(json.dumps({"round": round_n, "attempts": len(records), "failed": failed, "alpha": ALPHA,
                          "patterns": [p.as_dict() for p in patterns[:top]],
                          "confirmation": [{k: v for k, v in c.items() if not k.endswith("_ids")} for c in verdicts],
                          "steering": steering}, indent=2))
        return
    found = sum(p.significant for p in patterns)
    console.print(plain(f"round {round_n}: {failed} of {len(records)} attempts failed; {len(patterns)} patterns "
                        f"tested, {found} significant (Benjamini-Hochberg q <= {ALPHA})"), highlight=False)
    if not found:
        console.print("no pattern explains the failures beyond chance: nothing to act on", highlight=False)
    table = Table("pattern", "tasks", "fail rate with", "fail rate without", "odds ratio", "q", "failed checks",
                  title=f"mined failure patterns of round {round_n}")
    for p in patterns[:top]:
        table.add_row(cell(p.name + (f" (= {', '.join(p.aliases)})" if p.aliases else "")), str(p.n_with),
                      f"{p.rate_with:.0%} ({p.failed_with}/{p.n_with})",
                      f"{p.rate_without:.0%} ({p.failed_without}/{p.n_without})", f"{p.odds_ratio:.1f}",
                      f"{p.q:.2g}" + (" *" if p.significant else ""),
                      cell(", ".join(f"{c} x{n}" for c, n in p.checks.items())))
    console.print(table)
    if not verdicts:
        console.print(f"no pattern of round {round_n} was probed yet (round {round_n + 1} probes them when it is "
                      "prepared)", highlight=False)
        return
    checked = Table("pattern", "verdict", "probes carrying it failed", "probes without failed", "p (one-sided)",
                    "judged in round", title=f"confirmation of round {round_n}'s patterns on fresh probe tasks")
    for c in verdicts:
        p_value = "-" if c.get("p") is None else f"{c['p']:.2g}"
        checked.add_row(cell(c["pattern"]), c["status"], f"{c['probes_failed_carrying']}/{c['probes_carrying']}",
                        f"{c['probes_failed_other']}/{c['probes_other']}", p_value, str(c["judged_in_round"]))
    console.print(checked)
    for s in steering:
        console.print(plain(f"round {s['round']} steered {s['tasks']} of {s['wanted']} tasks toward {s['pattern']!r} "
                            f"({s['share']:.0%} of its budget) in {s['tries']} tries, at most {s['max_tries']} a task"
                            + (f"; {s['exhausted']} ran out of tries" if s["exhausted"] else "")
                            + (f"; {s['stopped']}" if s.get("stopped") else "")), highlight=False)


def _print_gaps(catalog: Any, round_n: int, top: int, as_json: bool, show: bool = True) -> list[Any]:
    """Print the round's capability gaps (unless not `show`: the caller prints them); returns them all."""
    from forge.mining import gaps, mine, primary, round_records

    records = round_records(catalog, round_n)
    patterns = mine(records)
    found = gaps(records, patterns)
    explained = len(primary(records, patterns)[1])
    failed = sum(r.failed for r in records)
    if not show:
        return found
    if as_json:
        print(json.dumps({"round": round_n, "attempts": len(records), "failed": failed, "explained": explained,
                          "gaps": [g.as_dict() for g in found[:top]]}, indent=2))
        return found
    console.print(plain(f"round {round_n}: {failed} of {len(records)} attempts failed; {explained} explained by a "
                        f"significant mined pattern; {len(found)} groups of unexplained failures"), highlight=False)
    table = Table("gap (failed check or family)", "unexplained failures", "fail rate", "p", "shared instruction words",
                  "example", title=f"capability gaps of round {round_n}: candidate new capabilities")
    for g in found[:top]:
        table.add_row(cell(g.key), str(g.unexplained), f"{g.failed}/{g.tasks}", f"{g.p:.2g}", cell(", ".join(g.words)),
                      cell(g.examples[0] if g.examples else ""))
    console.print(table)
    return found


def _draft(catalog: Any, round_n: int, found: list[Any], flags: Any, as_json: bool) -> None:
    """Draft a family per gap with the flags' backend, record the drafts, print them (and each refusal)."""
    from forge.expand.draft import draft_families, record
    from forge.llm.ledger import make_backend

    backend = make_backend(flags.settings(), catalog)
    drafts, refusals = draft_families(found, round_n=round_n, backend=backend)
    kept = record(catalog, round_n, drafts)
    for line in refusals:
        err_console.print(plain(f"refused: {line}"), highlight=False)
    if as_json:
        print(json.dumps({"round": round_n, "gaps": [g.as_dict() for g in found],
                          "drafts": [d.as_dict() for d in drafts], "refused": refusals}, indent=2))
        return
    if not found:
        console.print("no capability gap: nothing to draft", highlight=False)
        return
    table = Table("draft family", "app", "from gap", "goal", "checks", "knobs", "near-misses", "to do",
                  title=f"{kept} family drafts by {backend.name}, kept for review (taxonomy_changes, operator draft)")
    for d in drafts:
        table.add_row(cell(d.name), d.app, cell(d.gap), cell(d.goal),
                      cell(", ".join(p + ("" if registered else " (new)") for p, _, registered in d.checks)),
                      cell(", ".join(f"{k}: {'/'.join(v)}" for k, v in d.knobs.items())),
                      str(len(d.near_misses)), cell("; ".join(d.notes)))
    console.print(table)


@skills_app.command("history")
def history(
    skill: Annotated[str | None, typer.Option("--skill", help="Show this skill's lineage and reasons.")] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Skills per round and app (from the catalog), or with --skill the lineage of one skill: each
    ancestor with the operator, round and reason of every change."""
    from forge.catalog import Catalog

    catalog = Catalog(db, read_only=True)
    if skill is not None:
        _print_lineage(catalog, skill, as_json)
    else:
        _print_per_round(catalog, as_json)


def _print_lineage(catalog: Any, skill: str, as_json: bool) -> None:
    from forge.history import lineage

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


def _print_per_round(catalog: Any, as_json: bool) -> None:
    from forge.history import per_round

    table_rows = per_round(catalog)
    if as_json:
        print(json.dumps(table_rows, indent=2))
        return
    apps = sorted({a for r in table_rows for a in r["by_app"]})
    table = Table("round", "skills", "atomic", "chains", "added atomic", "added chains", "retired", *apps,
                  title="taxonomy per round (atomic: single-app skills; chains: multi-app skills)")
    for r in table_rows:
        table.add_row(str(r["round"]), str(r["skills"]), str(r["atomic"]), str(r["chains"]), str(r["added_atomic"]),
                      str(r["added_chains"]), str(r["retired"]), *(cell(r["by_app"].get(a, 0)) for a in apps))
    console.print(table)
