"""setup.sh runs under bubblewrap: it sees only its own /home/user and cannot touch the host."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from kit.sandbox import Limits, Sandbox


def run(tmp_path: Path, script: str, limits: Limits | None = None):
    package = tmp_path / "pkg"
    package.mkdir(exist_ok=True)
    (package / "setup.sh").write_text(script)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return Sandbox(limits).run_script(package, "setup.sh", home), home


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary"
    path.mkdir()
    (path / "file.txt").write_text("keep me")
    return path


def test_writes_land_in_the_fresh_home_only(tmp_path, canary):
    result, home = run(tmp_path, f"echo hi > /home/user/a.txt; echo x > {canary}/file.txt; rm -rf {canary}; true")
    assert result.ok
    assert (home / "a.txt").read_text() == "hi\n"
    assert (canary / "file.txt").read_text() == "keep me"


def test_host_secrets_and_home_are_invisible(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-test")
    result, _ = run(tmp_path, "cat /etc/shadow; ls /root; env; echo HOME=$HOME")
    assert "sk-secret-test" not in result.stdout
    assert "root:" not in result.stdout
    assert "HOME=/home/user" in result.stdout


def test_no_network_even_to_host_loopback(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    hits: list[int] = []

    def accept() -> None:
        server.settimeout(5)
        try:
            conn, _ = server.accept()
            hits.append(1)
            conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    result, _ = run(tmp_path, f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected")
    thread.join()
    server.close()
    assert not result.ok and "connected" not in result.stdout
    assert hits == []


def test_wall_clock_limit_kills_sleepers(tmp_path):
    result, _ = run(tmp_path, "sleep 100 & sleep 100", Limits(wall_seconds=1))
    assert result.timed_out and not result.ok


def test_without_bwrap_scripts_are_refused_unless_no_sandbox(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from forge.cli import app
    from kit.errors import SandboxError

    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on PATH
    with pytest.raises(SandboxError, match="--no-sandbox"):
        Sandbox()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "task.json").write_text("{}")
    result = CliRunner().invoke(app, ["verify", str(tmp_path / "pkg")])
    assert result.exit_code == 1
    assert "Error: bubblewrap (bwrap) is not installed" in result.output


def test_limits_are_enforced_inside(tmp_path):
    result, _ = run(tmp_path, "ulimit -t; ulimit -v; ulimit -f; ulimit -u; id -u")
    cpu, memory, fsize, procs, uid = result.stdout.split()
    lim = Limits()
    assert (int(cpu), int(memory), int(fsize)) == (lim.cpu_seconds, lim.memory_mb * 1024, lim.file_mb * 1024)
    assert int(procs) >= lim.processes and uid != "0"


def test_output_flood_is_cut_and_marked_unsafe(tmp_path):
    result, _ = run(tmp_path, "head -c 50000000 /dev/zero; echo done")
    assert result.unsafe and "printed more than" in result.evidence()
    assert len(result.stdout) <= Limits().keep_bytes
