"""os.text_process: the family through the gate with every mutant, its check's spacing rules, its ops."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.text_process import WORKFLOW

OUT = "/home/user/out.txt"


@pytest.mark.slow
@pytest.mark.parametrize("op", ["filter", "column", "unique", "frequency"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, op):
    folder = make_package(WORKFLOW, {"op": op}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][0] == "text.lines"
    assert len(list((folder / "solution").glob("near-miss-*.json"))) >= 3


def _check(tmp_path, text: str, lines: list[str]) -> bool:
    (tmp_path / "out.txt").write_text(text)
    return run_check(State(tmp_path), "text.lines", {"path": OUT, "lines": lines}).passed


def test_uniq_c_spacing_is_free_but_order_and_repeats_are_not(tmp_path):
    want = ["12 200", "3 404"]
    assert _check(tmp_path, "     12 200\n      3 404\n", want)
    assert not _check(tmp_path, "3 404\n12 200\n", want)
    assert not _check(tmp_path, "12 200\n3 404\n3 404\n", want)
    assert not _check(tmp_path, "200 12\n404 3\n", want)


def test_the_ops_read_quoted_csv_fields_and_count_by_frequency(tmp_path):
    (tmp_path / "c.csv").write_text('id,name,email,city\n1,"Doe, Jane",jane@x.org,Graz\n2,"Roe, Rick",rick@x.org,Brno\n'
                                    '3,"Poe, Ann",ann@x.org,Graz\n')
    (tmp_path / "a.log").write_text("1 - - [x +0] \"GET / H\" 200 5\n1 - - [x +0] \"GET / H\" 404 5\n"
                                    "1 - - [x +0] \"GET / H\" 200 5\n")
    apply_ops(tmp_path, [{"op": "fs.csv_column", "path": "/home/user/c.csv", "out": "/home/user/e.txt",
                          "column": "email"},
                         {"op": "fs.csv_unique", "path": "/home/user/c.csv", "out": "/home/user/u.txt",
                          "column": "city"},
                         {"op": "fs.count_field", "path": "/home/user/a.log", "out": "/home/user/n.txt", "field": 9}])
    assert (tmp_path / "e.txt").read_text() == "jane@x.org\nrick@x.org\nann@x.org\n"
    assert (tmp_path / "u.txt").read_text() == "Brno\nGraz\n"
    assert (tmp_path / "n.txt").read_text() == "2 200\n1 404\n"
