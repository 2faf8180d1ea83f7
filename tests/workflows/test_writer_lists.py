"""Gate writer.lists: the parameter sets below use every value of every knob at least once."""

import pytest

from tests.gatekit import gate_family
from workflows.writer.lists import WORKFLOW

PARAMS = [
    {"kind": "bullet", "structure": "flat"},
    {"kind": "number", "structure": "nested"},
]


def test_params_cover_every_knob_value():
    for knob, allowed in WORKFLOW.knobs.items():
        assert {p[knob] for p in PARAMS} == set(allowed)


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(map(str, p.values())))
def test_lists_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
