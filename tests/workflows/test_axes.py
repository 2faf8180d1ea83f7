"""Difficulty axes (issue 15): every non-default level of every app kit's axes makes a task the real gate accepts
(one family per app, seeds 1-2); a skill that names an axis at its default level gets the seed skill's package
byte for byte (the kit draws the same random numbers); the atomic skill space is counted."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from forge.axes import space_size
from forge.dag import NodeContext
from forge.llm import OfflineBackend
from tests.gatekit import gate_package, make_package
from workflows import families

#: One family per app whose kit declares axes, with one knob combination (its seed skill's).
SAMPLES = {"calc": ("calc.summary_cell", None),
           "writer": ("writer.alignment", None), "impress": ("impress.slide_title", None),
           "gimp": ("gimp.rotate", None), "vscode": ("vscode.editor_setting", None)}


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
