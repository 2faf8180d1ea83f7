"""Gate every knob combination of impress.move_slide (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.move_slide import WORKFLOW


@pytest.mark.parametrize("move", WORKFLOW.knobs["move"])
def test_move_slide_tasks_pass_the_gate(tmp_path, move):
    verdicts = gate_family(WORKFLOW, {"move": move}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
