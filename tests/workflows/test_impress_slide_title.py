"""Gate every knob combination of impress.slide_title (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.slide_title import WORKFLOW


@pytest.mark.parametrize("target", WORKFLOW.knobs["target"])
def test_slide_title_tasks_pass_the_gate(tmp_path, target):
    verdicts = gate_family(WORKFLOW, {"target": target}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
