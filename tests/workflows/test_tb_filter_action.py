"""tb.filter_action: the family through the gate with every mutant, the check on hand-made filter files (a tag
renamed in prefs, a PostPlugin filter, a manual-only one, a second condition, a broken file), the op on a small
profile, and every phrasing saying its action and no other."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from preparers import tbfilters
from preparers import thunderbird as tb
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.tb.filter_action import ACTIONS, NATURAL, PHRASINGS, WORKFLOW, _describe

PROFILE = "/home/user/" + tb.profile_dir("fatest")
SPEC = tb.ProfileSpec("fatest", tb.Identity("Ana Lopez", "ana.lopez@example.com"), folders=(
    tb.Folder("Inbox", (tb.Message("m1@example.com", "Sam Reed <sam@example.com>", "Ana Lopez <ana.lopez@example.com>",
                                   "Invoice 12", dt.datetime(2024, 5, 2, 9, 30, tzinfo=dt.UTC), "Hi Ana\n"),)),))


@pytest.mark.slow
@pytest.mark.parametrize(("field", "action"), [("subject", "tag"), ("from", "forward"), ("subject", "delete"),
                                               ("from", "mark_read")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, field, action):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"field": field, "action": action}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][0] == "tb.filter_acts"
        assert task["rubric"][0]["args"]["action"] == ACTIONS[action]
        assert {"tb.frame", "tree.frame"} <= {c["primitive"] for c in task["rubric"]}


def _home(tmp_path: Path, rules: str | None, prefs: dict | None = None) -> Path:
    for rel, data in tb.build_profile(SPEC).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    host = tmp_path / PROFILE.removeprefix("/home/user/")
    if rules is not None:
        (host / tb.FILTER_FILE).write_text(rules, encoding="utf-8")
    if prefs:
        (host / "prefs.js").write_bytes(tb.prefs_js({**tb.account_prefs(SPEC.identity), **prefs}))
    return tmp_path


def _rules(*filters: tbfilters.Filter) -> str:
    return tbfilters.FILTER_HEADER + "".join(tbfilters.filter_block(f) for f in filters)


def _flt(actions, *, name="Tag invoices", conditions=(("subject", "contains", "invoice"),), **kw):
    return tbfilters.Filter(name, conditions, actions, **kw)


TAG = {"name": "Tag invoices", "field": "subject", "value": "invoice", "action": "AddTag", "tag": "Work"}
FWD = {"name": "Tag invoices", "field": "subject", "value": "invoice", "action": "Forward",
       "forward_to": "kofi.haddad@example.com"}


@pytest.mark.parametrize(("rules", "prefs", "args", "passes", "says"), [
    (None, None, TAG, False, "no filter named"),
    (_rules(_flt((("AddTag", "$label2"),))), None, TAG, True, "runs on new mail"),
    (_rules(_flt((("AddTag", "$label1"),))), None, TAG, False, "tags with ['Important']"),
    # the user renamed the Work tag: $label2 now shows as "Clients", and "Work" is nowhere
    (_rules(_flt((("AddTag", "$label2"),))), {"mailnews.tags.$label2.tag": "Clients"}, TAG, False, "'Clients'"),
    (_rules(_flt((("AddTag", "work_custom"),))), {"mailnews.tags.work_custom.tag": "Work"}, TAG, True, "enabled"),
    (_rules(_flt((("AddTag", "$label2"),), type=32)), None, TAG, True, "runs on new mail"),
    # the label typed where the key belongs: a bare keyword "Work", which is no tag Thunderbird shows
    (_rules(_flt((("AddTag", "Work"),))), None, TAG, False, "(no tag: Work)"),
    (_rules(_flt((("AddTag", "$label2"),), type=16)), None, TAG, False, "does not run on new mail"),
    (_rules(_flt((("AddTag", "$label2"),), enabled=False)), None, TAG, False, "disabled"),
    (_rules(_flt((("AddTag", "$label2"),), conditions=(("subject", "contains", "invoice"),
                                                        ("from", "contains", "sam")))), None, TAG, False,
     "conditions"),
    (_rules(_flt((("AddTag", "$label2"),), match="ALL")), None, TAG, False, "['ALL']"),
    (_rules(_flt((("Mark flagged", ""), ("AddTag", "$label2")))), None, TAG, True, "enabled"),
    (_rules(_flt((("Forward", "Kofi.Haddad@Example.com"),))), None, FWD, True, "to kofi.haddad@example.com"),
    (_rules(_flt((("Forward", "kofi.haddad@example.org"),))), None, FWD, False, "forwards to"),
    (_rules(_flt((("Forward", "kofi.haddad@example.com"),), name="Other")), None, FWD, False, "filters: 'Other'"),
    ("this is not a filter\n", None, FWD, False, ""),
])
def test_the_check_reads_the_filter_as_thunderbird_would(tmp_path, rules, prefs, args, passes, says):
    root = _home(tmp_path, rules, prefs)
    result = run_check(State(root), "tb.filter_acts", {"path": PROFILE, **args})
    assert result.passed is passes and says in result.evidence, result.evidence


def test_the_op_writes_a_forward_filter_thunderbird_reads(tmp_path):
    root = _home(tmp_path, None)
    apply_ops(root, [{"op": "tb.add_filter", "path": PROFILE, "name": "Fwd", "type": 17,
                     "conditions": [["from", "contains", "sam@example.com"]],
                     "actions": [["Forward", "kofi.haddad@example.com"]]}])
    text = (root / PROFILE.removeprefix("/home/user/") / tb.FILTER_FILE).read_text()
    assert 'action="Forward"\nactionValue="kofi.haddad@example.com"\n' in text
    [rule] = tbfilters.parse(text)
    assert (rule.type, rule.actions) == (17, (("Forward", "kofi.haddad@example.com"),))


@pytest.mark.parametrize("action", list(ACTIONS))
def test_every_phrasing_says_the_action_and_no_other(action):
    act = _describe(action, "To Do", "kofi.haddad@example.com")
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(name="Star Maya", cond="the subject contains 'invoice'", act=act)
        assert set(extract.expressed(text, "filter_action")) == {ACTIONS[action]}, text
        assert set(extract.expressed(text, "mail_field")) == {"subject"}, text
