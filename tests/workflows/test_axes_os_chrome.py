"""Difficulty axes of the OS and Chrome kits (issue 15): the last level of every axis of every OS and Chrome family
makes a task the real gate accepts with every mutant (seed 1, the family's first seed skill), and naming an axis at
its default level changes no byte of what the task is, while moving it does."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from tests.gatekit import gate_package, make_package
from workflows import families

APPS = ("os.", "chrome.")
NAMES = sorted(name for name in families() if name.startswith(APPS))
LEVELS = [(name, axis, levels[-1]) for name in NAMES for axis, levels in sorted(families()[name].axes.items())]


def _params(name: str) -> dict:
    from forge.expand.variant import seeds_by_family

    return dict(seeds_by_family()[name][0].params)


def _digest(name: str, params: dict) -> str:
    """A hash of what the task is (assets, instruction, rubric), leaving out the params it records."""
    outputs = families()[name].run(NodeContext(params, 1, "test.skill", 0, OfflineBackend()))
    parts = [a.dest.encode() + b"\0" + a.data for a in outputs["assets"]]
    parts += [outputs["instruction"].encode(), repr(outputs["rubric"]).encode()]
    return hashlib.sha256(b"\x1e".join(parts)).hexdigest()


def test_every_os_and_chrome_family_declares_axes():
    from workflows.chrome import kit as chc

    for name in NAMES:
        family = families()[name]
        fewest = 1 if name in chc.SETTINGS_FAMILIES else 2  # a settings task's bookmarks are scenery
        assert fewest <= len(family.axes) <= 4, (name, family.axes)


def test_no_axis_shares_a_name_with_a_knob():
    for name in NAMES:
        family = families()[name]
        assert not set(family.axes) & set(family.knobs), (name, sorted(set(family.axes) & set(family.knobs)))


@pytest.mark.parametrize("name", NAMES)
def test_a_default_level_changes_nothing_and_a_moved_level_changes_the_task(name):
    family = families()[name]
    base = _params(name)
    assert _digest(name, {**base, **{axis: levels[0] for axis, levels in family.axes.items()}}) == _digest(name, base)
    for axis, levels in family.axes.items():
        assert _digest(name, {**base, axis: levels[-1]}) != _digest(name, base), (name, axis)


def _outputs(name: str, params: dict) -> dict:
    return families()[name].run(NodeContext(params, 1, "test.skill", 0, OfflineBackend()))


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("os.")])
def test_files_nobody_asked_about_stay_out_of_every_check(name):
    """The `files` level adds files only where no check looks (else damage to them would go unnoticed by the
    rubric, or a count would change); the `lookalikes` level adds older copies, named as such."""
    from kit.model import HOME

    base = _params(name)
    before = {s.path for s in _outputs(name, base)["tree"]}
    grown = _outputs(name, {**base, "files": "80-120"})
    added = [s.path for s in grown["tree"] if s.path not in before]
    assert 80 <= len(grown["tree"]) <= 120 and added, name
    scopes = [c.args["path"] for c in grown["rubric"] if str(c.args.get("path", "")).startswith(HOME + "/")]
    assert not [(p, c) for p in added for c in scopes if p == c or p.startswith(c + "/")], name
    copies = _outputs(name, {**base, "lookalikes": "2"})["tree"]
    assert [s.path for s in copies if " (old 2)" in s.path], name


def test_nesting_and_noise_move_the_target_and_add_look_alikes():
    params = {"action": "rename", "location": "bar"}
    flat = _outputs("chrome.edit_bookmark", params)
    deep = _outputs("chrome.edit_bookmark", {**params, "nesting": "two", "noise": "many"})
    assert len(flat["target"].folder) == 2 and len(deep["target"].folder) == 4
    assert deep["target"].folder[1:3] == list(deep["profile"].nest)
    links = deep["profile"].links()
    names = [name for _, name, _ in links]
    assert len(links) == len(flat["profile"].links()) + 4
    assert len(names) - len(set(names)) == 2  # half the look-alikes share a name with their original
    more = _outputs("chrome.add_bookmark", {"location": "bar_folder", "count": 1, "bookmarks": "10-12"})
    assert 10 <= len(more["profile"].folders("bar") + more["profile"].folders("other")) <= 12


@pytest.mark.slow
@pytest.mark.parametrize(("name", "axis", "level"), LEVELS, ids=[f"{n}-{a}-{lv}" for n, a, lv in LEVELS])
def test_the_last_level_of_every_axis_passes_the_gate(name, axis, level, tmp_path: Path):
    folder = make_package(families()[name], {**_params(name), axis: level}, tmp_path)
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "accepted", (name, axis, level, verdict.evidence)
