"""Chains: multi-app skills in which one step consumes another's output, and their steps.

A chain is a `multi.*` family: the attachment saved from a mail is the Calc input, the Calc total goes into the
Writer report. `STEPS` names, for each chain family, the single-app families that are its steps (what a person
must be able to do to do the chain). Unrelated "first A, then B" pairs are not chains and are never added.
- `decompose`: a chain the student fails gets its steps as skills, at the chain's failing axis levels where the
  step's family has that axis; steps that exist already (the seed skills) get more practice (`step_skills`: their
  weight rises, a `decompose` reweight row);
- `chain`: when the student passes every step of a chain, the chain joins at the levels its steps passed: the
  same knob combinations of the chain family, one axis level at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.expand import MIN_ATTEMPTS, SATURATED, WEAK, Candidate
from forge.expand.analysis import Analysis
from forge.expand.variant import atomic_families, failing_levels, new_candidate, seeds_by_family
from kit.taxonomy import Skill

DECOMPOSE = "decompose"
CHAIN = "chain"

#: Chain family -> its steps' single-app families (the step that produces data first).
STEPS: dict[str, tuple[str, ...]] = {
    "multi.attachment_folder": ("tb.save_attachment", "os.organize"),
    "multi.attachment_sheet": ("tb.save_attachment", "calc.sort_rows", "calc.totals_row"),
    "multi.config_vscode": ("os.config_edit", "vscode.editor_setting", "vscode.workspace_settings"),
    "multi.doc_slides": ("writer.heading", "impress.add_slide", "impress.notes"),
    "multi.folder_inventory": ("os.count", "calc.sort_rows"),
    "multi.image_slide": ("gimp.resize", "gimp.export", "impress.image"),
    "multi.link_bookmark": ("chrome.add_bookmark", "chrome.bookmark_folder"),
    "multi.senders_sheet": ("tb.move_messages", "calc.sort_rows"),
    "multi.sheet_contacts": ("calc.autofilter", "tb.add_contact"),
    "multi.sheet_doc_table": ("calc.sort_rows", "writer.table_insert"),
    "multi.totals_report": ("calc.summary_cell", "writer.find_replace"),
}


def steps_of(family: str) -> tuple[str, ...]:
    """The step families of a chain family that exist in this code (none for a single-app family)."""
    return tuple(f for f in STEPS.get(family, ()) if f in atomic_families())


def failing_chains(analysis: Analysis) -> dict[str, dict[str, list[Any]]]:
    """Chain families the student fails (at some axis level, or overall over MIN_ATTEMPTS attempts), with their
    failing levels."""
    out = {}
    for chain in sorted(analysis.families):
        if chain not in STEPS or chain not in atomic_families():
            continue
        tally = analysis.families[chain]
        bad = failing_levels(analysis, chain)
        if bad or (tally.rate is not None and tally.rate <= WEAK and tally.attempts >= MIN_ATTEMPTS):
            out[chain] = bad
    return out


def decompose(analysis: Analysis, taxonomy: Mapping[str, Skill], *, round_n: int, taken: set[str]
              ) -> list[Candidate]:
    """For each failing chain family: its steps as skills at the chain's failing axis levels (where the step's
    family has that axis). A step whose skills exist at those levels already (a chain failed at its default
    levels: the steps are seed skills) gets practice instead: see `step_skills`."""
    out = []
    for chain, bad in failing_chains(analysis).items():
        tally = analysis.families[chain]
        where = ", ".join(f"{a}={lv}" for a, lvs in sorted(bad.items()) for lv in lvs) or "every level"
        for step in steps_of(chain):
            axes = atomic_families()[step].axes
            levels = {a: lvs[-1] for a, lvs in bad.items() if a in axes and lvs[-1] in axes[a][1:]}
            if not levels:
                continue
            reason = (f"chain {chain} fails ({tally.successes}/{tally.attempts}; at {where}): its step {step} as a "
                      f"skill at {levels}")
            for base in seeds_by_family().get(step, ()):
                cand = new_candidate(base, levels, round_n, DECOMPOSE, reason,
                                     {"chain": chain, "step": step, **tally.as_dict()}, taken)
                if cand:
                    out.append(cand)
    return out


def step_skills(analysis: Analysis) -> dict[str, str]:
    """Seed skills of the steps of each failing chain (skill id -> the reason): the round practises them more."""
    out: dict[str, str] = {}
    for chain in failing_chains(analysis):
        tally = analysis.families[chain]
        for step in steps_of(chain):
            for base in seeds_by_family().get(step, ()):
                out.setdefault(base.id, f"a step ({step}) of chain {chain}, which the student fails "
                                        f"({tally.successes}/{tally.attempts})")
    return out


def chain(analysis: Analysis, *, round_n: int, taken: set[str]) -> list[Candidate]:
    """For each chain family whose every step the student passes (and which it has not failed): the chain's knob
    combinations at each non-default axis level its steps passed."""
    out = []
    for family in sorted(STEPS):
        steps = steps_of(family)
        if family not in atomic_families() or not steps or failing_levels(analysis, family):
            continue
        rates = {s: analysis.families[s].rate for s in steps if s in analysis.families}
        if len(rates) < len(steps) or any(r is None or r < SATURATED for r in rates.values()):
            continue
        axes = atomic_families()[family].axes
        passed = sorted({(a, lv) for s in steps for (f, a, lv), t in analysis.levels.items()
                         if f == s and a in axes and lv in axes[a][1:] and t.rate is not None
                         and t.rate >= SATURATED})  # a step's axis may share the name but not the levels
        reason = (f"every step of chain {family} passes ({', '.join(f'{s} {r:.2f}' for s, r in rates.items())}): "
                  "the chain, where one step's output is the next step's input")
        for base in seeds_by_family().get(family, ()):
            for axis, level in passed:
                cand = new_candidate(base, {axis: level}, round_n, CHAIN, reason,
                                  {"chain": family, "steps": rates, "axis": axis, "level": level}, taken)
                if cand:
                    out.append(cand)
    return out
