"""Gate every knob combination of impress.text_format (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.text_format import WORKFLOW


@pytest.mark.parametrize("format", WORKFLOW.knobs["format"])
@pytest.mark.parametrize("target", WORKFLOW.knobs["target"])
def test_text_format_tasks_pass_the_gate(tmp_path, format, target):
    verdicts = gate_family(WORKFLOW, {"format": format, "target": target}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
