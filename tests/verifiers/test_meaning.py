"""A check declares its meaning where it is registered (verifiers/meaning.py), and registration refuses one without.

The meaning is what grounding holds an instruction to: the words that ask for the check's goal (`action`), and how
each goal argument is said. A check without one used to escape the purpose pass silently (issue 42: `xlsx.table_rows`
had no action words, so "fill the missing values in column B ..." was accepted for a duplicate-removal task).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from kit.errors import CheckError
from kit.package import load_package
from kit.taxonomy import load_taxonomy
from tests.gatekit import gate_package, make_package
from verifiers import checks
from verifiers.grounding import Ungrounded, ground, visible_text
from verifiers.meaning import Meaning, Said
from workflows import get_family

CHECK_MODULE = '''
from verifiers.checks import Result, State, ok, primitive
from verifiers.meaning import Meaning, Said


@primitive("test.{name}", grounded=("path", "level"){meaning})
def check(state: State, path: str, level: str) -> Result:
    """A check a family adds."""
    return ok("fine")
'''


def _import_check(tmp_path: Path, name: str, meaning: str) -> None:
    """Import a new module that registers `test.<name>` with `meaning` (a source fragment), as a family would."""
    (tmp_path / f"check_{name}.py").write_text(CHECK_MODULE.format(name=name, meaning=meaning), "utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(f"check_{name}")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(f"check_{name}", None)


@pytest.mark.parametrize(("name", "meaning", "message"), [
    ("bare", "", "check primitive 'test.bare' declares no meaning: pass meaning=Meaning(action="),
    ("no_why", ", meaning=Meaning(action=None)", "'test.no_why' meaning: action=None needs a why="),
    ("empty", ", meaning=Meaning(action='')", "'test.empty' meaning: action is empty"),
    ("bad_regex", ", meaning=Meaning(action='sort(')", "'test.bad_regex' meaning: action='sort(' is not a regular"),
    ("loose", ", meaning=Meaning(action='sort', args={'colour': Said('order')})",
     "'test.loose' meaning: args ['colour'] say how the instruction states them, but they are not grounded="),
    ("domain", ", meaning=Meaning(action='sort', args={'level': Said('ordr')})",
     "'test.domain' meaning: unknown lexicon domains ['ordr'] Did you mean 'order'?"),
])
def test_a_check_without_a_whole_meaning_is_refused_at_import(tmp_path, name, meaning, message):
    with pytest.raises(CheckError) as caught:
        _import_check(tmp_path, name, meaning)
    assert message in str(caught.value) and "\n" not in str(caught.value), str(caught.value)
    assert f"test.{name}" not in checks.registry()


def test_a_check_with_its_meaning_registers(tmp_path):
    _import_check(tmp_path, "whole", ", meaning=Meaning(action=r'level', args={'level': Said('order')})")
    prim = checks.registry().pop("test.whole")  # the registry is the process's: leave it as it was
    assert prim.meaning == Meaning(action="level", args={"level": Said("order")})


def test_every_primitive_declares_its_meaning():
    registry = checks.registry()
    goals = sorted(name for name, prim in registry.items() if prim.meaning.action)
    kept = sorted(name for name, prim in registry.items() if prim.meaning.action is None)
    assert len(goals) + len(kept) == len(registry) > 100
    assert all(registry[name].meaning.why for name in kept)
    # a check that keeps something asks for no words; one that judges the goal always does
    assert "xlsx.unchanged" in kept and "tb.profile_kept" in kept and "xlsx.table_rows" in goals


WRONG = "Open {path}, sheet '{sheet}': fill the missing values in column B with the average of the first row."


def _dedup(tmp_path: Path) -> Path:
    skill = load_taxonomy()["calc.dedup.exact"]
    return make_package(get_family(skill.family), dict(skill.params), tmp_path, seed=1, skill_id=skill.id)


def test_a_dedup_task_whose_instruction_asks_for_a_fill_fails_grounding(tmp_path):
    folder = _dedup(tmp_path)
    package = load_package(folder)
    task = package.task

    def shown() -> str:
        return visible_text(package.root, task["setup"]["assets"])

    assert "no answer leaked" in ground(task, shown)  # the instruction the family wrote asks for the dedup
    args = task["rubric"][0]["args"]
    wrong = {**task, "instruction": WRONG.format(path=args["path"], sheet=args["sheet"])}
    with pytest.raises(Ungrounded, match=r"never asks for this check's action \(xlsx.table_rows"):
        ground(wrong, shown)
    (folder / "task.json").write_text(json.dumps(wrong), "utf-8")
    verdict = gate_package(folder)
    assert verdict.status == "grounding_fail" and "xlsx.table_rows" in verdict.evidence, verdict.evidence


def test_a_dedup_by_key_must_say_which_column_makes_a_duplicate(tmp_path):
    skill = load_taxonomy()["calc.dedup.key"]
    folder = make_package(get_family(skill.family), dict(skill.params), tmp_path, seed=1, skill_id=skill.id)
    package = load_package(folder)
    task = package.task
    key = task["rubric"][0]["args"]["key"]

    def shown() -> str:
        return visible_text(package.root, task["setup"]["assets"])

    assert f"'{key}'" in task["instruction"] and "no answer leaked" in ground(task, shown)
    vague = {**task, "instruction": task["instruction"].replace(f"'{key}'", "the right")}
    for register in ("spec", "natural"):  # the sheet shows the header, not that the duplicates are about it
        with pytest.raises(Ungrounded, match=rf"key={key!r} defines the goal but the instruction does not state it"):
            ground({**vague, "register": register}, shown)


def test_a_pref_check_reads_its_own_phrases_declared_beside_it():
    from verifiers.checks.thunderbird import PREF_PHRASES

    assert "reply_on_top" in PREF_PHRASES
    check = {"id": "pref", "criterion": "", "primitive": "tb.pref_equals",
             "args": {"path": "/home/user/.thunderbird", "name": "mail.identity.id1.reply_on_top", "value": 1}}
    asked = {"instruction": "In Thunderbird, start my replies above the quoted text.", "rubric": [check]}
    assert "no answer leaked" in ground(asked, str)
    with pytest.raises(Ungrounded, match="name='mail.identity.id1.reply_on_top' is checked but the instruction"):
        ground({**asked, "instruction": "In Thunderbird, change a setting of my account."}, str)
