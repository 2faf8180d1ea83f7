"""Difficulty axes of the multi-app families (issue 15) and their believable mail (issue 16): every multi family
declares 2-4 axes apart from its knobs; the last level of each axis makes a task the real gate accepts with every
mutant (seed 1); naming an axis at its default level changes nothing (the nodes draw the same random numbers) and
moving it changes the task; a mailed table holds no data dated after the mail that carries it."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

import pytest

from kit.dag import NodeContext
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.package import build_package, write_package
from preparers import thunderbird as tb
from tests.gatekit import gate_package, make_package, skill_for
from workflows import families
from workflows.common import natural_phrasings

MULTI = sorted(name for name in families() if name.startswith("multi."))


def _seed_params(name: str) -> dict[str, Any]:
    from forge.expand.variant import seeds_by_family

    return dict(seeds_by_family()[name][0].params)


def _outputs(name: str, params: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    return families()[name].run(NodeContext(params, seed, "test.skill", 0, OfflineBackend()))


def _digest(name: str, params: dict[str, Any]) -> str:
    """A hash of what the task is (assets, instruction, rubric), leaving out the params it records."""
    outputs = _outputs(name, params)
    parts = [a.dest.encode() + b"\0" + a.data for a in outputs["assets"]]
    parts += [outputs["instruction"].encode(), repr(outputs["rubric"]).encode()]
    return hashlib.sha256(b"\x1e".join(parts)).hexdigest()


@pytest.mark.parametrize("name", MULTI)
def test_every_multi_family_declares_two_to_four_axes_apart_from_its_knobs(name: str):
    family = families()[name]
    assert 2 <= len(family.axes) <= 4, (name, sorted(family.axes))
    assert not set(family.axes) & set(family.knobs), (name, "an axis shares a knob's name")


@pytest.mark.parametrize("name", MULTI)
def test_a_default_level_changes_nothing_and_a_moved_level_changes_the_task(name: str):
    family = families()[name]
    base = _seed_params(name)
    defaults = {axis: levels[0] for axis, levels in family.axes.items()}
    assert _digest(name, {**base, **defaults}) == _digest(name, base)
    for axis, levels in family.axes.items():
        assert _digest(name, {**base, axis: levels[-1]}) != _digest(name, base), (name, axis)


LAST = [(name, axis, levels[-1], register) for name in MULTI for axis, levels in sorted(families()[name].axes.items())
        for register in ("explicit", *(("natural",) if natural_phrasings(name) else ()))]


def _natural_package(name: str, params: dict[str, Any], out: Path) -> Path:
    """`tests.gatekit.make_package`, with the instruction in the natural register."""
    workflow = families()[name]
    skill = skill_for(workflow, params)
    ctx = NodeContext(params, 1, skill.id, 0, OfflineBackend(), register="natural")
    package = build_package(TaskId(skill.id, 1, 0, "natural"), skill, workflow, workflow.run(ctx), ctx.calls)
    return write_package(out / skill.app / "natural", package)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "axis", "level", "register"), LAST,
                         ids=[f"{n}-{a}-{lv}-{r}" for n, a, lv, r in LAST])
def test_the_last_level_of_every_axis_passes_the_gate_with_every_mutant(name: str, axis: str, level: Any,
                                                                        register: str, tmp_path: Path):
    params = {**_seed_params(name), axis: level}
    if register == "natural" and _natural_default(name, tmp_path) != "accepted":
        pytest.skip(f"{name}'s natural register fails the gate at the default levels too: not an axis problem")
    folder = (make_package(families()[name], params, tmp_path, seed=1) if register == "explicit"
              else _natural_package(name, params, tmp_path))
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "accepted", (name, axis, level, register, verdict.evidence)


_NATURAL_DEFAULT: dict[str, str] = {}


def _natural_default(name: str, tmp_path: Path) -> str:
    """The gate's verdict on the family's natural-register seed task (once per family)."""
    if name not in _NATURAL_DEFAULT:
        folder = _natural_package(name, _seed_params(name), tmp_path / "default")
        _NATURAL_DEFAULT[name] = gate_package(folder, mutants=None).status
    return _NATURAL_DEFAULT[name]


def _messages(spec: tb.ProfileSpec) -> list[tb.Message]:
    return [m for folder in spec.folders for m in folder.messages]


@pytest.mark.parametrize("noise", ["none", "many"])
def test_a_mailed_table_predates_every_mail_that_carries_a_version_of_it(noise: str):
    """Issue 16: 9 of 20 seeds mailed a table holding dates after the mail; the table is moved back by years."""
    params = {"source": "csv", "post": "none", "dest": "documents", "noise": noise}
    for seed in range(1, 13):
        out = _outputs("multi.attachment_sheet", params, seed)
        target = out["target"]
        spec = next(value for kind, value in out["setup"].pieces if kind == "tb")
        carriers = [m for m in _messages(spec) if any(a.filename == target.filename for a in m.attachments)]
        latest = max(v for row in target.rows for v in row if isinstance(v, dt.date))
        assert len(carriers) == 2 + {"none": 0, "many": 2}[noise], seed
        assert all(latest < m.date.date() for m in carriers), (seed, latest, [m.date for m in carriers])
        assert str(latest.year) in target.filename or not any(ch.isdigit() for ch in target.filename), seed


def test_mail_bodies_are_sentences_a_colleague_writes():
    out = _outputs("multi.attachment_sheet", {"source": "xlsx", "post": "none", "dest": "desktop"})
    spec = next(value for kind, value in out["setup"].pieces if kind == "tb")
    bodies = [m.body for m in _messages(spec) if m.attachments and m.attachments[0].filename == out["target"].filename]
    for body in bodies:  # a greeting, a sentence that says what the file is, a sign-off
        greeting, text, closing = body.split("\n\n")
        assert greeting.startswith("Hi ") and text.endswith(".") and len(text.split()) >= 10, body
        assert closing.startswith("Thanks,") and "Attached is" not in body, body
    assert len(bodies) == 2


def test_dated_before_moves_the_table_and_its_year_back_by_whole_years():
    from workflows.multi.content import dated_before

    table = {"title": "Expenses Q1 2024", "file_stem": "expenses_2024_q1", "sheet": "Q1 2024",
             "columns": [{"name": "Item", "kind": "key"}, {"name": "Paid On", "kind": "date"}],
             "rows": [["a", "2024-02-29"], ["b", "2024-02-28"], ["c", "2024-03-30"]]}
    assert dated_before(table, dt.date(2024, 4, 1)) == table  # already before the mail: unchanged
    moved = dated_before(table, dt.date(2024, 3, 15))
    # one to three years back would put 29 Feb on the 28th beside the real 28 Feb: four keep the dates distinct
    assert [r[1] for r in moved["rows"]] == ["2020-02-29", "2020-02-28", "2020-03-30"]
    year = "2020"
    assert (moved["title"], moved["file_stem"], moved["sheet"]) == (f"Expenses Q1 {year}", f"expenses_{year}_q1",
                                                                   f"Q1 {year}")
