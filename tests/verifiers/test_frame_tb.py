"""The Thunderbird profile frame (closed world, issue 37): a Thunderbird task's end state changes the profile only
where the task changes it, and a filter the task asks for acts as asked on probe messages.

Real Thunderbird tasks (offline, the real setup.sh and oracle) give the states. Wrong end states of the reviewer's
kinds must fail the frame with evidence naming the change (every Inbox message marked read where the task marks
some in Archives; a filter saved to run manually only; a folder created or renamed beside the asked one; a moved
message flagged on the way), and valid ones must pass (Thunderbird's own rewrites: status headers, prefs.js order
and comments, the filter file's version line and order, folders and prefs it makes itself; a message opened).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from preparers import tbfilters
from preparers import thunderbird as tb
from tests.gatekit import gate_package, make_package
from tests.verifiers.mutkit import judge, states
from verifiers.checks import State
from verifiers.frame import tbfilter_sim as sim
from verifiers.frame import thunderbird as tbframe
from verifiers.gate.rubric import evaluate_rubric
from verifiers.mutants import MutationContext
from verifiers.mutants import thunderbird as tb_mutants
from workflows.tb import create_filter, create_folder, mark_messages, move_messages

CASES = {
    "filter_run": (create_filter.WORKFLOW, {"field": "subject", "action": "move", "apply": "run_now"}),
    "filter_save": (create_filter.WORKFLOW, {"field": "from", "action": "copy", "apply": "save_only"}),
    "mark_archives": (mark_messages.WORKFLOW, {"mark": "read", "criterion": "from", "folder": "archives"}),
    "move": (move_messages.WORKFLOW, {"criterion": "subject", "target": "new_top", "source": "inbox"}),
    "folder": (create_folder.WORKFLOW, {"location": "top", "name_kind": "word"}),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, MutationContext]:
    out = {}
    for name, (workflow, knobs) in CASES.items():
        out[name] = states(workflow, knobs, tmp_path_factory.mktemp(name), seed=3)
    return out


def _copy(ctx: MutationContext, tmp_path: Path, name: str = "end") -> Path:
    root = tmp_path / name
    shutil.copytree(ctx.oracle, root, symlinks=True)
    return root


def _profile(root: Path) -> Path:
    return next(root.glob(".thunderbird/*.default-release"))


def _verdict(task: dict[str, Any], root: Path) -> tuple[bool, bool, str]:
    """(whole rubric passes, the profile frame passes, the frame's evidence)."""
    outcomes = evaluate_rubric(task, root)
    frame = next(o for o in outcomes if o.id == "frame-profile")
    return all(o.passed for o in outcomes), frame.passed, frame.evidence


def _others_pass(task: dict[str, Any], root: Path) -> bool:
    return all(o.passed for o in evaluate_rubric(task, root) if o.id != "frame-profile")


def _rewrite(mbox: Path, change: Any) -> None:
    mbox.write_bytes(b"".join(change(e) for e in tb.split_mbox(mbox.read_bytes())))


def _args(task: dict[str, Any]) -> dict[str, Any]:
    return next(c["args"] for c in task["rubric"] if c["primitive"] == "tb.frame")


# --- the oracle, and the gate ------------------------------------------------------------------------------

def test_every_thunderbird_rubric_ends_with_the_profile_frame_and_the_oracle_passes(made):
    for name, ctx in made.items():
        assert [c["primitive"] for c in ctx.task["rubric"]][-2:] == ["tree.frame", "tb.frame"], name
        assert _verdict(ctx.task, ctx.oracle)[:2] == (True, True), name
        assert not _verdict(ctx.task, ctx.initial)[0], name  # the no-op still fails


def test_a_filter_task_passes_the_real_gate_with_its_probes(tmp_path):
    folder = make_package(*CASES["filter_run"], tmp_path, seed=5, skill_id="test.tbframe.filter")
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "accepted", verdict
    args = _args(json.loads((folder / "task.json").read_text()))
    assert {(p["context"], p["kind"]) for p in args["probes"]} == {
        ("new mail", "matching"), ("new mail", "other"), ("manual", "matching"), ("manual", "other")}


def test_a_filter_only_saved_is_probed_on_new_mail_alone(made):
    args = _args(made["filter_save"].task)
    assert {p["context"] for p in args["probes"]} == {"new mail"}
    assert [p["expect"] for p in args["probes"] if p["kind"] == "other"] == [[]]


# --- wrong end states: rejected, the change named ----------------------------------------------------------

def test_every_inbox_message_marked_read_where_the_task_marks_some_in_archives_fails(made, tmp_path):
    ctx = made["mark_archives"]
    assert "read" not in _args(ctx.task)["free"]  # the task reads state: every read state is framed
    root = _copy(ctx, tmp_path)
    inbox = _profile(root) / tb.folder_file("Inbox")
    unread = [tb.message_id(tb.read_headers(e)) for e in tb.split_mbox(inbox.read_bytes())
              if not tb.status_flags(e) & (tb.READ | tb.EXPUNGED)]
    assert unread
    _rewrite(inbox, lambda e: tb.with_flags(e, tb.status_flags(e) | tb.READ))
    passed, framed, evidence = _verdict(ctx.task, root)
    assert not passed and not framed
    assert evidence.startswith(f"{len(unread)} change(s) of the Thunderbird profile")
    assert re.search(r"message \S+ in 'Inbox' \(unread\) is now read;", evidence)


def _set_type(root: Path, name: str, type_: int) -> None:
    dat = _profile(root) / tb.FILTER_FILE
    rules = tbfilters.parse(dat.read_text())
    dat.write_text(tbfilters.render([r if r.name != name else tbfilters.Rule(
        r.name, r.enabled, type_, r.actions, r.terms, r.match_all, r.description) for r in rules]))


@pytest.mark.parametrize("case", ["filter_run", "filter_save"])
def test_a_filter_saved_to_run_manually_only_fails_on_new_mail(made, tmp_path, case):
    ctx = made[case]
    name = next(c["args"]["name"] for c in ctx.task["rubric"] if c["primitive"] == "tb.filter_exists")
    root = _copy(ctx, tmp_path)
    _set_type(root, name, 16)
    assert _others_pass(ctx.task, root)  # the filter reads as asked: only its behaviour tells
    passed, framed, evidence = _verdict(ctx.task, root)
    assert not framed
    assert "on new mail, a message from" in evidence and "gets nothing" in evidence
    assert f"'{name}' runs on manual" in evidence


def test_a_disabled_or_widened_filter_fails_on_its_probes(made, tmp_path):
    ctx = made["filter_save"]
    name = next(c["args"]["name"] for c in ctx.task["rubric"] if c["primitive"] == "tb.filter_exists")
    root = _copy(ctx, tmp_path)
    dat = _profile(root) / tb.FILTER_FILE
    rules = tbfilters.parse(dat.read_text())
    dat.write_text(tbfilters.render([r if r.name != name else tbfilters.Rule(
        r.name, r.enabled, r.type, r.actions, (), True) for r in rules]))  # condition="ALL": every message
    _, framed, evidence = _verdict(ctx.task, root)
    assert not framed and "(other filter" in evidence and "where the task's filter does nothing" in evidence


def test_a_folder_created_or_renamed_beside_the_asked_one_fails(made, tmp_path):
    ctx = made["folder"]
    root = _copy(ctx, tmp_path)
    local = _profile(root) / tb.LOCAL_DIR
    (local / "Misc").write_bytes(b"")
    _, framed, evidence = _verdict(ctx.task, root)
    assert not framed and "folder 'Misc' was added" in evidence
    root = _copy(ctx, tmp_path, "renamed")
    local = _profile(root) / tb.LOCAL_DIR
    kept = [k[7:] for k in _args(ctx.task)["kept"] if k.startswith("folder:") and "/" not in k
            and k[7:] not in tbframe.SELF_MADE]
    (local / kept[0]).rename(local / f"{kept[0]} 2")
    _, framed, evidence = _verdict(ctx.task, root)
    assert not framed
    assert f"folder {kept[0]!r} is gone" in evidence and f"folder '{kept[0]} 2' was added" in evidence


def test_a_moved_message_flagged_on_the_way_fails(made, tmp_path):
    ctx = made["move"]
    root = _copy(ctx, tmp_path)
    dest = next(k for k in _args(ctx.task)["allowed"] if k.startswith("msg:") and _args(ctx.task)["allowed"][k] != "-")
    folder = dest[4:].partition("|")[0]
    _rewrite(_profile(root) / tb.folder_file(folder), lambda e: tb.with_flags(e, tb.status_flags(e) | tb.FLAGGED))
    _, framed, evidence = _verdict(ctx.task, root)
    assert not framed
    assert re.search(r"in '[^']+' \([a-z, ]+\) is now [a-z, ]*flagged \(as the task leaves it: ", evidence)


def test_the_new_mutators_are_offered_and_rejected(made, tmp_path):
    judged = [j for name in ("filter_run", "mark_archives", "move")
              for j in judge(made[name], tb_mutants.mutants, tmp_path / name)]
    kinds = {j.mutant.name.split(":")[0] for j in judged}
    assert {"tb.filter_manual_only", "tb.flags_changed_untouched", "tb.folder_added"} <= kinds
    wrong = [f"{j.mutant.name}: {j.evidence or 'passed'}" for j in judged if j.wrong]
    assert not wrong, wrong
    mine = [j for j in judged if j.mutant.name.startswith(("tb.filter_manual_only", "tb.flags_changed_untouched",
                                                           "tb.folder_added"))]
    assert all("frame-profile" in j.evidence for j in mine)


# --- valid end states: accepted -----------------------------------------------------------------------------

def _thunderbird_rewrites(root: Path) -> None:
    """What a Thunderbird session writes on its own over a correct profile."""
    profile = _profile(root)
    local = profile / tb.LOCAL_DIR
    for mbox in [p for p in local.rglob("*") if p.is_file() and "." not in p.name]:
        def pad(entry: bytes) -> bytes:
            head, sep, rest = entry.partition(b"\n\n")
            lines = [ln for ln in head.split(b"\n") if not ln.startswith(b"X-Mozilla-Status2:")]
            at = next(i + 1 for i, ln in enumerate(lines) if ln.startswith(b"X-Mozilla-Status:"))
            lines[at:at] = [b"X-Mozilla-Status2: 00800000", b"X-Mozilla-Keys:" + b" " * 80]
            return b"\n".join(lines) + sep + rest
        _rewrite(mbox, pad)
        (mbox.parent / f"{mbox.name}.msf").write_bytes(b"// <!-- <mdb:mork:z v=\"1.4\"/> -->\n")
    (local / "Unsent Messages").write_bytes(b"")
    prefs = profile / "prefs.js"
    lines = [ln for ln in prefs.read_text().splitlines() if ln.startswith("user_pref(")]
    own = ('user_pref("mail.openMessageBehavior.version", 1);', 'user_pref("mail.ui.folderpane.version", 9);',
           'user_pref("mail.server.server1.spamActionTargetAccount", "mailbox://nobody@Local%20Folders");')
    prefs.write_text("// Mozilla User Preferences\n\n/* written back */\n" + "\n".join([*reversed(lines), *own]) + "\n")
    dat = profile / tb.FILTER_FILE
    text = dat.read_text()
    dat.write_text(re.sub(r'^version="9"', 'version="8"', text, flags=re.M).replace('logging="no"', 'logging="yes"'))


@pytest.mark.parametrize("case", list(CASES))
def test_thunderbirds_own_rewrites_pass(made, tmp_path, case):
    ctx = made[case]
    root = _copy(ctx, tmp_path)
    _thunderbird_rewrites(root)
    passed, framed, evidence = _verdict(ctx.task, root)
    assert passed and framed, evidence


def test_opening_messages_passes_where_the_task_reads_no_state(made, tmp_path):
    ctx = made["move"]
    assert "read" in _args(ctx.task)["free"]
    root = _copy(ctx, tmp_path)
    _rewrite(_profile(root) / tb.folder_file("Inbox"), lambda e: tb.with_flags(e, tb.status_flags(e) | tb.READ))
    assert _verdict(ctx.task, root)[:2] == (True, True)
    root = _copy(ctx, tmp_path, "unread")  # but marking a read message unread is a change
    _rewrite(_profile(root) / tb.folder_file("Inbox"), lambda e: tb.with_flags(e, tb.status_flags(e) & ~tb.READ))
    assert not _verdict(ctx.task, root)[1]


def test_a_new_filter_first_and_a_save_only_filter_without_manual_run_pass(made, tmp_path):
    ctx = made["filter_save"]
    name = next(c["args"]["name"] for c in ctx.task["rubric"] if c["primitive"] == "tb.filter_exists")
    root = _copy(ctx, tmp_path)
    dat = _profile(root) / tb.FILTER_FILE
    rules = tbfilters.parse(dat.read_text())
    mine = next(r for r in rules if r.name == name)
    others = [r for r in rules if r.name != name]
    dat.write_text(tbfilters.render([tbfilters.Rule(mine.name, True, 1, mine.actions, mine.terms), *others]))
    assert _verdict(ctx.task, root)[:2] == (True, True)


def test_the_asked_filter_in_the_pop_accounts_list_passes_and_a_kept_filter_moved_there_fails(made, tmp_path):
    """Tools > Message Filters opens on the default account (the POP account deferred to Local Folders): a filter
    saved in its list acts on arriving mail all the same."""
    ctx = made["filter_save"]
    name = next(c["args"]["name"] for c in ctx.task["rubric"] if c["primitive"] == "tb.filter_exists")
    for moved in (name, "Newsletters"):
        root = _copy(ctx, tmp_path, moved)
        profile = _profile(root)
        dat = profile / tb.FILTER_FILE
        rules = tbfilters.parse(dat.read_text())
        if moved not in [r.name for r in rules]:
            continue  # the task keeps no other filter
        pop = re.search(r'"mail.server.server2.directory-rel", "\[ProfD\](.*)"', (profile / "prefs.js").read_text())
        assert pop is not None
        (profile / pop.group(1)).mkdir(parents=True)
        (profile / pop.group(1) / "msgFilterRules.dat").write_text(
            tbfilters.render([r for r in rules if r.name == moved]))
        dat.write_text(tbfilters.render([r for r in rules if r.name != moved]))
        passed, framed, evidence = _verdict(ctx.task, root)
        if moved == name:
            assert passed and framed, evidence
        else:
            assert not framed and "filter 'Newsletters' (Local Folders: " in evidence, evidence


def test_the_model_reads_a_missing_profile_and_a_broken_filter_file(made, tmp_path):
    ctx = made["filter_save"]
    root = _copy(ctx, tmp_path)
    (_profile(root) / tb.FILTER_FILE).write_text('version="9"\nname="x"\nbogus="1"\n')
    _, framed, evidence = _verdict(ctx.task, root)
    assert not framed and "filter list of Local Folders is unreadable" in evidence
    model = tbframe.read_profile(State(tmp_path / "nowhere"), "/home/user/.thunderbird/x.default-release")
    assert model.facts == {"#profile": "missing"}


# --- the simulator --------------------------------------------------------------------------------------------

def _rule(name: str, cond: str, actions: tuple[tuple[str, str], ...], type_: int = 17, enabled: bool = True
          ) -> tbfilters.Rule:
    return tbfilters.Rule(name, enabled, type_, actions, tbfilters.parse_condition(cond), cond == "ALL")


MOVE = (("Move to folder", f"{tbfilters.LOCAL_URI}/Inbox/My%20Trips"),)
PROBE = sim.Probe("Ana Lopez <ana@alderfinch.com>", "Me <me@x.org>", "Your TRIP itinerary")


def test_the_simulator_runs_a_filter_in_the_contexts_of_its_type():
    rule = _rule("Trips", "AND (subject,contains,trip)", MOVE, type_=17)
    assert sim.fired([rule], PROBE, "new mail") == [("Trips", "Move to folder", "Inbox/My Trips")]
    assert sim.fired([rule], PROBE, "manual") == sim.fired([rule], PROBE, "new mail")
    assert sim.fired([_rule("T", "AND (subject,contains,trip)", MOVE, type_=16)], PROBE, "new mail") == []
    assert sim.fired([_rule("T", "AND (subject,contains,trip)", MOVE, type_=32)], PROBE, "new mail") != []
    assert sim.fired([_rule("T", "AND (subject,contains,trip)", MOVE, type_=1)], PROBE, "manual") == []
    assert sim.fired([_rule("T", "AND (subject,contains,trip)", MOVE, enabled=False)], PROBE, "new mail") == []


def test_the_simulator_matches_terms_as_thunderbird_does():
    def holds(cond: str, probe: sim.Probe = PROBE) -> bool:
        return sim.rule_holds(_rule("r", cond, ()), probe)

    assert holds("AND (from,contains,ALDERFINCH)") and holds("AND (from,is,ana@alderfinch.com)")
    assert holds("AND (from,is,Ana Lopez)") and not holds("AND (from,is,lopez)")
    assert holds("AND (from,doesn't contain,bob)") and not holds("AND (from,doesn't contain,ana)")
    assert holds("AND (subject,begins with,your) AND (subject,ends with,Itinerary)")
    assert not holds("AND (subject,contains,trip) AND (from,contains,bob)")
    assert holds("OR (subject,contains,nothing) OR (from,contains,ana)")
    assert holds("AND (to or cc,contains,me@x.org)") and holds("ALL")
    assert holds("AND (date,is before,10-Jun-2024)") and not holds("AND (date,is after,10-Jun-2024)")
    assert not holds("AND (junk status,is,2)") and sim.unknown_terms(_rule("r", "AND (junk status,is,2)", ())) != []


def test_a_move_ends_the_run_and_later_filters_do_not_see_the_message():
    first = _rule("Trips", "AND (subject,contains,trip)", (*MOVE, ("Mark read", "")))
    second = _rule("Flag all", "ALL", (("Mark flagged", ""),))
    assert [a for _, a, _ in sim.fired([first, second], PROBE, "new mail")] == ["Move to folder", "Mark read"]
    assert [a for _, a, _ in sim.fired([second, first], PROBE, "new mail")] == ["Mark flagged", "Move to folder",
                                                                                "Mark read"]


def test_probes_hold_and_do_not_hold_for_their_rule():
    for cond in ("AND (subject,contains,Invoice)", "AND (from,contains,billing@northwind.com)",
                 "AND (from,is,ana@x.org)", "AND (subject,doesn't contain,spam)",
                 "OR (subject,is,a) OR (body,contains,b)", "AND (date,is before,01-Mar-2024)"):
        rule = _rule("r", cond, MOVE)
        matching, other = sim.matching_probe(rule), sim.other_probe(rule)
        assert matching is not None and sim.rule_holds(rule, matching), cond
        assert other is not None and not sim.rule_holds(rule, other), cond
        assert sim.Probe.of(matching.as_args()) == matching
