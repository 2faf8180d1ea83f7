"""A check worker refuses a request that names a folder outside its own (`run_control(confine=...)`): directly,
through a link inside its folder, through `..`, or a sibling folder whose name only begins like its own."""

from __future__ import annotations

from pathlib import Path

from verifiers.gate.controls import run_control


def _ask(work: Path, state: Path, initial: Path | None = None) -> dict:
    request = {"state": str(state), "initial": str(initial) if initial else None, "ops": None, "rubric": []}
    return run_control(request, confine=work)


def test_a_request_outside_the_workers_folder_is_refused(tmp_path: Path) -> None:
    work, outside, sibling = tmp_path / "work", tmp_path / "elsewhere", tmp_path / "work2"
    (work / "t" / "initial").mkdir(parents=True)
    outside.mkdir()
    sibling.mkdir()
    (work / "link").symlink_to(outside)
    for state in (outside / "s", work / "link" / "s", work / ".." / "elsewhere" / "s", sibling / "s"):
        answer = _ask(work, state)
        assert not answer["applied"] and "outside the worker's folder" in answer["error"], (state, answer)
    assert "outside the worker's folder" in _ask(work, work / "t" / "state", outside)["error"]
    inside = _ask(work, work / "t" / "state", work / "t" / "initial")
    assert inside["applied"] and inside["error"] == "", inside
