"""impress.media: the family through the gate with every mutant, its check on hand-made end states (a link, the
other file, a picture without media, a broken part), the op's markup, and LibreOffice's re-save keeping the sound."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.pptx_media import media_digests
from workflows.impress.media import WORKFLOW, make_wav

PATH = "/home/user/deck.pptx"
SOUND, OTHER = "/home/user/Music/welcome_message.wav", "/home/user/Music/applause.wav"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 5])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, seed):
    folder = make_package(WORKFLOW, {}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.media", "pptx.frame", "tree.frame"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "Music").mkdir()
    (tmp_path / "Music" / "welcome_message.wav").write_bytes(make_wav(random.Random(1)))
    (tmp_path / "Music" / "applause.wav").write_bytes(make_wav(random.Random(2)))
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    return tmp_path


def _check(root: Path, slide: str = "Costs") -> tuple[bool, str]:
    sha = hashlib.sha256((root / "Music" / "welcome_message.wav").read_bytes()).hexdigest()
    result = run_check(State(root), "pptx.media", {"path": PATH, "slide": slide, "media": SOUND, "sha256": sha})
    return result.passed, result.evidence


def test_embedded_sound_passes_and_wrong_ones_fail(home):
    passed, evidence = _check(home)
    assert not passed and "no audio or video object" in evidence
    apply_ops(home, [{"op": "pptx.add_audio", "path": PATH, "title": "Costs", "media": OTHER}])
    passed, evidence = _check(home)
    assert not passed and "another media file" in evidence
    (home / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(home, [{"op": "pptx.add_audio", "path": PATH, "title": "Costs", "media": SOUND, "linked": True}])
    passed, evidence = _check(home)
    assert not passed and "link to a file outside" in evidence
    (home / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(home, [{"op": "pptx.add_audio", "path": PATH, "title": "Costs", "media": SOUND}])
    assert _check(home)[0] and not _check(home, "Income")[0]
    prs = deckio.read_deck((home / "deck.pptx").read_bytes())
    nvpr = next(next(prs.slides[1]._element.iter("{*}pic")).iter("{*}nvPr"))
    assert [e.tag.rsplit("}", 1)[1] for e in nvpr.iter("{*}audioFile", "{*}media")] == ["audioFile", "media"]


def test_a_picture_of_a_speaker_or_a_broken_part_is_no_sound(home):
    # a plain picture on the slide: no media object
    from PIL import Image
    Image.new("RGB", (40, 40), (0, 0, 0)).save(home / "speaker.png")
    apply_ops(home, [{"op": "pptx.add_image", "path": PATH, "title": "Costs", "image": "/home/user/speaker.png",
                      "left_cm": 2, "top_cm": 14}])
    assert not _check(home)[0]
    (home / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(home, [{"op": "pptx.add_audio", "path": PATH, "title": "Costs", "media": SOUND}])
    prs = deckio.read_deck((home / "deck.pptx").read_bytes())
    for el in prs.slides[1]._element.iter("{*}media", "{*}audioFile"):
        for key in list(el.attrib):
            el.set(key, "rId999")
    (home / "deck.pptx").write_bytes(deckio.to_bytes(prs))
    assert not _check(home)[0]
    (home / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(home)[0]


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_resave_keeps_the_sound(home):
    apply_ops(home, [{"op": "pptx.add_audio", "path": PATH, "title": "Costs", "media": SOUND}])
    out = home / "out"
    subprocess.run(["soffice", "--headless", "--convert-to", "pptx", "--outdir", str(out), str(home / "deck.pptx")],
                   check=True, capture_output=True, timeout=180)
    shutil.move(out / "deck.pptx", home / "deck.pptx")
    assert _check(home)[0]
    prs = deckio.read_deck((home / "deck.pptx").read_bytes())
    assert len(media_digests(prs.slides[1])) == 1


def test_a_sound_python_pptx_writes_as_a_video_counts(home):
    from pptx.util import Cm

    prs = deckio.read_deck((home / "deck.pptx").read_bytes())
    prs.slides[1].shapes.add_movie(str(home / "Music" / "welcome_message.wav"), Cm(2), Cm(14), Cm(2), Cm(2),
                                   mime_type="audio/wav")
    (home / "deck.pptx").write_bytes(deckio.to_bytes(prs))
    assert _check(home)[0]
