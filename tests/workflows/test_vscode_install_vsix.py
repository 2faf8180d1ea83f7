"""vscode.install_vsix: the family through the gate with every mutant, the op and the check on hand-made
extension folders."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from preparers import vscode
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.vscode_extensions import json_digest
from workflows.vscode.install_vsix import NATURAL, PHRASINGS, SITUATION, WORKFLOW, _files, _package

VSIX = "/home/user/Downloads/northwind.csv-lens-1.4.2.vsix"
EXT = vscode.EXTENSIONS_DIR


@pytest.mark.slow
@pytest.mark.parametrize("situation", ["fresh", "upgrade"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, situation):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"situation": situation}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "vscode.extension_installed"


def _setup(tmp_path):
    """A home with one marketplace extension installed and the CSV Lens package in Downloads."""
    package = _package("northwind", "csv-lens", "CSV Lens", "Preview CSV files.", "Other", "1.4.2")
    files = _files("CSV Lens", "Preview CSV files.", "Other", "csv-lens", "1.4.2")
    (tmp_path / "Downloads").mkdir()
    (tmp_path / "Downloads" / "northwind.csv-lens-1.4.2.vsix").write_bytes(vscode.vsix(package, files))
    ext = tmp_path / ".vscode" / "extensions"
    (ext / "redhat.vscode-yaml-1.15.0").mkdir(parents=True)
    (ext / "redhat.vscode-yaml-1.15.0" / "package.json").write_text('{"name": "vscode-yaml"}')
    (ext / "extensions.json").write_text(vscode.render_extensions(
        [vscode.extension_entry("redhat.vscode-yaml", "1.15.0", {"source": "gallery"})]))
    args = {"vsix": VSIX, "extensions": EXT, "id": "northwind.csv-lens", "version": "1.4.2", "manifest": package,
            "files": {rel: json_digest(json.loads(t)) if rel.endswith(".json")
                      else hashlib.sha256(t.encode()).hexdigest() for rel, t in files.items()},
            "kept": [["redhat.vscode-yaml", "1.15.0"]]}
    return ext, args


def _passes(tmp_path, args) -> bool:
    return run_check(State(tmp_path), "vscode.extension_installed", args).passed


def test_the_op_installs_and_the_check_accepts_what_vscode_writes(tmp_path):
    ext, args = _setup(tmp_path)
    assert not _passes(tmp_path, args)
    apply_ops(tmp_path, [{"op": "fs.install_vsix", "path": VSIX}])
    assert (ext / "northwind.csv-lens-1.4.2" / "out" / "extension.js").is_file()
    assert (ext / "northwind.csv-lens-1.4.2" / ".vsixmanifest").is_file()
    assert _passes(tmp_path, args)
    # VS Code adding its __metadata to package.json, and re-indenting it: the same extension
    manifest = ext / "northwind.csv-lens-1.4.2" / "package.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "__metadata": {"installedTimestamp": 1}}, indent=4))
    assert _passes(tmp_path, args)


def test_the_check_refuses_hand_made_wrong_installs(tmp_path):
    ext, args = _setup(tmp_path)
    apply_ops(tmp_path, [{"op": "fs.install_vsix", "path": VSIX}])
    folder = ext / "northwind.csv-lens-1.4.2"
    # the extension's code edited (a file of the package changed)
    (folder / "out" / "extension.js").write_text("// patched\n")
    assert not _passes(tmp_path, args)
    shutil.rmtree(folder)
    apply_ops(tmp_path, [{"op": "fs.install_vsix", "path": VSIX}])
    # the other extension's folder deleted while its entry stays
    shutil.rmtree(ext / "redhat.vscode-yaml-1.15.0")
    assert not _passes(tmp_path, args)
    # extensions.json not a list, or missing
    (ext / "extensions.json").write_text('{"extensions": []}')
    assert not _passes(tmp_path, args)
    (ext / "extensions.json").unlink()
    assert not _passes(tmp_path, args)


@pytest.mark.parametrize("situation", ["fresh", "upgrade"])
def test_every_phrasing_names_the_package(situation):
    from workflows.common import Fact
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(vsix=Fact(VSIX), display="CSV Lens", ident="northwind.csv-lens", version="1.4.2",
                               situation=SITUATION[situation].format(old="1.3.0"))
        assert "northwind.csv-lens-1.4.2.vsix" in text and ("install" in text.lower() or "add the" in text.lower())
        assert ("1.3.0" in text) == (situation == "upgrade")
