"""`forge round run --family`: a round's plan stays inside the named families (a student that knows only some of
them), spending the whole budget there; an unknown family is refused in one line before anything is recorded."""

from __future__ import annotations

import pytest

from forge.catalog import Catalog
from forge.rounds import RoundError, prepare_round
from kit.ids import TaskId
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy


def test_the_plan_stays_inside_the_named_families(tmp_path):
    db = f"sqlite:///{tmp_path / 'forge.db'}"
    chosen = ("os.copy", "calc.sort_rows")
    ids = prepare_round(db, 1, 20, 3, str(tmp_path / "round1"), k=1, limit=0, sandbox=Sandbox(), families=chosen)
    taxonomy = load_taxonomy()
    families = {taxonomy[TaskId.parse(t).skill_id].family for t in ids}
    assert len(ids) == 20 and families == set(chosen), families
    assert Catalog(db).round_row(1).counts["families"] == sorted(chosen)
    # without the restriction the same round spreads over the taxonomy
    other = prepare_round(f"sqlite:///{tmp_path / 'all.db'}", 1, 20, 3, str(tmp_path / "all"), k=1, limit=0,
                          sandbox=Sandbox())
    assert len({taxonomy[TaskId.parse(t).skill_id].family for t in other}) > 2


def test_an_unknown_family_is_refused_with_a_hint(tmp_path):
    db = tmp_path / "forge.db"
    with pytest.raises(RoundError, match=r"--family os\.cpy: no such workflow family\. Did you mean 'os\.copy'"):
        prepare_round(f"sqlite:///{db}", 1, 10, 3, str(tmp_path / "r"), families=("os.cpy",))
