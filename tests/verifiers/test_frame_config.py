"""The frame of config files and Chrome's profile (issue 37): every change of a config or a bookmark tree must be one
the task asked for.

Pure cases first (the canonical models of JSONC, INI and YAML files, and of Chrome's Bookmarks and Preferences,
derived and judged); then real VS Code, Chrome and OS tasks made offline and passed through the real gate, whose
end states are changed by hand: a settings.json rewritten without its comments, an unrelated key dropped, an
untouched bookmark folder reordered must fail (naming the change); VS Code's documented `{"column": n}` rulers,
Chrome's own renumbering and a config's other spacing must pass; a damaged file fails the check, never crashes it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from preparers import jsonc
from preparers.ops import apply_ops
from preparers.ops.json_doc import loads_jsonc
from preparers.vscode import render_settings
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from verifiers.frame import config
from verifiers.frame.config import derive, judge
from verifiers.gate.rubric import evaluate_rubric
from workflows.chrome import edit_bookmark, homepage
from workflows.os import config_edit
from workflows.vscode import editor_setting

SETTINGS = {"workbench.colorTheme": "Monokai", "editor.fontSize": 14, "editor.rulers": [80, 120],
            "[python]": {"editor.formatOnSave": True}, "git.autofetch": True}
NOTES = {"editor.fontSize": "// appearance", "git.autofetch": "// synced from my laptop"}


def _frame(before: dict[str, str], after: dict[str, str], end: dict[str, str]) -> list[str]:
    return judge(derive(before, after), end)


def _jsonc(text: str) -> dict[str, str]:
    return config.config_text_facts(text, "json")


# --- JSONC ------------------------------------------------------------------------------------------------

@pytest.fixture
def settings_files() -> tuple[str, str]:
    """(settings.json as the user has it, after the oracle sets editor.tabSize with the comment-keeping op)"""
    initial = render_settings(SETTINGS, NOTES)
    return initial, _edited(initial, [{"key": ["editor.tabSize"], "value": 2}])


def _edited(text: str, sets: list[dict[str, Any]], tmp: Path | None = None) -> str:
    root = tmp or Path(__import__("tempfile").mkdtemp())
    (root / "settings.json").write_text(text)
    apply_ops(root, [{"op": "json.set", "path": "/home/user/settings.json", **s} for s in sets])
    return (root / "settings.json").read_text()


def test_the_json_op_keeps_comments_where_they_were(settings_files):
    initial, oracle = settings_files
    assert "// appearance" in oracle and "// synced from my laptop" in oracle
    assert _frame(_jsonc(initial), _jsonc(oracle), _jsonc(oracle)) == []


def test_a_settings_file_rewritten_without_its_comments_fails_naming_them(settings_files):
    initial, oracle = settings_files
    bare = json.dumps(loads_jsonc(oracle), indent=4) + "\n"
    problems = _frame(_jsonc(initial), _jsonc(oracle), _jsonc(bare))
    assert any("/editor.fontSize#comment" in p and "comment(s) removed" in p for p in problems), problems
    assert any("/git.autofetch#comment" in p for p in problems), problems


def test_an_unrelated_key_dropped_or_changed_fails_naming_it(settings_files):
    initial, oracle = settings_files
    data = loads_jsonc(oracle)
    del data["workbench.colorTheme"]
    data["[python]"]["editor.formatOnSave"] = False
    end = jsonc.dumps(data, 4, False, jsonc.comments(oracle))
    problems = _frame(_jsonc(initial), _jsonc(oracle), _jsonc(end))
    assert any(p.startswith("/workbench.colorTheme was removed") for p in problems), problems
    assert any(p.startswith("/[python]/editor.formatOnSave changed (now false)") for p in problems), problems


def test_reordered_keys_other_indent_and_an_added_comment_pass(settings_files):
    initial, oracle = settings_files
    data = loads_jsonc(oracle)
    notes = jsonc.comments(oracle)
    notes[("editor.tabSize",)] = ["// two spaces, as the team's style guide says"]
    end = "// my settings\n" + jsonc.dumps(dict(reversed(list(data.items()))), "\t", False, notes)
    assert _frame(_jsonc(initial), _jsonc(oracle), _jsonc(end)) == []


def test_a_setting_vs_code_writes_on_its_own_may_be_added_and_a_chosen_one_may_not(settings_files):
    initial, oracle = settings_files
    frame = derive(_jsonc(initial), _jsonc(oracle))
    data = loads_jsonc(oracle)
    assert judge(frame, json_facts({**data, "security.workspace.trust.untrustedFiles": "open"}, oracle)) == []
    assert judge(frame, json_facts({**data, "editor.wordWrap": "on"}, oracle)) == ['/editor.wordWrap was added ("on")']


def json_facts(data: dict[str, Any], text: str) -> dict[str, str]:
    return config.json_facts(data, jsonc.comments(text))


def test_rulers_in_vs_codes_object_form_read_as_the_columns():
    plain = _jsonc('{"editor.rulers": [80, 120]}')
    objects = _jsonc('{"editor.rulers": [{"column": 120}, {"column": 80}]}')
    coloured = _jsonc('{"editor.rulers": [{"column": 80, "color": "#ff0000"}, 120]}')
    assert plain == objects
    assert plain != coloured  # a coloured ruler is another ruler: a change where the task does not touch it


def test_trailing_commas_and_block_comments_read_as_vs_code_reads_them():
    facts = _jsonc('{\n  /* font */ "editor.fontSize": 14.0,\n  "a": [1, 2,], // two\n}\n')
    assert facts == {"/editor.fontSize": "14", "/a": "[1, 2]", "/editor.fontSize#comment": '["font"]',
                     "/a#comment": '["two"]'}


def test_a_keybinding_rule_added_by_the_task_is_free_and_a_stray_one_is_not():
    initial = '// Place your key bindings in this file\n[\n    {"key": "ctrl+e", "command": "-a"}\n]\n'
    oracle = '// Place your key bindings in this file\n[\n    {"key": "ctrl+e", "command": "-a"},\n' \
             '    {"key": "ctrl+k", "command": "b"}\n]\n'
    frame = derive(_jsonc(initial), _jsonc(oracle))
    other = oracle.replace('"command": "b"', '"command": "b", "when": "editorTextFocus"')
    assert judge(frame, _jsonc(other)) == []  # the new rule's members are the goal checks' question
    stray = oracle.replace('"b"}', '"b"},\n    {"key": "ctrl+j", "command": "c"}')
    assert any(p.startswith("/2/") and "was added" in p for p in judge(frame, _jsonc(stray)))


def test_deleting_a_commented_setting_keeps_its_comment_for_the_next_one(tmp_path):
    initial = render_settings(SETTINGS, NOTES)
    (tmp_path / "settings.json").write_text(initial)
    apply_ops(tmp_path, [{"op": "json.delete", "path": "/home/user/settings.json", "key": ["editor.fontSize"]}])
    oracle = (tmp_path / "settings.json").read_text()
    assert "// appearance" in oracle
    person = initial.replace('    "editor.fontSize": 14,\n', "")  # a person deletes the line, not the comment
    assert _frame(_jsonc(initial), _jsonc(oracle), _jsonc(person)) == []


@pytest.mark.parametrize("edit", [
    lambda d: d.data.update({"editor.tabSize": 2}),
    lambda d: d.data.pop("editor.fontSize"),
    lambda d: d.data.update({"[python]": {}}),
    lambda d: d.data.update({"[python]": 3, "git.autofetch": [1, {"a": 2}]}),
])
def test_an_edited_document_reads_as_its_saved_file(edit):
    from preparers.ops.json_doc import parse_doc
    doc = parse_doc(render_settings(SETTINGS, {**NOTES, "[python]": "// formatting"}).replace(
        '"editor.formatOnSave": true', '"editor.formatOnSave": true // on save'))
    edit(doc)
    assert config.edited_config(doc) == _jsonc(doc.dumps())


# --- INI and YAML -----------------------------------------------------------------------------------------

INI = "# app settings\n\n[General]\n; how loud\nlog_level = info\ntimeout = 30\n\n[Sync]\nenabled = true\n"


def test_ini_spacing_and_quotes_are_free_comments_and_keys_are_not():
    oracle = INI.replace("timeout = 30", "timeout = 60")
    frame = derive(config.ini_facts(INI), config.ini_facts(oracle))
    assert judge(frame, config.ini_facts(oracle.replace("log_level = info", 'log_level="info"'))) == []
    dropped = "\n".join(line for line in oracle.splitlines() if not line.startswith(("#", ";")))
    problems = judge(frame, config.ini_facts(dropped))
    assert any("[General]log_level#comment" in p for p in problems) and any("[General]#comment" in p
                                                                           for p in problems), problems
    problems = judge(frame, config.ini_facts(oracle.replace("enabled = true\n", "")))
    assert problems == ["[Sync]enabled was removed"], problems
    problems = judge(frame, config.ini_facts(oracle + "enabled = false\n"))
    assert problems == ['[Sync]enabled changed (now ["true", "false"])'], problems  # a key set twice


def test_a_commented_out_line_is_a_comment_of_the_next_key():
    oracle = INI.replace("log_level = info", "# log_level = info")
    facts = config.ini_facts(oracle)
    assert "[General]log_level" not in facts and json.loads(facts["[General]timeout#comment"]) == [
        "how loud", "log_level = info"]
    assert judge(derive(config.ini_facts(INI), facts), config.ini_facts(oracle.replace("# log", "#log"))) == []


YAML = "# deploy\nserver:\n  # the port nginx proxies\n  port: 8080\n  hosts:\n    - a\n    - b\nlevel: info\n"


def test_yaml_keys_values_and_comments():
    facts = config.yaml_facts(YAML)
    assert facts["/server/port"] == "8080" and facts["/server/hosts"] == '["a", "b"]'
    assert facts["/server/port#comment"] == '["the port nginx proxies"]' and facts["/server#comment"] == '["deploy"]'
    oracle = YAML.replace("level: info", "level: debug")
    frame = derive(config.yaml_facts(YAML), config.yaml_facts(oracle))
    assert judge(frame, config.yaml_facts(oracle.replace("    - a\n    - b\n", "    - b\n    - a\n"))) == [
        '/server/hosts changed (now ["b", "a"])']
    assert any("/server/port#comment" in p for p in judge(frame, config.yaml_facts(
        oracle.replace("  # the port nginx proxies\n", ""))))


# --- Chrome -----------------------------------------------------------------------------------------------

def _bookmarks(bar: list[Any], other: list[Any] | None = None) -> dict[str, Any]:
    def node(item: Any, n: list[int]) -> dict[str, Any]:
        n[0] += 1
        if isinstance(item, tuple):
            return {"id": str(n[0]), "guid": f"g{n[0]}", "date_added": str(13_300_000_000_000_000 + n[0]),
                    "type": "url", "name": item[0], "url": item[1]}
        name, kids = next(iter(item.items()))
        return {"id": str(n[0]), "guid": f"g{n[0]}", "date_added": "1", "date_modified": "2", "type": "folder",
                "name": name, "children": [node(k, n) for k in kids]}
    count = [3]
    return {"checksum": "abc", "version": 1, "roots": {
        "bookmark_bar": {"id": "1", "name": "Bookmarks bar", "type": "folder",
                         "children": [node(i, count) for i in bar]},
        "other": {"id": "2", "name": "Other bookmarks", "type": "folder",
                  "children": [node(i, count) for i in other or []]},
        "synced": {"id": "3", "name": "Mobile bookmarks", "type": "folder", "children": []}}}


NEWS = {"News": [("BBC", "https://bbc.co.uk/"), ("Guardian", "https://theguardian.com/"), ("NYT", "https://nyt.com/")]}
DEV = {"Dev": [("GitHub", "https://github.com/"), ("MDN", "https://developer.mozilla.org/")]}


def test_a_reordered_bookmark_folder_the_task_does_not_touch_fails_naming_it():
    initial = _bookmarks([NEWS, DEV, ("Mail", "https://mail.example/")])
    oracle = _bookmarks([NEWS, {"Dev": [*DEV["Dev"], ("PyPI", "https://pypi.org/")]},
                         ("Mail", "https://mail.example/")])
    frame = derive(config.bookmarks_facts(initial), config.bookmarks_facts(oracle))
    assert judge(frame, config.bookmarks_facts(oracle)) == []
    reordered = _bookmarks([{"News": NEWS["News"][::-1]}, *oracle_bar(oracle)[1:]])
    problems = judge(frame, config.bookmarks_facts(reordered))
    assert problems == ["the bookmark folder Bookmarks bar > News is reordered (now 'NYT', 'Guardian', 'BBC')"]


def oracle_bar(tree: dict[str, Any]) -> list[Any]:
    """The bar's items of a tree made by `_bookmarks`, as `_bookmarks` takes them."""
    def item(node: dict[str, Any]) -> Any:
        if node["type"] == "url":
            return (node["name"], node["url"])
        return {node["name"]: [item(k) for k in node["children"]]}
    return [item(n) for n in tree["roots"]["bookmark_bar"]["children"]]


def test_the_folder_the_task_changes_keeps_its_other_bookmarks_in_order_and_gains_no_stray():
    initial = _bookmarks([DEV])
    oracle = _bookmarks([{"Dev": [*DEV["Dev"], ("PyPI", "https://pypi.org/")]}])
    frame = derive(config.bookmarks_facts(initial), config.bookmarks_facts(oracle))
    first = _bookmarks([{"Dev": [("PyPI", "https://pypi.org/"), *DEV["Dev"]]}])
    assert judge(frame, config.bookmarks_facts(first)) == []  # where a new bookmark goes is the goal checks' question
    swapped = _bookmarks([{"Dev": [*DEV["Dev"][::-1], ("PyPI", "https://pypi.org/")]}])
    assert any("is reordered" in p for p in judge(frame, config.bookmarks_facts(swapped)))
    twice = _bookmarks([{"Dev": [*DEV["Dev"], ("PyPI", "https://pypi.org/"), ("PyPI", "https://evil.example/")]}])
    assert any("gained 2 item(s)" in p for p in judge(frame, config.bookmarks_facts(twice)))
    lost = _bookmarks([{"Dev": [DEV["Dev"][0], ("PyPI", "https://pypi.org/")]}])
    assert any("lost 'MDN'" in p for p in judge(frame, config.bookmarks_facts(lost)))


def test_chromes_own_ids_guids_dates_and_checksum_are_no_facts():
    tree = _bookmarks([NEWS, DEV])
    renumbered = json.loads(json.dumps(tree).replace('"g', '"h').replace('"13300', '"13400'))
    renumbered["checksum"] = "def"
    renumbered["sync_metadata"] = "xyz"
    assert config.bookmarks_facts(tree) == config.bookmarks_facts(renumbered)


def test_preferences_noise_is_free_and_a_setting_is_not():
    prefs = {"homepage": "https://a.example/", "browser": {"show_home_button": True, "window_placement": {"top": 1}},
             "profile": {"exit_type": "Normal", "name": "Me"}, "session": {"restore_on_startup": 5}}
    oracle = json.loads(json.dumps(prefs))
    oracle["homepage"] = "https://b.example/"
    frame = derive(config.prefs_facts(prefs), config.prefs_facts(oracle))
    ran = json.loads(json.dumps(oracle))
    ran["browser"]["window_placement"]["top"] = 40
    ran["profile"]["exit_type"] = "Crashed"
    ran["gcm"] = {"product_category_for_subtypes": "com.chrome.linux"}
    ran["sessions"] = {"event_log": [{"time": "1"}]}
    assert judge(frame, config.prefs_facts(ran)) == []
    ran["session"]["restore_on_startup"] = 1
    ran["translate"] = {"enabled": False}
    assert judge(frame, config.prefs_facts(ran)) == ["/session/restore_on_startup changed (now 1)",
                                                    "/translate/enabled was added (false)"]


# --- damaged and hostile files ----------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "data"), [
    ("settings.json", b'{"editor.fontSize": 14, "a": '),
    ("settings.json", b"[" * 100_000 + b"]" * 100_000),
    ("settings.json", b"\xff\xfe\x00garbage"),
    ("settings.json", b'{"a": "' + b"x" * (5 << 20) + b'"}'),
    ("app.ini", b"\x00\x01\x02\xff"),
    ("deploy.yaml", b'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
                    b'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n'
                    b'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n'
                    b'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n'
                    b'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\nj: [*i,*i,*i,*i,*i,*i,*i,*i,*i]\n'),
    ("deploy.yaml", b"a: [unclosed\n"),
])
def test_a_damaged_config_reads_as_an_error_fact_and_fails_its_frame(tmp_path, name, data):
    host = tmp_path / name
    host.write_bytes(data)
    facts = config.read_config(host)
    assert "#error" in facts, facts
    frame = derive({"/a": "1"}, {"/a": "2"})
    assert any(p.startswith("the file no longer reads") for p in judge(frame, facts))


@pytest.mark.parametrize("data", [b'{"roots": []}', b"[1, 2]", b'{"roots": {"bookmark_bar": {"children": 5}}}',
                                  b'{"roots": {"bookmark_bar": ' * 5000 + b"{}" + b"}}" * 5000])
def test_a_damaged_bookmarks_file_never_crashes(tmp_path, data):
    host = tmp_path / "Bookmarks"
    host.write_bytes(data)
    facts = config.read_chrome(host)
    frame = derive(config.bookmarks_facts(_bookmarks([DEV])), config.bookmarks_facts(_bookmarks([DEV])))
    assert judge(frame, facts), facts


def test_comment_scanner_survives_unbalanced_text():
    for text in ("}}]] // x\n", '{"a": /* open', '"unterminated', "/", "[//\n,,,]"):
        jsonc.comments(text)


# --- real tasks through the gate --------------------------------------------------------------------------

def _package(tmp: Path, workflow: Any, knobs: dict[str, Any], wanted: Any = None) -> Path:
    for seed in range(1, 40):
        folder = make_package(workflow, knobs, tmp / f"s{seed}", seed=seed, skill_id=f"test.frame_config.{seed}")
        if wanted is None or wanted(folder):
            verdict = gate_package(folder)
            assert verdict.status == "accepted", verdict
            return folder
    raise AssertionError("no seed gives the wanted initial state")


def _with_comments(folder: Path) -> bool:
    task = json.loads((folder / "task.json").read_text())
    dest = next(a["file"] for a in task["setup"]["assets"] if a["dest"].endswith("/.config/Code/User/settings.json"))
    return "//" in (folder / dest).read_text()


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("frame_config")
    return {
        "rulers": _package(out / "rulers", editor_setting.WORKFLOW, {"setting": "rulers", "initial": "present"},
                           _with_comments),
        "bookmark": _package(out / "bookmark", edit_bookmark.WORKFLOW, {"action": "rename", "location": "bar"}),
        "homepage": _package(out / "homepage", homepage.WORKFLOW, {"target": "url_replace", "button": "unchanged"}),
        "ini": _package(out / "ini", config_edit.WORKFLOW, {"edit": "ini_set"}),
    }


def _end(package: Path, tmp: Path) -> tuple[dict[str, Any], Path]:
    _, after = package_states(package, tmp, "solution/oracle.json")
    return json.loads((package / "task.json").read_text()), after


def _judged(task: dict[str, Any], root: Path, primitive: str) -> tuple[bool, str]:
    """(the whole rubric passes, the evidence of the failed frame checks of `primitive`)"""
    outcomes = evaluate_rubric(task, root)
    ids = {c["id"] for c in task["rubric"] if c["primitive"] == primitive}
    assert ids, f"the rubric has no {primitive} check"
    return all(o.passed for o in outcomes), "; ".join(o.evidence for o in outcomes if o.id in ids and not o.passed)


def test_vscode_settings_without_comments_or_with_a_dropped_key_fail_and_object_rulers_pass(packages, tmp_path):
    task, root = _end(packages["rulers"], tmp_path)
    path = root / ".config/Code/User/settings.json"
    text = path.read_text()
    assert _judged(task, root, "config.frame") == (True, "")
    data = loads_jsonc(text)
    path.write_text(json.dumps(data, indent=4))
    passed, evidence = _judged(task, root, "config.frame")
    assert not passed and "#comment: 1 comment(s) removed" in evidence, evidence
    dropped = next(k for k in data if k != "editor.rulers")
    path.write_text(jsonc.dumps({k: v for k, v in data.items() if k != dropped}, 4, False, jsonc.comments(text)))
    passed, evidence = _judged(task, root, "config.frame")
    assert not passed and f"/{dropped} was removed" in evidence, evidence
    data["editor.rulers"] = [{"column": c} for c in data["editor.rulers"]]  # VS Code's documented object form
    path.write_text(jsonc.dumps(data, 4, False, jsonc.comments(text)))
    assert _judged(task, root, "config.frame") == (True, "")


def test_a_reordered_untouched_bookmark_folder_fails_and_chromes_renumbering_passes(packages, tmp_path):
    task, root = _end(packages["bookmark"], tmp_path)
    path = root / ".config/google-chrome/Default/Bookmarks"
    tree = json.loads(path.read_text())
    frame = next(c for c in task["rubric"] if c["primitive"] == "chrome.frame")
    untouched = [k for k in frame["args"]["kept"] if len(json.loads(config.bookmarks_facts(tree)[k])) > 1]
    assert untouched
    folder = untouched[0].removeprefix("bookmarks:").split("/")
    node = tree["roots"][next(k for k, v in tree["roots"].items() if v.get("name") == folder[0])]
    for name in folder[1:]:
        node = next(c for c in node["children"] if c.get("type") == "folder" and c.get("name") == name)
    renumbered = json.loads(json.dumps(tree).replace('"date_added": "1', '"date_added": "2'))
    renumbered["checksum"] = "0123456789abcdef"
    path.write_text(json.dumps(renumbered, indent=3))
    assert _judged(task, root, "chrome.frame") == (True, "")
    node["children"].reverse()
    path.write_text(json.dumps(tree, indent=3))
    passed, evidence = _judged(task, root, "chrome.frame")
    assert not passed and f"{' > '.join(folder)} is reordered" in evidence, evidence


def test_a_preferences_setting_changed_out_of_scope_fails_and_chromes_own_writes_pass(packages, tmp_path):
    task, root = _end(packages["homepage"], tmp_path)
    path = root / ".config/google-chrome/Default/Preferences"
    prefs = json.loads(path.read_text())
    prefs.setdefault("browser", {})["window_placement"] = {"top": 99}
    prefs["profile"]["exit_type"] = "Crashed"
    path.write_text(json.dumps(prefs))
    assert _judged(task, root, "chromeprefs.frame") == (True, "")
    prefs["intl"]["selected_languages"] = "de-DE"
    path.write_text(json.dumps(prefs))
    passed, evidence = _judged(task, root, "chromeprefs.frame")
    assert not passed and "/intl/selected_languages changed" in evidence, evidence


def test_an_ini_config_rewritten_without_comments_fails_and_other_spacing_passes(packages, tmp_path):
    task, root = _end(packages["ini"], tmp_path)
    check = next(c for c in task["rubric"] if c["primitive"] == "config.frame")
    path = root / check["args"]["path"].removeprefix("/home/user/")
    text = path.read_text()
    path.write_text(text.replace(" = ", "="))
    assert _judged(task, root, "config.frame") == (True, "")
    path.write_text("".join(line for line in text.splitlines(keepends=True) if not line.startswith("#")))
    passed, evidence = _judged(task, root, "config.frame")
    assert not passed and "comment(s) removed" in evidence, evidence


def test_a_damaged_end_state_fails_the_frame_check_without_crashing(packages, tmp_path):
    task, root = _end(packages["rulers"], tmp_path)
    check = next(c for c in task["rubric"] if c["primitive"] == "config.frame"
                 and c["args"]["path"].endswith("User/settings.json"))
    path = root / ".config/Code/User/settings.json"
    for damage in (b'{"editor.rulers": [', b"\xff" * 64, b"[" * 50_000):
        path.write_bytes(damage)
        result = run_check(State(root), "config.frame", check["args"])
        assert not result.passed and "no longer reads" in result.evidence, result.evidence
    path.unlink()
    path.symlink_to("/etc/passwd")
    assert not run_check(State(root), "config.frame", check["args"]).passed
    shutil.rmtree(root)
