"""Gate every knob combination of impress.delete_slide (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.delete_slide import WORKFLOW


@pytest.mark.parametrize("where", WORKFLOW.knobs["where"])
@pytest.mark.parametrize("count", WORKFLOW.knobs["count"])
def test_delete_slide_tasks_pass_the_gate(tmp_path, where, count):
    verdicts = gate_family(WORKFLOW, {"where": where, "count": count}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
