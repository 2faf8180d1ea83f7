"""A SIMULATED student: writes OSWorld-layout results for a round's accepted tasks, without running any agent.

This is a stand-in so feedback rounds run offline end to end; its numbers say nothing about a real model.
Each task's outcome is drawn from its own `random.Random` (seed, task id): the chance of success falls with
the skill's difficulty (easy 0.85, medium 0.6, hard 0.35), times a fixed aptitude per family (0.55..1.1,
hashed from the family name, so some families are systematically weak); for a composite skill it is the
product over its parts, for a variant with look-alike copies 0.8 x its base's. About 3 % of runs crash
(traj.jsonl ends with an `{"Error": ...}` line, no result.txt); about 30 % of the failed runs score a fraction
(0.25, 0.5 or 0.75), as OSWorld's "and" metrics do.

Layout: `<out>/pyautogui/screenshot/<model>/<domain>/<task_id>/{result.txt, traj.jsonl}`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from sqlalchemy import select

from forge.catalog import Catalog, TaskRow
from forge.expand import catalog_taxonomy
from forge.ids import derive_seed
from forge.taxonomy import Skill
from workflows.composite import part_ids, seed_parts
from workflows.distractors import NAME as DISTRACTORS

MODEL = "simulated-student"
BASE = {"easy": 0.85, "medium": 0.6, "hard": 0.35}
CRASH = 0.03
FRACTIONAL = 0.3


def aptitude(family: str) -> float:
    """A fixed per-family factor in 0.55..1.1: the simulated student's strengths and weaknesses."""
    return 0.55 + 0.55 * (derive_seed("aptitude", family) % 1000) / 999


def success_chance(skill: Skill, taxonomy: dict[str, Skill]) -> float:
    """Composites: the product over their parts; a variant with look-alike copies: its base's, times 0.8."""
    parts = part_ids(skill.family, skill.params)
    if not parts:
        return min(1.0, BASE.get(skill.difficulty, 0.6) * aptitude(skill.family))
    chance = 0.8 if skill.family == DISTRACTORS else 1.0
    for part_id in parts:
        part = taxonomy.get(part_id)
        family = part.family if part else seed_parts()[part_id].family
        chance *= min(1.0, BASE[part.difficulty if part else "medium"] * aptitude(family))
    return chance


def simulate(catalog: Catalog, round_n: int, out: Path, *, seed: int = 0, model: str = MODEL) -> Counter[str]:
    """Write one result folder per accepted task of round `round_n`; returns counts (success, fail,
    fractional, crash)."""
    taxonomy = catalog_taxonomy(catalog)
    with catalog.session() as session:
        tasks = list(session.execute(select(TaskRow.id, TaskRow.skill_id, TaskRow.app)
                                     .where(TaskRow.round == round_n, TaskRow.status == "accepted")
                                     .order_by(TaskRow.id)))
    counts: Counter[str] = Counter()
    for task_id, skill_id, app in tasks:
        rng = random.Random(derive_seed(seed, model, task_id))
        folder = out / "pyautogui" / "screenshot" / model / app / task_id
        folder.mkdir(parents=True, exist_ok=True)
        steps = rng.randint(3, 25)
        lines = [{"step_num": i, "action": "pyautogui.click()", "response": "(simulated)", "reward": 0, "done":
                  i == steps, "info": {}, "screenshot_file": f"step_{i}.png"} for i in range(1, steps + 1)]
        if rng.random() < CRASH:
            lines = lines[:rng.randint(1, steps)] + [{"Error": "simulated crash: the VM stopped responding"}]
            (folder / "result.txt").unlink(missing_ok=True)
            counts["crash"] += 1
        else:
            skill = taxonomy.get(skill_id)
            chance = success_chance(skill, taxonomy) if skill else 0.5
            if rng.random() < chance:
                score, kind = 1.0, "success"
            elif rng.random() < FRACTIONAL:
                score, kind = rng.choice((0.25, 0.5, 0.75)), "fractional"
            else:
                score, kind = 0.0, "fail"
            (folder / "result.txt").write_text(f"{score}\n")
            counts[kind] += 1
        (folder / "traj.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return counts
