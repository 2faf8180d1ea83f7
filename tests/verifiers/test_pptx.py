"""Unit tests for the pptx primitives, including files shaped the way LibreOffice Impress saves them."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from preparers import pptx
from preparers.ops import apply_ops
from verifiers.checks import State, run_check
from verifiers.readers import pptx as pptx_reader
from verifiers.readers.pptx import pixel_digest

PATH = "/home/user/deck.pptx"
PICTURE = "/home/user/Pictures/logo.png"
BULLETS = ["Revenue reached $4.2M", "Gross margin improved to 61%", "Churn fell to 3%"]
SPEC = {"slides": [
    {"layout": "title_slide", "title": "Q3 Business Review", "subtitle": "Finance Team"},
    {"layout": "title_content", "title": "Highlights", "bullets": BULLETS, "notes": "Lead with revenue."},
    {"layout": "title_only", "title": "Regional Results"},
    {"layout": "two_content", "title": "Pros and Cons", "columns": [["Fast"], ["Costly"]]},
    {"layout": "title_content", "title": "Next Steps", "bullets": ["Hire two engineers", "Open Dublin office"]},
]}
TITLES = ["Q3 Business Review", "Highlights", "Regional Results", "Pros and Cons", "Next Steps"]


def _png(color: tuple[int, int, int] = (30, 90, 200)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (120, 80), color).save(buf, "PNG")
    return buf.getvalue()


def _deck(tmp_path: Path, ops: list[dict] | None = None) -> Path:
    (tmp_path / "deck.pptx").write_bytes(pptx.build(SPEC))
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    (tmp_path / "Pictures" / "logo.png").write_bytes(_png())
    (tmp_path / "Pictures" / "other.png").write_bytes(_png((200, 30, 30)))
    if ops:
        apply_ops(tmp_path, [{"path": PATH, **o} for o in ops])
    return tmp_path / "deck.pptx"


def _libreoffice_like(file: Path) -> None:
    """Rewrite slides the way Impress saves them: ctrTitle -> title, body placeholders as a bare <p:ph/>,
    explicit b="0"/sz on every run, colors in lower case."""
    with zipfile.ZipFile(file) as src:
        items = [(info, src.read(info.filename)) for info in src.infolist()]
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in items:
            if re.fullmatch(r"ppt/slides/slide\d+\.xml", info.filename):
                xml = data.decode("utf-8")
                xml = xml.replace('type="ctrTitle"', 'type="title"')
                xml = re.sub(r'<p:ph (?:type="body" )?(?:sz="half" )?idx="\d+"/>', "<p:ph/>", xml)
                xml = re.sub(r"<a:rPr(?![^>]*\bb=)", '<a:rPr b="0"', xml)
                xml = re.sub(r"<a:r><a:t>", '<a:r><a:rPr b="0" lang="en-US" sz="3200"/><a:t>', xml)
                xml = re.sub(r'val="([0-9A-F]{6})"', lambda m: f'val="{m.group(1).lower()}"', xml)
                data = xml.encode("utf-8")
            dst.writestr(info, data)


def _check(tmp_path: Path, name: str, **args):
    return run_check(State(tmp_path), name, {"path": PATH, **args})


# --- slides: order, position, count, layout -------------------------------------------------------------

def test_slide_titles_pass_and_name_the_difference(tmp_path):
    _deck(tmp_path, [{"op": "pptx.move_slide", "title": "Next Steps", "position": 2}])
    moved = [TITLES[0], "Next Steps", *TITLES[1:4]]
    assert _check(tmp_path, "pptx.slide_titles", titles=moved).passed
    result = _check(tmp_path, "pptx.slide_titles", titles=TITLES)
    assert not result.passed and "expected" in result.evidence and "'Next Steps'" in result.evidence


def test_slide_position(tmp_path):
    _deck(tmp_path, [{"op": "pptx.add_slide", "layout": "title_only", "title": "Appendix", "position": 3}])
    assert _check(tmp_path, "pptx.slide_position", title="Appendix", position=3).passed
    result = _check(tmp_path, "pptx.slide_position", title="Appendix", position=4)
    assert not result.passed and "is at [3], expected slide 4" in result.evidence


def test_slide_count_after_delete_and_duplicate(tmp_path):
    _deck(tmp_path, [{"op": "pptx.delete_slide", "title": "Regional Results"},
                     {"op": "pptx.duplicate_slide", "title": "Highlights", "position": 3}])
    assert _check(tmp_path, "pptx.slide_count", title="Regional Results", count=0).passed
    assert _check(tmp_path, "pptx.slide_count", title="Highlights", count=2).passed
    result = _check(tmp_path, "pptx.slide_count", title="Highlights", count=1)
    assert not result.passed and "2 slide(s) titled 'Highlights', expected 1" in result.evidence


@pytest.mark.parametrize(("title", "layout"), [("Q3 Business Review", "title_slide"), ("Highlights", "title_content"),
                                               ("Regional Results", "title_only"), ("Pros and Cons", "two_content")])
def test_slide_layout_reads_placeholders(tmp_path, title, layout):
    _deck(tmp_path)
    assert _check(tmp_path, "pptx.slide_layout", title=title, layout=layout).passed
    _libreoffice_like(tmp_path / "deck.pptx")
    assert run_check(State(tmp_path), "pptx.slide_layout", {"path": PATH, "title": title, "layout": layout}).passed


def test_slide_layout_fails_on_an_empty_content_box(tmp_path):
    _deck(tmp_path, [{"op": "pptx.add_slide", "layout": "title_content", "title": "Appendix", "position": 2}])
    result = _check(tmp_path, "pptx.slide_layout", title="Appendix", layout="title_only")
    assert not result.passed and "looks like title_content" in result.evidence


def test_unknown_slide_is_a_fail_naming_the_titles(tmp_path):
    _deck(tmp_path)
    result = _check(tmp_path, "pptx.slide_layout", title="Nope", layout="title_only")
    assert not result.passed and "no slide titled 'Nope'" in result.evidence and "Highlights" in result.evidence


# --- text: bullets, subtitle, notes ---------------------------------------------------------------------

def test_body_text_passes_on_the_slide_and_on_a_libreoffice_copy(tmp_path):
    _deck(tmp_path)
    args = {"slide": "Highlights", "paragraphs": BULLETS, "named": []}
    assert _check(tmp_path, "pptx.body_text", **args).passed
    _libreoffice_like(tmp_path / "deck.pptx")
    assert run_check(State(tmp_path), "pptx.body_text", {"path": PATH, **args}).passed


def test_body_text_fails_on_a_missing_bullet(tmp_path):
    _deck(tmp_path, [{"op": "pptx.set_bullets", "title": "Highlights", "bullets": BULLETS[:2]}])
    result = _check(tmp_path, "pptx.body_text", slide="Highlights", paragraphs=BULLETS, named=[])
    assert not result.passed and "reads" in result.evidence and "expected" in result.evidence


def test_body_text_levels_and_columns(tmp_path):
    _deck(tmp_path, [{"op": "pptx.set_bullets", "title": "Highlights", "bullets": BULLETS, "levels": [0, 1, 0]}])
    assert _check(tmp_path, "pptx.body_text", slide="Highlights", paragraphs=BULLETS, named=[],
                  levels=[0, 1, 0]).passed
    wrong = _check(tmp_path, "pptx.body_text", slide="Highlights", paragraphs=BULLETS, named=[], levels=[0, 1, 1])
    assert not wrong.passed and "indent levels [0, 1, 0]" in wrong.evidence
    assert _check(tmp_path, "pptx.body_text", slide="Pros and Cons", paragraphs=["Costly"], named=[], column=1).passed
    assert not _check(tmp_path, "pptx.body_text", slide="Pros and Cons", paragraphs=["Fast"], named=[],
                      column=1).passed


def test_subtitle(tmp_path):
    _deck(tmp_path, [{"op": "pptx.set_subtitle", "title": "Q3 Business Review", "text": "Board edition"}])
    assert _check(tmp_path, "pptx.subtitle", slide="Q3 Business Review", text="Board edition").passed
    result = _check(tmp_path, "pptx.subtitle", slide="Q3 Business Review", text="Finance Team")
    assert not result.passed and "'Board edition'" in result.evidence


def test_notes_text_ignores_line_breaks(tmp_path):
    _deck(tmp_path, [{"op": "pptx.set_notes", "title": "Highlights", "text": "Lead with revenue.\nThen margin."}])
    assert _check(tmp_path, "pptx.notes_text", slide="Highlights", text="Lead with revenue. Then margin.",
                  named=["Then margin."]).passed
    result = _check(tmp_path, "pptx.notes_text", slide="Next Steps", text="Then margin.", named=["Then margin."])
    assert not result.passed and "read ''" in result.evidence


# --- formatting ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("style", [{"bold": True}, {"italic": True}, {"underline": True}, {"size": 36},
                                   {"color": "C00000"}, {"bold": True, "italic": True}, {"strike": True}])
def test_text_format_passes_on_the_one_bullet(tmp_path, style):
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[1], **style}])
    result = _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[1], **style)
    assert result.passed, result.evidence
    _libreoffice_like(tmp_path / "deck.pptx")
    again = run_check(State(tmp_path), "pptx.text_format", {"path": PATH, "slide": "Highlights", "text": BULLETS[1],
                                                             **style})
    assert again.passed, again.evidence


def test_text_format_strike_refuses_a_wrong_end_state(tmp_path):
    """Strikethrough (impress.text_format.strike_*): the neighbouring bullet struck too, or the asked one left
    unstruck, fails; an explicit strike="noStrike" (as LibreOffice writes it) reads as not struck."""
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[1], "strike": True},
                     {"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[2], "strike": True}])
    result = _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[1], strike=True)
    assert not result.passed and "strike" in result.evidence
    assert not _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[0], strike=True).passed
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[1], "strike": False}])
    assert not _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[1], strike=True).passed
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[1], "underline": True}])
    assert not _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[1], strike=True).passed


def test_text_format_two_bullets_needs_both_and_no_third(tmp_path):
    """impress.text_format.strike_two_bullets: `also` names the second bullet; one of the two left unstruck, or the
    third struck too, fails."""
    one = {"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[0], "strike": True}
    two = {**one, "text": BULLETS[1]}
    args = {"slide": "Highlights", "text": BULLETS[0], "also": BULLETS[1], "strike": True}
    _deck(tmp_path, [one, two])
    assert _check(tmp_path, "pptx.text_format", **args).passed
    _libreoffice_like(tmp_path / "deck.pptx")
    assert _check(tmp_path, "pptx.text_format", **args).passed
    _deck(tmp_path, [one])
    result = _check(tmp_path, "pptx.text_format", **args)
    assert not result.passed and BULLETS[1] in result.evidence
    _deck(tmp_path, [one, two, {**one, "text": BULLETS[2]}])
    result = _check(tmp_path, "pptx.text_format", **args)
    assert not result.passed and "too" in result.evidence
    assert not _check(tmp_path, "pptx.text_format", **{**args, "also": "No such bullet"}).passed


def test_text_format_reads_the_deck_without_changing_it(tmp_path):
    """A mutant may read the oracle's parsed deck after its checks did (verifiers.gate.mutation.InMemory): a check
    must leave it as it read it (python-pptx's run.font adds an empty rPr to a run without one)."""
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[1], "size": 36}])
    state = State(tmp_path)
    deck = state.read(PATH, pptx_reader._load, "pptx presentation").prs
    before = [etree.tostring(slide._element) for slide in deck.slides]
    for style in ({"bold": True}, {"italic": True}, {"size": 36}, {"underline": True}, {"strike": True}):
        run_check(state, "pptx.text_format", {"path": PATH, "slide": "Highlights", "text": BULLETS[0], **style})
    assert [etree.tostring(slide._element) for slide in deck.slides] == before


def test_text_format_fails_when_the_whole_box_is_formatted(tmp_path):
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[1], "bold": True,
                      "whole_shape": True}])
    result = _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[1], bold=True)
    assert not result.passed and "is bold True too" in result.evidence


def test_text_format_fails_on_the_wrong_value_or_text(tmp_path):
    _deck(tmp_path, [{"op": "pptx.format_text", "title": "Highlights", "text": BULLETS[0], "color": "0070C0"}])
    wrong_color = _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[0], color="C00000")
    assert not wrong_color.passed and "not color 'C00000'" in wrong_color.evidence
    untouched = _check(tmp_path, "pptx.text_format", slide="Highlights", text=BULLETS[2], color="0070C0")
    assert not untouched.passed


# --- objects: tables and pictures ------------------------------------------------------------------------

def test_table_passes_on_size_and_header(tmp_path):
    rows = [["Region", "Revenue"], ["EMEA", "$400K"], ["APAC", "$310K"]]
    _deck(tmp_path, [{"op": "pptx.add_table", "title": "Regional Results", "rows": rows}])
    assert _check(tmp_path, "pptx.table", slide="Regional Results", rows=3, cols=2, header=rows[0]).passed
    assert _check(tmp_path, "pptx.table", slide="Regional Results", rows=3, cols=2, header=rows[0],
                  data=rows[1:]).passed
    short = _check(tmp_path, "pptx.table", slide="Regional Results", rows=4, cols=2, header=rows[0])
    assert not short.passed and "tables: 3x2 header" in short.evidence
    wrong = _check(tmp_path, "pptx.table", slide="Regional Results", rows=3, cols=2, header=rows[0],
                   data=[rows[2], rows[1]])
    assert not wrong.passed


def test_table_fails_without_a_table(tmp_path):
    _deck(tmp_path)
    result = _check(tmp_path, "pptx.table", slide="Regional Results", rows=3, cols=2, header=["A", "B"])
    assert not result.passed and "tables: none" in result.evidence


def test_picture_by_pixels_corner_and_width(tmp_path):
    _deck(tmp_path, [{"op": "pptx.add_image", "title": "Highlights", "image": PICTURE, "left_cm": 18.6,
                      "top_cm": 0.8, "width_cm": 6}])
    digest = pixel_digest(_png())
    args = {"slide": "Highlights", "image": PICTURE, "pixels": digest}
    assert _check(tmp_path, "pptx.picture", **args, corner="top_right", width_cm=6).passed
    corner = _check(tmp_path, "pptx.picture", **args, corner="top_left")
    assert not corner.passed and "at top_right" in corner.evidence
    width = _check(tmp_path, "pptx.picture", **args, width_cm=4)
    assert not width.passed and "6.0 cm wide" in width.evidence
    other = _check(tmp_path, "pptx.picture", **{**args, "pixels": pixel_digest(_png((200, 30, 30)))})
    assert not other.passed and "another image" in other.evidence


def test_picture_digest_survives_reencoding():
    img = Image.open(io.BytesIO(_png()))
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True, compress_level=9)
    assert buf.getvalue() != _png() and pixel_digest(buf.getvalue()) == pixel_digest(_png())


# --- every primitive: missing and corrupt files ----------------------------------------------------------

ANY_ARGS = {
    "pptx.slide_titles": {"titles": TITLES},
    "pptx.slide_position": {"title": "Highlights", "position": 2},
    "pptx.slide_count": {"title": "Highlights", "count": 1},
    "pptx.slide_layout": {"title": "Highlights", "layout": "title_content"},
    "pptx.body_text": {"slide": "Highlights", "paragraphs": BULLETS, "named": []},
    "pptx.subtitle": {"slide": "Q3 Business Review", "text": "Finance Team"},
    "pptx.notes_text": {"slide": "Highlights", "text": "Lead with revenue.", "named": []},
    "pptx.text_format": {"slide": "Highlights", "text": BULLETS[0], "bold": True},
    "pptx.table": {"slide": "Regional Results", "rows": 2, "cols": 2, "header": ["A", "B"]},
    "pptx.picture": {"slide": "Highlights", "image": PICTURE, "pixels": "0" * 64},
}


@pytest.mark.parametrize("name", sorted(ANY_ARGS))
def test_missing_file_fails_with_evidence(tmp_path, name):
    result = _check(tmp_path, name, **ANY_ARGS[name])
    assert not result.passed and "does not exist" in result.evidence


@pytest.mark.parametrize("name", sorted(ANY_ARGS))
def test_corrupt_file_fails_with_evidence(tmp_path, name):
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not really a presentation")
    result = _check(tmp_path, name, **ANY_ARGS[name])
    assert not result.passed and "not a readable pptx presentation" in result.evidence


@pytest.mark.parametrize("name", ["pptx.slide_titles", "pptx.slide_position", "pptx.slide_count",
                                  "pptx.slide_layout", "pptx.body_text", "pptx.subtitle", "pptx.notes_text"])
def test_untouched_deck_passes_the_description_of_itself(tmp_path, name):
    _deck(tmp_path)
    result = _check(tmp_path, name, **ANY_ARGS[name])
    assert result.passed, result.evidence
