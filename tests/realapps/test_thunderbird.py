"""Thunderbird real-app tier: real Thunderbird 153 headless over Marionette (tests marked slow, ~4 s per start),
plus fast tests of the pure parts (filter parsing, compare, the op translation table)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from forge.realapps import thunderbird as rt
from kit.dag import Workflow
from kit.package import load_package
from kit.registry import import_submodules
from preparers import tbfilters
from preparers import thunderbird as tb
from preparers.ops import registry
from tests.gatekit import make_package, package_states
from verifiers.checks import State, run_check

needs_thunderbird = pytest.mark.skipif(shutil.which("thunderbird") is None,
                                       reason="Thunderbird is not installed (apt-get install -y thunderbird)")
T0 = dt.datetime(2024, 3, 4, 9, 0, tzinfo=dt.UTC)
PROFILE = "/home/user/" + tb.profile_dir("forgetest")


def _msg(i: int, subject: str, sender: str = "Priya Natarajan <priya@northwind.example>", body: str = "",
         **kw: object) -> tb.Message:
    return tb.Message(f"msg{i}@northwind.example", sender, "Ann Lee <ann.lee@example.com>", subject,
                      T0 + dt.timedelta(hours=i), body or f"Hello Ann,\n\nsee item {i}.\n\nPriya\n", **kw)  # type: ignore[arg-type]


REPORT = tb.Attachment("q1-report.csv", "text/csv", b"region,total\nnorth,1200\n")
SPEC = tb.ProfileSpec(
    "forgetest", tb.Identity("Ann Lee", "ann.lee@example.com"),
    folders=(
        tb.Folder("Inbox", (
            _msg(1, "Invoice 4471 for March", read=True),
            _msg(2, "Re: Offsite agenda", flagged=True),
            _msg(3, "Quarterly numbers", body="Figures attached.\nFrom the desk of Priya, as promised.\n",
                 attachments=(REPORT,)),
            _msg(4, "Invoice 4502 for April", sender="Billing <billing@acme.example>"),
        )),
        tb.Folder("Inbox/Finance", (_msg(5, "Budget 2024", read=True),)),
        tb.Folder("Projects"),
    ),
    filters=(
        tb.Filter("Invoices", (("subject", "contains", "invoice"),), (("Move to folder", "Inbox/Finance"),)),
        tb.Filter("Acme", (("from", "contains", "acme.example"), ("subject", "contains", "renewal")),
                  (("Mark flagged", ""), ("Mark read", "")), match="OR", enabled=False),
    ),
    contacts=(tb.Contact("Carol Diaz", "carol.diaz@example.com", "Carol", "Diaz"),
              tb.Contact("Dev Patel", "dev.patel@example.com")),
)


def _home(tmp_path: Path, spec: tb.ProfileSpec = SPEC) -> Path:
    """Write the profile the preparer builds under a state root; returns the root (standing for /home/user)."""
    home = tmp_path / "home"
    for rel, data in tb.build_profile(spec).items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_bytes(data)
    return home


def _profile(home: Path) -> Path:
    return home / tb.profile_dir("forgetest")


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


# --- real Thunderbird ----------------------------------------------------------------------------------------

@pytest.mark.slow
@needs_thunderbird
def test_a_valid_profile_loads_as_its_files_say(tmp_path: Path) -> None:
    profile = _profile(_home(tmp_path))
    before = _tree(profile)
    report = rt.load_check(profile)
    print(f"load_check: {report.seconds} s")
    assert report.errors == []
    assert report.folders["Inbox"] == rt.FolderInfo(4, 3, 1, ("Invoice 4471 for March", "Re: Offsite agenda",
                                                             "Quarterly numbers", "Invoice 4502 for April"))
    assert report.folders["Inbox/Finance"].total == 1 and report.folders["Projects"].total == 0
    assert [(f.name, f.enabled) for f in report.filters["Local Folders"]] == [("Invoices", True), ("Acme", False)]
    assert report.filters["Local Folders"][0].actions == (
        ("Move to folder", "mailbox://nobody@Local%20Folders/Inbox/Finance"),)
    assert report.filters["Local Folders"][1].conditions == ("OR from,contains,acme.example",
                                                             "OR subject,contains,renewal")
    assert sorted(report.address_books["abook.sqlite"]) == [rt.ContactInfo("Carol Diaz", "carol.diaz@example.com"),
                                                           rt.ContactInfo("Dev Patel", "dev.patel@example.com")]
    assert rt.compare(rt.read_files(profile), report) == []
    assert _tree(profile) == before, "load_check must not write to the profile it checks"
    assert report.seconds < 30


@pytest.mark.slow
@needs_thunderbird
def test_an_unescaped_from_line_and_a_filter_to_nowhere_are_caught(tmp_path: Path) -> None:
    spec = tb.ProfileSpec(SPEC.name, SPEC.identity, SPEC.folders, (
        *SPEC.filters, tb.Filter("Lost", (("subject", "contains", "x"),), (("Move to folder", "Inbox/Nowhere"),))))
    profile = _profile(_home(tmp_path, spec))
    inbox = profile / tb.folder_file("Inbox")
    inbox.write_bytes(inbox.read_bytes().replace(b"\n>From the desk", b"\nFrom the desk"))
    expected = rt.read_files(profile)
    assert expected.folders["Inbox"].total == 5  # stdlib mailbox (and Forge's checks) split at the body line
    report = rt.load_check(profile)
    assert report.folders["Inbox"].total == 4  # Thunderbird 153 only splits where headers follow
    mismatches = rt.compare(expected, report)
    assert "folder Inbox: the files say total=5, Thunderbird 4" in mismatches
    assert report.errors == ['filters of Local Folders: filter "Lost" targets missing folder '
                             "mailbox://nobody@Local%20Folders/Inbox/Nowhere"]


@pytest.mark.slow
@needs_thunderbird
def test_a_broken_filter_file_and_address_book_are_reported(tmp_path: Path) -> None:
    profile = _profile(_home(tmp_path))
    (profile / tb.FILTER_FILE).write_text("this is not a filter\n")
    (profile / "abook.sqlite").write_bytes(b"SQLite format 3\x00 but not really")
    report = rt.load_check(profile)
    assert any("NS_MSG_FILTER_PARSE_ERROR" in e for e in report.errors), report.errors
    assert "abook.sqlite" not in report.address_books  # Thunderbird drops a corrupt address book
    mismatches = rt.compare(rt.read_files(profile), report)
    assert any(m.startswith("files: filters of Local Folders") for m in mismatches), mismatches
    assert any(m.startswith("files: address book abook.sqlite") for m in mismatches), mismatches


@pytest.mark.slow
@needs_thunderbird
def test_thunderbird_carries_out_an_oracle_that_the_checks_accept(tmp_path: Path) -> None:
    home = _home(tmp_path)
    ops: list[dict[str, Any]] = [
        {"op": "tb.create_folder", "path": PROFILE, "folder": "Inbox/Receipts"},
        {"op": "tb.move_messages", "path": PROFILE, "source": "Inbox", "target": "Inbox/Receipts",
         "field": "subject", "value": "invoice"},
        {"op": "tb.add_filter", "path": PROFILE, "name": "Receipts", "conditions": [["subject", "contains", "receipt"]],
         "actions": [["Move to folder", "Inbox/Receipts"]]},
        {"op": "tb.add_contact", "path": PROFILE, "display_name": "Erin Walsh", "email": "erin.walsh@example.com"},
        {"op": "tb.set_pref", "path": PROFILE, "name": "mail.compose.default_to_paragraph", "value": False},
        {"op": "tb.mark_flagged", "path": PROFILE, "folder": "Inbox/Finance", "field": "subject", "value": "budget"},
        {"op": "tb.save_attachment", "path": PROFILE, "folder": "Inbox", "message_id": "msg3@northwind.example",
         "filename": "q1-report.csv", "dest": "/home/user/Documents/q1-report.csv"},
    ]
    notes = rt.run_oracle(_profile(home), ops, home=home)
    assert notes.count("done by Thunderbird") == 7, notes
    state = State(home)
    checks: dict[str, dict[str, Any]] = {
        "tb.folder_exists": {"path": PROFILE, "folder": "Receipts", "parent": "Inbox"},
        "tb.messages_in_folder": {"path": PROFILE, "folder": "Receipts", "parent": "Inbox",
                                  "message_ids": ["msg1@northwind.example", "msg4@northwind.example"]},
        "tb.filter_exists": {"path": PROFILE, "field": "subject", "value": "receipt", "action": "Move to folder",
                             "name": "Receipts", "target": "Receipts", "target_parent": "Inbox"},
        "tb.contact_exists": {"path": PROFILE, "email": "erin.walsh@example.com", "display_name": "Erin Walsh"},
        "tb.pref_equals": {"path": PROFILE, "name": "mail.compose.default_to_paragraph", "value": False},
        "tb.message_flags": {"path": PROFILE, "folder": "Finance", "parent": "Inbox",
                             "message_ids": ["msg5@northwind.example"], "flagged": True},
        "tb.file_saved": {"path": "/home/user/Documents/q1-report.csv",
                          "sha256": hashlib.sha256(REPORT.data).hexdigest()},
    }
    results = {name: run_check(state, name, args) for name, args in checks.items()}
    assert {n: r.evidence for n, r in results.items() if not r.passed} == {}
    inbox = tb.split_mbox((_profile(home) / tb.folder_file("Inbox")).read_bytes())
    assert [tb.status_flags(e) & tb.EXPUNGED for e in inbox] == [8, 0, 0, 8]  # moved copies marked, not removed
    prefs = (_profile(home) / "prefs.js").read_text()
    assert "marionette" not in prefs and not (_profile(home) / "user.js").exists()
    passed, evidence = rt.parses_as_intended(_profile(home))  # Forge's readers agree with Thunderbird on its files
    assert passed, evidence


@pytest.mark.slow
@needs_thunderbird
def test_the_filter_file_thunderbird_writes_reads_as_typed_and_renders_to_its_bytes(tmp_path: Path) -> None:
    """Values Thunderbird must quote or escape (a ')', a leading space, quotes, a backslash), saved by Thunderbird
    itself: preparers.tbfilters reads them back as typed, writes Thunderbird's exact bytes from what it read, and
    the file Forge writes for the same filters is the one Thunderbird wrote."""
    home = _home(tmp_path, replace(SPEC, filters=()))
    typed = [("subject", "contains", "a (b)"), ("subject", "is", " lead"), ("from", "contains", 'say "hi"'),
             ("subject", "contains", "c:\\temp")]
    ops: list[dict[str, Any]] = [
        {"op": "tb.add_filter", "path": PROFILE, "name": f'Tricky "{i}" ({field})', "conditions": [[field, op, value]],
         "actions": [["Move to folder", "Inbox/Finance"], ["Mark read", ""]]}
        for i, (field, op, value) in enumerate(typed)]
    rt.run_oracle(_profile(home), ops, home=home)
    written = (_profile(home) / tb.FILTER_FILE).read_text(encoding="utf-8")
    rules = tbfilters.parse(written)
    assert [(t.field, t.op, t.value) for r in rules for t in r.terms] == typed
    assert [r.name for r in rules] == [f'Tricky "{i}" ({f})' for i, (f, _, _) in enumerate(typed)]
    assert tbfilters.render(rules) == written
    forge = [tb.Filter(o["name"], (tuple(o["conditions"][0]),), tuple(map(tuple, o["actions"]))) for o in ops]
    assert tb.filters_dat(forge).decode() == written


@pytest.mark.slow
@needs_thunderbird
def test_an_op_thunderbird_refuses_is_a_clear_error(tmp_path: Path) -> None:
    home = _home(tmp_path)
    ops = [{"op": "tb.move_messages", "path": PROFILE, "source": "Archive", "target": "Projects",
            "field": "subject", "value": "invoice"}]
    with pytest.raises(rt.OracleOpError, match=r"ops\[0\] move_messages: no folder \"Archive\""):
        rt.run_oracle(_profile(home), ops)


@pytest.mark.slow
@needs_thunderbird
def test_a_deadline_kills_thunderbird_and_says_so(tmp_path: Path) -> None:
    home = _home(tmp_path)
    with pytest.raises(rt.ThunderbirdError, match="in time"):
        rt.load_check(_profile(home), timeout=0.3)
    with pytest.raises(rt.ThunderbirdError, match="in time"):
        rt.run_oracle(_profile(home), [{"op": "tb.create_folder", "path": PROFILE, "folder": "Later"}], timeout=0.3)
    leftovers = [p for p in Path("/proc").glob("[0-9]*/cmdline")
                 if str(_profile(home)).encode() in _read(p)]
    assert leftovers == []
    assert not (_profile(home) / "user.js").exists() and not (_profile(home) / tb.folder_file("Later")).exists()


@pytest.mark.slow
@needs_thunderbird
def test_thunderbird_dies_with_a_killed_parent(tmp_path: Path) -> None:
    """A gate worker killed mid-run (no finally blocks run) must not leave Thunderbird behind."""
    home = _home(tmp_path)
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
         "from forge.realapps import thunderbird as rt\n"
         "with rt._Session(Path(sys.argv[1]), time.monotonic() + 90) as s:\n"
         "    print(s.proc.pid, s.tmp, flush=True); time.sleep(120)", str(_profile(home))],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    session_tmp = ""
    try:
        assert child.stdout is not None
        pid, session_tmp = child.stdout.readline().split()
        tb_pid = int(pid)
    finally:
        child.kill()
        child.wait()
        shutil.rmtree(session_tmp, ignore_errors=True)  # the killed parent could not remove it
    deadline = time.monotonic() + 15
    while Path(f"/proc/{tb_pid}").exists() and "Z" not in _state(tb_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{tb_pid}").exists() or "Z" in _state(tb_pid), "Thunderbird outlived its parent"


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _tb_families() -> list[Workflow]:
    families = [getattr(m, "WORKFLOW", None) for m in import_submodules("workflows")]
    return [w for w in families if isinstance(w, Workflow) and "thunderbird" in w.apps]


@pytest.mark.slow
@needs_thunderbird
@pytest.mark.parametrize("workflow", _tb_families(), ids=lambda w: w.name)
def test_the_rubric_passes_on_what_thunderbird_wrote_for_the_oracle(tmp_path: Path, workflow: Workflow) -> None:
    params = {knob: values[0] for knob, values in workflow.knobs.items()}
    root = make_package(workflow, params, tmp_path / "out", seed=1)
    task = load_package(root).task
    initial, oracle_state = package_states(root, tmp_path, task["solutions"]["oracle"])
    passed, evidence = rt.alternative(root, task, oracle_state, initial)
    assert passed, evidence


@pytest.mark.slow
@needs_thunderbird
def test_alternative_names_the_checks_a_wrong_oracle_fails(tmp_path: Path) -> None:
    workflow = next(w for w in _tb_families() if w.name == "tb.create_folder")
    root = make_package(workflow, {"location": "inbox_sub", "name_kind": "word"}, tmp_path / "out", seed=1)
    task = load_package(root).task
    task["solutions"]["oracle"] = task["solutions"]["near_misses"][0]  # a plausible mistake as the "oracle"
    initial, near_state = package_states(root, tmp_path, task["solutions"]["oracle"])
    passed, evidence = rt.alternative(root, task, near_state, initial)
    assert not passed
    assert evidence.startswith("folder FAILS on what Thunderbird wrote (no folder 'Inbox/"), evidence


def _starts(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The profiles Thunderbird is started on from now on (each `_Session` start appends its profile)."""
    started: list[Path] = []
    start = rt._Session._start

    def counted(session: Any) -> None:
        started.append(session.profile)
        start(session)

    monkeypatch.setattr(rt._Session, "_start", counted)
    return started


def _steady(data: bytes) -> bytes:
    """`data` without what differs between any two Thunderbird sessions: ids it makes up (the calendar's and the
    message store's in prefs.js), clock readings (seconds since 1970 in prefs, the "From - <date>" line it writes
    above a message), the temporary folder the state was copied to (a server's directory pref)."""
    data = re.sub(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{11,12}", b"<uuid>", data)
    data = re.sub(rb"/forge-tb-alt-[^/]+/", b"/<state>/", data)
    data = re.sub(rb"\b\d{10,}\b", b"<time>", data)
    return re.sub(rb"(?m)^From - .*$", b"From - <date>", data)


def _written(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, bytes]]:
    """What Thunderbird wrote that a check may read, each time the alternative judges a state: every file outside
    the profile, and in it the mail folders (not Thunderbird's .msf summaries), prefs.js and the address books
    (telemetry, caches and session files differ from one start to the next anyway)."""
    seen: list[dict[str, bytes]] = []
    evaluate = rt.evaluate_rubric

    def readable(rel: str) -> bool:
        inside = rel.split(".default-release/", 1)
        if len(inside) == 1:
            return True
        rest = inside[1]
        return (rest.startswith("Mail/") and not rest.endswith(".msf")) or rest == "prefs.js" \
            or rest.startswith("abook")

    def recording(task: dict[str, Any], state: Path, **kw: Any) -> Any:
        if "forge-tb-alt-" in str(state):
            seen.append({str(p.relative_to(state)): _steady(p.read_bytes()) for p in sorted(state.rglob("*"))
                         if p.is_file() and readable(str(p.relative_to(state)))})
        return evaluate(task, state, **kw)

    monkeypatch.setattr(rt, "evaluate_rubric", recording)
    return seen


@pytest.mark.slow
@needs_thunderbird
@pytest.mark.parametrize("family, params", [
    ("tb.create_filter", {"field": "subject", "action": "move", "apply": "run_now"}),
    ("multi.attachment_sheet", {"source": "csv", "post": "none", "dest": "desktop"})])
def test_one_thunderbird_start_opens_the_profile_then_carries_out_the_oracle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, family: str, params: dict[str, Any]) -> None:
    workflow = next(w for w in _tb_families() if w.name == family)
    root = make_package(workflow, params, tmp_path / "out", seed=3)
    task = load_package(root).task
    initial, oracle_state = package_states(root, tmp_path, task["solutions"]["oracle"])
    written, started = _written(monkeypatch), _starts(monkeypatch)
    alone = rt.alternative(root, task, oracle_state, initial)
    assert alone[0] and len(started) == 1, alone
    stages = rt.open_and_alternative(root, task, oracle_state, initial)
    assert [(name, ok) for name, ok, _, _ in stages] == [("real-open", True), ("alternative", True)], stages
    assert len(started) == 2, "real-open and the alternative must share one Thunderbird start"
    assert stages[0][2].startswith("Thunderbird sees what the files say")
    assert written[1] == written[0], "loading the profile first changed what the oracle's session wrote"


@pytest.mark.slow
@needs_thunderbird
def test_a_profile_thunderbird_reads_otherwise_stops_the_one_start_before_the_oracle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workflow = next(w for w in _tb_families() if w.name == "tb.create_folder")
    root = make_package(workflow, {"location": "top", "name_kind": "word"}, tmp_path / "out", seed=3)
    task = load_package(root).task
    initial, oracle_state = package_states(root, tmp_path, task["solutions"]["oracle"])
    profile = rt.profile_of(task, initial)
    assert profile is not None
    inbox = profile / tb.folder_file("Inbox")
    text = inbox.read_bytes()
    body = text.index(b"\n\n") + 2  # an unescaped "From " line in the first body: stdlib splits there, Thunderbird not
    inbox.write_bytes(text[:body] + b"From the desk of nobody, as promised.\n" + text[body:])
    written, started = _written(monkeypatch), _starts(monkeypatch)
    stages = rt.open_and_alternative(root, task, oracle_state, initial)
    assert [(name, ok) for name, ok, _, _ in stages] == [("real-open", False)], stages
    assert "folder Inbox: the files say total=" in stages[0][2]
    assert len(started) == 1 and written == [], "the oracle must not run on a profile that fails real-open"


# --- pure parts (fast) ---------------------------------------------------------------------------------------

def test_terms_thunderbird_reports_read_like_the_terms_in_the_file() -> None:
    """load.js reports "AND " + termAsString (Thunderbird's own quoting); `read_files` reads the file through
    preparers.tbfilters: both come out as the value the user typed."""
    assert rt._norm_term('AND subject,contains,"a (b)"') == "AND subject,contains,a (b)"
    assert rt._norm_term('OR subject,is,"\\"q\\" (now)"') == 'OR subject,is,"q" (now)'
    assert rt._norm_term("OR to,is,x y") == "OR to,is,x y"
    assert rt._norm_term("ALL") == "ALL"
    assert rt._norm_term("AND broken") == "AND broken"  # not a term: compared as printed


def test_read_files_parses_what_the_preparer_wrote(tmp_path: Path) -> None:
    report = rt.read_files(_profile(_home(tmp_path)))
    assert report.errors == []
    assert report.folders["Inbox"] == rt.FolderInfo(4, 3, 1, ("Invoice 4471 for March", "Re: Offsite agenda",
                                                             "Quarterly numbers", "Invoice 4502 for April"))
    assert sorted(report.folders) == ["Drafts", "Inbox", "Inbox/Finance", "Projects", "Sent", "Trash"]
    assert report.filters["Local Folders"][1] == rt.FilterInfo(
        "Acme", False, 17, ("OR from,contains,acme.example", "OR subject,contains,renewal"),
        (("Mark flagged", ""), ("Mark read", "")))
    assert len(report.address_books["abook.sqlite"]) == 2


def test_compare_names_each_kind_of_mismatch() -> None:
    files = rt.LoadReport(
        folders={"Inbox": rt.FolderInfo(2, 1, 0, ("A", "RE: B"))},
        filters={"Local Folders": [rt.FilterInfo("F", True, 17, ("AND subject,contains,x",), ())]},
        address_books={"abook.sqlite": [rt.ContactInfo("C", "c@x.example")]})
    same = rt.LoadReport(folders={"Inbox": rt.FolderInfo(2, 1, 0, ("Re: B", "A")), "Trash": rt.FolderInfo(0, 0, 0, ())},
                         filters=files.filters, address_books={**files.address_books, "history.sqlite": []})
    assert rt.compare(files, same) == []
    other = rt.LoadReport(folders={"Inbox": rt.FolderInfo(1, 1, 0, ("A",))},
                          filters={"Local Folders": [rt.FilterInfo("F", False, 17, (), ())]}, errors=["boom"])
    assert rt.compare(files, other) == [
        "thunderbird: boom",
        "folder Inbox: the files say total=2, Thunderbird 1",
        "folder Inbox subjects: only in the files ['Re: B']; only in Thunderbird []",
        "filter Local Folders/F: the files say enabled=True, Thunderbird False",
        "filter Local Folders/F: the files say conditions=('AND subject,contains,x',), Thunderbird ()",
        "address book abook.sqlite: in the files but Thunderbird did not load it",
    ]


def test_every_tb_op_is_translated_or_knowingly_left_to_forge() -> None:
    tb_ops = {name for name in registry() if name.startswith("tb.")}
    assert tb_ops - set(rt._TRANSLATE) == set()
    ops: list[dict[str, Any]] = [{"op": "tb.create_folder", "path": PROFILE, "folder": "A"},
           {"op": "tb.set_pref", "path": PROFILE, "name": "x", "value": 1, "file": "user.js"},
           {"op": "tb.save_attachment", "path": PROFILE, "folder": "Inbox", "message_id": "m", "filename": "f",
            "dest": "/home/user/f"},
           {"op": "tb.set_pref", "path": PROFILE, "name": "x", "value": 1}]
    assert [(by_tb, len(run)) for by_tb, run in rt._segments(ops)] == [(True, 1), (False, 2), (True, 1)]
    # with the state root known, Thunderbird saves the attachment itself (to the host path of `dest`)
    assert [(by_tb, len(run)) for by_tb, run in rt._segments(ops, Path("/s"))] == [(True, 1), (False, 1), (True, 2)]
    assert (rt._translate(ops[2], Path("/s")) or {}).get("dest") == "/s/f"
    with pytest.raises(ValueError, match="missing argument 'folder'"):
        rt._translate({"op": "tb.create_folder", "path": PROFILE})
