import pytest

from tests.gatekit import gate_family
from workflows.calc.sheet_ops import WORKFLOW


@pytest.mark.parametrize("op", ["add", "rename", "reorder", "delete"])
def test_sheet_ops_tasks_pass_the_gate(tmp_path, op):
    verdicts = gate_family(WORKFLOW, {"op": op}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
