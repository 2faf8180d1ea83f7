"""Unit tests for the docx primitives: each passes on a correct state and fails, with evidence, on a wrong one,
a missing file and a corrupt file; several cases emulate how LibreOffice Writer saves the same thing."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from preparers import docx
from preparers.ops import apply_ops
from verifiers.checks import State, run_check

PATH = "/home/user/doc.docx"
TEXTS = ["Office Relocation", "Background", "Our lease at the current site ends in May and will not be renewed.",
         "The new building offers more desks and better transport links.", "Timeline",
         "Packing crates will be delivered to each floor on Monday."]
SPEC = {"blocks": [{"text": TEXTS[0], "style": "Title"}, {"text": TEXTS[1], "bold": True}, {"text": TEXTS[2]},
                   {"text": TEXTS[3]}, {"text": TEXTS[4], "bold": True}, {"text": TEXTS[5]},
                   {"table": [["Team", "Floor"], ["Finance", "First"]]}],
        "page": {"paper": "A4", "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}


def _doc(tmp_path: Path, ops: list[dict] | None = None, spec: dict | None = None) -> Path:
    file = tmp_path / "doc.docx"
    file.write_bytes(docx.build(spec or SPEC))
    if ops:
        apply_ops(tmp_path, [{"path": PATH, **o} for o in ops])
    return file


def _rewrite(file: Path, member: str, edit) -> None:
    """Rewrite one zip member's text (to emulate what LibreOffice saves)."""
    with zipfile.ZipFile(file) as src:
        items = [(info, src.read(info.filename)) for info in src.infolist()]
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in items:
            if info.filename == member:
                data = edit(data.decode("utf-8")).encode("utf-8")
            dst.writestr(info, data)


def _check(tmp_path: Path, name: str, **args):
    return run_check(State(tmp_path), name, {"path": PATH, **args})


CASES = {  # primitive -> (args, ops that satisfy it)
    "docx.styled_paragraphs": ({"style": "Heading 2", "paragraphs": ["Background", "Timeline"]},
                               [{"op": "docx.set_style", "paragraphs": ["Background", "Timeline"],
                                 "style": "Heading 2"}]),
    "docx.list_paragraphs": ({"kind": "bullet", "items": ["Our lease", "The new building"]},
                             [{"op": "docx.set_style", "paragraphs": ["Our lease", "The new building"],
                               "style": "List Bullet"}]),
    "docx.char_format": ({"paragraph": "Our lease", "phrase": "current site", "bold": True},
                         [{"op": "docx.format_chars", "paragraph_start": "Our lease", "phrase": "current site",
                           "bold": True}]),
    "docx.paragraph_alignment": ({"align": "center", "paragraph": "Office Relocation", "unchanged": ["Our lease"]},
                                 [{"op": "docx.set_alignment", "paragraphs": ["Office Relocation"],
                                   "align": "center"}]),
    "docx.line_spacing": ({"rule": "multiple", "value": 1.5, "paragraph": "Our lease"},
                          [{"op": "docx.set_line_spacing", "paragraphs": ["Our lease"], "rule": "multiple",
                            "value": 1.5}]),
    "docx.page_size": ({"paper": "Letter", "orientation": "landscape"},
                       [{"op": "docx.set_page", "paper": "Letter", "orientation": "landscape"}]),
    "docx.page_margins": ({"unit": "cm", "left": 3, "right": 3, "keep": {"top": 1134}},
                          [{"op": "docx.set_margins", "left": 1701, "right": 1701}]),
    "docx.header_footer": ({"part": "footer", "page_number": True, "align": "center"},
                           [{"op": "docx.set_header_footer", "part": "footer", "page_number": True,
                             "align": "center"}]),
    "docx.page_breaks": ({"paragraph": "Timeline"}, [{"op": "docx.page_break", "paragraph_start": "Timeline"}]),
    "docx.table_equals": ({"expected": [["Team", "Floor"], ["Finance", "Second"]], "count": 1},
                          [{"op": "docx.set_cell", "row": 1, "column": 1, "text": "Second"}]),
    "docx.table_inserted": ({"rows": [["Step", "Owner"], ["Pack", "Ana"]], "after": "Timeline", "count": 2},
                            [{"op": "docx.insert_table", "rows": [["Step", "Owner"], ["Pack", "Ana"]],
                              "after": "Timeline"}]),
    "docx.body_text": ({"paragraphs": [t.replace("Monday", "Friday") for t in TEXTS]},
                       [{"op": "docx.replace_text", "old": "Monday", "new": "Friday"}]),
    "docx.occurrences": ({"phrase": "Friday", "count": 1}, [{"op": "docx.replace_text", "old": "Monday",
                                                             "new": "Friday"}]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_primitive_passes_after_its_edit_and_fails_before(tmp_path, name):
    args, ops = CASES[name]
    _doc(tmp_path)
    before = _check(tmp_path, name, **args)
    assert not before.passed and before.evidence
    apply_ops(tmp_path, [{"path": PATH, **o} for o in ops])
    after = _check(tmp_path, name, **args)
    assert after.passed, after.evidence


@pytest.mark.parametrize("name", sorted(CASES))
def test_primitive_fails_on_missing_and_corrupt_files(tmp_path, name):
    args, _ = CASES[name]
    missing = _check(tmp_path, name, **args)
    assert not missing.passed and "does not exist" in missing.evidence
    (tmp_path / "doc.docx").write_bytes(b"PK\x03\x04 not really a zip")
    corrupt = _check(tmp_path, name, **args)
    assert not corrupt.passed and "not a readable docx document" in corrupt.evidence


# --- wrong states, with evidence ------------------------------------------------------------------------

def test_styled_paragraphs_is_exclusive_and_names_the_extra(tmp_path):
    _doc(tmp_path, [{"op": "docx.set_style", "paragraphs": ["Background", "Our lease"], "style": "Heading 2"}])
    result = _check(tmp_path, "docx.styled_paragraphs", style="Heading 2", paragraph="Background")
    assert not result.passed and "Our lease" in result.evidence


def test_styled_paragraphs_reports_wrong_level(tmp_path):
    _doc(tmp_path, [{"op": "docx.set_style", "paragraphs": ["Background"], "style": "Heading 3"}])
    result = _check(tmp_path, "docx.styled_paragraphs", style="Heading 2", paragraph="Background")
    assert not result.passed and "'heading 3'" in result.evidence.lower()


def test_styles_match_by_lowercase_name_whatever_the_id(tmp_path):
    file = _doc(tmp_path, [{"op": "docx.set_style", "paragraphs": ["Background"], "style": "Heading 2"}])
    for member in ("word/styles.xml", "word/document.xml"):
        _rewrite(file, member, lambda x: x.replace('"Heading2"', '"Style12"'))
    assert _check(tmp_path, "docx.styled_paragraphs", style="Heading 2", paragraph="Background").passed
    assert not _check(tmp_path, "docx.styled_paragraphs", style="Heading 1", paragraph="Background").passed


def test_list_items_by_direct_numbering_as_libreoffice_writes_them(tmp_path):
    """Writer's toolbar list: no list style, a numPr on the paragraph pointing at a bullet level (ilvl 1)."""
    file = _doc(tmp_path, [{"op": "docx.set_style", "paragraphs": ["Our lease"], "style": "List Bullet"}])
    numpr = '<w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr>'

    def edit(xml: str) -> str:
        xml = xml.replace('<w:pStyle w:val="ListBullet"/>', numpr)
        return re.sub(r"(<w:p>)(<w:r><w:t>The new building)", rf"\1<w:pPr>{numpr}</w:pPr>\2", xml)
    _rewrite(file, "word/document.xml", edit)
    ok = _check(tmp_path, "docx.list_paragraphs", kind="bullet", items=[], subitems=["Our lease", "The new"])
    assert ok.passed, ok.evidence
    wrong = _check(tmp_path, "docx.list_paragraphs", kind="bullet", items=["Our lease"])
    assert not wrong.passed and "level 2, expected level 1" in wrong.evidence


def test_list_kind_and_strays_are_reported(tmp_path):
    _doc(tmp_path, [{"op": "docx.set_style", "paragraphs": ["Our lease", "Timeline"], "style": "List Number"}])
    kind = _check(tmp_path, "docx.list_paragraphs", kind="bullet", items=["Our lease"])
    assert not kind.passed and "number list item, expected bullet" in kind.evidence
    stray = _check(tmp_path, "docx.list_paragraphs", kind="number", items=["Our lease"])
    assert not stray.passed and "Timeline" in stray.evidence


def test_char_format_rejects_spill_and_partial(tmp_path):
    _doc(tmp_path, [{"op": "docx.format_chars", "paragraph_start": "Our lease", "bold": True}])
    spill = _check(tmp_path, "docx.char_format", paragraph="Our lease", phrase="current site", bold=True)
    assert not spill.passed and "beyond" in spill.evidence
    _doc(tmp_path, [{"op": "docx.format_chars", "paragraph_start": "Our lease", "phrase": "current", "size": 14}])
    partial = _check(tmp_path, "docx.char_format", paragraph="Our lease", phrase="current site", size=14)
    assert not partial.passed and "expected 14" in partial.evidence


def test_char_format_reads_split_runs_and_character_styles(tmp_path):
    """LibreOffice splits runs freely and may express bold through a character style."""
    file = _doc(tmp_path)
    _rewrite(file, "word/document.xml", lambda x: x.replace(
        "<w:r><w:t>Our lease at the current site ends in May and will not be renewed.</w:t></w:r>",
        '<w:r><w:t xml:space="preserve">Our lease at the </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Strong"/>'
        '</w:rPr><w:t>current</w:t></w:r><w:r><w:rPr><w:b w:val="true"/></w:rPr><w:t xml:space="preserve"> site'
        '</w:t></w:r><w:r><w:t xml:space="preserve"> ends in May and will not be renewed.</w:t></w:r>'))
    _rewrite(file, "word/styles.xml", lambda x: x.replace(
        "</w:styles>", '<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/>'
                       "</w:rPr></w:style></w:styles>"))
    result = _check(tmp_path, "docx.char_format", paragraph="Our lease", phrase="current site", bold=True)
    assert result.passed, result.evidence


def test_alignment_and_spacing_report_the_found_values(tmp_path):
    _doc(tmp_path, [{"op": "docx.set_alignment", "paragraphs": ["Our lease"], "align": "justify"},
                    {"op": "docx.set_line_spacing", "paragraphs": ["Our lease"], "rule": "exact", "value": 18}])
    align = _check(tmp_path, "docx.paragraph_alignment", align="right", paragraph="Our lease")
    assert not align.passed and "aligned justify" in align.evidence
    spacing = _check(tmp_path, "docx.line_spacing", rule="atLeast", value=18, paragraph="Our lease")
    assert not spacing.passed and "(exact)" in spacing.evidence
    spill = _check(tmp_path, "docx.line_spacing", rule="exact", value=18, paragraph="Our lease",
                   unchanged=["Our lease"])
    assert not spill.passed and "should keep" in spill.evidence


def test_page_size_rejects_flag_without_swapped_dimensions(tmp_path):
    _doc(tmp_path, [{"op": "docx.set_page", "paper": "A4", "orientation": "landscape", "swap": False}])
    result = _check(tmp_path, "docx.page_size", paper="A4", orientation="landscape")
    assert not result.passed and "portrait" in result.evidence


def test_page_margins_tolerate_rounding_and_report_units(tmp_path):
    file = _doc(tmp_path)
    _rewrite(file, "word/document.xml", lambda x: re.sub(r'w:left="\d+"', 'w:left="1423"', x))
    assert _check(tmp_path, "docx.page_margins", unit="cm", left=2.5).passed  # 1417 twips, written as 1423
    wrong = _check(tmp_path, "docx.page_margins", unit="in", left=1.5)
    assert not wrong.passed and "left margin is 0.99 in, expected 1.50 in" in wrong.evidence


def test_header_footer_wants_a_field_not_a_typed_number(tmp_path):
    _doc(tmp_path, [{"op": "docx.set_header_footer", "part": "footer", "page_number": True, "literal_number": True}])
    result = _check(tmp_path, "docx.header_footer", part="footer", page_number=True)
    assert not result.passed and "no page number field" in result.evidence
    absent = _check(tmp_path, "docx.header_footer", part="header", text="Northwind")
    assert not absent.passed and "no header" in absent.evidence


def test_header_footer_accepts_complex_fields(tmp_path):
    file = _doc(tmp_path, [{"op": "docx.set_header_footer", "part": "header", "text": "Page", "align": "right"}])
    _rewrite(file, "word/header1.xml", lambda x: x.replace(
        "<w:t>Page</w:t></w:r>", '<w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/>'
        '</w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar '
        'w:fldCharType="separate"/></w:r><w:r><w:t>2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'))
    result = _check(tmp_path, "docx.header_footer", part="header", text="Page", page_number=True, align="right")
    assert result.passed, result.evidence


def test_page_break_at_end_of_previous_paragraph_counts(tmp_path):
    """LibreOffice saves a break before a paragraph as <w:br w:type="page"/> ending the previous paragraph."""
    file = _doc(tmp_path)
    _rewrite(file, "word/document.xml", lambda x: x.replace(
        "more desks and better transport links.</w:t></w:r>",
        'more desks and better transport links.</w:t></w:r><w:r><w:br w:type="page"/></w:r>'))
    assert _check(tmp_path, "docx.page_breaks", paragraph="Timeline").passed
    wrong = _check(tmp_path, "docx.page_breaks", paragraph="Packing crates")
    assert not wrong.passed and "'Timeline'" in wrong.evidence


def test_page_breaks_count_extra_breaks(tmp_path):
    _doc(tmp_path, [{"op": "docx.page_break", "paragraph_start": "Timeline", "how": "property"},
                    {"op": "docx.page_break", "paragraph_start": "Background"}])
    result = _check(tmp_path, "docx.page_breaks", paragraph="Timeline")
    assert not result.passed and "2 page break(s) found, expected 1" in result.evidence


def test_table_checks_name_the_difference(tmp_path):
    _doc(tmp_path, [{"op": "docx.add_row", "values": ["Legal", "Third"], "position": 1}])
    result = _check(tmp_path, "docx.table_equals", expected=[["Team", "Floor"], ["Finance", "First"],
                                                             ["Legal", "Third"]])
    assert not result.passed and "row 2 reads ['Legal', 'Third']" in result.evidence
    _doc(tmp_path, [{"op": "docx.insert_table", "rows": [["Step", "Owner"], ["Pack", "Ana"]]}])
    placed = _check(tmp_path, "docx.table_inserted", rows=[["Step", "Owner"], ["Pack", "Ana"]], after="Timeline")
    assert not placed.passed and "no table after paragraph" in placed.evidence
    bold = _check(tmp_path, "docx.table_inserted", rows=[["Step", "Owner"], ["Pack", "Ana"]], bold_header=True)
    assert not bold.passed and "not bold" in bold.evidence


def test_body_text_and_occurrences_show_where(tmp_path):
    _doc(tmp_path, [{"op": "docx.replace_text", "old": "Monday", "new": "friday"}])
    text = _check(tmp_path, "docx.body_text", paragraphs=[t.replace("Monday", "Friday") for t in TEXTS])
    assert not text.passed and "friday" in text.evidence
    count = _check(tmp_path, "docx.occurrences", phrase="Friday", count=1)
    assert not count.passed and "occurs 0 time(s)" in count.evidence
    assert _check(tmp_path, "docx.occurrences", phrase="Friday", count=1, match_case=False).passed


ANSWER = "/home/user/count.txt"


@pytest.mark.parametrize("content,passed", [("42\n", True), ("42", True), ("Words: 42", True), ("1,042", False),
                                            ("41", False), ("42 or 43", False), ("", False)])
def test_answer_number(tmp_path, content, passed):
    (tmp_path / "count.txt").write_text(content)
    result = run_check(State(tmp_path), "docx.answer_number", {"path": ANSWER, "value": 42})
    assert result.passed is passed, result.evidence


def test_answer_number_missing_and_undecodable(tmp_path):
    result = run_check(State(tmp_path), "docx.answer_number", {"path": ANSWER, "value": 42})
    assert not result.passed and "does not exist" in result.evidence
    (tmp_path / "count.txt").write_bytes(b"\xff\xfe\xfa 42")
    result = run_check(State(tmp_path), "docx.answer_number", {"path": ANSWER, "value": 42})
    assert not result.passed and "not a readable UTF-8 text file" in result.evidence


def test_odd_values_in_the_xml_fail_instead_of_raising(tmp_path):
    file = _doc(tmp_path, [{"op": "docx.format_chars", "paragraph_start": "Our lease", "size": 14}])
    _rewrite(file, "word/document.xml", lambda x: x.replace('<w:sz w:val="28"/>', '<w:sz w:val="big"/>'))
    result = _check(tmp_path, "docx.char_format", paragraph="Our lease", size=14)
    assert not result.passed and "cannot evaluate (ValueError" in result.evidence


@pytest.mark.parametrize(("name", "kind"), [("Table Grid", "TABLE"), ("Heading 2", "PARAGRAPH"),
                                            ("Normal", "PARAGRAPH"), ("Table Grid", "PARAGRAPH"),
                                            ("No Such Style", "PARAGRAPH")])
def test_a_style_is_looked_up_as_python_docx_does_and_the_styles_stay_unread(tmp_path, name, kind):
    """`style_id` (what the table and style ops write) answers as python-docx's own lookup does - an id, None for
    the default style, the same KeyError or ValueError - on a document whose styles part it leaves unread, asked
    once or again (its answers are kept per styles bytes)."""
    from docx.enum.style import WD_STYLE_TYPE

    from preparers.docx import open_for_edit, style_id, unread_styles

    host = _doc(tmp_path)
    reference = open_for_edit(str(host))
    try:
        want: object = reference.part.get_style_id(reference.styles[name], WD_STYLE_TYPE[kind])
    except (KeyError, ValueError) as exc:
        want = (type(exc), str(exc))
    for _ in range(2):
        document = open_for_edit(str(host))
        try:
            got: object = style_id(document, name, WD_STYLE_TYPE[kind])
        except (KeyError, ValueError) as exc:
            got = (type(exc), str(exc))
        assert got == want and unread_styles(document) is not None


def test_the_table_and_style_ops_write_what_python_docx_writes(tmp_path):
    """insert_table and set_style set the style ids python-docx's setters set: the same document body."""
    from docx.enum.style import WD_STYLE_TYPE

    from preparers.docx import open_for_edit

    ops = [{"op": "docx.insert_table", "rows": [["Step", "Owner"], ["Pack", "Ana"]], "after": "Timeline"},
           {"op": "docx.set_style", "paragraphs": ["Timeline"], "style": "Heading 2"}]
    host = _doc(tmp_path)
    reference = open_for_edit(str(host))
    table = reference.add_table(rows=2, cols=2)
    table.style = reference.styles["Table Grid"]
    for row, values in zip(table.rows, [["Step", "Owner"], ["Pack", "Ana"]], strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.paragraphs[0].add_run(value).bold = None
    timeline = next(p for p in reference.paragraphs if p.text.startswith("Timeline"))
    timeline._p.addnext(table._tbl)
    timeline.style = reference.styles["Heading 2"]
    assert reference.part.get_style_id(reference.styles["Heading 2"], WD_STYLE_TYPE.PARAGRAPH)  # not the default
    apply_ops(tmp_path, [{"path": PATH, **o} for o in ops])
    with zipfile.ZipFile(host) as done:
        body = done.read("word/document.xml")
    out = tmp_path / "reference.docx"
    reference.save(str(out))
    with zipfile.ZipFile(out) as made:
        assert body == made.read("word/document.xml")
