"""Gate every knob combination of impress.bullets (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.bullets import WORKFLOW


@pytest.mark.parametrize("mode", WORKFLOW.knobs["mode"])
@pytest.mark.parametrize("count", WORKFLOW.knobs["count"])
def test_bullets_tasks_pass_the_gate(tmp_path, mode, count):
    verdicts = gate_family(WORKFLOW, {"mode": mode, "count": count}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
