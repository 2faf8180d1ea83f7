"""Gate every knob combination of impress.image (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.image import WORKFLOW


@pytest.mark.parametrize("corner", WORKFLOW.knobs["corner"])
@pytest.mark.parametrize("width", WORKFLOW.knobs["width"])
def test_image_tasks_pass_the_gate(tmp_path, corner, width):
    verdicts = gate_family(WORKFLOW, {"corner": corner, "width": width}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
