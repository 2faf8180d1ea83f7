"""Contract tests over every Impress family: determinism, solutions, instruction wording; and the shared helpers."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from workflows.impress import add_slide as impress_add_slide
from workflows.impress import bullets as impress_bullets
from workflows.impress import delete_slide as impress_delete_slide
from workflows.impress import duplicate_slide as impress_duplicate_slide
from workflows.impress import image as impress_image
from workflows.impress import kit as ic
from workflows.impress import move_slide as impress_move_slide
from workflows.impress import notes as impress_notes
from workflows.impress import slide_title as impress_slide_title
from workflows.impress import table as impress_table
from workflows.impress import text_format as impress_text_format

FAMILIES = (impress_add_slide, impress_bullets, impress_delete_slide, impress_duplicate_slide, impress_image,
            impress_move_slide, impress_notes, impress_slide_title, impress_table, impress_text_format)


def _first_params(workflow):
    return {k: v[0] for k, v in workflow.knobs.items()}


def _run(workflow, seed: int) -> dict:
    return workflow.run(NodeContext(_first_params(workflow), seed, "test.skill", 0, OfflineBackend()))


@pytest.mark.parametrize("module", FAMILIES, ids=lambda m: m.NAME)
def test_same_seed_same_bytes_other_seed_other_deck(module):
    a, b, c = _run(module.WORKFLOW, 4), _run(module.WORKFLOW, 4), _run(module.WORKFLOW, 5)
    assert [x.data for x in a["assets"]] == [x.data for x in b["assets"]]
    assert a["instruction"] == b["instruction"]
    assert a["assets"][0].data != c["assets"][0].data


@pytest.mark.parametrize("module", FAMILIES, ids=lambda m: m.NAME)
def test_family_contract(module):
    workflow = module.WORKFLOW
    assert workflow.name == module.NAME and workflow.name.startswith("impress.")
    assert len(module.PHRASINGS) >= 5 and workflow.apps == (ic.APP,)
    out = _run(workflow, 9)
    names = [s.name for s in out["solutions"]]
    assert names[0] == "oracle" and len(names) >= 3
    deck = out["assets"][0]
    assert deck.dest.endswith(".pptx") and deck.app == "impress"
    assert out["launch"] == ["libreoffice", "--impress", deck.dest]
    assert deck.dest in out["instruction"] and "pptx" in out["instruction"]


def test_add_slide_states_the_libreoffice_layout_name():
    out = impress_add_slide.WORKFLOW.run(NodeContext({"layout": "two_content", "position": "last"}, 3, "s", 0,
                                                     OfflineBackend()))
    assert '"Title and 2 Content"' in out["instruction"]


def test_draw_png_is_deterministic_and_draws_charts_and_logos():
    chart = impress_image.draw_png("revenue_chart", random.Random(1))
    assert chart == impress_image.draw_png("revenue_chart", random.Random(1))
    logo = impress_image.draw_png("company_logo", random.Random(1))
    assert logo != chart
    with Image.open(io.BytesIO(chart)) as img:
        assert img.format == "PNG" and img.width >= 200


def test_deck_from_puts_the_cover_first_and_notes_where_planned():
    content = {"title": "Q1 Review", "subtitle": "Finance", "author": "Ana Silva", "file_stem": "q1_review",
               "slides": [{"title": f"Slide {i}", "bullets": ["a", "b", "c", "d"], "extra": [], "notes": f"n{i}"}
                          for i in range(3)]}
    deck = ic.deck_from(content, {"folder": "Documents", "notes": [True, False, True]})
    assert deck.path == "/home/user/Documents/q1_review.pptx"
    assert deck.titles == ["Q1 Review", "Slide 0", "Slide 1", "Slide 2"]
    assert [s.get("notes", "") for s in deck.slides] == ["", "n0", "", "n2"]
    assert deck.position("Slide 1") == 3 and deck.inserted(2, {"title": "New"}).titles[1] == "New"


def test_listed_quotes_each_bullet():
    assert ic.listed(["a, b", "c"]) == "'a, b' and 'c'"
    assert ic.listed(["a", "b", "c"]) == "'a'; 'b'; 'c'"
