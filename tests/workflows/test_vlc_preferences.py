"""vlc.preferences: the family through the gate with every mutant, the vlcrc reader against VLC's loader rules,
hand-made wrong end states (check and frame), the op and its teacher script, and the phrasings."""

from __future__ import annotations

import json
import subprocess

import pytest

from preparers.ops import apply_ops
from preparers.teach import snippets
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.vlc_prefs import stated_value
from verifiers.frame.vlcrc import VLC
from verifiers.readers import vlcrc
from workflows.vlc.preferences import ASK, NATURAL, PHRASINGS, SETTINGS, WORKFLOW
from workflows.vlc.preferences import vlcrc as render

PATH = "/home/user/.config/vlc/vlcrc"
TEXT = render({"qt-privacy-ask": "0", "random": "1"})
LOOP = {"path": PATH, "option": "loop", "value": "1", "kind": "bool", "default": "0"}
VOLUME = {"path": PATH, "option": "qt-max-volume", "value": "200", "kind": "int", "default": "125", "low": 60,
          "high": 300}


@pytest.mark.slow
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, setting):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"setting": setting}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        mutation = next(s for s in verdict.stages if s.name == "mutation")
        assert "damaging mutants rejected" in mutation.evidence and "all 0 " not in mutation.evidence
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["vlcrc.option", "vlcrc.frame", "tree.frame"]
        assert len(task["solutions"]["near_misses"]) >= 3


def test_the_reader_follows_vlcs_loader():
    assert [vlcrc.c_integer(v) for v in ("1", " 1", "0x10", "010", "-3", "true", "200%", "08", "", "1 ")] == [
        1, 1, 16, 8, -3, None, None, None, None, None]
    parsed = vlcrc.lines("\ufeff[core] # core program\n#loop=1\nloop = 1\nloop=true\n[qt]\nqt-max-volume=400\n")
    assert vlcrc.effective(parsed, "loop", "bool", "0") == ("0", "unset, the default")
    assert vlcrc.effective(parsed, "qt-max-volume", "int", "125", 60, 300)[0] == "125"  # out of range: refused
    later = vlcrc.lines("[qt]\nloop=1\n[core]\nloop=0\n")  # sections are ignored, the last line wins
    assert vlcrc.effective(later, "loop", "bool", "0") == ("0", "set")
    facts = vlcrc.facts(TEXT)
    assert json.loads(facts["random"]) == "1" and "loop" not in facts  # a commented default is no fact
    assert "# Repeat all (boolean)" in json.loads(facts["[core]#comment"])
    with pytest.raises(vlcrc.VlcrcError):
        vlcrc.lines("x" * (vlcrc.MAX_BYTES + 1))


def _state(tmp_path, text: str) -> State:
    (tmp_path / ".config/vlc").mkdir(parents=True, exist_ok=True)
    (tmp_path / ".config/vlc/vlcrc").write_text(text, encoding="utf-8")
    return State(tmp_path)


def _verdict(tmp_path, text: str, args: dict = LOOP) -> tuple[bool, bool]:
    """(the option check, the frame) on an end state whose vlcrc is `text`, framed against the oracle's edit."""
    frame = VLC.derive(vlcrc.facts(TEXT), vlcrc.facts(TEXT.replace("#loop=0", "loop=1")), {})
    state = _state(tmp_path, text)
    option = run_check(state, "vlcrc.option", args).passed
    return option, run_check(state, "vlcrc.frame", {"path": PATH, **frame}).passed


def test_hand_made_end_states(tmp_path):
    right = TEXT.replace("#loop=0", "loop=1")
    assert _verdict(tmp_path, TEXT) == (False, True)
    assert _verdict(tmp_path, right) == (True, True)
    assert _verdict(tmp_path, TEXT.replace("#loop=0", "#loop=0\nloop=1")) == (True, True)  # default left beside
    assert _verdict(tmp_path, right.replace("[qt] # Qt interface\n", "[qt] # Qt interface\nloop=1\n", 1)
                    .replace("\nloop=1\n\n# Repeat current", "\n\n# Repeat current")) == (True, True)  # other section
    assert _verdict(tmp_path, TEXT.replace("#loop=0", "#loop=1")) == (False, True)  # still commented out
    assert _verdict(tmp_path, TEXT.replace("#loop=0", "loop = 1"))[0] is False  # VLC reads the name 'loop '
    assert _verdict(tmp_path, TEXT.replace("#loop=0", "loop=true"))[0] is False
    assert _verdict(tmp_path, TEXT.replace("#repeat=0", "repeat=1")) == (False, False)  # the neighbour instead
    assert _verdict(tmp_path, right + "loop=0\n")[0] is False  # a later line wins
    assert _verdict(tmp_path, right.replace("random=1", "random=0")) == (True, False)  # another option changed
    assert _verdict(tmp_path, right.replace("# Start paused (boolean)\n", "")) == (True, False)  # a comment gone
    assert _verdict(tmp_path, right.replace("# Repeat all (boolean)", "# repeat everything")) == (True, False)
    assert _verdict(tmp_path, right + "# my own note\n") == (True, True)  # a comment added is free
    assert _verdict(tmp_path, "\n".join(x for x in right.split("\n") if not vlcrc.COMMENTED_OPTION.match(x))) == (
        True, True)  # VLC's record of defaults dropped
    assert _verdict(tmp_path, right.removeprefix("\ufeff")) == (True, True)  # no byte order mark
    assert _verdict(tmp_path, right.replace("vlc 3.0.16", "vlc 3.0.20")) == (True, True)  # saved by another VLC
    state = _state(tmp_path, TEXT.replace("#qt-max-volume=125", "qt-max-volume=200%"))
    assert not run_check(state, "vlcrc.option", VOLUME).passed


def test_the_op_and_the_teacher_script_edit_like_a_person(tmp_path):
    for form, want in (("plain", "loop=1"), ("commented", "#loop=1"), ("spaced", "loop = 1")):
        _state(tmp_path, TEXT)
        apply_ops(tmp_path, [{"op": "fs.vlcrc_set", "path": PATH, "options": {"loop": "1"}, "section": "core",
                              "form": form}])
        text = (tmp_path / ".config/vlc/vlcrc").read_text(encoding="utf-8")
        assert text.startswith("\ufeff") and want in text.split("\n") and "#loop=0" not in text
        _state(tmp_path, TEXT)
        script = snippets()["fs.vlcrc_set"](str(tmp_path / ".config/vlc/vlcrc"), {"loop": "1"}, "core", form)
        subprocess.run(["bash", "-c", script], check=True)
        assert (tmp_path / ".config/vlc/vlcrc").read_text(encoding="utf-8") == text
    small = "[core] # core program\n\nrandom=1\n\n[qt] # Qt interface\n"
    _state(tmp_path, small)
    apply_ops(tmp_path, [{"op": "fs.vlcrc_set", "path": PATH, "options": {"one-instance": "1", "random": "0"},
                          "section": "core"}])
    assert (tmp_path / ".config/vlc/vlcrc").read_text() == (
        "[core] # core program\n\nrandom=0\n\none-instance=1\n\n[qt] # Qt interface\n")


@pytest.mark.parametrize("setting", list(SETTINGS))
def test_every_phrasing_says_the_option_and_its_value(setting):
    option = SETTINGS[setting][0]
    value = {"record_folder": "/home/user/Videos/Recordings", "max_volume": "200", "instance_per_file": "0",
             "no_cone": "0"}.get(
        setting, "1")
    kind = {"record_folder": "string", "max_volume": "int"}.get(setting, "bool")
    ask = ASK[setting].format(folder=value, volume=value)
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(path=PATH, ask=ask)
        assert set(extract.expressed(text, "vlc_option")) == {option}, text
        assert stated_value(text, {"value": value, "kind": kind}) is None, text
        assert 8 <= len(text.split()) <= 60, text
