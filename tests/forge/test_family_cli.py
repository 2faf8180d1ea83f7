"""`forge family list / show / test` through Typer's runner, and the family kit's wiring check (issue 42 item 3).

The shown output is asserted as printed: five families of five apps, read whole; every registered family can be
shown; a misspelt name gets "did you mean"; a family function whose parameter names no value is refused at build
time with the names there are.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from kit.errors import WorkflowError
from kit.family import family
from workflows import families
from workflows.calc import fill_blanks
from workflows.calc import kit as cc
from workflows.composite import seed_parts

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_list_gives_every_family_its_apps_skill_count_and_goal():
    result = invoke("family", "list", "--json")
    assert result.exit_code == 0, result.output
    rows = {r["family"]: r for r in json.loads(result.output)}
    assert set(rows) == set(families())
    assert rows["calc.fill_blanks"] == {
        "family": "calc.fill_blanks", "apps": ["libreoffice_calc"], "skills": 3,
        "goal": "Fill the empty cells of a numeric column with the column's average, the value above, or zero, "
                "changing nothing else."}
    assert rows["tb.create_filter"]["skills"] == 16 and rows["tb.create_filter"]["apps"] == ["thunderbird"]

    table = invoke("family", "list", "--app", "thunderbird")
    assert table.exit_code == 0, table.output
    assert "tb.create_filter" in table.output and "calc.fill_blanks" not in table.output
    wrong = invoke("family", "list", "--app", "thunderbrd")
    assert wrong.exit_code == 1
    assert wrong.output.startswith("Error: --app 'thunderbrd': no family opens this app. Did you mean 'thunderbird'?")


#: family -> lines `forge family show` must print (five apps; each line as printed, whole).
SHOWN = {
    "calc.fill_blanks": [
        "apps: libreoffice_calc",
        "  fill: average, previous, zero",
        "  goal         goal         params, table, plan -> layout, facts, target",
        "  rubric       rubric       params, layout, target -> rubric",
        "sample task: skill calc.fill_blanks.average, params {\"fill\": \"average\"}, seed 1",
        "  filled: xlsx.blanks_filled; action words: fill|blank|empty|missing",
        "    sheet='Shipments': stated literally",
        "    fill='average': in words (fill 'average'): averages? | mean | arithmetic mean; no other fill said",
        "    never in the instruction (answers): expected",
        "  near-miss-1: uses the median instead of the average",
        "  near-miss-3: drags the fill one row too far, over the value below the first empty cell",
        "  damaging: tree.folder_read_only, tree.leftover_folder, tree.trash_copy, xlsx.date_as_text, "
        "xlsx.empty_sheet, xlsx.number_as_text, xlsx.row_deleted, xlsx.sheet_renamed, xlsx.stray_label, "
        "xlsx.value_out_of_scope x2",
        "  neutral: tree.mtimes_changed, xlsx.resaved, xlsx.touched",
        "  2. Some '{header}' cells in {path.file} are empty. Please fill them with {how}.",
        "  Help me fill the missing values in the 'Weight Kg' column of shipment_tracker.xlsx with the average of the "
        "values already in that column, rounded to two decimals.",
    ],
    "writer.alignment": [
        "  goal         goal         params, document, plan -> layout, facts, target",
        "  rubric       rubric       layout, target, assets -> rubric",
        "    align='center': in words (align 'center'): cent(er|re)(e?d)? | align(ed)? (to the )?cent(er|re) | "
        "centred; no other align said",
        "  frame: docx.frame; no action words (the frame guards everything the task does not ask to change (closed "
        "world))",
        "  near-miss-3: aligns the whole document (select all)",
        "  I'd like every body paragraph of report_office_relocation.docx centered. Please save it afterwards.",
    ],
    "tb.create_filter": [
        "  action: move, copy, mark_read, flag",
        "  messages: 18-26, 28-34, 36-40",
        "  goal         goal         params, mailbox, plan -> spec, facts, target",
        "    value='invoices@lumensupply.com': stated literally",
        "  near-miss-5: saves the filter but never runs it",
        "  neutral: tb.prefs_reordered, tb.status_headers_rewritten",
    ],
    "os.permissions": [
        "  goal         goal         params, pool -> tree, facts, target",
        "  near-miss-3: applies the mode recursively (chmod -R 700), files included",
        "  damaging: tree.deleted, tree.extra_file, tree.overwritten, tree.replaced, tree.truncated",
    ],
    "compose.pair": [
        f"  first: {len(seed_parts())} values ('calc.autofilter.header_to_column', ...)",
        "  parts        sample       params -> parts",
        "  p2.sorted: xlsx.range_sorted; action words: sort|order|reorder|arrange|rearrange|rank",
        "  near-miss-6: does only part 2",
        "  (composed by the family's own instruction node)",
    ],
}


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_show_prints_the_family_whole(name):
    result = invoke("family", "show", name)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{name}  (workflows.")
    sections = ["knobs:", "axes (levels, default first):", "nodes (run order; a family function's parameter names are "
                "its inputs):", "oracle: ", "near-misses (the rubric must reject each):", "phrasings, explicit (",
                "phrasings, natural (", "sample instruction, explicit:", "sample instruction, natural:"]
    for section in sections:
        assert any(line.startswith(section) for line in lines), (section, result.output)
    missing = [line for line in SHOWN[name] if line not in lines]
    assert not missing, (missing, result.output)


def test_show_is_the_same_on_every_run_and_json_holds_the_same():
    first = invoke("family", "show", "writer.alignment")
    assert invoke("family", "show", "writer.alignment").output == first.output
    data = json.loads(invoke("family", "show", "writer.alignment", "--json").output)
    assert data["sample"] == {"skill": "writer.align.body_center", "params": {"align": "center", "target": "body"},
                              "seed": 1}
    assert [c["primitive"] for c in data["checks"]] == ["docx.paragraph_alignment", "docx.frame", "tree.frame"]
    assert f"  {data['instructions']['explicit']}" in first.output.splitlines()
    assert len(data["phrasings"]["explicit"]) == 5 and len(data["phrasings"]["natural"]) == 5


def test_a_misspelt_family_gets_did_you_mean():
    result = invoke("family", "show", "calc.fill_blank")
    assert result.exit_code == 1
    assert result.output == ("Error: unknown family 'calc.fill_blank'. Did you mean 'calc.fill_blanks'? Run `forge "
                             "family list` to see them all.\n")


def test_a_wrong_parameter_name_fails_at_build_time_listing_the_available_names():
    def rubric(params, layout, tabel):  # `tabel`: no node produces it
        return []

    with pytest.raises(WorkflowError) as caught:
        family("calc.wired_wrong", cc.CALC, description="d", knobs={"fill": ("average",)},
               phrasings=fill_blanks.PHRASINGS, goal=fill_blanks.goal, rubric=rubric, solve=fill_blanks.solve)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("family 'calc.wired_wrong': rubric() (the rubric function) has the parameter 'tabel', "
                              "but no node before 'rubric' produces it; available: ['assets', 'facts', 'instruction', "
                              "'launch', 'layout', 'params', 'plan', 'table', 'target']. Did you mean 'table'?")

    def goal(rng, params, table, assets):  # `assets` exists, but only after the goal: not available to it
        raise AssertionError("never run")

    with pytest.raises(WorkflowError, match=r"goal\(\) \(the goal function\) has the parameter 'assets', but no node "
                                            r"before 'goal' produces it; available: \['params', 'plan', 'table'\]\."):
        family("calc.wired_late", cc.CALC, description="d", knobs={"fill": ("average",)},
               phrasings=fill_blanks.PHRASINGS, goal=goal, rubric=fill_blanks.rubric, solve=fill_blanks.solve)


@pytest.mark.slow
def test_every_registered_family_can_be_shown():
    for name in sorted(families()):
        result = invoke("family", "show", name, "--json")
        assert result.exit_code == 0, (name, result.output)
        data = json.loads(result.output)
        assert data["name"] == name and data["nodes"] and data["checks"] and data["near_misses"], name
        assert "kinds" in data["mutants"], (name, data["mutants"])
        assert data["instructions"]["explicit"].strip(), name
        for check in data["checks"]:
            assert check["action"] or check["no_action_because"], (name, check)


def test_family_test_runs_every_suite_of_one_family_with_the_family_option():
    result = invoke("family", "test", "calc.fill_blanks", "--dry-run")
    assert result.exit_code == 0, result.output
    command = result.output.split()
    assert command[:5] == ["python3", "-m", "pytest", "-p", "no:cacheprovider"]
    assert command[5:7] == ["--family", "calc.fill_blanks"]
    assert {"tests/workflows/test_families.py", "tests/test_contract.py", "tests/realapps/test_family_real.py",
            "tests/workflows/test_calc_fill_blanks.py"} <= set(command)
    assert all((ROOT / path).is_file() for path in command[7:])
    assert invoke("family", "test", "calc.fill_blank", "--dry-run").exit_code == 1


def test_the_family_option_keeps_only_that_familys_tests():
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-p", "no:cacheprovider", "--family", "calc.fill_blanks",
         "tests/workflows/test_families.py", "tests/test_contract.py", "tests/workflows/test_calc_fill_blanks.py",
         "tests/realapps/test_family_real.py"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert collected.returncode == 0, collected.stdout + collected.stderr
    ids = [line for line in collected.stdout.splitlines() if "::" in line]
    outside = [i for i in ids if "fill_blanks" not in i]
    assert not outside, outside
    files = {i.split("::")[0] for i in ids}
    assert files == {"tests/workflows/test_families.py", "tests/test_contract.py",
                     "tests/workflows/test_calc_fill_blanks.py", "tests/realapps/test_family_real.py"}

    wrong = subprocess.run([sys.executable, "-m", "pytest", "--co", "-p", "no:cacheprovider", "--family",
                            "calc.fill_blank", "tests/workflows/test_families.py"], cwd=ROOT, capture_output=True,
                           text=True, check=False)
    assert wrong.returncode != 0
    assert "--family 'calc.fill_blank': no such family. Did you mean 'calc.fill_blanks'?" in wrong.stderr


#: Collects the suites whose scope is not 'every family' and prints, per family, the suites with cases for it that
#: `forge family test` would leave out (run in a subprocess: a pytest collection inside a test is not isolated).
_SCOPES = """
import json, sys
from pathlib import Path
import pytest
from forge.family_info import SUITES, suites
from kit.taxonomy import load_taxonomy
from tests.conftest import about_family
from workflows import families

class Items:
    items = []
    def pytest_collection_finish(self, session):
        self.items = list(session.items)

files = [path for path, _, scope in SUITES if scope]
seen = Items()
assert pytest.main(["--co", "-qq", "-p", "no:cacheprovider", *files], plugins=[seen]) == 0
root, owner = Path.cwd(), {s.id: s.family for s in load_taxonomy().values()}
left_out = {}
for name in sorted(families()):
    have = {str(i.path.relative_to(root)) for i in seen.items if about_family(i, name, owner)}
    chosen = {str(p.relative_to(root)) for p in suites(name, root)}
    if have - chosen:
        left_out[name] = sorted(have - chosen)
print("LEFT OUT " + json.dumps(left_out))
"""


@pytest.mark.slow
def test_the_suite_scopes_leave_out_no_suite_that_has_cases_for_a_family():
    ran = subprocess.run([sys.executable, "-c", _SCOPES], cwd=ROOT, capture_output=True, text=True, check=False)
    line = next((x for x in ran.stdout.splitlines() if x.startswith("LEFT OUT ")), None)
    assert line is not None, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert json.loads(line.removeprefix("LEFT OUT ")) == {}


def test_the_walkthrough_names_every_suite_a_family_meets():
    from forge.family_info import SUITES

    doc = (ROOT / "docs" / "adding-a-family.md").read_text()
    unnamed = [path for path, _, _ in SUITES if Path(path).name not in doc]
    assert not unnamed, f"docs/adding-a-family.md step 6 does not name {unnamed}"
