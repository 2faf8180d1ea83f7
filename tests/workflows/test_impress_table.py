"""Gate every knob combination of impress.table (seeds 1 and 2)."""

import pytest

from tests.gatekit import gate_family
from workflows.impress.table import WORKFLOW


@pytest.mark.parametrize("fill", WORKFLOW.knobs["fill"])
@pytest.mark.parametrize("size", WORKFLOW.knobs["size"])
def test_table_tasks_pass_the_gate(tmp_path, fill, size):
    verdicts = gate_family(WORKFLOW, {"fill": fill, "size": size}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
