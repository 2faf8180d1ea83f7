"""Difficulty axes (issue 15): every non-default level of every app kit's axes makes a task the real gate accepts
(one family per app, seeds 1-2); a skill that names an axis at its default level gets the seed skill's package
byte for byte (the kit draws the same random numbers); the atomic skill space is counted."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kit.axes import space_size
from kit.dag import NodeContext
from kit.llm import OfflineBackend
from tests.gatekit import gate_package, make_package
from workflows import families

#: One family per app whose kit declares axes, with one knob combination (its seed skill's).
SAMPLES = {"calc": ("calc.summary_cell", None),
           "writer": ("writer.alignment", None), "impress": ("impress.slide_title", None),
           "gimp": ("gimp.rotate", None), "vscode": ("vscode.editor_setting", None),
           "tb": ("tb.move_messages", None)}  # every TB family and level: tests/workflows/test_axes_tb.py


def _params(name: str, params: dict | None) -> dict:
    if params is not None:
        return params
    from forge.expand.variant import seeds_by_family

    return dict(seeds_by_family()[name][0].params)


LEVELS = [(app, axis, level) for app, (name, _) in SAMPLES.items() if name in families()
          for axis, levels in sorted(families()[name].axes.items()) for level in levels[1:]]


@pytest.mark.parametrize(("app", "axis", "level"), LEVELS, ids=[f"{a}-{x}-{lv}" for a, x, lv in LEVELS])
def test_every_axis_level_passes_the_gate(app, axis, level, tmp_path: Path):
    name, params = SAMPLES[app]
    family = families()[name]
    for seed in (1, 2):
        folder = make_package(family, {**_params(name, params), axis: level}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder)
        assert verdict.status == "accepted", (name, axis, level, seed, verdict.evidence)


def _digest(name: str, params: dict) -> str:
    """A hash of what the task is (assets, instruction, rubric), leaving out the params it records."""
    family = families()[name]
    outputs = family.run(NodeContext(params, 1, "test.skill", 0, OfflineBackend()))
    parts = [a.dest.encode() + b"\0" + a.data for a in outputs["assets"]]
    parts += [outputs["instruction"].encode(), repr(outputs["rubric"]).encode()]
    return hashlib.sha256(b"\x1e".join(parts)).hexdigest()


@pytest.mark.parametrize("app", sorted(SAMPLES))
def test_a_default_level_changes_nothing_and_a_moved_level_changes_the_task(app):
    name, params = SAMPLES[app]
    family = families()[name]
    base = _params(name, params)
    defaults = {axis: levels[0] for axis, levels in family.axes.items()}
    assert defaults, f"{name} declares axes"
    assert _digest(name, {**base, **defaults}) == _digest(name, base)
    for axis, levels in family.axes.items():
        assert _digest(name, {**base, axis: levels[-1]}) != _digest(name, base), (name, axis)


def test_axis_levels_are_checked_like_knobs():
    family = families()["calc.sort_rows"]
    assert family.check_params({"key_kind": "date", "order": "desc", "rows": "32-40"}) is None
    assert "allows" in family.check_params({"key_kind": "date", "order": "desc", "rows": "500"})


def test_atomic_skill_space():
    """family x knob combinations x axis levels; printed so a run shows the number."""
    from workflows.composite import BUILT

    total = sum(space_size(f.knobs, f.axes) for name, f in families().items() if name not in BUILT)
    print(f"atomic skill space: {total}")
    assert total >= 8000


# --- size and indirection (hSize): the last level of each new axis, for every family of the kit ------------------

#: axis -> its last level, for the apps whose kit (or families) declare it.
NEW_LEVELS = {"rows": "120-200", "paragraphs": "24-32", "deck_slides": "14-20", "indirection": "property"}
BIG = [(name, axis, levels[-1]) for name, f in sorted(families().items())
       if name.split(".")[0] in ("calc", "writer", "impress")
       for axis, levels in sorted(f.axes.items()) if axis in NEW_LEVELS]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "axis", "level"), BIG, ids=[f"{n}-{a}" for n, a, _ in BIG])
def test_the_last_size_and_indirection_levels_pass_the_gate_with_every_mutant(name, axis, level, tmp_path: Path):
    assert NEW_LEVELS[axis] == level, f"{name}: the last level of {axis} moved; update NEW_LEVELS"
    folder = make_package(families()[name], {**_params(name, None), axis: level}, tmp_path, seed=1)
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "accepted", (name, axis, level, verdict.evidence)


def test_bigger_tables_hold_the_rows_they_ask_for():
    import random

    from workflows.calc.content import SCENARIOS, check_table, generate_table, scenarios_for

    assert scenarios_for(40) == SCENARIOS  # up to the seed cap every scenario fits: seed draws are unchanged
    assert 4 <= len(scenarios_for(200)) < len(SCENARIOS)
    for name in scenarios_for(200):
        table = generate_table(random.Random(7), n_rows=200, scenario=name)
        assert len(table["rows"]) == 200 and check_table(table) == "", name
    too_small = sorted(set(SCENARIOS) - set(scenarios_for(200)))[0]
    with pytest.raises(ValueError, match="cannot hold 200"):
        generate_table(random.Random(7), n_rows=200, scenario=too_small)


def _outputs(name: str, params: dict) -> dict:
    return families()[name].run(NodeContext(params, 1, "test.skill", 0, OfflineBackend()))


def test_size_levels_make_the_document_and_the_deck_that_long():
    from workflows.writer.more_sections import body_count

    for level in ("12-18", "24-32"):
        out = _outputs("writer.alignment", {**_params("writer.alignment", None), "paragraphs": level})
        low, high = map(int, level.split("-"))
        assert low <= body_count(out["document"]) <= high
    for level in ("8-12", "14-20"):
        out = _outputs("impress.slide_title", {**_params("impress.slide_title", None), "deck_slides": level})
        low, high = map(int, level.split("-"))
        assert low + 1 <= len(out["deck"].slides) <= high + 1  # the cover, then the content slides


def test_indirection_names_the_column_by_what_it_holds_and_grounding_needs_one_or_the_other(tmp_path: Path):
    import json

    name = "calc.sort_rows"
    params = {"key_kind": "date", "order": "asc"}
    by_name = _outputs(name, params)
    folder = make_package(families()[name], {**params, "indirection": "property"}, tmp_path, seed=1)
    task = json.loads((folder / "task.json").read_text())
    header = next(c for c in task["rubric"] if c["primitive"] == "xlsx.range_sorted")["args"]["header"]
    assert f"'{header}'" in by_name["instruction"]
    assert header not in task["instruction"] and "the date column" in task["instruction"]
    assert gate_package(folder).status == "accepted"
    # the same task naming neither the header nor a property of the column is not grounded
    task["instruction"] = task["instruction"].replace("the date column", "the column")
    (folder / "task.json").write_text(json.dumps(task))
    verdict = gate_package(folder)
    assert verdict.status == "grounding_fail" and "header" in verdict.evidence, verdict.evidence
