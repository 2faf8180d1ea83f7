"""Gate writer.page_setup: the parameter sets below use every value of every knob at least once."""

import pytest

from tests.gatekit import gate_family
from workflows.writer.page_setup import WORKFLOW

PARAMS = [
    {"paper": "A4", "orientation": "landscape"},
    {"paper": "Letter", "orientation": "portrait"},
    {"paper": "Legal", "orientation": "landscape"},
    {"paper": "A5", "orientation": "portrait"},
]


def test_params_cover_every_knob_value():
    for knob, allowed in WORKFLOW.knobs.items():
        assert {p[knob] for p in PARAMS} == set(allowed)


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(map(str, p.values())))
def test_page_setup_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
