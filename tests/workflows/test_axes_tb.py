"""Thunderbird difficulty axes (issue 15): the last level of every axis of every Thunderbird family makes a task
the real gate accepts with every mutant (seed 1); the default levels give the seed skill's task byte for byte;
the mailbox sizes and look-alikes are what the levels promise."""

from __future__ import annotations

import hashlib
import shutil
from email.utils import parseaddr
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.package import build_package, write_package
from tests.gatekit import gate_package, make_package, package_states, skill_for
from workflows import families
from workflows.tb.content import check_mailbox

TB_FAMILIES = sorted(name for name in families() if name.startswith("tb."))


def _params(name: str) -> dict:
    from forge.expand.variant import seeds_by_family

    return dict(seeds_by_family()[name][0].params)


def _run(name: str, params: dict, seed: int = 1) -> dict:
    return families()[name].run(NodeContext(params, seed, "test.skill", 0, OfflineBackend()))


LAST = [(name, axis, levels[-1]) for name in TB_FAMILIES for axis, levels in sorted(families()[name].axes.items())]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "axis", "level"), LAST, ids=[f"{n}-{a}-{lv}" for n, a, lv in LAST])
def test_the_last_level_of_every_axis_passes_the_gate(name, axis, level, tmp_path: Path):
    folder = make_package(families()[name], {**_params(name), axis: level}, tmp_path, seed=1)
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "accepted", (name, axis, level, verdict.evidence)


HARDEST = {"messages": "36-40", "noise": "many", "location": "nested"}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tb.move_messages", "tb.mark_messages", "tb.save_attachment"])
def test_every_axis_at_its_last_level_in_the_natural_register_passes_the_gate(name, tmp_path: Path):
    """All axes moved at once, phrased in a user's own voice: the folder path still reads and grounds."""
    params = {**_params(name), **HARDEST}
    skill = skill_for(families()[name], params)
    task_id = TaskId(skill.id, 1, 0, "natural")
    ctx = NodeContext(params, 1, skill.id, 0, OfflineBackend(), register="natural")
    outputs = families()[name].run(ctx)
    folder = write_package(tmp_path / skill.app / str(task_id),
                           build_package(task_id, skill, families()[name], outputs, ctx.calls))
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "accepted", (name, outputs["instruction"], verdict.evidence)


def _digest(outputs: dict) -> str:
    parts = [a.dest.encode() + b"\0" + a.data for a in outputs["assets"]]
    parts += [outputs["instruction"].encode(), repr(outputs["rubric"]).encode()]
    return hashlib.sha256(b"\x1e".join(parts)).hexdigest()


@pytest.mark.parametrize("name", TB_FAMILIES)
def test_default_levels_change_nothing_and_moved_levels_change_the_task(name):
    axes = families()[name].axes
    assert {"messages", "noise"} <= set(axes), f"{name} has the kit's axes"
    base = _params(name)
    plain = _digest(_run(name, base))
    assert _digest(_run(name, {**base, **{axis: levels[0] for axis, levels in axes.items()}})) == plain
    for axis, levels in axes.items():
        assert _digest(_run(name, {**base, axis: levels[-1]})) != plain, (name, axis)


@pytest.mark.parametrize("level", families()["tb.move_messages"].axes["messages"])
def test_a_messages_level_is_the_mailbox_size(level):
    low, _, high = level.partition("-")
    for seed in range(1, 6):
        mailbox = _run("tb.move_messages", {**_params("tb.move_messages"), "messages": level}, seed)["mailbox"]
        assert check_mailbox(mailbox) == ""
        assert int(low) <= len(mailbox["messages"]) <= int(high), (seed, len(mailbox["messages"]))


def test_look_alikes_share_a_name_not_an_address():
    for seed in range(1, 6):
        mailbox = _run("tb.save_attachment", {**_params("tb.save_attachment"), "noise": "many"}, seed)["mailbox"]
        names: dict[str, set[str]] = {}
        for m in mailbox["messages"]:
            names.setdefault(m["sender_name"], set()).add(m["sender_email"])
        twins = [addrs for addrs in names.values() if len(addrs) > 1]
        assert len(twins) == 2, (seed, twins)
        for addrs in twins:  # no address contains another, so a "From contains" rule splits them
            assert not any(a != b and a in b for a in addrs for b in addrs)
        issues = [m for m in mailbox["messages"] if m["attachments"]]
        assert len(issues) == 4  # two earlier issues of the recurring document beside the usual two
        assert len({parseaddr(m["sender_email"])[1] for m in issues}) == 1


@pytest.mark.parametrize("name", ["tb.move_messages", "tb.mark_messages", "tb.save_attachment"])
def test_a_nested_location_puts_the_messages_two_levels_down(name):
    outputs = _run(name, {**_params(name), "location": "nested"})
    target = outputs["target"]
    folder = getattr(target, "source", None) or target.folder
    assert folder.count("/") == 2, folder
    spec = outputs["spec"]
    assert {f.path for f in spec.folders} >= {folder, folder.rpartition("/")[0]}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("thunderbird") is None, reason="needs the thunderbird binary")
def test_real_thunderbird_loads_a_nested_source_folder_and_the_oracle_state_passes(tmp_path: Path):
    """The real-app tier on the deepest `location`: Thunderbird opens Inbox/<a>/<b> (mbox under two .sbd levels)
    and the rubric still passes on the oracle's end state as Thunderbird re-saved it."""
    from forge.realapps import thunderbird as rt
    from kit.package import load_package

    name = "tb.move_messages"
    root = make_package(families()[name], {**_params(name), **HARDEST}, tmp_path / "out", seed=1)
    task = load_package(root).task
    initial, after = package_states(root, tmp_path, task["solutions"]["oracle"])
    passed, evidence = rt.alternative(root, task, after, initial)
    assert passed, evidence
