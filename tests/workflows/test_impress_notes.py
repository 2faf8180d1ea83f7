"""Gate every knob combination of impress.notes (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.notes import WORKFLOW


@pytest.mark.parametrize("mode", WORKFLOW.knobs["mode"])
@pytest.mark.parametrize("slides", WORKFLOW.knobs["slides"])
def test_notes_tasks_pass_the_gate(tmp_path, mode, slides):
    verdicts = gate_family(WORKFLOW, {"mode": mode, "slides": slides}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
