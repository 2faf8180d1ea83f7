"""`forge export osworld`: every exported task scored with desktop-env's own metric code.

A mixed batch (every app, plus the families whose checks map onto native OSWorld metrics) is generated and
gated for real, exported, and each exported evaluator is scored against the no-op state (must be 0), the
oracle state (must be 1) and the first near-miss (must be 0), all made by `forge.solve` in the sandbox.
Needs desktop-env 1.0.2 and its metric modules' light dependencies (see .ci/run).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog
from forge.export.checker import PASS_LINE
from forge.export.osworld import export_osworld
from forge.generate import Generator, Selection, plan_for, select_skills
from forge.solve import solve
from kit.errors import ForgeError
from kit.ids import TaskId
from kit.package import Package, load_package
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy

pytest.importorskip("desktop_env", reason="pip install --no-deps desktop-env==1.0.2 (see .ci/run)")
from tests.exportkit import osworld_metrics, score  # noqa: E402

pytestmark = pytest.mark.slow
DOMAINS = {"chrome", "gimp", "libreoffice_calc", "libreoffice_impress", "libreoffice_writer", "multi_apps", "os",
           "thunderbird", "vlc", "vs_code"}
# Families whose rubrics use checks with native OSWorld metrics (forge.export.evaluator.NATIVE).
NATIVE_FAMILIES = ("calc.summary_cell", "os.extract", "os.permissions", "tb.save_attachment", "tb.set_pref")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Catalog, Path, dict[str, list[str]]]:
    root = tmp_path_factory.mktemp("osworld")
    taxonomy = load_taxonomy()
    catalog = Catalog(f"sqlite:///{root / 'forge.db'}")
    catalog.sync_skills(taxonomy.values())
    per_domain: dict[str, TaskId] = {}
    for skill in sorted(taxonomy.values(), key=lambda s: s.id):
        per_domain.setdefault(skill.app, TaskId(skill.id, 7, 0))
    mixed = [*per_domain.values(), *plan_for(taxonomy, Selection(), 4, seed=7)]  # every domain, and a mix
    firsts: dict[str, TaskId] = {}
    for skill in select_skills(taxonomy, Selection(families=NATIVE_FAMILIES)):
        firsts.setdefault(skill.family, TaskId(skill.id, 7, 0))
    counts = Generator(root / "tasks", catalog, sandbox=Sandbox(), taxonomy=taxonomy).run(
        list(dict.fromkeys([*mixed, *firsts.values()])))
    assert counts["accepted"] >= len(mixed), counts
    out = root / "export"
    return catalog, out, export_osworld(catalog, out)


def _package(catalog: Catalog, task_id: str) -> Package:
    row = catalog.task(task_id)
    assert row is not None and row.path is not None, task_id
    return load_package(Path(row.path))


def _task(out: Path, domain: str, task_id: str) -> dict[str, Any]:
    return json.loads((out / "evaluation_examples" / "examples" / domain / f"{task_id}.json").read_text())


def test_layout_ids_and_index(exported: tuple[Catalog, Path, dict[str, list[str]]]) -> None:
    catalog, out, written = exported
    assert set(written) == DOMAINS  # the batch covers every app
    index = json.loads((out / "evaluation_examples" / "test_all.json").read_text())
    assert index == written
    assert json.loads((out / "evaluation_examples" / "test_round_0.json").read_text()) == written
    for domain, ids in written.items():
        for task_id in ids:
            task = _task(out, domain, task_id)
            row = catalog.task(task_id)
            assert row is not None and row.status == "accepted" and row.app == domain  # maps back to the catalog
            assert task["id"] == task_id and task["snapshot"] == domain
            assert task["instruction"] == _package(catalog, task_id).task["instruction"]


def test_setup_ships_assets_and_launches(exported: tuple[Catalog, Path, dict[str, list[str]]]) -> None:
    catalog, out, written = exported
    for domain, ids in written.items():
        for task_id in ids:
            task, package = _task(out, domain, task_id), _package(catalog, task_id)
            kinds = [step["type"] for step in task["config"]]
            assert kinds[:3] == ["execute", "upload_file", "execute"]
            uploads = {f["path"].rsplit("/", 1)[-1]: out / f["local_path"]
                       for f in task["config"][1]["parameters"]["files"]}
            for asset in package.task["setup"]["assets"]:
                shipped = uploads[asset["file"].rsplit("/", 1)[-1]]
                assert shipped.read_bytes() == (package.root / asset["file"]).read_bytes()
            assert "FORGE_NO_LAUNCH=1" in task["config"][2]["parameters"]["command"][-1]
            if package.task["setup"]["launch"]:
                assert {"type": "launch", "parameters": {"command": package.task["setup"]["launch"],
                                                         "shell": False}} in task["config"]
            # no live URLs (a Chrome web task serves its own site on the VM's loopback)
            assert not re.search(r"https?://(?!127\.0\.0\.1[:/])", json.dumps([task["config"], task["evaluator"]]))


def _declines(task: dict[str, Any], package: Package) -> bool:
    """An infeasible task (the mix holds about 1 in 15): OSWorld's own `infeasible` evaluator, which scores the
    agent's declaration (its last action), not a state; its package says `feasible: false`."""
    declines = task["evaluator"] == {"func": "infeasible"}
    assert declines == (package.task.get("feasible") is False), task["id"]
    return declines


def test_evaluators_flush_state_and_never_share_cache_names(
        exported: tuple[Catalog, Path, dict[str, list[str]]]) -> None:
    catalog, out, written = exported
    funcs: set[str] = set()
    for domain, ids in written.items():
        for task_id in ids:
            evaluator = _task(out, domain, task_id)["evaluator"]
            if _declines(_task(out, domain, task_id), _package(catalog, task_id)):
                continue
            assert evaluator["conj"] == "and"
            assert len(evaluator["func"]) == len(evaluator["result"]) == len(evaluator["expected"]) \
                == len(evaluator["options"]) >= 1
            funcs.update(evaluator["func"])
            dests = [g["dest"] for g in evaluator["result"] + evaluator["expected"] if g["type"] == "vm_file"]
            assert len(dests) == len(set(dests))
            assert all(g["type"] == "rule" for g in evaluator["expected"])  # no gold file to overwrite
            post = json.dumps(evaluator["postconfig"])
            apps = _task(out, domain, task_id)["related_apps"]
            if any(a.startswith("libreoffice") for a in apps):
                assert "hotkey('ctrl', 's')" in post
            if "thunderbird" in apps:
                assert "Mail.thunderbird" in post
            # the checker and its rubric reach the VM only after the attempt (postconfig), never in setup
            assert "forge_hidden" not in json.dumps(_task(out, domain, task_id)["config"])
    assert {"check_thunderbird_prefs", "compare_table", "exact_match"} <= funcs


def test_desktop_env_metrics_score_noop_zero_oracle_one(
        exported: tuple[Catalog, Path, dict[str, list[str]]], tmp_path: Path) -> None:
    catalog, out, written = exported
    metrics = osworld_metrics()
    sandbox = Sandbox()
    wrong = []
    scored = 0
    for domain, ids in written.items():
        for task_id in ids:
            task, package = _task(out, domain, task_id), _package(catalog, task_id)
            if _declines(task, package):  # scored by the agent's declaration: no state to score
                continue
            for solution, want in (("none", 0.0), ("oracle", 1.0), ("near-miss", 0.0)):
                state = tmp_path / task_id / solution
                solve(package, sandbox, state, solution)
                got = score(task, out, state, metrics)
                scored += 1
                if got != want:
                    wrong.append(f"{task_id} {solution}: {got} (want {want}) funcs={task['evaluator']['func']}")
    assert not wrong, "\n".join(wrong)
    assert scored >= 3 * (sum(len(ids) for ids in written.values()) - 1) > 0


def test_checker_verdict_line_and_missing_state(exported: tuple[Catalog, Path, dict[str, list[str]]],
                                                tmp_path: Path) -> None:
    """The shipped checker prints exactly one verdict line; an empty home (nothing to read) scores 0."""
    _, out, written = exported
    metrics = osworld_metrics()
    domain, ids = "libreoffice_writer", written["libreoffice_writer"]
    task = _task(out, domain, ids[0])
    assert task["evaluator"]["expected"][-1]["rules"] == {"expected": PASS_LINE}
    empty = tmp_path / "home"
    empty.mkdir()
    assert score(task, out, empty, metrics) == 0.0


def test_filters_and_errors(exported: tuple[Catalog, Path, dict[str, list[str]]], tmp_path: Path) -> None:
    catalog, out, written = exported
    only = export_osworld(catalog, tmp_path / "calc", apps=["libreoffice_calc"])
    assert only == {"libreoffice_calc": written["libreoffice_calc"]}
    for task_id in only["libreoffice_calc"]:  # the same task exports to the same bytes
        rel = Path("evaluation_examples", "examples", "libreoffice_calc", f"{task_id}.json")
        assert (tmp_path / "calc" / rel).read_bytes() == (out / rel).read_bytes()
    checker = Path("evaluation_examples", "forge_hidden", "checker.pyz")
    assert (tmp_path / "calc" / checker).read_bytes() == (out / checker).read_bytes()
    with pytest.raises(ForgeError, match="no accepted task matches round=5"):
        export_osworld(catalog, tmp_path / "none", round=5)
    with pytest.raises(ForgeError, match="--base-url"):
        export_osworld(catalog, tmp_path / "bad", base_url="ftp://example.org")
    hosted = export_osworld(catalog, tmp_path / "hosted", apps=["os"], base_url="https://files.example.org/forge")
    task = _task(tmp_path / "hosted", "os", hosted["os"][0])
    assert task["config"][1]["type"] == "download"
    files = task["config"][1]["parameters"]["files"]
    assert all(f["url"].startswith(f"https://files.example.org/forge/{task['id']}/") for f in files)


def test_cli_export_osworld(exported: tuple[Catalog, Path, dict[str, list[str]]], tmp_path: Path) -> None:
    from forge.cli import app

    catalog, _, written = exported
    result = CliRunner().invoke(app, ["export", "osworld", str(tmp_path), "--db", catalog.url, "--app", "os"])
    assert result.exit_code == 0, result.output
    assert f"os                     {len(written['os'])} tasks" in result.output
    assert re.search(r"scored natively by OSWorld metrics: \d+ of \d+ tasks \(\d+ %\)", result.output)
    assert json.loads((tmp_path / "evaluation_examples" / "test_all.json").read_text()) == {"os": written["os"]}
    result = CliRunner().invoke(app, ["export", "osworld", str(tmp_path), "--db", catalog.url, "--app", "audacity"])
    assert result.exit_code == 1 and "Error: no accepted task matches round=None apps=['audacity']" in result.output


def test_export_merges_into_an_osworld_checkout(exported: tuple[Catalog, Path, dict[str, list[str]]],
                                                tmp_path: Path) -> None:
    """OSWorld's own index and task files survive; Forge's ids are added once, however often it exports."""
    catalog, _, written = exported
    examples = tmp_path / "evaluation_examples"
    (examples / "examples" / "os").mkdir(parents=True)
    own = examples / "examples" / "os" / "94d95f96-9699-4208-98ba-3c3119edf9c2.json"
    own.write_text('{"id": "94d95f96-9699-4208-98ba-3c3119edf9c2"}')
    (examples / "test_all.json").write_text(json.dumps({"chrome": ["bb5e4c0d"], "os": ["94d95f96"]}))
    for _ in range(2):
        export_osworld(catalog, tmp_path, apps=["os"])
    assert json.loads((examples / "test_all.json").read_text()) == {"chrome": ["bb5e4c0d"],
                                                                    "os": ["94d95f96", *written["os"]]}
    assert own.read_text() == '{"id": "94d95f96-9699-4208-98ba-3c3119edf9c2"}'
    (examples / "test_all.json").write_text("[1, 2]")
    with pytest.raises(ForgeError, match="test_all.json: not an OSWorld index"):
        export_osworld(catalog, tmp_path, apps=["os"])


def test_checks_with_an_osworld_equivalent_leave_the_checker(
        exported: tuple[Catalog, Path, dict[str, list[str]]]) -> None:
    """A check with an OSWorld equivalent is scored by OSWorld's metric, never shipped to the checker; a task whose
    every check has one ships no checker at all (none here: every rubric now ends with the tree frame, which has
    no OSWorld equivalent). The scoring test above runs them all on no-op, oracle and near-miss states."""
    catalog, out, written = exported
    native = getattr(written, "native", [])
    moved = 0
    for domain, ids in written.items():
        for task_id in ids:
            task = _task(out, domain, task_id)
            hidden = out / "evaluation_examples" / "forge_hidden" / task_id / "rubric.json"
            assert (task_id in native) == (not hidden.exists()) == ("forge_hidden" not in json.dumps(task))
            left = json.loads(hidden.read_text()) if hidden.exists() else []
            for check in _package(catalog, task_id).task["rubric"]:
                if check["primitive"] in ("fs.dir_listing", "fs.dir_modes") and task_id.startswith(
                        ("os.extract.", "os.permissions.")):
                    assert check not in left, (task_id, check["primitive"])
                    moved += 1
    assert moved >= 2  # the batch has both families
    checks = sum(len(_package(catalog, t).task["rubric"]) for ids in written.values() for t in ids)
    assert written.checks == checks and 0 < written.native_checks < checks  # type: ignore[attr-defined]


def _native(primitive: str, args: dict[str, Any]) -> dict[str, Any]:
    from forge.export.evaluator import evaluator_json, plan_rubric

    plan = plan_rubric([{"primitive": primitive, "args": args, "criterion": "c"}])
    assert not plan.checker_checks, f"{primitive} {args} went to the checker"
    return {"evaluator": evaluator_json(list(plan.metrics), [])}


def test_listing_and_modes_metrics_on_hostile_states(tmp_path: Path) -> None:
    """fs.dir_listing / fs.dir_modes as OSWorld metrics give the checker's verdict on states made to fool a
    listing: a file whose name holds a newline, a link in place of a file or of the folder, bits added or missing."""
    metrics = osworld_metrics()
    home = tmp_path / "home"
    folder = home / "box"
    folder.mkdir(parents=True)
    (folder / "a").write_text("A")
    (folder / "b").write_text("B")
    sha_a = "559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd"  # sha256 of "A"
    listing = _native("fs.dir_listing", {"path": "/home/user/box", "names": ["a", "b"], "contents": {"a": sha_a}})
    assert score(listing, tmp_path, home, metrics) == 1.0
    trick = home / "trick"
    trick.mkdir()
    (trick / "a\nentry b").write_text("B")  # one file that would print as the two entries, were names printed raw
    names = _native("fs.dir_listing", {"path": "/home/user/trick", "names": ["a", "b"]})
    assert score(names, tmp_path, home, metrics) == 0.0
    (folder / "a").unlink()
    (folder / "a").symlink_to(home / "elsewhere")  # the name is there, the file is not
    (home / "elsewhere").write_text("A")
    assert score(listing, tmp_path, home, metrics) == 0.0
    (folder / "a").unlink()
    (folder / "a").write_text("A")
    os.rename(folder, home / "real")
    folder.symlink_to(home / "real")  # a link to a folder is not the folder
    assert score(listing, tmp_path, home, metrics) == 0.0
    empty = _native("fs.dir_listing", {"path": "/home/user/none", "names": []})
    assert score(empty, tmp_path, home, metrics) == 0.0  # a missing folder never lists as empty
    (home / "none").mkdir()
    assert score(empty, tmp_path, home, metrics) == 1.0
    spaced = home / "My Files"
    (spaced / "sub dir").mkdir(parents=True)
    (spaced / "sub dir" / "Q1 (final), v2.txt").write_text("A")
    (spaced / "it's $HOME.txt").write_text("A")
    names = ["it's $HOME.txt", "sub dir/Q1 (final), v2.txt"]  # quoted by bash as the export expects them
    listing = _native("fs.dir_listing", {"path": "/home/user/My Files", "names": names, "recursive": True,
                                         "contents": {"sub dir/Q1 (final), v2.txt": sha_a}})
    assert score(listing, tmp_path, home, metrics) == 1.0
    (spaced / "it's $HOME.txt").rename(spaced / "its $HOME.txt")
    assert score(listing, tmp_path, home, metrics) == 0.0

    modes = _native("fs.dir_modes", {"path": "/home/user/real", "modes": {"a": "+500", "b": "640"}})
    (home / "real" / "a").chmod(0o755)
    (home / "real" / "b").chmod(0o640)
    assert score(modes, tmp_path, home, metrics) == 1.0
    (home / "real" / "a").chmod(0o644)  # lacks the owner's execute bit
    assert score(modes, tmp_path, home, metrics) == 0.0
    (home / "real" / "a").chmod(0o700)
    (home / "real" / "b").chmod(0o4640)  # a setuid bit added: not exactly 640
    assert score(modes, tmp_path, home, metrics) == 0.0
    (home / "real" / "b").unlink()
    assert score(modes, tmp_path, home, metrics) == 0.0
