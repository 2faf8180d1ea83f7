"""Score an exported OSWorld task against a local state folder with desktop-env's own metric code.

What OSWorld's harness does on a VM, done against a folder standing for /home/user:
- postconfig `upload_file` steps place host files at VM paths (here: a map from VM path to host file);
- getters: `vm_file` -> the file in the state root (None when missing, as OSWorld's getter returns),
  `vm_command_line` -> the command run on this machine with VM paths mapped to host paths (stdout),
  `rule` -> its rules as given;
- metrics: the functions of `desktop_env.evaluators.metrics.<module>`, combined as `DesktopEnv.evaluate`
  does (conj "and": 0 on any zero, else the mean).
`desktop_env.evaluators.metrics/__init__` imports torch, easyocr and librosa; the single modules do not, so
the package is registered empty and its modules are imported one by one (their own code, unchanged).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

HOME = "/home/user"
METRIC_MODULES = ("general", "table", "thunderbird")


def osworld_metrics() -> dict[str, Any]:
    """Metric name -> function, from desktop-env's metric modules (imported without the package __init__)."""
    import desktop_env.evaluators as evaluators

    name = "desktop_env.evaluators.metrics"
    if name not in sys.modules:
        package = types.ModuleType(name)
        package.__path__ = [str(Path(evaluators.__file__).parent / "metrics")]
        sys.modules[name] = package
    functions: dict[str, Any] = {}
    for module_name in METRIC_MODULES:
        module = importlib.import_module(f"{name}.{module_name}")
        functions.update({k: v for k, v in vars(module).items() if callable(v) and not k.startswith("_")})
    return functions


class LocalVM:
    """The VM of one task, played by a state folder plus the files postconfig uploads."""

    def __init__(self, export_root: Path, state: Path) -> None:
        self.export_root = export_root  # the folder holding evaluation_examples/ (an OSWorld checkout's root)
        self.state = state
        self.uploads: dict[str, Path] = {}

    def host(self, vm_path: str) -> Path:
        if vm_path in self.uploads:
            return self.uploads[vm_path]
        if vm_path == HOME or vm_path.startswith(HOME + "/"):
            return self.state / vm_path[len(HOME):].lstrip("/")
        raise AssertionError(f"the evaluator reads {vm_path}, which is neither uploaded nor under {HOME}")

    def postconfig(self, steps: list[dict[str, Any]]) -> None:
        for step in steps:
            if step["type"] == "upload_file":
                for f in step["parameters"]["files"]:
                    local = self.export_root / f["local_path"]
                    assert local.is_file(), f"upload_file: {f['local_path']} is not in the export"
                    self.uploads[f["path"]] = local
            # execute (pyautogui ctrl+s, mkdir), activate/close_window, sleep: GUI-only, nothing to do here

    def get(self, getter: dict[str, Any]) -> Any:
        kind = getter["type"]
        if kind == "rule":
            return getter["rules"]
        if kind == "vm_file":
            host = self.host(getter["path"])
            return str(host) if host.is_file() else None
        if kind == "vm_command_line":
            assert getter.get("shell") is False, "commands are argument lists"
            command = [self._arg(a) for a in getter["command"]]
            ran = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.state)
            return ran.stdout
        raise AssertionError(f"getter {kind!r} has no local stand-in")

    def _arg(self, arg: str) -> str:
        if arg == "python":
            return sys.executable
        if arg.startswith("/"):
            try:
                return str(self.host(arg))
            except AssertionError:
                return arg
        return arg


def score(task: dict[str, Any], export_root: Path, state: Path, metrics: dict[str, Any]) -> float:
    """The task's score on `state`, as `DesktopEnv.evaluate` computes it (lists, conj "and")."""
    evaluator = task["evaluator"]
    vm = LocalVM(export_root, state)
    vm.postconfig(evaluator.get("postconfig", []))
    results = []
    for func, result, expected, options in zip(evaluator["func"], evaluator["result"], evaluator["expected"],
                                               evaluator["options"], strict=True):
        value = float(metrics[func](vm.get(result), vm.get(expected), **(options or {})))
        if evaluator["conj"] == "and" and value == 0.0:
            return 0.0
        results.append(value)
    return sum(results) / len(results)
