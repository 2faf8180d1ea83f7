"""writer.insert_image: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from docx import Document
from docx.shared import Cm
from PIL import Image

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from verifiers.readers.pptx import pixel_digest
from workflows.writer.insert_image import NATURAL, PHRASINGS, WORKFLOW, draw_png

PATH = "/home/user/report.docx"
IMAGE = "/home/user/Pictures/site_photo_overview.png"
OTHER = "/home/user/Pictures/site_photo_entrance.png"
BLOCKS = [("Site visit report", "Title"), ("Findings", "Heading 1"),
          ("The north entrance needs new lighting before winter.", ""), ("Next steps", "Heading 1"),
          ("Quotes will be requested from two contractors.", ""), ("Prepared by the facilities team", "")]


@pytest.mark.slow
@pytest.mark.parametrize(("position", "width"), [("heading", "free"), ("heading", "stated"), ("end", "free"),
                                                 ("end", "stated")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, position, width):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"position": position, "width": width}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.picture", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> bytes:
    spec = {"blocks": [{"text": t, "style": s} for t, s in BLOCKS], "author": "A",
            "page": {"paper": "A4", "orientation": "portrait",
                     "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "report.docx").write_bytes(docx.build(spec))
    (tmp_path / "Pictures").mkdir()
    data = draw_png("site_photo_overview", random.Random(1))
    (tmp_path / "Pictures" / "site_photo_overview.png").write_bytes(data)
    (tmp_path / "Pictures" / "site_photo_entrance.png").write_bytes(draw_png("site_photo_entrance",
                                                                             random.Random(2)))
    return data


def _check(tmp_path: Path, data: bytes, after: str | None = "Findings", width_cm: float | None = 6.0
           ) -> tuple[bool, str]:
    with Image.open(io.BytesIO(data)) as img:
        ratio = img.height / img.width
    args = {"path": PATH, "image": IMAGE, "pixels": pixel_digest(data), "ratio": ratio}
    if after is not None:
        args["after"] = after
    if width_cm is not None:
        args["width_cm"] = width_cm
    result = run_check(State(tmp_path), "docx.picture", args)
    return result.passed, result.evidence


def _insert(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_picture", "path": PATH, "image": IMAGE, **args}])


def test_the_op_inserts_the_picture_where_asked_and_keeps_the_text(tmp_path):
    data = _state(tmp_path)
    passed, evidence = _check(tmp_path, data)
    assert not passed and "shows no picture" in evidence
    _insert(tmp_path, after="Findings", width_cm=6.0)
    doc = Document(str(tmp_path / "report.docx"))
    assert [p.text for p in doc.paragraphs] == [BLOCKS[0][0], "Findings", "", *[t for t, _ in BLOCKS[2:]]]
    assert doc.inline_shapes[0].width == Cm(6)
    assert _check(tmp_path, data) == (True, f"{PATH} shows {IMAGE} once, after the paragraph 'Findings', 6 cm wide")
    passed, evidence = _check(tmp_path, data, after="Next steps")
    assert not passed and "it follows 'Findings'" in evidence
    passed, evidence = _check(tmp_path, data, after=None, width_cm=None)
    assert not passed and "not at the end of the document" in evidence


@pytest.mark.parametrize(("args", "twice", "says"), [
    ({"image": OTHER, "after": "Findings", "width_cm": 6.0}, False, "is not /home/user/Pictures/site_photo_overview"),
    ({"after": "Findings", "width_cm": 6.0}, True, "shows 2 pictures"),
    ({"after": "The north entrance", "width_cm": 6.0}, False, "it follows 'The north entrance"),
    ({"after": "Findings"}, False, "wide, expected 6 cm"),
    ({"after": "Findings", "width_cm": 6.0, "height_cm": 6.0}, False, "proportions are not kept"),
])
def test_the_check_rejects_the_slips(tmp_path, args, twice, says):
    data = _state(tmp_path)
    _insert(tmp_path, **args)
    if twice:
        _insert(tmp_path, **args)
    passed, evidence = _check(tmp_path, data)
    assert not passed and says in evidence, evidence


def test_at_the_end_and_hand_made_wrong_states(tmp_path):
    data = _state(tmp_path)
    _insert(tmp_path)
    assert _check(tmp_path, data, after=None, width_cm=None)[0]
    # the picture inside the last line's paragraph, as a picture anchored there, is at the end too
    doc = Document(str(tmp_path / "report.docx"))
    holder = doc.paragraphs[-1]
    doc.paragraphs[-2].add_run().add_picture(str(tmp_path / "Pictures" / "site_photo_overview.png"))
    holder._p.getparent().remove(holder._p)
    doc.save(str(tmp_path / "report.docx"))
    assert _check(tmp_path, data, after=None, width_cm=None)[0]
    # a lazy agent types the file name instead of inserting the picture
    doc = Document(str(tmp_path / "report.docx"))
    doc.paragraphs[-1]._p.remove(doc.paragraphs[-1].runs[-1]._r)
    doc.add_paragraph(IMAGE)
    doc.save(str(tmp_path / "report.docx"))
    passed, evidence = _check(tmp_path, data, after=None, width_cm=None)
    assert not passed and "shows no picture" in evidence
    (tmp_path / "report.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, data, after=None, width_cm=None)[0]


def test_a_picture_whose_bytes_were_re_encoded_still_counts(tmp_path):
    data = _state(tmp_path)
    img = Image.open(io.BytesIO(data)).convert("RGBA")
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    (tmp_path / "copy.png").write_bytes(buf.getvalue())
    apply_ops(tmp_path, [{"op": "docx.add_picture", "path": PATH, "image": "/home/user/copy.png",
                          "after": "Findings", "width_cm": 6.0}])
    assert _check(tmp_path, data)[0]


def test_every_phrasing_states_the_picture_and_the_place():
    for phrasing in PHRASINGS + NATURAL:
        assert "{image" in phrasing and "{where}" in phrasing and "{size}" in phrasing, phrasing
