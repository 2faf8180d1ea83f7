"""os.ssh_config: the gate with every mutant, the resolver against ssh's rules on hand-made configs, and wrong end
states a lazy agent leaves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from verifiers.checks.ssh_config import resolve
from workflows.os.ssh_config import WORKFLOW


@pytest.mark.slow
@pytest.mark.parametrize("change", ["add", "port", "identity"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, change):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"change": change}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["ssh.host_options", "ssh.hosts_kept", "fs.lines_kept",
                                                            "tree.frame"]


CONFIG = """# top
User everyone
Host nas nas.home.lan
    HostName nas.home.lan
    Port 2222
    Port 2200
    IdentityFile ~/.ssh/a
Host !bastion *.lan
    IdentityFile=~/.ssh/b
    User lan
Host *
    Port 22
"""


def test_the_resolver_follows_ssh():
    nas = resolve(CONFIG, "nas")
    assert nas["port"] == ["2222"]  # the first value obtained wins
    assert nas["user"] == ["everyone"]  # set before any Host line: for every host
    assert nas["identityfile"] == ["~/.ssh/a"]
    lan = resolve(CONFIG, "printer.lan")
    assert lan["identityfile"] == ["~/.ssh/b"] and lan["port"] == ["22"]
    assert "identityfile" not in resolve(CONFIG, "bastion")  # negated pattern
    assert resolve("Host x\n  HOSTNAME  X.org\n", "x")["hostname"] == ["X.org"]  # keywords are case-insensitive


def _entry(tmp_path: Path, text: str, **asked: str) -> bool:
    (tmp_path / ".ssh").mkdir(exist_ok=True)
    (tmp_path / ".ssh" / "config").write_text(text)
    return run_check(State(tmp_path), "ssh.host_options",
                     {"path": "/home/user/.ssh/config", "alias": "nas", **asked}).passed


def test_the_entry_check_on_hand_made_configs(tmp_path):
    assert _entry(tmp_path, CONFIG, hostname="NAS.home.lan", identity_file="/home/user/.ssh/a")
    assert not _entry(tmp_path, CONFIG, port="2200")  # the second Port line is never read
    assert not _entry(tmp_path, CONFIG.replace("Host nas nas", "Host nas.home.lan"), hostname="nas.home.lan")
    assert not _entry(tmp_path, CONFIG.replace("~/.ssh/a", "~/.ssh/a\n    IdentityFile ~/.ssh/c"),
                      identity_file="/home/user/.ssh/a")  # an extra key tried too
    assert not _entry(tmp_path, "\x00\xff" * 50, hostname="x")
    assert not run_check(State(tmp_path), "ssh.host_options", {"path": "/home/user/.ssh/config", "alias": "nas"}).passed
    assert not run_check(State(tmp_path), "ssh.hosts_kept", {"path": "/home/user/../../etc/ssh/ssh_config",
                                                             "hosts": {"a": {"Port": "1"}}}).passed


def _failing(folder: Path, state: Path) -> list[str]:
    task = json.loads((folder / "task.json").read_text())
    return [c["id"] for c in task["rubric"] if not run_check(State(state), c["primitive"], c["args"]).passed]


def test_hand_made_wrong_end_states_fail(tmp_path):
    folder = make_package(WORKFLOW, {"change": "add"}, tmp_path / "pkg", seed=3)
    task = json.loads((folder / "task.json").read_text())
    oracle = task["solutions"]["oracle"]
    _, after = package_states(folder, tmp_path / "oracle", oracle)
    assert _failing(folder, after) == []
    entry = task["rubric"][0]["args"]
    # the entry appended at the very end, after `Host *`: ssh still reads it (Host * sets none of its options)
    initial, appended = package_states(folder, tmp_path / "appended", oracle)
    config = appended / ".ssh" / "config"
    config.write_text((initial / ".ssh" / "config").read_text() + f"\nHost {entry['alias']}\n    HostName "
                      f"{entry['hostname']}\n    User {entry['user']}\n    Port {entry['port']}\n    IdentityFile "
                      f"{entry['identity_file']}\n")
    assert _failing(folder, appended) == []
    # the same block with the options above the Host line (the lazy paste): they apply to every host
    _, above = package_states(folder, tmp_path / "above", oracle)
    (above / ".ssh" / "config").write_text(f"HostName {entry['hostname']}\nPort {entry['port']}\n"
                                           + (initial / ".ssh" / "config").read_text()
                                           + f"Host {entry['alias']}\n    User {entry['user']}\n")
    assert "hosts" in _failing(folder, above)
    # the comments dropped while rewriting the file
    _, bare = package_states(folder, tmp_path / "bare", oracle)
    cfg = bare / ".ssh" / "config"
    cfg.write_text("".join(line + "\n" for line in cfg.read_text().splitlines() if not line.startswith("#")))
    assert _failing(folder, bare) == ["lines"]


@pytest.mark.parametrize("change", ["add", "port", "identity"])
def test_the_instruction_states_every_checked_value(change):
    for register in ("explicit", "natural"):
        out = WORKFLOW.run(NodeContext({"change": change}, 5, "t", 0, OfflineBackend(), register=register))
        args = out["rubric"][0].args
        for key in ("hostname", "user", "port", "identity_file"):
            if key in args:
                assert args[key] in out["instruction"], (key, out["instruction"])
