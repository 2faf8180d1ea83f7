"""Property tests: every check primitive's reader, fed random bytes, random JSON or a zip of random members in
place of the file it reads, answers with a Result (failing where the file is what it reads) and never raises.

Two layers. The fast test calls all primitives with arguments built from their signatures and a random file at
`path`. The slow test starts from real initial states (one representative skill per family, run offline) and
replaces one of their files at a time, so folder-based readers (a Thunderbird profile, a Chrome profile) see
hostile content under the names they really open. Examples are few and derandomized: the suite stays fast and
a failure reproduces.
"""

from __future__ import annotations

import contextlib
import io
import json
import types
import typing
import zipfile
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit.errors import CheckError
from preparers.ops import OpError, apply_ops
from verifiers.checks import Result, State, registry, run_check

H = "/home/user"
SETTINGS = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

#: Checks that a random file at `path` may satisfy: they look at the entry's existence or mode, not its content.
CONTENT_BLIND = {"fs.exists", "fs.absent", "fs.is_dir", "fs.file_mode", "fs.mode_bits", "fs.dir_modes",
                 "image.file_exists", "fs.symlink_to", "fs.line_absent", "json.key_absent", "chrome.bookmark_absent",
                 "chrome.folder_absent", "fs.dir_listing"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


def _zip(names: list[str], bodies: list[bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in zip(names, bodies, strict=False):
            zf.writestr(name, body)
    return out.getvalue()


OFFICE_PARTS = ["[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels",
                "xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "word/document.xml", "ppt/presentation.xml",
                "docProps/core.xml"]


@st.composite
def hostile_files(draw: st.DrawFn) -> bytes:
    """Random bytes, random JSON, or a zip whose members carry office part names and random (or XML-ish) bodies."""
    kind = draw(st.sampled_from(["bytes", "json", "zip"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    names = draw(st.lists(st.sampled_from(OFFICE_PARTS), min_size=1, max_size=6, unique=True))
    bodies = [draw(st.binary(max_size=80) | st.just(b"<?xml version='1.0'?><a><b/></a>")
                   | st.builds(lambda t: f"<x>{t}</x>".encode(), st.text(max_size=30))) for _ in names]
    return _zip(names, bodies)


def _value(hint: Any, name: str) -> Any:
    """A plausible argument for a parameter of type `hint`."""
    origin = typing.get_origin(hint)
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if origin in (typing.Union, types.UnionType) and args:
        return _value(args[0], name)
    if hint is bool:
        return False
    if hint is int:  # a count no short hostile file matches by chance (a 2-line file once passed fs.line_count, a
        # file reading "2" docx.answer_number)
        return 7919 if name in ("count", "lines", "value") else 2
    if hint is float:
        return 1.5
    if hint is str:
        return {"sheet": "Sheet1", "cell": "B2", "ref": "A1:B3", "mode": "644", "key_column": "A",
                "header_cell": "A1", "format": "zip", "kind": "any", "axis": "horizontal", "part": "header",
                "unit": "cm", "direction": "up", "side": "width", "require": "400",
                # a value the check's own default differs from (vlcrc.option: what VLC uses when no line sets it)
                "default": "forge-default"}.get(name, "forge-needle")
    if origin in (list, tuple) or str(origin).endswith("Sequence'>"):
        inner = typing.get_args(hint)
        return [_value(inner[0], name)] if inner and inner[0] is not Any else ["x"]
    if origin is dict or hint is dict:
        inner = typing.get_args(hint)
        return {"x": _value(inner[1], name) if len(inner) == 2 and inner[1] is not Any else "x"}
    return "forge-needle"


SIMPLE = {str, int, float, bool, list[str], typing.Sequence[str], list[int], list[float]}


def _simple(name: str) -> bool:
    """All required parameters have scalar or list-of-scalar types: arguments built from the signature are then
    well-formed, so anything raised is the reader's fault (nested shapes are covered by the slow test)."""
    import inspect

    prim = registry()[name]
    hints = typing.get_type_hints(prim.fn)
    for pname, param in list(inspect.signature(prim.fn).parameters.items())[1:]:
        if param.default is inspect.Parameter.empty:
            hint = hints.get(pname, str)
            union = typing.get_origin(hint) in (typing.Union, types.UnionType)
            options = [a for a in typing.get_args(hint) if a is not type(None)] if union else [hint]
            if not all(o in SIMPLE or o is Any for o in options):
                return False
    return True


def _synthesized_args(name: str) -> dict[str, Any]:
    prim = registry()[name]
    hints = typing.get_type_hints(prim.fn)
    import inspect

    args: dict[str, Any] = {}
    for pname, param in list(inspect.signature(prim.fn).parameters.items())[1:]:
        if param.default is not inspect.Parameter.empty:
            continue
        args[pname] = f"{H}/target.bin" if pname == "path" else _value(hints.get(pname, str), pname)
    return args


PRIMITIVES = sorted(n for n, p in registry().items() if _simple(n) and p.fn.__module__.startswith("verifiers."))


@pytest.mark.parametrize("name", PRIMITIVES)
@SETTINGS
@given(data=hostile_files())
def test_every_reader_fails_cleanly_on_a_hostile_file(tmp_path_factory, name, data):
    root = tmp_path_factory.mktemp("state")
    (root / "target.bin").write_bytes(data)
    result = run_check(State(root), name, _synthesized_args(name))
    assert isinstance(result, Result)
    assert isinstance(result.evidence, str) and result.evidence
    if name not in CONTENT_BLIND:
        assert not result.passed, (name, result.evidence)


# --- real initial states, one file replaced ---------------------------------------------------------------

@cache
def _states() -> list[tuple[str, list[tuple[str, bytes]], list[dict[str, Any]], list[dict[str, Any]]]]:
    """(skill id, [(dest under /home/user, bytes)], rubric, oracle ops) for one representative skill per family."""
    from forge.demo import representatives
    from kit.dag import NodeContext
    from kit.llm import OfflineBackend
    from kit.taxonomy import load_taxonomy
    from workflows import get_family

    cases = []
    for skill in representatives(load_taxonomy()):
        ctx = NodeContext(dict(skill.params), 1, skill.id, 0, OfflineBackend())
        try:
            outputs = get_family(skill.family).run(ctx)
        except Exception:  # a family that cannot make a task is its own tests' failure, not a reader's
            continue
        files = [(a.dest.removeprefix(H + "/"), a.data) for a in outputs["assets"]]
        ops = outputs["solutions"][0].to_json().get("ops", [])
        cases.append((skill.id, files, [c.to_json() for c in outputs["rubric"]], ops))
    return cases


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pick=st.data(), data=hostile_files())
def test_real_states_with_one_hostile_file_never_crash_a_check_or_an_op(tmp_path_factory, pick, data):
    skill, files, rubric, ops = pick.draw(st.sampled_from(_states()), label="case")
    victim = pick.draw(st.sampled_from(files), label="file")[0]
    root = tmp_path_factory.mktemp("state")
    for rel, body in files:
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data if rel == victim else body)
    state = State(root)
    for item in rubric:
        try:
            result = run_check(state, item["primitive"], item["args"])
        except CheckError:  # arguments that do not bind: the gate's schema stage rejects them, no reader runs
            continue
        assert isinstance(result, Result) and result.evidence, (skill, item["id"])
        if item["args"].get("path") == f"{H}/{victim}" and item["primitive"] not in CONTENT_BLIND:
            assert not result.passed, (skill, victim, item["id"], result.evidence)
    with contextlib.suppress(OpError):  # the oracle's ops on that state: done, or a failed solution; never a crash
        apply_ops(root, ops)
