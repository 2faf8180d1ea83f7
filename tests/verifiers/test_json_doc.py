"""The `json` document kind (lenient load, style-keeping save, set/delete/append) and the json.* primitives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers.ops import OpError, apply_ops
from preparers.ops.json_doc import get_at, key_path, loads_jsonc, parse_doc, strip_jsonc
from verifiers.checks import State, run_check
from verifiers.checks.json_doc import same_value

PATH = "/home/user/conf/app.json"
JSONC = """// settings with comments, as VS Code allows
{
    "editor.fontSize": 14, // trailing comment
    /* block */ "url": "https://example.com/a//b,]",
    "list": [1, 2,],
}
"""


def _write(tmp_path: Path, text: str, rel: str = "conf/app.json") -> Path:
    file = tmp_path / rel
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def _check(tmp_path: Path, name: str, **args):
    return run_check(State(tmp_path), name, {"path": PATH, **args})


# --- parsing and key paths ---------------------------------------------------------------------------

def test_loads_jsonc_drops_comments_and_trailing_commas_but_not_string_content():
    assert loads_jsonc(JSONC) == {"editor.fontSize": 14, "url": "https://example.com/a//b,]", "list": [1, 2]}
    assert loads_jsonc("  \n") is None


@pytest.mark.parametrize("text", ['{"url": "https://a.example/x//y,]", "note": "/* kept */", "list": [1, 2]}',
                                  '[{"a": "\\"//\\""}, {}, [], "x, ]"]', '"just // a string"', "3.5", "null"])
def test_plain_json_reads_the_same_as_through_the_comment_stripper(text):
    assert strip_jsonc(text) == text
    assert loads_jsonc(text) == json.loads(strip_jsonc(text))


def test_key_paths_accept_dotted_strings_and_lists_with_dotted_keys():
    assert key_path("session.startup_urls") == ["session", "startup_urls"]
    assert key_path(["editor.fontSize"]) == ["editor.fontSize"]
    assert get_at({"a": {"b": [10, 20]}}, ["a", "b", 1]) == 20
    assert get_at({"a": 1}, "a.b", "missing") == "missing"
    with pytest.raises(ValueError, match="key="):
        key_path([True])


def test_same_value_keeps_json_types_apart():
    assert same_value(14.0, 14)
    assert not same_value(1, True)
    assert not same_value("true", True)
    assert not same_value([80, 120], [120, 80])
    assert same_value([80, 120], [120, 80], unordered=True)
    assert not same_value({"a": 1}, {"a": 1, "b": 2})


# --- ops ---------------------------------------------------------------------------------------------

def test_set_delete_append_keep_the_file_style(tmp_path):
    file = _write(tmp_path, JSONC)
    apply_ops(tmp_path, [
        {"op": "json.set", "path": PATH, "key": ["editor.fontSize"], "value": 16},
        {"op": "json.set", "path": PATH, "key": "nested.deep", "value": True},
        {"op": "json.delete", "path": PATH, "key": ["url"]},
        {"op": "json.append", "path": PATH, "key": ["list"], "value": 3},
    ])
    text = file.read_text()
    assert loads_jsonc(text) == {"editor.fontSize": 16, "list": [1, 2, 3], "nested": {"deep": True}}
    assert '\n    "editor.fontSize": 16' in text  # 4-space indent kept
    # comments kept, as VS Code's editor keeps them (the deleted key's goes to the key after it)
    assert text.startswith("// settings with comments, as VS Code allows\n{\n    // trailing comment\n")
    assert '    /* block */\n    "list": [' in text


def test_compact_sorted_files_stay_compact_and_sorted(tmp_path):
    file = _write(tmp_path, '{"a":1,"c":{"x":1,"y":2}}')
    assert parse_doc(file.read_text()).indent is None
    apply_ops(tmp_path, [{"op": "json.set", "path": PATH, "key": "b", "value": 2}])
    assert file.read_text() == '{"a":1,"b":2,"c":{"x":1,"y":2}}'


def test_tab_indented_files_stay_tab_indented(tmp_path):
    file = _write(tmp_path, '{\n\t"folders": [\n\t\t{\n\t\t\t"path": "."\n\t\t}\n\t]\n}\n')
    apply_ops(tmp_path, [{"op": "json.set", "path": PATH, "key": ["settings", "editor.tabSize"], "value": 2}])
    assert '\n\t"settings": {\n\t\t"editor.tabSize": 2' in file.read_text()


def test_ops_create_a_missing_file_and_the_empty_key_replaces_the_document(tmp_path):
    apply_ops(tmp_path, [{"op": "json.append", "path": PATH, "key": [], "value": {"key": "ctrl+k"}}])
    assert json.loads((tmp_path / "conf/app.json").read_text()) == [{"key": "ctrl+k"}]
    apply_ops(tmp_path, [{"op": "json.set", "path": PATH, "key": [], "value": {"only": 1}}])
    assert json.loads((tmp_path / "conf/app.json").read_text()) == {"only": 1}


def test_bad_ops_raise_op_errors(tmp_path):
    _write(tmp_path, '{"a": 1}')
    with pytest.raises(OpError, match="no value"):
        apply_ops(tmp_path, [{"op": "json.delete", "path": PATH, "key": "b"}])
    with pytest.raises(OpError, match="not a list"):
        apply_ops(tmp_path, [{"op": "json.append", "path": PATH, "key": "a", "value": 2}])
    _write(tmp_path, "{not json")
    with pytest.raises(OpError, match="cannot open"):
        apply_ops(tmp_path, [{"op": "json.set", "path": PATH, "key": "a", "value": 2}])


# --- primitives --------------------------------------------------------------------------------------

def test_value_equals_passes_and_fails_with_evidence(tmp_path):
    _write(tmp_path, JSONC)
    assert _check(tmp_path, "json.value_equals", key=["editor.fontSize"], value=14).passed
    result = _check(tmp_path, "json.value_equals", key=["editor.fontSize"], value=16)
    assert not result.passed and "editor.fontSize = 14, expected 16" in result.evidence
    result = _check(tmp_path, "json.value_equals", key="nope.key", value=1)
    assert not result.passed and "no value at nope > key" in result.evidence


def test_key_absent_and_list_contains(tmp_path):
    _write(tmp_path, JSONC)
    assert _check(tmp_path, "json.key_absent", key="gone").passed
    result = _check(tmp_path, "json.key_absent", key=["url"])
    assert not result.passed and "still present" in result.evidence
    assert _check(tmp_path, "json.list_contains", key="list", item=2).passed
    result = _check(tmp_path, "json.list_contains", key="list", item=3)
    assert not result.passed and "has no item 3" in result.evidence
    result = _check(tmp_path, "json.list_contains", key=["url"], item=3)
    assert not result.passed and "is not a list" in result.evidence


def test_missing_and_corrupt_files_fail_with_evidence(tmp_path):
    result = _check(tmp_path, "json.value_equals", key="a", value=1)
    assert not result.passed and "does not exist" in result.evidence
    _write(tmp_path, '{"a": 1,,')
    result = _check(tmp_path, "json.key_absent", key="a")
    assert not result.passed and "not a readable JSON file" in result.evidence
