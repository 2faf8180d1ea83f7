"""VS Code content and determinism: realistic offline projects that fit the schema; identical reruns."""

import random

import jsonschema
import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from preparers.ops.json_doc import loads_jsonc
from workflows import families
from workflows.vscode.content import CONTENT_SCHEMA, LANGUAGES, generate_project, project_files

VSCODE = sorted(name for name in families() if name.startswith("vscode."))


@pytest.mark.parametrize("seed", range(30))
def test_offline_projects_fit_the_schema_and_render_files(seed):
    rng = random.Random(seed)
    project = generate_project(rng, language=LANGUAGES[seed % len(LANGUAGES)])
    jsonschema.validate(project, CONTENT_SCHEMA)
    files = project_files(project)
    assert "README.md" in files and project["summary"] in files["README.md"]
    assert len(files) >= 4
    assert all(not rel.startswith("/") and ".." not in rel for rel in files)


@pytest.mark.parametrize("family", VSCODE)
def test_same_seed_gives_identical_assets_and_valid_settings_files(family):
    workflow = families()[family]
    params = {knob: values[-1] for knob, values in workflow.knobs.items()}
    runs = [workflow.run(NodeContext(params, 5, "vscode.test", 2, OfflineBackend())) for _ in range(2)]
    assert [(a.dest, a.data) for a in runs[0]["assets"]] == [(a.dest, a.data) for a in runs[1]["assets"]]
    assert runs[0]["instruction"] == runs[1]["instruction"]
    for asset in runs[0]["assets"]:
        if asset.dest.endswith(("settings.json", "keybindings.json", ".code-workspace")):
            loads_jsonc(asset.data.decode())  # VS Code must be able to read it
    assert runs[0]["launch"][0] == "code"
