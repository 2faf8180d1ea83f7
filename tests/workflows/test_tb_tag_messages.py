"""tb.tag_messages: the family through the gate with every mutant on two seeds, the whole rubric on hand-made end
states the mutators do not make (a new tag under another key, a tag typed as its name, a default tag renamed, a new
tag without colour, another message's tag cleared or added), the op and the teacher snippet on a small mbox, and
every phrasing saying the tag and its criterion."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kit.package import load_package
from preparers import thunderbird as tb
from preparers.ops import apply_ops
from preparers.ops.tb_tags import add_keyword
from preparers.teach.tb_tags import tag_messages as tag_snippet
from tests.gatekit import assert_accepted, make_package, package_states
from verifiers import extract
from verifiers.gate.rubric import evaluate_rubric
from workflows.tb.tag_messages import NATURAL, PADDING, PHRASINGS, WORKFLOW

KNOBS = [(tag, criterion) for tag in ("builtin", "custom") for criterion in ("from", "subject")]


@pytest.mark.slow
@pytest.mark.parametrize(("tag", "criterion"), KNOBS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, tag, criterion):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"tag": tag, "criterion": criterion}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["tb.messages_tagged", "tree.frame", "tb.frame"]
        assert task["rubric"][0]["args"]["new_tag"] == (tag == "custom")


# --- hand-made end states, judged by the whole rubric (goal check and frame) -----------------------------------

@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    """A custom-tag task, its initial state and its oracle's end state."""
    tmp = tmp_path_factory.mktemp("custom")
    folder = make_package(WORKFLOW, {"tag": "custom", "criterion": "subject"}, tmp / "pkg", seed=3)
    initial, oracle = package_states(folder, tmp, "solution/oracle.json")
    return load_package(folder).task, initial, oracle


def _copy(src: Path, tmp_path: Path) -> Path:
    import shutil
    dest = tmp_path / "end"
    shutil.copytree(src, dest)
    return dest


def _failed(task: dict, root: Path) -> dict[str, str]:
    return {o.id: o.evidence for o in evaluate_rubric(task, root) if not o.passed}


def _profile(task: dict, root: Path) -> Path:
    return root / task["rubric"][0]["args"]["path"].removeprefix("/home/user/")


def _edit_prefs(task: dict, root: Path, pattern: str, replacement: str = "", add: str = "") -> None:
    prefs = _profile(task, root) / "prefs.js"
    text = re.sub(pattern, replacement, prefs.read_text(encoding="utf-8"), flags=re.MULTILINE) if pattern else \
        prefs.read_text(encoding="utf-8")
    prefs.write_text(text + add, encoding="utf-8")


def _rekey(task: dict, root: Path, old: str, new: str) -> None:
    """Every X-Mozilla-Keys word `old` of the task's folder rewritten as `new`, in place (same line length)."""
    args = task["rubric"][0]["args"]
    box = _profile(task, root) / tb.folder_file("/".join(p for p in (args.get("parent"), args["folder"]) if p))
    def fix(m: re.Match[bytes]) -> bytes:
        words = [new.encode() if w == old.encode() else w for w in m.group(1).split()]
        return b"X-Mozilla-Keys: " + b" ".join(words).ljust(len(m.group(0)) - 16)
    box.write_bytes(re.sub(rb"(?m)^X-Mozilla-Keys:([^\n]*)$", fix, box.read_bytes()))


def test_the_oracle_passes_and_the_untouched_state_fails(custom):
    task, initial, oracle = custom
    assert _failed(task, oracle) == {}
    assert set(_failed(task, initial)) == {"tagged", "frame-profile"}


def test_a_new_tag_under_a_key_of_the_agents_own_passes(custom, tmp_path):
    task, _, oracle = custom
    label = task["rubric"][0]["args"]["tag"]
    end = _copy(oracle, tmp_path)
    key = label.casefold()
    _edit_prefs(task, end, rf"^user_pref\(\"mailnews\.tags\.{key}\.(tag|color)\".*\n",
                add=f'user_pref("mailnews.tags.x-{key}.tag", "{label}");\n'
                    f'user_pref("mailnews.tags.x-{key}.color", "#112233");\n')
    _rekey(task, end, key, f"x-{key}")
    assert _failed(task, end) == {}


def test_the_tag_typed_as_its_name_without_prefs_fails(custom, tmp_path):
    task, _, oracle = custom
    label = task["rubric"][0]["args"]["tag"]
    end = _copy(oracle, tmp_path)
    _edit_prefs(task, end, r"^user_pref\(\"mailnews\.tags\.[a-z]+\.(tag|color)\".*\n")
    _rekey(task, end, label.casefold(), label)
    failed = _failed(task, end)
    assert "(no tag: " in failed["tagged"], failed


def test_a_default_tag_renamed_to_the_new_name_fails(custom, tmp_path):
    """The lazy way to a new tag: rename Later to the asked name and put Later on the messages."""
    task, _, oracle = custom
    label = task["rubric"][0]["args"]["tag"]
    end = _copy(oracle, tmp_path)
    key = label.casefold()
    _edit_prefs(task, end, rf"^user_pref\(\"mailnews\.tags\.({key}\.(tag|color)|\$label5\.tag)\".*\n",
                add=f'user_pref("mailnews.tags.$label5.tag", "{label}");\n')
    _rekey(task, end, key, "$label5")
    failed = _failed(task, end)
    assert set(failed) == {"frame-profile"} and "mailnews.tags.$label5.tag" in failed["frame-profile"], failed


def test_a_new_tag_without_a_colour_fails(custom, tmp_path):
    task, _, oracle = custom
    end = _copy(oracle, tmp_path)
    _edit_prefs(task, end, r"^user_pref\(\"mailnews\.tags\.[a-z]+\.color\".*\n")
    failed = _failed(task, end)
    assert "color" in failed.get("tagged", ""), failed


def test_another_messages_tag_cleared_or_added_fails(custom, tmp_path):
    task, initial, oracle = custom
    args = task["rubric"][0]["args"]
    box_rel = tb.folder_file(args["folder"] if not args.get("parent") else f"{args['parent']}/{args['folder']}")
    end = _copy(oracle, tmp_path)
    box = _profile(task, end) / box_rel
    entries = tb.split_mbox(box.read_bytes())
    others = [i for i, e in enumerate(entries) if tb.message_id(tb.read_headers(e)) not in args["message_ids"]]
    pretagged = [i for i in others if tb.read_headers(entries[i]).value("X-Mozilla-Keys").strip()]
    assert pretagged, "the task pre-tags one other message"
    cleared = [re.sub(rb"(?m)^X-Mozilla-Keys:[^\n]*$", PADDING, e) if i in pretagged else e
               for i, e in enumerate(entries)]
    box.write_bytes(b"".join(cleared))  # "remove all tags" first, as a lazy agent might
    assert "is now" in _failed(task, end)["frame-profile"]
    extra = next(i for i in others if i not in pretagged)
    entries[extra] = add_keyword(entries[extra], args["tag"].casefold())
    box.write_bytes(b"".join(entries))
    failed = _failed(task, end)
    assert set(failed) == {"frame-profile"} and "tags" in failed["frame-profile"], failed


# --- the op and the teacher snippet on a small mbox -------------------------------------------------------------

T0 = dt.datetime(2024, 3, 4, 9, 0, tzinfo=dt.UTC)
PROFILE = "/home/user/" + tb.profile_dir("tagtest")
SPEC = tb.ProfileSpec("tagtest", tb.Identity("Ann Lee", "ann@example.com"), folders=(tb.Folder("Inbox", tuple(
    tb.Message(f"m{i}@x.example", "Priya N <priya@x.example>", "Ann Lee <ann@example.com>", subject,
               T0 + dt.timedelta(hours=i), f"Hello,\nitem {i}\n")
    for i, subject in enumerate(("Invoice 1", "Agenda", "Invoice 2")))),))


def _small(tmp_path: Path) -> Path:
    for rel, data in tb.build_profile(SPEC).items():
        if data.startswith(b"From "):
            data = data.replace(b"X-Mozilla-Status2: 00000000\n", b"X-Mozilla-Status2: 00000000\n" + PADDING + b"\n")
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return tmp_path / PROFILE.removeprefix("/home/user/") / tb.folder_file("Inbox")


def test_the_op_writes_the_key_over_the_padding_in_place(tmp_path):
    box = _small(tmp_path)
    before = box.read_bytes()
    apply_ops(tmp_path, [{"op": "tb.tag_messages", "path": PROFILE, "folder": "Inbox", "field": "subject",
                          "value": "invoice", "tag": "$label1"}])
    apply_ops(tmp_path, [{"op": "tb.tag_messages", "path": PROFILE, "folder": "Inbox", "field": "subject",
                          "value": "invoice 2", "tag": "urgent"}])
    after = box.read_bytes()
    assert len(after) == len(before)  # as Thunderbird 153 writes it: the header keeps its length
    keys = [tb.read_headers(e).value("X-Mozilla-Keys").split() for e in tb.split_mbox(after)]
    assert keys == [["$label1"], [], ["$label1", "urgent"]]
    assert re.findall(rb"X-Mozilla-Keys: \$label1 urgent {65}\n", after)
    assert add_keyword(tb.split_mbox(after)[0], "$label1") == tb.split_mbox(after)[0]  # already tagged: unchanged


def test_the_op_refuses_what_thunderbird_would_not_write(tmp_path):
    bare = tb.render_message(SPEC.folders[0].messages[0])
    with pytest.raises(ValueError, match="no X-Mozilla-Keys"):
        add_keyword(bare, "$label1")
    full = bare.replace(b"X-Mozilla-Status2: 00000000\n", b"X-Mozilla-Status2: 00000000\nX-Mozilla-Keys: a b\n")
    with pytest.raises(ValueError, match="no room"):
        add_keyword(full, "$label1")


def test_the_teacher_snippet_leaves_the_ops_bytes(tmp_path):
    by_op, by_teacher = _small(tmp_path / "op"), _small(tmp_path / "teacher")
    args = {"folder": "Inbox", "field": "from", "value": "priya@x.example", "tag": "$label4", "limit": 2}
    apply_ops(tmp_path / "op", [{"op": "tb.tag_messages", "path": PROFILE, **args}])
    profile = str(by_teacher.parent.parent.parent)
    code = f"profile = {profile!r}\n" + tag_snippet("profile", PROFILE, **args)
    subprocess.run([sys.executable, "-c", code], check=True)
    assert by_teacher.read_bytes() == by_op.read_bytes()
    assert by_op.read_bytes().count(b"X-Mozilla-Keys: $label4 ") == 2


# --- phrasings ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("what", "field"), [("from priya@northwind.example", "from"),
                                             ("whose subject contains 'Invoice'", "subject")])
@pytest.mark.parametrize("tag", ["the 'To Do' tag", "a new tag named 'Urgent' (create it, in any colour)"])
def test_every_phrasing_says_tag_its_tag_and_its_criterion(what, field, tag):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(source="Inbox", what=what, tag=tag, leave="Do not tag any other message.")
        assert re.search(r"\btag", text) and tag in text, text
        assert set(extract.expressed(text, "mail_field")) == {field}, text
