"""Gate every knob combination of impress.duplicate_slide (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.duplicate_slide import WORKFLOW


@pytest.mark.parametrize("place", WORKFLOW.knobs["place"])
@pytest.mark.parametrize("retitle", WORKFLOW.knobs["retitle"])
def test_duplicate_slide_tasks_pass_the_gate(tmp_path, place, retitle):
    verdicts = gate_family(WORKFLOW, {"place": place, "retitle": retitle}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
