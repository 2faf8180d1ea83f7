"""Office and picture teacher snippets (preparers/teach/docx.py, pptx.py, image.py): the python-docx, python-pptx
and Pillow lines a person would type leave what the op leaves, as the readers read it, run exactly as a student's
command runs (forge.agent.shell.AgentShell, bubblewrap)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import docx
import pytest
from PIL import Image

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers import docx as docxio
from preparers import image as imageio
from preparers import pptx as deckio
from preparers.ops import apply_ops
from preparers.teach import look, teach
from verifiers.frame import pptx as deckframe
from verifiers.readers import docx as docread

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")

H = "/home/user"
DOC = f"{H}/Documents/Quarterly review.docx"
DECK = f"{H}/Documents/pitch.pptx"
PNG = f"{H}/Pictures/logo.png"
JPG = f"{H}/Pictures/beach.jpg"
TIF = f"{H}/Pictures/chart.tif"

DOC_SPEC: dict[str, Any] = {
    "blocks": [
        {"text": "Quarterly review", "style": "Title"},
        {"text": "Summary", "style": "Heading 1"},
        {"text": "Sales grew in every region, and the north grew fastest of all.", "align": "left"},
        {"text": "Summary of the risks we see for the next quarter.", "italic": True},
        {"table": [["Region", "Sales"], ["North", "120"], ["South", "95"]], "bold_header": True},
        {"text": "Next steps", "style": "Heading 1"},
        {"text": "Hire two engineers. The north office opens in May."},
    ],
    "header": {"text": "Internal"},
}
DECK_SPEC: dict[str, Any] = {"slides": [
    {"layout": "title_slide", "title": "Pitch 2025", "subtitle": "For the board"},
    {"layout": "title_content", "title": "Market", "bullets": ["Large", "Growing fast"], "notes": "Say the size"},
    {"layout": "two_content", "title": "Plan", "columns": [["Build", "Ship"], ["Hire", "Sell"]]},
    {"layout": "title_only", "title": "Numbers"},
    {"layout": "title_content", "title": "Team", "bullets": ["Ana", "Bo"]},
]}


def _state(root: Path) -> None:
    (root / "Documents").mkdir(parents=True)
    (root / "Pictures").mkdir()
    (root / "Documents" / "Quarterly review.docx").write_bytes(docxio.build(DOC_SPEC))
    (root / "Documents" / "pitch.pptx").write_bytes(deckio.build(DECK_SPEC))
    logo = Image.new("RGBA", (64, 48), (255, 255, 255, 255))
    for x in range(16, 48):
        for y in range(8, 40):
            logo.putpixel((x, y), (200, 30, 30, 255 if x < 40 else 128))
    (root / "Pictures" / "logo.png").write_bytes(imageio.encode(logo, "PNG", 150))
    beach = Image.new("RGB", (80, 60), (30, 120, 200))
    beach.paste((240, 210, 150), (0, 40, 80, 60))
    (root / "Pictures" / "beach.jpg").write_bytes(imageio.encode(beach, "JPEG", 72))
    (root / "Pictures" / "chart.tif").write_bytes(imageio.encode(beach.convert("L"), "TIFF", 96))


def _docx(path: Path) -> Any:
    """What the Writer checks read: each block's text, style, alignment, spacing, runs and page breaks; tables;
    page setup; header and footer."""
    doc = docread.from_bytes(path.read_bytes())
    blocks: list[Any] = []
    for block in doc.blocks():
        if block.tag == docread.W + "tbl":
            blocks.append(("table", docread.grid(block)))
            continue
        blocks.append((doc.text(block), doc.style_name(doc.para_style(block)), docread.alignment(doc, block),
                       docread.line_spacing_of(doc, block), docread.run_formats(doc, block),
                       docread._tokens(block), bool(docread._on(doc.para_prop(block, "pageBreakBefore")))))
    pages = [(s.find(docread.W + "pgSz").attrib, s.find(docread.W + "pgMar").attrib) for s in docread.sections(doc)]
    section = docx.Document(str(path)).sections[0]
    parts = [(p.text, p.alignment, docread.page_field(part._element) is not None)
             for part in (section.header, section.footer) for p in part.paragraphs]
    return blocks, [kind for kind, _ in docread.page_starts(doc)], pages, parts


def _image(path: Path) -> Any:
    with Image.open(path) as img:
        dpi = img.info.get("dpi")
        return img.format, img.mode, img.size, tuple(round(d) for d in dpi) if dpi else None, img.tobytes()


def _read(root: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if path.suffix == ".docx":
            seen[rel] = _docx(path)
        elif path.suffix == ".pptx":
            seen[rel] = deckframe.read(path)
        elif path.suffix in (".png", ".jpg", ".tif", ".webp", ".bmp"):
            seen[rel] = _image(path)
        else:
            seen[rel] = path.read_bytes()
    return seen


CASES: list[list[dict[str, Any]]] = [
    [{"op": "docx.set_style", "path": DOC, "paragraphs": ["Next steps", "Summary"], "style": "Heading 2"}],
    [{"op": "docx.replace_text", "path": DOC, "old": "north", "new": "North", "whole_word": True}],
    [{"op": "docx.replace_text", "path": DOC, "old": "SUMMARY", "new": "Overview", "match_case": False,
      "first_only": True}],
    [{"op": "docx.format_chars", "path": DOC, "paragraph_start": "Sales grew", "phrase": "every region",
      "bold": True, "size": 14, "font": "Liberation Serif"}],
    [{"op": "docx.format_chars", "path": DOC, "paragraph_start": "Summary of", "underline": True, "italic": False}],
    [{"op": "docx.set_alignment", "path": DOC, "paragraphs": ["Sales grew", "Hire two"], "align": "justify"}],
    [{"op": "docx.set_line_spacing", "path": DOC, "paragraphs": ["Sales grew"], "rule": "multiple", "value": 1.5},
     {"op": "docx.set_line_spacing", "path": DOC, "paragraphs": ["Hire two"], "rule": "exact", "value": 18}],
    [{"op": "docx.set_page", "path": DOC, "paper": "Letter", "orientation": "landscape"},
     {"op": "docx.set_margins", "path": DOC, "top": 1134, "left": 1440}],
    [{"op": "docx.set_header_footer", "path": DOC, "part": "footer", "text": "Page", "page_number": True,
      "align": "center"},
     {"op": "docx.set_header_footer", "path": DOC, "part": "header", "text": "Confidential"}],
    [{"op": "docx.page_break", "path": DOC, "paragraph_start": "Next steps"},
     {"op": "docx.page_break", "path": DOC, "paragraph_start": "Summary of", "how": "property"}],
    [{"op": "docx.insert_table", "path": DOC, "rows": [["Name", "Role"], ["Ana", "Lead"]], "after": "Hire two",
      "bold_header": True},
     {"op": "docx.insert_table", "path": DOC, "rows": [["x", "y"]]}],
    [{"op": "docx.set_cell", "path": DOC, "row": 1, "column": 1, "text": "130"},
     {"op": "docx.add_row", "path": DOC, "values": ["East", "70"], "position": 1},
     {"op": "docx.add_row", "path": DOC, "values": ["West", "80"]},
     {"op": "docx.delete_row", "path": DOC, "row": 3},
     {"op": "docx.add_column", "path": DOC, "values": ["Growth", "5%", "2%", "3%"]}],
    [{"op": "docx.write_text", "path": f"{H}/Documents/count.txt", "text": "42\n"}],
    [{"op": "pptx.add_slide", "path": DECK, "layout": "title_content", "title": "Risks", "position": 2,
      "bullets": ["Cost", "Time"]},
     {"op": "pptx.add_slide", "path": DECK, "layout": "two_content", "title": "Compare", "position": 7,
      "columns": [["A"], ["B", "C"]]},
     {"op": "pptx.add_slide", "path": DECK, "layout": "title_slide", "title": "Thanks", "position": 8,
      "subtitle": "Questions?"},
     {"op": "pptx.add_slide", "path": DECK, "layout": "title_only", "title": "Demo", "position": 1}],
    [{"op": "pptx.delete_slide", "path": DECK, "title": "Plan"},
     {"op": "pptx.add_slide", "path": DECK, "layout": "title_only", "title": "Extra", "position": 5}],
    [{"op": "pptx.move_slide", "path": DECK, "title": "Team", "position": 2}],
    [{"op": "pptx.duplicate_slide", "path": DECK, "title": "Market", "position": 3, "new_title": "Market (copy)"}],
    [{"op": "pptx.set_title", "path": DECK, "title": "Numbers", "new": "Key numbers"},
     {"op": "pptx.set_subtitle", "path": DECK, "title": "Pitch 2025", "text": "For the investors"},
     {"op": "pptx.set_notes", "path": DECK, "title": "Team", "text": "Introduce everyone"}],
    [{"op": "pptx.set_bullets", "path": DECK, "title": "Market", "bullets": ["Large", "Detail", "Growing"],
      "levels": [0, 1, 0]},
     {"op": "pptx.set_bullets", "path": DECK, "title": "Plan", "bullets": ["Hire", "Sell", "Grow"], "column": 1}],
    [{"op": "pptx.format_text", "path": DECK, "title": "Market", "text": "Growing fast", "bold": True, "size": 28,
      "color": "#C00000"},
     {"op": "pptx.format_text", "path": DECK, "title": "Team", "text": "Ana", "italic": True, "whole_shape": True},
     {"op": "pptx.format_text", "path": DECK, "title": "Market", "text": "Large", "strike": True}],
    [{"op": "pptx.add_textbox", "path": DECK, "title": "Numbers", "text": "Source: survey"},
     {"op": "pptx.add_table", "path": DECK, "title": "Numbers", "rows": [["Year", "Sales"], ["2024", "1.2"], ["x"]]},
     {"op": "pptx.add_image", "path": DECK, "title": "Numbers", "image": PNG, "left_cm": 20, "top_cm": 12,
      "width_cm": 4}],
    [{"op": "image.resize", "path": PNG, "width": 32, "height": 24},
     {"op": "image.convert_format", "path": PNG, "dest": f"{H}/Pictures/out/logo small.jpg"},
     {"op": "image.convert_mode", "path": PNG, "mode": "grayscale"}],
    [{"op": "image.crop", "path": JPG, "box": [10, 5, 70, 55]},
     {"op": "image.rotate", "path": JPG, "degrees": 90},
     {"op": "image.flip", "path": JPG, "axis": "horizontal"},
     {"op": "image.set_dpi", "path": JPG, "dpi": 300}],
    [{"op": "image.adjust", "path": JPG, "brightness": 1.2, "saturation": 0.5},
     {"op": "image.convert_format", "path": JPG, "dest": f"{H}/Pictures/beach.webp"}],
    [{"op": "image.flatten", "path": PNG, "color": "#FFEE00"},
     {"op": "image.clear_color", "path": f"{H}/Pictures/chart.tif", "color": "#F0D296"}],
    [{"op": "image.clear_color", "path": PNG, "color": "#FFFFFF"},
     {"op": "image.set_dpi", "path": TIF, "dpi": 200},
     {"op": "image.convert_format", "path": TIF, "dest": f"{H}/Pictures/chart.png"}],
    [{"op": "image.invert", "path": PNG},
     {"op": "image.invert", "path": JPG, "box": [0, 0, 40, 20]},
     {"op": "image.flip", "path": TIF, "axis": "vertical"},
     {"op": "image.convert_format", "path": TIF, "dest": f"{H}/Pictures/chart_mirrored.tif"}],
    [{"op": "image.extend_canvas", "path": JPG, "color": "#1F2A44", "left": 5, "top": 5, "right": 5, "bottom": 5},
     {"op": "image.extend_canvas", "path": PNG, "color": "transparent", "bottom": 7},
     {"op": "image.extend_canvas", "path": f"{H}/Pictures/chart.tif", "color": "#C0392B", "bottom": 9}],
]


@pytest.mark.parametrize("ops", CASES, ids=[f"{case[0]['op']}-{i}" for i, case in enumerate(CASES)])
def test_the_script_leaves_what_the_ops_leave(tmp_path: Path, ops: list[dict[str, Any]]) -> None:
    by_op, by_shell = tmp_path / "op", tmp_path / "shell"
    _state(by_op)
    shutil.copytree(by_op, by_shell)
    apply_ops(by_op, ops)
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(by_shell)
    shell = AgentShell(sandbox)
    seen = shell.run(by_shell, look(ops, [f"{H}/{p.relative_to(by_shell).as_posix()}"
                                          for p in by_shell.rglob("*") if p.is_file()]))
    assert seen.exit_code == 0, seen.shown
    done = shell.run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell) == _read(by_op)


def test_an_export_leaves_the_source_picture_untouched(tmp_path: Path) -> None:
    _state(tmp_path)
    before = (tmp_path / "Pictures" / "beach.jpg").read_bytes()
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(tmp_path)
    done = AgentShell(sandbox).run(tmp_path, teach(
        [{"op": "image.convert_format", "path": JPG, "dest": f"{H}/Pictures/beach.png"}]))
    assert done.exit_code == 0, done.shown
    assert (tmp_path / "Pictures" / "beach.jpg").read_bytes() == before
    assert Image.open(io.BytesIO((tmp_path / "Pictures" / "beach.png").read_bytes())).format == "PNG"


def test_a_text_answer_file_is_written_not_opened_as_a_document() -> None:
    script = teach([{"op": "docx.write_text", "path": f"{H}/answer.txt", "text": "7\n"}])
    assert "Document(" not in script and "Path('/home/user/answer.txt').write_text('7\\n')" in script
