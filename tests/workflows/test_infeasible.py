"""Infeasible tasks (issue 38): every app's infeasible family through the real gate, wrong end states (an edit
attempted, no declaration, a declaration and an edit) failing its rubric, the student runner recording a
declaration, and the OSWorld export using OSWorld's own `infeasible` evaluator."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from forge.agent.episode import declaration
from forge.export.osworld import _task_json
from forge.student_batch import Answer, parse_answer, run_answers
from kit.model import DECLARED_INFEASIBLE, INFEASIBLE_RECORD, declare_command
from kit.package import load_package
from kit.sandbox import Limits, Sandbox
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from workflows import families
from workflows.infeasible_kit import KINDS

FAMILIES = sorted(name for name in families() if name.endswith(".infeasible"))
RECORD = INFEASIBLE_RECORD.removeprefix("/home/user/")


def test_every_app_has_an_infeasible_family():
    apps = {name.split(".", 1)[0] for name in FAMILIES}
    assert apps == {"calc", "writer", "impress", "gimp", "chrome", "tb", "vscode", "os", "vlc"}, FAMILIES


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", FAMILIES)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, name, kind):
    folder = make_package(families()[name], {"impossible": kind}, tmp_path)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    stages = {s.name: s for s in verdict.stages}
    assert "all" in stages["teacher"].evidence and stages["teacher"].passed
    task = json.loads((folder / "task.json").read_text())
    assert task["feasible"] is False
    assert task["rubric"][0]["primitive"] == DECLARED_INFEASIBLE
    assert all(c["primitive"].endswith("frame") for c in task["rubric"][1:]) and len(task["rubric"]) >= 2
    assert len(task["solutions"]["near_misses"]) >= 3


def _outcomes(folder: Path, state: Path) -> dict[str, bool]:
    from forge.solve import check_state

    return {o["id"]: o["passed"] for o in check_state(load_package(folder), Sandbox(), state)}


def test_wrong_end_states_fail_the_rubric(tmp_path):
    folder = make_package(families()["calc.infeasible"], {"impossible": "contradiction"}, tmp_path / "pkg")
    initial, declared = package_states(folder, tmp_path / "oracle", "solution/oracle.json")
    assert all(_outcomes(folder, declared).values())
    assert not _outcomes(folder, initial)["declared"]  # nothing done, nothing said
    _, edited = package_states(folder, tmp_path / "slip", "solution/near-miss-1.json")
    assert not _outcomes(folder, edited)["declared"]  # the contradiction half done, undeclared
    both = tmp_path / "both"
    shutil.copytree(edited, both)
    shutil.copytree(declared / ".forge", both / ".forge")
    outcomes = _outcomes(folder, both)
    assert outcomes["declared"] and not outcomes["frame"]  # declared, but the workbook changed anyway


def test_the_check_reads_the_record_bounded(tmp_path):
    state = tmp_path / "home"
    (state / ".forge").mkdir(parents=True)
    args = {"path": INFEASIBLE_RECORD, "why": "no such sheet"}
    assert not run_check(State(state), DECLARED_INFEASIBLE, args).passed  # no record
    (state / RECORD).write_text("  \n", encoding="utf-8")
    assert not run_check(State(state), DECLARED_INFEASIBLE, args).passed  # an empty reason
    (state / RECORD).write_bytes(b"\xff\xfe\x00binary")
    assert not run_check(State(state), DECLARED_INFEASIBLE, args).passed  # not text
    os.remove(state / RECORD)
    os.symlink("/etc/hostname", state / RECORD)
    assert not run_check(State(state), DECLARED_INFEASIBLE, args).passed  # a link out of the home
    os.remove(state / RECORD)
    apply_ops(state, [{"op": "agent.declare_infeasible", "path": "/home/user/Documents", "reason": "no sheet 'Q5'"}])
    result = run_check(State(state), DECLARED_INFEASIBLE, args)
    assert result.passed and "no sheet 'Q5'" in result.evidence


def test_a_final_reply_declares_and_the_answer_form_too():
    assert declaration("INFEASIBLE: the workbook has no sheet 'Q5'") == "the workbook has no sheet 'Q5'"
    assert declaration("**INFEASIBLE** - Calc cannot make holograms") == "Calc cannot make holograms"
    assert declaration("DONE") is None and declaration("This looked infeasible at first, but it is done.") is None
    answer, task_id, problem = parse_answer(json.dumps({"task_id": "t", "infeasible": True, "reason": "no sheet"}))
    assert (answer, task_id, problem) == (Answer((), "INFEASIBLE: no sheet", 0), "t", "")
    _, _, problem = parse_answer(json.dumps({"task_id": "t", "infeasible": "yes"}))
    assert "must be true or false" in problem
    assert declare_command("it's gone").endswith("> ~/.forge/infeasible")


@pytest.mark.slow
def test_the_student_runner_records_a_declaration(tmp_path):
    folder = make_package(families()["calc.infeasible"], {"impossible": "missing"}, tmp_path / "pkg")
    task_id = load_package(folder).id
    sandbox = Sandbox(Limits(wall_seconds=20))
    verdicts = {}
    for model, answer in (("decliner", Answer(("ls -la ~",), "INFEASIBLE: the sheet named is not in the workbook")),
                          ("silent", Answer(("ls -la ~",), "")),
                          ("by-hand", Answer((declare_command("there is no such sheet"),), ""))):
        out = tmp_path / model
        counts = run_answers([folder], {task_id: answer}, model=model, out=out, sandbox=sandbox, catalog=None)
        [checks] = list(out.rglob("checks.json"))
        verdicts[model] = (counts, json.loads(checks.read_text()))
    counts, verdict = verdicts["decliner"]
    assert counts["passed"] == 1, verdict["checks"]
    assert verdict["declared_infeasible"] == "the sheet named is not in the workbook"
    assert verdicts["silent"][0]["failed"] == 1 and "declared" in verdicts["silent"][1]["failed_checks"]
    assert verdicts["by-hand"][0]["passed"] == 1  # an agent at a terminal may write the record itself


def test_the_osworld_export_uses_the_infeasible_evaluator(tmp_path):
    folder = make_package(families()["writer.infeasible"], {"impossible": "feature"}, tmp_path / "pkg")
    task, uses_checker = _task_json(load_package(folder), tmp_path / "out", None)
    assert task["evaluator"] == {"func": "infeasible"} and not uses_checker
    assert task["instruction"] == load_package(folder).task["instruction"]
    assert task["config"]  # the files are still placed: the agent must look before declining


def test_the_default_mix_gives_one_task_in_15_to_infeasible_skills():
    from forge.generate import Selection, infeasible, plan_for
    from kit.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    families = {s.family for s in taxonomy.values()}
    # the shares hold once the opening (one task of every family, 205 of them) is a small part of the plan
    ids = plan_for(taxonomy, Selection(), 3000, 1)
    assert sum(infeasible(taxonomy[t.skill_id]) for t in ids) == 200
    assert sum(len(taxonomy[t.skill_id].apps) > 1 for t in ids) == 1200  # the multi-app share is kept
    assert {taxonomy[t.skill_id].family for t in plan_for(taxonomy, Selection(), len(families), 1)} == families
    none = plan_for(taxonomy, Selection(infeasible_share=0.0), 3000, 1)
    assert sum(infeasible(taxonomy[t.skill_id]) for t in none) < 200  # the share is a knob
    named = plan_for(taxonomy, Selection(families=("calc.infeasible",)), 6, 1)
    assert {taxonomy[t.skill_id].family for t in named} == {"calc.infeasible"}  # explicit selections as asked


@pytest.mark.slow
def test_a_live_episode_that_ends_with_infeasible_is_recorded_and_passes(tmp_path):
    from typer.testing import CliRunner

    from forge.cli import app
    from tests.agentserver import Act, AgentServer, tool_results

    folder = make_package(families()["calc.infeasible"], {"impossible": "feature"}, tmp_path / "pkg")
    system: list[str] = []

    def agent(body: dict[str, object]) -> Act:
        messages = body["messages"]
        assert isinstance(messages, list)
        system.append(str(messages[0]["content"]))
        if tool_results(body):  # looked at the files: Calc has no such feature
            return Act(content="INFEASIBLE: LibreOffice Calc cannot do that; I changed nothing.")
        return Act(content="Let me look first.", commands=("ls -la ~",))

    out = tmp_path / "results"
    with AgentServer(agent) as server:
        result = CliRunner().invoke(app, ["student", "run", str(folder), "--model", "test/decliner", "--base-url",
                                          server.base_url, "--out", str(out), "--db",
                                          f"sqlite:///{tmp_path / 'forge.db'}", "--step-timeout", "20"])
    assert result.exit_code == 0, result.output
    assert "INFEASIBLE: <the reason>" in system[0]  # the system prompt says how to decline
    [checks] = list(out.rglob("checks.json"))
    verdict = json.loads(checks.read_text())
    assert verdict["passed"], verdict["checks"]
    assert verdict["declared_infeasible"] == "LibreOffice Calc cannot do that; I changed nothing."
    last = json.loads((checks.parent / "traj.jsonl").read_text().splitlines()[-1])
    assert last["done"] and last["declared"] == verdict["declared_infeasible"]
