"""Hand-made wrong end states for office tasks (Calc, Writer, Impress, multi-app sheets) that the red team of
issue 14 found passing: each must now fail its task's rubric, and the equivalent right states beside them
(a different but correct formula) must still pass. Reuses the harness of `test_wrong_states`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from docx.enum.text import WD_ALIGN_PARAGRAPH
from openpyxl.styles import Font
from pptx.util import Inches

from tests.verifiers.test_wrong_states import Damage, deck, document, judge, one, workbook

# ---- calc ---------------------------------------------------------------------------------------------------


def _xlsx(root: Path) -> Path:
    """The one workbook of the state (these tasks have a single .xlsx)."""
    return one(root, "**/*.xlsx")


def autofilter_with_criterion(root: Path) -> None:
    """The AutoFilter over the right range, plus a criterion that hides every row but one carrier."""
    with workbook(_xlsx(root)) as ws:
        ws.auto_filter.add_filter_column(1, [ws["B2"].value])
        for r in range(3, 12):
            if ws[f"B{r}"].value != ws["B2"].value:
                ws.row_dimensions[r].hidden = True


def freeze_plus_number_as_text(root: Path) -> None:
    """Frozen right, and a number of the table overwritten with the same digits as text."""
    with workbook(_xlsx(root)) as ws:
        ws["D2"] = str(ws["D2"].value)


def freeze_plus_scratch_cell(root: Path) -> None:
    """Frozen right, and a scratch note left in an empty cell."""
    with workbook(_xlsx(root)) as ws:
        ws["H20"] = "scratch"


def freeze_plus_hidden_sheet(root: Path) -> None:
    """Frozen right, and a hidden scratch sheet added."""
    with workbook(_xlsx(root)) as ws:
        ws.parent.create_sheet("Scratch").sheet_state = "hidden"


def freeze_plus_hidden_column(root: Path) -> None:
    """Frozen right, and column C hidden."""
    with workbook(_xlsx(root)) as ws:
        ws.column_dimensions["C"].hidden = True


def inventory_sizes_as_text(root: Path) -> None:
    """The sizes typed as text ('310') instead of numbers."""
    with workbook(root / "Desktop/harbor-wedding_inventory.xlsx") as ws:
        for r in range(2, ws.max_row + 1):
            ws[f"B{r}"] = str(ws[f"B{r}"].value)


def bold_plus_other_cell(root: Path) -> None:
    """The asked column bold, and an unrelated cell (C5) bold as well."""
    with workbook(_xlsx(root)) as ws:
        ws["C5"].font = Font(bold=True)


def cond_format_plus_extra_rule(root: Path) -> None:
    """The right rule, plus another rule on E2:E10."""
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill
    with workbook(_xlsx(root)) as ws:
        fill = PatternFill(start_color="FFFF0000", end_color="FFFF0000", fill_type="solid")
        ws.conditional_formatting.add("E2:E10", CellIsRule(operator="greaterThan", formula=["0"], fill=fill))


def validation_plus_extra_rule(root: Path) -> None:
    """The right validity rule, plus another one on E2:E13."""
    from openpyxl.worksheet.datavalidation import DataValidation
    with workbook(_xlsx(root)) as ws:
        dv = DataValidation(type="whole", operator="greaterThan", formula1="0")
        dv.add("E2:E13")
        ws.add_data_validation(dv)


def merge_plus_far_merge(root: Path) -> None:
    """The title merged right, plus H1:J1 merged as well."""
    with workbook(_xlsx(root)) as ws:
        ws.merge_cells("H1:J1")


CALC: list[tuple[str, Damage]] = [
    ("calc.autofilter.table", autofilter_with_criterion),
    ("calc.freeze.both", freeze_plus_number_as_text),
    ("calc.freeze.both", freeze_plus_scratch_cell),
    ("calc.freeze.both", freeze_plus_hidden_sheet),
    ("calc.freeze.both", freeze_plus_hidden_column),
    ("multi.folder_inventory.name_size_name_asc_one_ext", inventory_sizes_as_text),
    ("calc.style.bold_column", bold_plus_other_cell),
    ("calc.cond_format.equal_to", cond_format_plus_extra_rule),
    ("calc.validation.decimal_greater", validation_plus_extra_rule),
    ("calc.merge.center_title", merge_plus_far_merge),
]

# ---- writer -------------------------------------------------------------------------------------------------

def align_plus_comic_sans(root: Path) -> None:
    """The title centered, and every run of the document re-fonted in Comic Sans."""
    with document(one(root, "Desktop/remote_work.docx")) as doc:
        for p in doc.paragraphs:
            for run in p.runs:
                run.font.name = "Comic Sans MS"


def align_plus_bold_body(root: Path) -> None:
    """The title centered, and one body paragraph made bold."""
    with document(one(root, "Desktop/remote_work.docx")) as doc:
        body = next(p for p in doc.paragraphs if len(p.text) > 80)
        for run in body.runs:
            run.bold = True


def header_also_in_footer(root: Path) -> None:
    """The header right, and its text put into the footer as well."""
    with document(one(root, "Documents/reports/report_staff_training_program.docx")) as doc:
        section = doc.sections[0]
        text = next(p.text for p in section.header.paragraphs if p.text.strip())
        section.footer.is_linked_to_previous = False
        section.footer.paragraphs[0].text = text
        section.footer.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.LEFT


WRITER: list[tuple[str, Damage]] = [
    ("writer.align.title_center", align_plus_comic_sans),
    ("writer.align.title_center", align_plus_bold_body),
    ("writer.header.text_left", header_also_in_footer),
]


# ---- impress ------------------------------------------------------------------------------------------------

MARKETING = "Desktop/harborview_marketing.pptx"


def new_slide_plus_tbd_box(root: Path) -> None:
    """The title-only slide added right, plus a "TBD" text box on it."""
    with deck(one(root, MARKETING)) as prs:
        new = prs.slides[6]
        new.shapes.add_textbox(Inches(1), Inches(3), Inches(3), Inches(1)).text_frame.text = "TBD"


def new_slide_hidden(root: Path) -> None:
    """The slide added right, but hidden in the show."""
    with deck(one(root, MARKETING)) as prs:
        prs.slides[6]._element.set("show", "0")


def other_slide_hidden(root: Path) -> None:
    """The slide added right, and another slide hidden."""
    with deck(one(root, MARKETING)) as prs:
        prs.slides[2]._element.set("show", "0")


def notes_plus_cover_notes(root: Path) -> None:
    """The notes appended right, and notes added to the cover slide as well."""
    with deck(one(root, "Documents/meetings/security_basics_february.pptx")) as prs:
        prs.slides[0].notes_slide.notes_text_frame.text = "Welcome everyone."


IMPRESS: list[tuple[str, Damage]] = [
    ("impress.add_slide.title_only_middle", new_slide_plus_tbd_box),
    ("impress.add_slide.title_only_middle", new_slide_hidden),
    ("impress.add_slide.title_only_middle", other_slide_hidden),
    ("impress.notes.append_two_slides", notes_plus_cover_notes),
]

CASES: list[tuple[str, Damage]] = [*CALC, *WRITER, *IMPRESS]


@pytest.fixture(scope="module")
def built() -> dict[str, tuple[dict[str, Any], Path]]:
    return {}


@pytest.mark.parametrize(("skill_id", "damage"), CASES, ids=[f"{s}-{d.__name__}" for s, d in CASES])
def test_office_wrong_state_fails(tmp_path_factory: pytest.TempPathFactory, built: dict[str, Any],
                                  skill_id: str, damage: Damage) -> None:
    passed, evidence = judge(skill_id, damage, tmp_path_factory.mktemp("case"), built)
    assert not passed, f"{skill_id}: {damage.__doc__ or damage.__name__} PASSES the rubric"
    assert evidence


# ---- right states that must keep passing ----------------------------------------------------------------------

def average_split_ranges(root: Path) -> None:
    """AVERAGE over two ranges whose union is the asked one: the same computation."""
    with workbook(_xlsx(root)) as ws:
        for col in "DE":
            ws[f"{col}12"] = f"=AVERAGE({col}2:{col}6,{col}7:{col}11)"


def empty_notes_pages(root: Path) -> None:
    """A notes page (empty) on every slide without one, as LibreOffice writes them on save."""
    with deck(one(root, "Documents/meetings/security_basics_february.pptx")) as prs:
        for s in prs.slides:
            if not s.has_notes_slide:
                s.notes_slide.notes_text_frame.text = ""


def numbers_as_floats(root: Path) -> None:
    """Every whole number of the table written back as a float (310 -> 310.0), as a re-save may."""
    with workbook(_xlsx(root)) as ws:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, int) and not isinstance(c.value, bool):
                    c.value = float(c.value)


RIGHT: list[tuple[str, Damage]] = [
    ("calc.totals.average", average_split_ranges),
    ("impress.notes.append_two_slides", empty_notes_pages),
    ("calc.freeze.both", numbers_as_floats),
]


@pytest.mark.parametrize(("skill_id", "change"), RIGHT, ids=[f"{s}-{d.__name__}" for s, d in RIGHT])
def test_office_right_state_passes(tmp_path_factory: pytest.TempPathFactory, built: dict[str, Any],
                                   skill_id: str, change: Damage) -> None:
    passed, evidence = judge(skill_id, change, tmp_path_factory.mktemp("case"), built)
    assert passed, f"{skill_id}: {change.__doc__ or change.__name__} is rejected: {evidence}"


# ---- the mutator that produces a hidden slide -----------------------------------------------------------------

@pytest.mark.parametrize("skill_id", ["impress.add_slide.title_only_middle", "impress.notes.append_two_slides"])
def test_the_hidden_slide_mutant_is_offered_and_rejected(tmp_path: Path, skill_id: str) -> None:
    from tests.verifiers.test_mutants_office import _judge_all, _kinds
    from verifiers.mutants import pptx as pptx_mutants

    offered, *_ = _judge_all(skill_id, pptx_mutants, tmp_path)  # asserts the rubric rejects every damaging one
    assert "pptx.slide_hidden" in _kinds(offered)
