"""Export accepted tasks as OSWorld task files, scored by OSWorld's own metric functions.

Layout (merge OUT into an OSWorld checkout; `upload_file` paths are relative to its root):
```
OUT/evaluation_examples/examples/<domain>/<id>.json    one task file per task (file name == id == catalog id)
OUT/evaluation_examples/test_all.json                  domain -> ids; test_round_<N>.json per round (merged)
OUT/evaluation_examples/forge/<id>/                    setup.sh + assets/ (student-facing; may be hosted)
OUT/evaluation_examples/forge_hidden/<id>/rubric.json  the checks left to Forge's checker (never hosted)
OUT/evaluation_examples/forge_hidden/checker.pyz       Forge's self-contained checker
```
Setup: upload (or `download` from `base_url`) setup.sh and the assets to a staging folder, `execute` setup.sh
as the desktop user with the app launch suppressed, delete the staging folder, then `launch` the app.
An infeasible task (task.json `feasible: false`) is scored by OSWorld's own `{"func": "infeasible"}` evaluator (the
agent's last action must be FAIL). Evaluation of the others: postconfig saves or flushes app state (ctrl+s in
LibreOffice, closing Thunderbird or Chrome),
uploads the checker only after the agent is done (so the answers never sit on the VM during the attempt),
then the metrics from `forge.export.evaluator` run with conj "and".
OUT may be an OSWorld checkout: its own task files stay, and the index files (test_all.json, test_round_<N>.json)
are merged — existing domains and ids are kept in their order, Forge's ids are added after them, once.
"""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from forge.catalog import Catalog
from forge.export.checker import build_checker
from forge.export.evaluator import checker_metric, evaluator_json, plan_rubric
from forge.export.source import accepted_packages
from kit.errors import ForgeError
from kit.ids import path_inside, safe_id
from kit.package import Package, dumps

EXAMPLES = "evaluation_examples"
OFFICE = {"libreoffice_calc": "LibreOffice Calc", "libreoffice_writer": "LibreOffice Writer",
          "libreoffice_impress": "LibreOffice Impress"}
OFFICE_SUFFIXES = (".xlsx", ".xls", ".ods", ".csv", ".docx", ".doc", ".odt", ".pptx", ".ppt", ".odp")
# OSWorld's own tasks drive pyautogui with `python`: the VM server's interpreter (it has pyautogui, Pillow
# and lxml, which the checker needs too).
VM_PYTHON = "python"
_SAVE = ("import pyautogui, time; pyautogui.hotkey('ctrl', 's'); time.sleep(1); "
         "pyautogui.press('enter'); time.sleep(1)")  # enter = "Keep current format" for MS Office files


class Exported(dict[str, list[str]]):
    """domain -> task ids written, plus which tasks OSWorld's own metrics score entirely (`native`: no check
    left to Forge's shipped checker) and how many of all checks they score (`native_checks` of `checks`)."""

    def __init__(self) -> None:
        super().__init__()
        self.native: list[str] = []
        self.native_checks = 0
        self.checks = 0

    def share(self) -> str:
        """`scored natively by OSWorld metrics: 5 of 17 tasks (29 %), 40 of 61 checks (66 %)`."""
        tasks = sum(len(ids) for ids in self.values())
        return (f"scored natively by OSWorld metrics: {len(self.native)} of {tasks} tasks "
                f"({100 * len(self.native) / max(tasks, 1):.0f} %), {self.native_checks} of {self.checks} checks "
                f"({100 * self.native_checks / max(self.checks, 1):.0f} %); the rest by Forge's shipped checker")


def export_osworld(catalog: Catalog, out: Path, *, round: int | None = None, apps: Sequence[str] = (),
                   base_url: str | None = None) -> Exported:
    """Write every accepted task (optionally of one round / some apps) as an OSWorld task; returns domain -> ids
    (with the tasks and checks scored natively, `Exported`).

    Ids are the catalog task ids (filename-safe), so OSWorld result folders map back to catalog rows.
    Raises `ForgeError` when nothing matches, `PackageError` when a task's package folder is gone."""
    if base_url is not None and urlsplit(base_url).scheme not in ("http", "https"):
        raise ForgeError(f"--base-url {base_url!r}: give an http(s) URL where OUT/{EXAMPLES}/forge/ is served")
    tasks = accepted_packages(catalog, round, apps)
    root = out / EXAMPLES
    checker = root / "forge_hidden" / "checker.pyz"
    written = Exported()
    rounds: dict[int, dict[str, list[str]]] = {}
    needs_checker = False
    for row, package in tasks:  # ids from a (maybe shared) catalog and its packages: checked before any write
        domain = safe_id(package.task["app"], what="app")
        target = path_inside(root / "examples", domain, f"{safe_id(row.id)}.json")
        task, uses_checker = _task_json(package, root, base_url)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dumps(task), encoding="utf-8")
        written.setdefault(domain, []).append(row.id)
        if not uses_checker:
            written.native.append(row.id)
        written.checks += len(package.task["rubric"])
        left = 0 if package.task.get("feasible") is False else len(plan_rubric(package.task["rubric"]).checker_checks)
        written.native_checks += len(package.task["rubric"]) - left  # infeasible: OSWorld's evaluator scores it all
        rounds.setdefault(row.round, {}).setdefault(domain, []).append(row.id)
        needs_checker = needs_checker or uses_checker
    if needs_checker:
        build_checker(checker)
    merge_index(root / "test_all.json", written)
    for number, index in sorted(rounds.items()):
        merge_index(root / f"test_round_{number}.json", index)
    return written


def merge_index(path: Path, added: dict[str, list[str]]) -> None:
    """Write `path` (an OSWorld index: domain -> task ids) as its current content plus `added`: existing entries
    keep their order, new ids follow, none twice. A file that is not such an index is refused, not overwritten."""
    index: dict[str, list[str]] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ForgeError(f"{path}: not valid JSON ({exc}); fix or move it, then export again") from None
        if not isinstance(loaded, dict) or not all(isinstance(v, list) for v in loaded.values()):
            raise ForgeError(f"{path}: not an OSWorld index (an object of domain -> list of task ids); fix or move "
                             "it, then export again")
        index = {str(k): [str(i) for i in v] for k, v in loaded.items()}
    for domain, ids in added.items():
        present = index.setdefault(domain, [])
        seen = set(present)
        for task_id in ids:
            if task_id not in seen:
                present.append(task_id)
                seen.add(task_id)
    path.write_text(dumps(index), encoding="utf-8")


def _task_json(package: Package, root: Path, base_url: str | None) -> tuple[dict[str, Any], bool]:
    """The OSWorld task for `package`, writing its shipped files under `root`; also whether it uses the checker."""
    task = package.task
    task_id = package.id
    if task.get("feasible") is False:  # OSWorld's own convention: the agent's last action must be FAIL
        return {"id": task_id, "snapshot": str(task["app"]), "instruction": task["instruction"],
                "source": f"forge:{task['skill_id']}", "config": _setup(package, root, base_url),
                "trajectory": "trajectories/", "related_apps": [str(a) for a in task.get("apps") or [task["app"]]],
                "evaluator": {"func": "infeasible"}, "proxy": False, "fixed_ip": False,
                "possibility_of_env_change": "low"}, False
    plan = plan_rubric(task["rubric"])
    metrics = list(plan.metrics)
    hidden: list[dict[str, Any]] = []
    if plan.checker_checks:
        rubric = path_inside(root / "forge_hidden", task_id, "rubric.json")
        rubric.parent.mkdir(parents=True, exist_ok=True)
        rubric.write_text(dumps(list(plan.checker_checks)), encoding="utf-8")
        vm_dir = f"/tmp/forge-eval/{task_id}"
        hidden = [_mkdir(vm_dir), {"type": "upload_file", "parameters": {"files": [
            {"local_path": f"{EXAMPLES}/forge_hidden/checker.pyz", "path": f"{vm_dir}/checker.pyz"},
            {"local_path": f"{EXAMPLES}/forge_hidden/{task_id}/rubric.json", "path": f"{vm_dir}/rubric.json"}]}}]
        metrics.append(checker_metric(VM_PYTHON, f"{vm_dir}/checker.pyz", f"{vm_dir}/rubric.json"))
    apps = [str(a) for a in task.get("apps") or [task["app"]]]
    osworld = {
        "id": task_id,
        "snapshot": str(task["app"]),
        "instruction": task["instruction"],
        "source": f"forge:{task['skill_id']}",
        "config": _setup(package, root, base_url),
        "trajectory": "trajectories/",
        "related_apps": apps,
        "evaluator": evaluator_json(metrics, _flush(task, apps) + hidden),
        "proxy": False,
        "fixed_ip": False,
        "possibility_of_env_change": "low",
    }
    return osworld, bool(plan.checker_checks)


def _mkdir(folder: str) -> dict[str, Any]:
    return {"type": "execute", "parameters": {"command": ["mkdir", "-p", folder], "shell": False}}


def _setup(package: Package, root: Path, base_url: str | None) -> list[dict[str, Any]]:
    """Ship setup.sh and the assets, run setup.sh (no launch), clean up, launch the app."""
    task_id = package.id
    shipped = path_inside(root / "forge", task_id)
    if shipped.exists():
        shutil.rmtree(shipped)
    files = ["setup.sh", *(str(a["file"]) for a in package.task["setup"]["assets"])]
    stage = f"/tmp/forge-setup/{task_id}"
    transfers = []
    for rel in files:  # an asset's name comes from task.json: neither its source nor its copy may leave its folder
        source = path_inside(package.root, rel, what="asset")
        target = path_inside(shipped, rel, what="asset")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        if base_url is None:
            transfers.append({"local_path": f"{EXAMPLES}/forge/{task_id}/{rel}", "path": f"{stage}/{rel}"})
        else:
            transfers.append({"url": f"{base_url.rstrip('/')}/{task_id}/{rel}", "path": f"{stage}/{rel}"})
    kind = "upload_file" if base_url is None else "download"
    run = (f"FORGE_NO_LAUNCH=1 FORGE_ASSETS={shlex.quote(stage + '/assets')} bash {shlex.quote(stage + '/setup.sh')}"
           f"; status=$?; rm -rf {shlex.quote(stage)}; exit $status")
    steps: list[dict[str, Any]] = [
        _mkdir(f"{stage}/assets"),
        {"type": kind, "parameters": {"files": transfers}},
        {"type": "execute", "parameters": {"command": ["bash", "-c", run], "shell": False}},
    ]
    launch = [str(a) for a in package.task["setup"].get("launch", [])]
    if launch:
        steps.append({"type": "launch", "parameters": {"command": launch, "shell": False}})
        steps.append({"type": "sleep", "parameters": {"seconds": 3}})
    return steps


def _flush(task: dict[str, Any], apps: list[str]) -> list[dict[str, Any]]:
    """Postconfig that makes the apps write their state to disk before anything reads it."""
    steps: list[dict[str, Any]] = []
    office = [a for a in apps if a in OFFICE]
    if office:
        window = _office_window(task)
        if window:
            steps.append({"type": "activate_window", "parameters": {"window_name": window, "strict": False}})
            steps.append({"type": "sleep", "parameters": {"seconds": 1}})
        steps.append({"type": "execute", "parameters": {"command": [VM_PYTHON, "-c", _SAVE], "shell": False}})
        steps.append({"type": "sleep", "parameters": {"seconds": 2}})
    if "thunderbird" in apps:
        steps.append({"type": "close_window", "parameters": {"window_name": "Mail.thunderbird", "strict": True,
                                                             "by_class": True}})
        steps.append({"type": "sleep", "parameters": {"seconds": 3}})
    if "chrome" in apps:  # Chrome writes Bookmarks and Preferences on a clean exit
        steps.append({"type": "execute", "parameters": {"command": ["pkill", "-TERM", "-x", "chrome"],
                                                        "shell": False}})
        steps.append({"type": "sleep", "parameters": {"seconds": 3}})
    return steps


def _office_window(task: dict[str, Any]) -> str | None:
    """The title fragment of the office window to focus: the name of the file the app was launched with."""
    for arg in reversed(task["setup"].get("launch", [])):
        if str(arg).lower().endswith(OFFICE_SUFFIXES):
            return str(arg).rsplit("/", 1)[-1]
    return None
