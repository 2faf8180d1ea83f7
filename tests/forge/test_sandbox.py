"""setup.sh runs under bubblewrap: it sees only its own /home/user and cannot touch the host."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from forge.sandbox import Limits, Sandbox


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
