"""The document frame's registry (verifiers/frame/kinds.py): each kind has its check; a home path finds its kind."""

from __future__ import annotations

import pytest

from verifiers import checks
from verifiers.frame.kinds import FrameKind, get, kind_for, kinds, register


def test_every_kind_has_its_frame_check_with_the_same_arguments():
    known = checks.registry()
    for kind in kinds():
        prim = known[kind.primitive]
        assert prim.grounded == () and prim.meaning.action is None
        assert list(prim.signature.parameters)[:5] == ["state", "path", "allowed", "kept", "free"]


def test_a_home_path_finds_its_kind():
    assert kind_for("/home/user/Documents/a.xlsx") is get("xlsx")
    assert kind_for("/home/user/notes.txt") is None


def test_a_kind_registered_twice_or_misspelt_is_loud():
    with pytest.raises(ValueError, match="twice"):
        register(get("xlsx"))
    with pytest.raises(KeyError, match="Did you mean 'xlsx'"):
        get("xlsz")
    assert isinstance(get("xlsx"), FrameKind)
