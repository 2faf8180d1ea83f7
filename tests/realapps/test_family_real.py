"""Every family meets the real applications: real LibreOffice opens its sample task's office files and re-saves the
oracle's result, real Thunderbird loads its profile and carries out the oracle, and the rubric still passes (the
real-app tier of `forge generate --real-apps all`, forge/realapps/). A LibreOffice behaviour that breaks a check
(keywords joined by spaces on a .docx export) shows here, not only in a generate run.

One sample task per family (its first seed skill, seed 1, as `forge family show` builds it); the families of the
session are checked in one batch, as `forge generate` does (one soffice call per format, not one per family).
A family whose task opens no file a real app opens, or whose app is not installed, is skipped with the reason.
"""

from __future__ import annotations

import pytest

from forge.family_info import sample_skill
from forge.realapps import OFFICE_APPS, Policy, RealApps, libreoffice, thunderbird
from forge.solve import LocalEnv
from kit.package import Package, load_package
from kit.sandbox import Sandbox
from tests.gatekit import make_package
from verifiers.gate.controls import InProcess
from verifiers.gate.stages import Stage
from workflows import families

pytestmark = pytest.mark.slow


def _missing(package: Package) -> str:
    """Why this machine cannot give the package a real-app verdict ('' when it can)."""
    apps = {asset.get("app") for asset in package.task["setup"]["assets"]}
    if apps & set(OFFICE_APPS) and not libreoffice.available():
        return "LibreOffice (soffice) is not installed (.ci/run installs it)"
    if "thunderbird" in apps and thunderbird.missing():
        return thunderbird.missing()
    return ""


@pytest.fixture(scope="module")
def verdicts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Stage] | str]:
    """family -> the tier's stages for its sample task, or why it is skipped; for the families this session runs."""
    chosen = sorted({item.callspec.params["family"] for item in request.session.items
                     if item.module is request.module and hasattr(item, "callspec")})
    out = tmp_path_factory.mktemp("family-real")
    found: dict[str, list[Stage] | str] = {}
    batch: list[Package] = []
    for name in chosen:
        workflow = families()[name]
        skill = sample_skill(workflow)
        package = load_package(make_package(workflow, dict(skill.params), out, seed=1, skill_id=skill.id))
        if not Policy("all").wants(package.task):
            found[name] = "its task opens no file a real app opens (no office document, no Thunderbird profile)"
        elif _missing(package):
            found[name] = _missing(package)
        else:
            batch.append(package)
    work = out / "tier"
    work.mkdir()
    tier = RealApps(Policy("all"), LocalEnv(Sandbox()), InProcess(), work, Sandbox())
    for package, stages in zip(batch, tier.check(batch), strict=True):
        found[package.task["family"]] = stages
    return found


@pytest.mark.parametrize("family", sorted(families()))
def test_real_apps_open_the_sample_task_and_the_rubric_accepts_what_they_save(
        family: str, verdicts: dict[str, list[Stage] | str]) -> None:
    stages = verdicts[family]
    if isinstance(stages, str):
        pytest.skip(stages)
    assert stages, "the real-app tier returned no stage"
    assert all(s.passed for s in stages), [(s.name, s.evidence) for s in stages]
    assert {s.name for s in stages} <= {"real-open", "alternative"}
