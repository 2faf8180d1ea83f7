"""The Thunderbird mutators: messages, prefs and filters out of scope must stay as they were; Thunderbird's own
rewrites (status headers, prefs.js order) must not count against a task."""

from __future__ import annotations

import shutil

import pytest

from preparers import thunderbird as tb
from tests.verifiers.mutkit import judge, states
from verifiers.mutants import thunderbird as tb_mutants
from workflows.tb import add_contact as tb_add_contact
from workflows.tb import create_filter as tb_create_filter
from workflows.tb import mark_messages as tb_mark_messages
from workflows.tb import move_messages as tb_move_messages
from workflows.tb import set_pref as tb_set_pref


@pytest.mark.parametrize(("workflow", "params", "seed"), [
    (tb_move_messages.WORKFLOW, {"criterion": "subject", "target": "existing_sub", "source": "inbox"}, 1),
    (tb_create_filter.WORKFLOW, {"field": "from", "action": "move", "apply": "run_now"}, 2),
    (tb_mark_messages.WORKFLOW, {"mark": "flagged", "criterion": "before", "folder": "archives"}, 1),
    (tb_set_pref.WORKFLOW, {"setting": "signature"}, 1),
    (tb_add_contact.WORKFLOW, {"count": 1, "name_kind": "accented"}, 1),
    (tb_create_filter.WORKFLOW, {"field": "subject", "action": "copy", "apply": "run_now"}, 1),
    (tb_create_filter.WORKFLOW, {"field": "from", "action": "flag", "apply": "run_now"}, 1),
])
def test_the_rubric_rejects_every_damaging_mutant_and_accepts_every_neutral_one(tmp_path, workflow, params, seed):
    ctx = states(workflow, params, tmp_path, seed=seed)
    judged = judge(ctx, tb_mutants.mutants, tmp_path)
    kinds = {j.mutant.name.split(":")[0] for j in judged}
    assert {"tb.message_deleted", "tb.message_duplicated", "tb.pref_changed", "tb.pref_added", "tb.prefs_reordered",
            "tb.status_headers_rewritten"} <= kinds
    wrong = [f"{j.mutant.kind} {j.mutant.name}: {j.evidence or 'passed'}" for j in judged if j.wrong]
    assert not wrong, wrong


def test_a_filter_to_another_folder_or_with_another_action_fails(tmp_path):
    ctx = states(tb_create_filter.WORKFLOW, {"field": "subject", "action": "move", "apply": "save_only"}, tmp_path)
    judged = [j for j in judge(ctx, tb_mutants.mutants, tmp_path) if j.mutant.name.startswith("tb.filter_")]
    assert {j.mutant.name.split(":")[0] for j in judged} >= {"tb.filter_retargeted", "tb.filter_action_changed"}
    assert not any(j.passed for j in judged)


def test_a_duplicated_message_and_an_added_setting_damage_only_what_the_task_leaves_alone(tmp_path):
    """The pref the task asks for is never the one added; the duplicated message is one the oracle left alone, and
    the copy lands in its own folder (the state gains exactly one live entry)."""
    ctx = states(tb_set_pref.WORKFLOW, {"setting": "autosave"}, tmp_path)
    offered = {m.name.split(":")[0]: m for m in tb_mutants.mutants(ctx)}
    asked = {c["args"]["name"] for c in ctx.task["rubric"] if c["primitive"].startswith("tb.pref_")}
    added = offered["tb.pref_added"].name.split(":", 1)[1]
    assert added not in asked and added in dict(tb_mutants.ADDABLE_PREFS)
    folder, mid = offered["tb.message_duplicated"].name.split(":", 2)[1:]
    state = tmp_path / "dup"
    shutil.copytree(ctx.oracle, state)
    offered["tb.message_duplicated"].apply(state)
    mbox = next(state.glob(".thunderbird/*.default-release")) / tb.folder_file(folder)
    ids = [tb.message_id(tb.parse_entry(e)) for e in tb.split_mbox(mbox.read_bytes())]
    before = tb.split_mbox((ctx.oracle / mbox.relative_to(state)).read_bytes())
    assert ids.count(mid) == 2 and len(ids) == len(before) + 1
