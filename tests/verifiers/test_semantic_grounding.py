"""Semantic grounding: an instruction edited to contradict its rubric is rejected by the real gate.

Each case builds an accepted task offline, edits its task.json instruction the way a reviewer (or a careless
model) would, and runs the gate (`forge verify` for a batch): the verdict must be `grounding_fail`, and its
evidence must name the rubric argument the instruction no longer asks for. The untouched package passes
grounding, so every rejection comes from the edit.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from kit.package import load_package
from kit.taxonomy import load_taxonomy
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.grounding import Ungrounded, ground, slide_titles, visible_text
from verifiers.lexicon import DOMAINS
from workflows import get_family

#: (case id, skill, seed, regex to find, replacement, the argument the evidence must name)
CONTRADICTIONS = [
    # the six hand-made contradictions of issue 22
    ("greater-to-less", "calc.cond_format.greater_than", 1, r"greater than", "less than", "operator"),
    ("top-to-bottom", "calc.cond_format.top_n", 3, r"top 4", "bottom 4", "operator"),
    ("largest-first-to-smallest-first", "calc.sort.numeric_desc", 1, r"largest to smallest",
     "smallest to largest", "descending"),
    ("average-to-sum", "calc.summary.average", 1, r"average", "sum", "function"),
    ("bar-to-column", "calc.chart.bar", 1, r"bar chart", "column chart", "chart_type"),
    # more, across the apps
    ("sort-words-only", "calc.sort.text_asc", 1, r"alphabetically from A to Z|from A to Z|alphabetically",
     "in reverse alphabetical order", "descending"),
    ("threshold", "calc.cond_format.less_than", 1, r"less than ([\d,.]+)", "less than 1", "values"),
    ("tb-filter-folder", "tb.filter.subject_move_save_only", 1, r"'[^']+'(?= (?:sub)?folder\b)", "'Misc'",
     "target"),  # the destination folder's name, whichever theme the mailbox gave it
    ("tb-filter-copy-for-move", "tb.filter.from_move_save_only", 1, r"\bmoves\b", "copies", "action"),
    ("chrome-bookmark-name", "chrome.bookmark.add_bar_one", 1, r"named '([^']+)'|called '([^']+)'|'([^']+)'",
     "'Something Else'", "name"),
    ("os-permissions-mode", "os.permissions.mode_755_one", 1, r"mode 755", "mode 750", "mode"),
    ("writer-alignment", "writer.align.body_center", 1, r"centered", "right-aligned", "align"),
    ("writer-alignment-both", "writer.align.body_left", 1, r"left-aligned \(align left\)", "justified",
     "align"),
    ("impress-slide-number", "impress.add_slide.title_content_last", 1, r"becomes slide (\d+)",
     "becomes slide 2", "position"),
    ("gimp-rotation-direction", "gimp.rotate.rotate_cw_png", 1, r"(?<!-)clockwise", "counter-clockwise",
     "direction"),
    ("gimp-rotation-angle", "gimp.rotate.rotate_cw_png", 1, r"90°", "180°", "degrees"),
    ("writer-spacing", "writer.spacing.double_body", 1, r"double line spacing \(2 lines\)",
     "single line spacing (1 line)", "value"),
    ("writer-list-kind", "writer.list.bullet_flat", 1, r"bulleted", "numbered", "kind"),
    ("writer-header-to-footer", "writer.header.text_center", 1, r"needs a header", "needs a footer", "part"),
    ("impress-move-relation", "impress.move_slide.down_after", 1, r"directly after", "directly before", "position"),
    ("impress-table-size", "impress.table.full_small", 1, r"(\d+) rows", "7 rows", "rows"),
    ("fill-colour-name", "calc.cond_format.greater_than", 1, r"light orange", "light blue", "fill"),
    ("report-aggregate", "multi.totals_report.docx_max_all", 1, r"the largest value", "the smallest value", "label"),
    ("tb-move-date-side", "tb.move.before_to_existing_top_from_inbox", 1, r"dated before", "dated after", "field"),
    ("calc-sheet-placement", "calc.sheets.add", 1, r"at the end, after 'Archive'", "directly before 'Archive'",
     "expected"),
    ("gimp-exact-size", "gimp.resize.exact_png", 1, r"1000 by 500", "1000 by 600", "height"),
    ("tb-date-said-twice", "tb.move.before_to_existing_top_from_inbox", 1, r"\(\d{1,2} [A-Z][a-z]+ \d{4}\)",
     "(1 January 2020)", "value"),  # the date in words no longer the ISO date beside it
    ("writer-table-cell", "writer.table.add_row", 1, r"Trailing cables", "Loose cables", "expected"),
    ("impress-bullet-order", "impress.bullets.append_1", 1, r"after 'Take", "before 'Take", "paragraphs"),
    ("doc-table-order", "multi.sheet_doc_table.all_all_asc", 1, r"smallest first", "largest first", "rows"),
    ("print-width-unit", "gimp.resolution.print_width_jpg", 1, r"4 inches wide", "4 cm wide", "inches"),
    ("tb-flag-date-side", "tb.mark.flagged_before_in_archives", 1, r"dated before", "dated after", "message_ids"),
    ("chrome-startup-mode", "chrome.settings.startup_continue", 1,
     r"'Continue where you left off' so the tabs of the last session come back", "'Open the New Tab page'", "mode"),
    # a moved slide: the verb and where the slide is now (read from the initial deck)
    ("impress-currently-slide", "impress.move_slide.down_before", 1, r"\(currently slide \d+\)",
     "(currently slide 1)", "title"),
    ("impress-move-to-copy", "impress.move_slide.up_after", 1, r"Move it", "Copy it", "title"),
    ("impress-do-not-copy-dropped", "impress.move_slide.up_after", 1, r"do not copy it", "copy it", "title"),
    # a clean-up: the instruction must pick exactly the files the listing leaves out
    ("cleanup-delete-to-keep", "os.cleanup.backup_recursive", 1, r"delete every", "keep every", "names"),
    ("cleanup-date-side", "os.cleanup.dated_flat", 1, r"before (20)", r"after \1", "names"),
    ("cleanup-kind", "os.cleanup.backup_recursive", 1, r"backup file", "empty file", "names"),
    ("cleanup-depth", "os.cleanup.backup_recursive", 1, r"in (/\S+) and all of its subfolders",
     r"directly in \1 only", "names"),
    ("cleanup-everything-else", "os.cleanup.empty_recursive", 1, r"Don't delete anything else",
     "Delete everything else", "names"),
    # a message named by subject and date must be in the mailbox on that date
    ("message-received-date", "multi.attachment_folder.month_one_dated", 1, r"received (\d{4})-(\d\d)-(\d\d)",
     r"received \1-\2-01", "message"),
    ("message-date-in-parentheses", "multi.attachment_sheet.csv_none_desktop", 1, r"(\d{4})-(\d\d)-(\d\d)\)",
     r"\1-01-01)", "message"),
]

DATES_AND_A_PATH = "2024-01-05 2024-02-11 2024-03-02 2024-03-30 {path}"
CSV_PARAGRAPH = (
    "Python's csv module implements classes to read and write tabular data in CSV format. It lets programmers "
    "say \"write this data in the format preferred by Excel\" or \"read data from this file which was generated "
    "by Excel\" without knowing the details of the CSV format. The reader and writer objects handle dialects; "
    "see {path}, sheet '{sheet}', for an example file.")


def _edit(folder: Path, pattern: str, replacement: str) -> str:
    """Rewrite the instruction in task.json; returns the new instruction (the edit must change something)."""
    path = folder / "task.json"
    task = json.loads(path.read_text("utf-8"))
    edited = re.sub(pattern, replacement, task["instruction"], count=1)
    assert edited != task["instruction"], f"{pattern!r} not in: {task['instruction']}"
    task["instruction"] = edited
    path.write_text(json.dumps(task, indent=2), "utf-8")
    return edited


def _package(skill_id: str, seed: int, out: Path) -> Path:
    skill = load_taxonomy()[skill_id]
    return make_package(get_family(skill.family), dict(skill.params), out, seed=seed, skill_id=skill.id)


def _grounding(folder: Path) -> str:
    package = load_package(folder)
    return ground(package.task, lambda: visible_text(package.root, package.task["setup"]["assets"]))


@pytest.mark.parametrize(("case", "skill", "seed", "find", "replace", "arg"), CONTRADICTIONS,
                         ids=[c[0] for c in CONTRADICTIONS])
def test_a_contradicting_instruction_fails_grounding_naming_the_arg(tmp_path, case, skill, seed, find, replace, arg):
    folder = _package(skill, seed, tmp_path)
    assert "goal arguments expressed" in _grounding(folder)  # the untouched task is grounded
    _edit(folder, find, replace)
    verdict = gate_package(folder)
    assert verdict.status == "grounding_fail", (verdict.status, verdict.evidence)
    assert [s.name for s in verdict.stages][-1] == "grounding"
    assert re.search(rf"\b{arg}\b", verdict.evidence), verdict.evidence


@pytest.mark.parametrize("garbage", [DATES_AND_A_PATH, CSV_PARAGRAPH], ids=["dates-and-a-path", "csv-paragraph"])
@pytest.mark.parametrize("skill", ["calc.autofilter.table", "calc.sort.numeric_asc", "calc.chart.line"])
def test_a_model_instruction_that_asks_for_nothing_fails_grounding(tmp_path, garbage, skill):
    folder = _package(skill, 1, tmp_path)
    task = json.loads((folder / "task.json").read_text("utf-8"))
    args = task["rubric"][0]["args"]
    task["instruction"] = garbage.format(path=args["path"], sheet=args.get("sheet", ""))
    (folder / "task.json").write_text(json.dumps(task), "utf-8")
    verdict = gate_package(folder)
    assert verdict.status == "grounding_fail", (verdict.status, verdict.evidence)
    assert re.search(r"rubric [\w.-]+: ", verdict.evidence), verdict.evidence


def test_forge_verify_rejects_every_edited_package_and_grounds_the_untouched_one(tmp_path):
    untouched = _package("calc.cond_format.greater_than", 1, tmp_path / "a")
    edited = [_package(skill, seed, tmp_path / case) for case, skill, seed, *_ in CONTRADICTIONS[:5]]
    for folder, (_, _, _, find, replace, _) in zip(edited, CONTRADICTIONS[:5], strict=True):
        _edit(folder, find, replace)
    result = CliRunner().invoke(app, ["verify", "--json", str(untouched), *map(str, edited)])
    lines = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    by_path = {Path(line["path"]): line for line in lines if "path" in line}
    grounding = next(s for s in by_path[untouched]["stages"] if s["name"] == "grounding")
    assert grounding["passed"] and by_path[untouched]["status"] != "grounding_fail", result.output
    assert [by_path[f]["status"] for f in edited] == ["grounding_fail"] * 5, result.output
    assert result.exit_code == 1


# --- the pieces, on their own --------------------------------------------------------------------------

@pytest.mark.parametrize(("domain", "text", "values"), [
    ("order", "sort it in reverse alphabetical order (Z to A)", {"desc"}),
    ("order", "sort it alphabetically from A to Z", {"asc"}),
    ("rotation", "rotate it 90° counter-clockwise", {"counter-clockwise"}),
    ("chart", "insert a vertical bar chart", {"column"}),
    ("compare", "cells greater than or equal to 5", {"greaterThanOrEqual"}),
    ("compare", "cells not equal to 5", {"notEqual"}),
    ("part", "add it in Writer (Insert > Header and Footer) as a footer", {"footer"}),
    ("aggregate", "the average of the 'Total Sales' column", {"AVERAGE"}),  # a quoted header is data
    ("align", "save /home/user/left_aligned.docx", set()),  # a file name is no request
])
def test_the_lexicon_reads_phrases_longest_first_and_skips_data(domain, text, values):
    assert set(DOMAINS[domain].expressed(text)) == values


def test_the_round_trip_reads_numbers_next_to_their_cue():
    assert extract.operands("cells whose value is between 1,200 and 3,400 (inclusive)", "between") == [1200, 3400]
    assert extract.operands("among the top 4 values of the range", "top") == [4]
    assert extract.target_positions("insert it after 'Intro', so that it becomes slide 6") == {6}
    assert extract.degrees("rotate it by 180° (it is upside down)") == {180}
    assert extract.modes("make it mode 755 (rwxr-xr-x: everyone may run it)") == {"755"}
    assert extract.modes("set it to rw-r----- ") == {"640"}
    assert extract.spacing_values("a line spacing of at least 16 pt", "atLeast") == {16.0}


def test_every_primitive_grounds_its_goal_args():
    from verifiers import checks

    # the frame guards files of the initial state; it asks nothing of the instruction (verifiers/checks/frame.py);
    # nor does a check that is no goal and says why (Meaning(action=None, why=...): what a task keeps where no frame
    # reads the file, or an infeasible task's declaration), as long as it has no goal argument to ground
    empty = sorted(name for name, prim in checks.registry().items()
                   if not prim.grounded and not name.endswith(".frame") and prim.meaning.action is not None)
    assert empty == [], f"primitives that ground nothing: {empty}"


def test_kept_state_is_grounded_in_the_visible_initial_state():
    task = {"instruction": "Add a bookmark to https://example.org named 'Example' in Chrome.", "rubric": [
        {"id": "kept", "criterion": "", "primitive": "chrome.bookmarks_kept",
         "args": {"path": "/home/user/.config/google-chrome/Default/Bookmarks",
                  "bookmarks": [[["Bookmarks bar"], "News", "https://news.example.com/"]]}}]}
    assert "stated or visible" in ground(task, lambda: '{"name": "News", "url": "https://news.example.com/"}')
    with pytest.raises(Ungrounded, match="kept bookmark 'News'"):
        ground(task, lambda: "{}")


def test_colour_words_must_fit_the_checked_hex():
    assert extract.hue("FFC7CE") == "red" and extract.hue("C6EFCE") == "green" and extract.hue("DDEBF7") == "blue"
    assert extract.clashes("FFC7CE", "give them a light red fill (FFC7CE)") is None
    assert extract.clashes("FFC7CE", "give them a light green fill (FFC7CE)") == "green"
    assert extract.clashes("C6EFCE", "the 'Red Team' cells get a light green fill") is None  # quoted data


def test_a_crop_box_is_read_back_from_the_instruction():
    claims = extract.crop_claims("crop it to the rectangle whose top-left corner is at x = 90, y = 20 and which "
                                 "is 610 pixels wide and 470 pixels high")
    assert all(holds([90, 20, 700, 490]) for _, holds in claims) and len(claims) == 3
    assert not all(holds([90, 20, 700, 500]) for _, holds in claims)
    assert [p for p, holds in extract.crop_claims("cut a 40-pixel border off every side") if holds([40, 40, 9, 9])]


def test_visible_text_opens_attachments_and_office_files():
    import email.message
    import io
    import zipfile

    table = io.BytesIO()
    with zipfile.ZipFile(table, "w") as archive:
        archive.writestr("xl/sharedStrings.xml", "<sst><si><t>Fleet No &amp; Route</t></si></sst>")
    message = email.message.EmailMessage()
    message["Subject"] = "fleet"
    message.set_content("see attached")
    message.add_attachment(table.getvalue(), maintype="application", subtype="zip", filename="fleet.xlsx")
    from verifiers.grounding import text_of

    assert "Fleet No & Route" in text_of(b"From someone\n" + message.as_bytes())
    assert text_of(b"PK\x03\x04 broken").startswith("PK")  # a broken archive shows its bytes, and no error


def test_a_figure_label_says_which_aggregate_the_instruction_must_ask_for():
    task = {"instruction": "In /home/user/r.docx, the line 'Highest Sales: TBD' needs its figure: the {} value in "
                           "the 'Sales' column of /home/user/s.xlsx. Replace TBD with the number.",
            "rubric": [{"id": "figure", "criterion": "", "primitive": "multi.number_in_text",
                        "args": {"path": "/home/user/r.docx", "label": "Highest Sales:", "value": 93.5}}]}
    assert "none contradicted" in ground({**task, "instruction": task["instruction"].format("largest")}, str)
    with pytest.raises(Ungrounded, match="label='Highest Sales:'"):
        ground({**task, "instruction": task["instruction"].format("smallest")}, str)


def test_every_argument_the_lexicon_or_the_round_trip_reads_is_declared_grounded():
    from verifiers import checks

    registry = checks.registry()
    read = {(p, a) for p, prim in registry.items() for a in prim.meaning.args}
    assert len(read) > 50
    assert sorted((p, a) for p, a in read if a not in registry[p].grounded) == []


def test_visible_text_of_a_zip_bomb_stays_bounded():
    import io
    import zipfile

    from verifiers.grounding import text_of

    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(40):
            archive.writestr(f"m{i}.xml", b"A" * (4 << 20))  # 160 MB unpacked from a small file
    assert len(bomb.getvalue()) < 2 << 20
    assert len(text_of(bomb.getvalue())) < 20 << 20


@pytest.mark.parametrize("weird", [None, {}, [[]], 5, "x", [None], {"a": [1]}, [["a", 1]], True, -1.5, [[1, 2, 3, 4]]],
                         ids=repr)
def test_grounding_judges_hostile_argument_values_without_crashing(weird):
    """A package from elsewhere may hold any JSON in a check's args: grounding answers, it never raises otherwise."""
    import inspect

    from verifiers import checks

    text = "Sort 'x' directly after 'y': top 4, 90°, mode 755, a 3 x 4 table, 16 pt, x = 1, y = 2, 'Highest x:'"
    for name, prim in checks.registry().items():
        args = {p: weird for p in inspect.signature(prim.fn).parameters if p != "state"}
        titles = {"id": "t", "criterion": "", "primitive": "pptx.slide_titles", "args": {"path": "/home/user/a.pptx",
                                                                                      "titles": ["y", "x"]}}
        task = {"instruction": text, "rubric": [titles, {"id": "c", "criterion": "", "primitive": name, "args": args}]}
        with contextlib.suppress(Ungrounded):
            ground(task, lambda: "")


@pytest.mark.parametrize("data", [b"", b"PK\x03\x04garbage", b"not a zip at all" * 100])
def test_slide_titles_of_a_damaged_deck_are_empty(data):
    assert slide_titles(data) == []


def test_slide_titles_follow_the_presentation_order(tmp_path):
    folder = _package("impress.move_slide.down_before", 1, tmp_path)
    task = json.loads((folder / "task.json").read_text("utf-8"))
    asset = next(a for a in task["setup"]["assets"] if a["dest"].endswith(".pptx"))
    titles = slide_titles((folder / asset["file"]).read_bytes())
    moved = next(c["args"]["title"] for c in task["rubric"] if c["primitive"] == "pptx.slide_position")
    current = int(re.search(r"currently slide (\d+)", task["instruction"]).group(1))
    assert titles[current - 1] == moved and len(titles) >= 4


def test_a_hostile_listing_or_deck_is_read_without_a_crash():
    task = {"instruction": "Delete every backup file in /home/user/x.",
            "setup": {"assets": [{"dest": "/home/user/x/a~", "sha256": "1"}, {"dest": None}]},
            "rubric": [{"id": "r", "criterion": "", "primitive": "fs.dir_listing",
                        "args": {"path": "/home/user/x", "names": [{}, ["a"], 3], "contents": {"k": [1]}}}]}
    assert "no answer leaked" in ground(task, str)
    task["instruction"] = "Keep every backup file in /home/user/x."
    with pytest.raises(Ungrounded, match="does not ask to delete"):
        ground(task, str)
