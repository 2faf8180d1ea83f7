"""Gate every knob combination of impress.add_slide (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.add_slide import WORKFLOW


@pytest.mark.parametrize("layout", WORKFLOW.knobs["layout"])
@pytest.mark.parametrize("position", WORKFLOW.knobs["position"])
def test_add_slide_tasks_pass_the_gate(tmp_path, layout, position):
    verdicts = gate_family(WORKFLOW, {"layout": layout, "position": position}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
