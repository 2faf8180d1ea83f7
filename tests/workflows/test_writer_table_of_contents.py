"""writer.table_of_contents: the family through the gate with every mutant, its check on hand-made end states
(LibreOffice's own table of contents, a simple field, the wrong place, no outline levels), the frame leaving the
entries out, and its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document
from lxml import etree

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from verifiers.frame.docx import read
from workflows.writer.table_of_contents import NATURAL, PHRASINGS, SCOPE, WORKFLOW

PATH = "/home/user/plan.docx"
BLOCKS = [("Move plan", "Title"), ("Prepared by the office team.", ""), ("Budget and Timeline", "Heading 1"),
          ("Costs are shared.", ""), ("Risks", "Heading 1"), ("Delays are possible.", "")]
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

#: A table of contents the way LibreOffice exports one it generated: a title in the content control, entries
#: with links and tabs inside the field, the field's end in a paragraph of its own.
LIBREOFFICE_TOC = f"""<w:sdt xmlns:w="{W}"><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/>
<w:docPartUnique w:val="true"/></w:docPartObj></w:sdtPr><w:sdtContent>
<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Table of Contents</w:t></w:r></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>
<w:r><w:instrText xml:space="preserve"> TOC \\f \\o "1-LEVELS" \\h</w:instrText></w:r>
<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:hyperlink w:anchor="__RefHeading___Toc_1">
<w:r><w:t>Budget and Timeline</w:t></w:r><w:r><w:tab/><w:t>1</w:t></w:r></w:hyperlink></w:p>
<w:p><w:hyperlink w:anchor="__RefHeading___Toc_2"><w:r><w:t>Risks</w:t></w:r><w:r><w:tab/><w:t>2</w:t></w:r>
</w:hyperlink></w:p>
<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:sdtContent></w:sdt>"""


@pytest.mark.slow
@pytest.mark.parametrize("levels", [1, 2, 3])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, levels):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"levels": levels}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.toc", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> Path:
    spec = {"blocks": [{"text": t, "style": s} for t, s in BLOCKS], "author": "A",
            "page": {"paper": "A4", "orientation": "portrait",
                     "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "plan.docx").write_bytes(docx.build(spec))
    return tmp_path / "plan.docx"


def _check(tmp_path: Path, levels: int = 2) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.toc", {"path": PATH, "levels": levels,
                                                     "heading": "Budget and Timeline"})
    return result.passed, result.evidence


def _insert(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.insert_toc", "path": PATH, "before": "Budget and Timeline", "levels": 2,
                          **args}])


def _put(file: Path, xml: str, before: int) -> None:
    """Insert raw body XML before the `before`-th paragraph."""
    doc = Document(str(file))
    doc.paragraphs[before]._p.addprevious(etree.fromstring(xml))
    doc.save(str(file))


def test_the_op_and_the_check(tmp_path):
    file = _state(tmp_path)
    initial = read(file)
    passed, evidence = _check(tmp_path)
    assert not passed and "0 table(s) of contents" in evidence
    _insert(tmp_path)
    assert [p.text for p in Document(str(file)).paragraphs if p.text][2:] == [t for t, _ in BLOCKS][2:]
    assert _check(tmp_path) == (True, "one table of contents ('TOC \\\\o \"1-2\" \\\\h \\\\z \\\\u'), levels 1-2, "
                                      "just before 'Budget and Timeline'")
    assert read(file) == initial  # the frame leaves the table of contents out
    passed, evidence = _check(tmp_path, levels=3)
    assert not passed and "covers levels 1-2, expected levels 1-3" in evidence


@pytest.mark.parametrize(("args", "twice", "says"), [
    ({"levels": 3}, False, "covers levels 1-3"),
    ({"at_end": True}, False, "followed by the end of the document"),
    ({"typed": True}, False, "0 table(s) of contents"),
    ({}, True, "2 table(s) of contents"),
])
def test_the_check_rejects_the_slips(tmp_path, args, twice, says):
    _state(tmp_path)
    _insert(tmp_path, **args)
    if twice:
        _insert(tmp_path, **args)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_what_libreoffice_writes_passes_and_the_frame_leaves_its_entries_out(tmp_path, levels):
    file = _state(tmp_path)
    initial = read(file)
    _put(file, LIBREOFFICE_TOC.replace("LEVELS", str(levels)), 2)
    assert _check(tmp_path, levels=levels)[0], _check(tmp_path, levels=levels)
    assert read(file) == initial
    assert not _check(tmp_path, levels=levels % 3 + 1)[0]


def test_hand_made_states(tmp_path):
    # a simple field is a table of contents too
    file = _state(tmp_path)
    _put(file, f'<w:p xmlns:w="{W}"><w:fldSimple w:instr=" TOC \\o &quot;1-2&quot; "/></w:p>', 2)
    assert _check(tmp_path)[0]
    # the table of contents placed above the title, or after the first section
    for where, says in ((0, "followed by 'Move plan'"), (4, "followed by 'Risks'")):
        file = _state(tmp_path)
        _put(file, LIBREOFFICE_TOC.replace("LEVELS", "2"), where)
        passed, evidence = _check(tmp_path)
        assert not passed and says in evidence, evidence
    # a table of contents built from styles only (no outline levels)
    file = _state(tmp_path)
    _put(file, LIBREOFFICE_TOC.replace('\\o "1-LEVELS"', '\\t "Heading 1,1"'), 2)
    passed, evidence = _check(tmp_path)
    assert not passed and "no outline levels" in evidence
    # a field that never ends swallows the rest of the document: the frame sees the headings gone
    file = _state(tmp_path)
    initial = read(file)
    _put(file, f'<w:p xmlns:w="{W}"><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC \\o '
               '"1-2"</w:instrText></w:r></w:p>', 2)
    assert not _check(tmp_path)[0]
    assert "body:003#text" not in read(file) and "body:003#text" in initial
    file.write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_every_phrasing_says_the_levels_and_the_heading(levels):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "a.docx").format(path="/home/user/a.docx", heading='"Risks"',
                                                                scope=SCOPE[levels])
        assert "table of contents" in text and f"level{'s 1 to' if levels > 1 else ''} {levels}" in text, text
        assert "{scope}" in phrasing and "{heading}" in phrasing
